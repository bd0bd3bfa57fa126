// The bad-input matrix's rows for issue 19's math functions, scans, sorting, linear algebra,
// jax.nn and the statistics reductions.
#pragma once

#include <vector>
#include "row.hpp"

namespace bad_input {

inline std::vector<Row> math_sort_rows() {
  using fj::Array;
  using fj::Tracer;
  namespace lax = fj::lax;
  const Array f3 = fj::ones({3}), i3 = fj::array({1, 2, 3}), m23 = fj::ones({2, 3});
  return {
      {"`fj::cumsum` over an axis the array does not have", [=] { Array r = fj::cumsum(m23, 2); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::cumsum: axis 2 is out of range for an array of shape (2, 3)"},
      {"`fj::sort` over an axis the array does not have", [=] { Array r = fj::sort(m23, -3); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::sort: axis -3 is out of range for an array of shape (2, 3)"},
      {"`fj::lax::top_k` with k larger than the last axis", [=] { (void)lax::top_k(m23, 4); },
       raises<fj::ValueError>("fj::ValueError"), "k=4"},
      {"`fj::lax::cumsum` of a bool array (JAX refuses it too)",
       [=] { Array r = lax::cumsum(fj::ones({3}, fj::bool_), 0); },
       raises<fj::DTypeError>("fj::DTypeError"), "cumsum: does not accept dtype bool"},
      {"`fj::lax::atan2` of integer arrays (`fj::arctan2` promotes them to float)",
       [=] { Array r = lax::atan2(i3, i3); }, raises<fj::DTypeError>("fj::DTypeError"), "atan2"},
      {"`fj::lax::clamp` with a bound neither a scalar nor x's shape",
       [=] { Array r = lax::clamp(f3, m23, 1.0); }, raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::clamp: min f32[3] must be a scalar or have x's shape, x f32[2,3]"},
      {"`fj::quantile` with a q of rank 2", [=] { Array r = fj::quantile(f3, m23); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::quantile: q must have rank <= 1, got f32[2,3]"},
      {"`fj::lax::population_count` of floats", [=] { Array r = lax::population_count(f3); },
       raises<fj::DTypeError>("fj::DTypeError"), "population_count"},
      {"`fj::linalg::cholesky` of a matrix that is not square",
       [=] { Array r = fj::linalg::cholesky(m23); }, raises<fj::ShapeError>("fj::ShapeError"),
       "fj::linalg::cholesky: argument a must be a (batch of) square matrices"},
      {"`fj::lax::linalg::triangular_solve` with b's rows not matching a's size",
       [=] { Array r = lax::linalg::triangular_solve(fj::eye(3), m23, true, true); },
       raises<fj::ShapeError>("fj::ShapeError"), "triangular_solve: incompatible shapes"},
      {"`fj::lax::linalg::lu` of an integer matrix (JAX refuses it too)",
       [=] {
         (void)lax::linalg::lu(fj::ones({2, 3}, fj::DType::i32));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::lax::linalg::lu: argument a must be float32 or float64, got i32[2,3]"},
      {"`fj::linalg::det` of a matrix that is not square", [=] { Array r = fj::linalg::det(m23); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::linalg::det: argument a must be a (batch of) square matrices, got an array of shape "
       "(2, 3)"},
      {"`fj::linalg::solve` with b's rows not matching a's size",
       [=] { Array r = fj::linalg::solve(fj::eye(3), m23); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::linalg::solve: argument b must be (n,) or (..., n, k) for a of shape (3, 3), got an "
       "array of shape (2, 3)"},
      {"`fj::scipy::linalg::cho_solve` with batch axes that do not broadcast",
       [=] {
         Array r = fj::scipy::linalg::cho_solve({fj::ones({2, 3, 3}), true}, fj::ones({4, 3, 2}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::scipy::linalg::cho_solve: the batch axes of a (shape (2, 3, 3)) and of b (shape (4, "
       "3, 2)) do not broadcast"},
      {"`fj::linalg::eigh` of a matrix that is not square", [=] { (void)fj::linalg::eigh(m23); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::linalg::eigh: argument a must be a (batch of) square matrices (rank >= 2), got an "
       "array of shape (2, 3)"},
      {"`fj::lax::linalg::eigh` of an integer matrix (`fj::linalg::eigh` converts it)",
       [=] { (void)lax::linalg::eigh(fj::eye(3, -1, 0, fj::DType::i32)); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::lax::linalg::eigh: eigh: argument a must be float32 or float64, got i32[3,3]"},
      {"`fj::linalg::qr` of a vector", [=] { (void)fj::linalg::qr(f3); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::linalg::qr: argument a must be a (batch of) matrices (rank >= 2), got an array of "
       "shape (3,)"},
      {"`fj::linalg::qr` with an unknown mode", [=] { (void)fj::linalg::qr(m23, "full"); },
       raises<fj::ValueError>("fj::ValueError"), "fj::linalg::qr: unsupported mode 'full'"},
      {"`fj::take` with a float index array", [=] { Array r = fj::take(f3, f3); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::take: indices must be an integer array, got float32[3]"},
      {"`fj::take` with an axis out of range", [=] { Array r = fj::take(f3, i3, 1); },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::take: axis 1 is out of range"},
      {"`x.at(idx).mul(v)` on a bool array (JAX refuses it too)",
       [=] { Array r = fj::ones({3}, fj::bool_).at(i3).mul(true); },
       raises<fj::DTypeError>("fj::DTypeError"), "scatter-mul: does not accept dtype bool"},
      {"`x.at(idx).set(v)` with v of another shape than the indexed elements",
       [=] {
         Array r = m23.at(fj::array({0, 1})).set(fj::ones({2, 2}));
       },
       raises<fj::ShapeError>("fj::ShapeError"), "(2, 2)"},
      {"`x.at(...)` with a float index array beside a range",
       [=] { Array r = m23.at(fj::range(0, 2), f3).set(1.0); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::Array::at(...).set: indices must be an integer array, got float32[3]"},
      {"`x.at(...)` with an `fj::Range` of step 0 built without `fj::range`",
       [=] {
         Array r = m23.at(fj::Range{0, 2, 0}).add(1.0);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::Array::at(...).add: slice step cannot be zero for axis 0 of an array of shape (2, 3)"},
      {"`x.at(...)` with an integer out of range beside a range",
       [=] { Array r = m23.at(2, fj::range(0, 2)).mul(2.0); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::Array::at(...).mul: index 2 is out of range for axis 0 of an array of shape (2, 3)"},
      {"`x.at(...)` with more indices than axes",
       [=] { Array r = m23.at(0, fj::range(), i3).get(); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::Array::at(...).get: too many indices for an array of shape (2, 3): 3 were given"},
      {"`x.at(...)` with index arrays whose shapes do not broadcast",
       [=] {
         Array r = m23.at(fj::array({0, 1}), i3).max(0.0);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::Array::at(...).max: index arrays of shapes (2,) and (3,) do not broadcast together"},
      {"`x(...)` or `x.at(...)` with two `fj::ellipsis`",
       [=] { Array r = m23(fj::ellipsis, 0, fj::ellipsis); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::Array::operator(): an index can only have a single ellipsis, 2 were given for an "
       "array of shape (2, 3)"},
      {"`x(...)` with more `fj::newaxis` than the rank allows (8)",
       [=] {
         const auto n = fj::newaxis;
         Array r = m23(n, n, n, n, n, n, n);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::Array::operator(): 7 new axes for an array of shape (2, 3) exceed rank 8"},
      {"`x(mask)` with a boolean index array (JAX refuses it under jit)",
       [=] {
         Array r = m23(fj::array({1, 0}) > 0, fj::range());
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::Array::operator(): boolean index arrays (masks) are not supported"},
      {"the derivative of `fj::lax::polygamma(m, x)` in its order m (JAX has none)",
       [=] {
         Array r = fj::grad([](Tracer m) { return fj::sum(fj::lax::polygamma(m, 1.5f)); })(f3);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::grad: polygamma(m, x) has no derivative with respect to its order m"},
      {"`fj::linalg::qr` in mode \"raw\" (LAPACK's geqrf, which fusejit does not have)",
       [=] { (void)fj::linalg::qr(m23, "raw"); },
       raises<fj::NotImplementedError>("fj::NotImplementedError"),
       "fj::linalg::qr: mode \"raw\" (LAPACK's geqrf) is not supported"},
      {"`fj::nn::softmax` over an axis the array does not have",
       [=] { Array r = fj::nn::softmax(m23, 2); }, raises<fj::ShapeError>("fj::ShapeError"),
       "fj::nn::softmax: axis 2 is out of range for an array of shape (2, 3)"},
      {"`fj::var` over an axis the array does not have", [=] { Array r = fj::var(m23, -3); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::var: axis -3 is out of range for an array of shape (2, 3)"},
      {"`fj::linalg::svd` of a vector", [=] { (void)fj::linalg::svd(f3); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::linalg::svd: argument a must be a (batch of) matrices (rank >= 2), got an array of "
       "shape (3,)"},
      {"`fj::nn::one_hot` with an axis beyond the result's rank",
       [=] { Array r = fj::nn::one_hot(i3, 3, fj::f32, 2); },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::nn::one_hot: axis 2 is out of range"},
  };
}

}  // namespace bad_input
