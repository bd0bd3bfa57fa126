// What the batching rules of every family share (defined in batch.cpp, beside the pass that
// applies them).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// first, then rest.
Dims with_front(std::int64_t first, const Dims& rest);
/// s with a leading axis of n.
Shape batched_shape(std::int64_t n, const Shape& s);
/// An unbatched operand broadcast along a new leading axis of size n.
Atom add_batch_axis(Emit& E, Atom x, std::int64_t n);
/// p with every entry of its Dims param `name` marked a NumPy int (the hidden `<name>@np`
/// flags): JAX's batching rules that shift axes with NumPy arithmetic print them as
/// np.int64(...).
ir::Params numpy_ints(ir::Params p, const std::string& name);

}  // namespace fj::transforms
