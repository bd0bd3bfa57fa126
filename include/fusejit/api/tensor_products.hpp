// jnp's tensor products beyond dot and matmul: tensordot, inner, vdot, vecdot, matvec, vecmat,
// kron and cross, as JAX composes them from dot_general, matmul and elementwise products.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "fusejit/expr/array.hpp"

namespace fj {

/// jnp.tensordot(a, b, axes): a's last `axes` axes contracted with b's first `axes` (a single
/// dot_general); the result's axes are a's free axes, then b's.
Array tensordot(const Array& a, const Array& b, int axes = 2);
/// jnp.tensordot(a, b, (a_axes, b_axes)): the listed axes contracted pairwise (equal lengths,
/// equal extents, else fj::ShapeError).
Array tensordot(const Array& a, const Array& b,
                const std::pair<std::vector<int>, std::vector<int>>& axes);
/// jnp.inner: the product of scalars, else the sum over the last axes of both.
Array inner(const Array& a, const Array& b);
/// jnp.vdot: the dot product of the flattened arrays (equal sizes).
Array vdot(const Array& a, const Array& b);
/// jnp.vecdot(x1, x2, axis): the dot products of the vectors along `axis`, other axes
/// broadcast.
Array vecdot(const Array& x1, const Array& x2, int axis = -1);
/// jnp.matvec(x1, x2): matrix (..., m, n) times vector (..., n), batch axes broadcast.
Array matvec(const Array& x1, const Array& x2);
/// jnp.vecmat(x1, x2): vector (..., m) times matrix (..., m, n), batch axes broadcast.
Array vecmat(const Array& x1, const Array& x2);
/// jnp.kron: the Kronecker product; the lower-rank operand gets leading axes of 1 first.
Array kron(const Array& a, const Array& b);
/// jnp.cross(a, b, axis): the cross product of 3-vectors (or the z component of 2-vectors)
/// along `axis` of each, broadcast together. Other lengths raise fj::ValueError.
Array cross(const Array& a, const Array& b, int axis = -1);

}  // namespace fj
