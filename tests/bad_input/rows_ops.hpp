// The bad-input matrix's rows for array operations, Eigen interop, tracing and static arguments.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>
#include <doctest/doctest.h>
#include <fusejit/eigen.hpp>
#include "row.hpp"

namespace bad_input {

// A tracer leaked out of a finished trace, for the escaped-tracer rows.
inline fj::Array leaked_tracer() {
  fj::Array leaked;
  fj::jit([&](fj::Tracer x) {
    leaked = x;
    return x * 2;
  })(fj::ones({3}));
  return leaked;
}

inline std::vector<Row> op_rows() {
  using fj::Array;
  using fj::Tracer;
  namespace lax = fj::lax;
  const Array f3 = fj::ones({3}), f4 = fj::ones({4}), i3 = fj::array({1, 2, 3});
  const Array m23 = fj::ones({2, 3}), m45 = fj::ones({4, 5});
  const Array key = fj::random::key(0);
  return {
      // Elementwise ops and broadcasting.
      {"`x + y` of shapes that do not broadcast", [=] { Array r = f3 + f4; },
       raises<fj::ShapeError>("fj::ShapeError"),
       "add: incompatible shapes for broadcasting: (3,) and (4,)"},
      {"`fj::where` with a condition that does not broadcast",
       [=] { Array r = fj::where(fj::ones({2}, fj::bool_), f3, f3); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::where: incompatible shapes for broadcasting: (2,) and (3,)"},
      {"a bitwise op on floats", [=] { Array r = fj::bitwise_and(f3, i3); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::bitwise_and: needs integer or bool operands, got f32[3] and i32[3]"},
      {"`~x` on floats", [=] { Array r = ~f3; }, raises<fj::DTypeError>("fj::DTypeError"),
       "fj::bitwise_not: needs an integer or bool operand, got f32[3]"},
      {"a shift of floats", [=] { Array r = fj::left_shift(f3, i3); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::left_shift: needs integer or bool operands, got f32[3] and i32[3]"},
      {"`-x` on bools", [=] { Array r = -fj::ones({3}, fj::bool_); },
       raises<fj::DTypeError>("fj::DTypeError"), "neg: does not take bool operands, got bool[3]"},
      {"`integer_pow` of an integer with a negative exponent",
       [=] { Array r = fj::integer_pow(i3, -2); }, raises<fj::DTypeError>("fj::DTypeError"),
       "fj::integer_pow: integers cannot be raised to negative powers, got integer_pow(i32[3], "
       "-2)"},
      {"shapes that do not broadcast, inside `jit`",
       [=] { fj::jit([](Tracer a, Tracer b) { return a * b; })(f3, f4); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "mul: incompatible shapes for broadcasting: (3,) and (4,)"},

      // Products.
      {"`matmul` whose inner dimensions differ", [=] { Array r = fj::matmul(m23, m45); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::matmul: inner dimensions of f32[2,3] and f32[4,5] differ: 3 != 4"},
      {"`matmul` whose batch dimensions do not broadcast",
       [=] {
         Array r = fj::matmul(fj::ones({5, 2, 3}), fj::ones({4, 3, 2}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::matmul: batch dimensions of f32[5,2,3] and f32[4,3,2] do not broadcast"},
      {"`matmul` of a rank-0 array", [=] { Array r = fj::matmul(fj::array(1.0f), f3); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::matmul: operands must have at least one axis, got f32[] and f32[3]"},
      {"`dot` whose contracted dimensions differ", [=] { Array r = fj::dot(f3, f4); },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::dot: shapes f32[3] and f32[4] do not align"},
      {"`dot` of bools",
       [=] { Array r = fj::dot(fj::ones({2}, fj::bool_), fj::ones({2}, fj::bool_)); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::dot: dot_general: does not take bool operands, got bool[2] and bool[2]"},
      {"`dot_general` contracting a dimension out of range",
       [=] { Array r = fj::dot_general(m23, m45, {2}, {0}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "dimension 2 is out of range or repeated for f32[2,3]"},
      {"`dot_general` contracting dimensions of different sizes",
       [=] { Array r = fj::dot_general(m23, m45, {1}, {0}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::dot_general: shapes f32[2,3] and f32[4,5] do not align"},
      {"`dot_general` with batch dimensions of different sizes",
       [=] {
         Array r = fj::dot_general(fj::ones({2, 3, 4}), fj::ones({5, 4, 6}), {2}, {1}, {0}, {0});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "batch dimensions differ in size: f32[2,3,4] and f32[5,4,6]"},

      // Shape ops.
      {"`reshape` to another number of elements",
       [=] {
         Array r = m23.reshape({4, 2});
       },
       raises<fj::ShapeError>("fj::ShapeError"), "cannot reshape f32[2,3] to (4, 2)"},
      {"`reshape` with two -1 sizes",
       [=] {
         Array r = m23.reshape({-1, -1});
       },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::reshape: more than one -1 in (-1, -1)"},
      {"`reshape` of an empty array with -1 and a 0 size",
       [=] {
         Array r = fj::zeros({0, 3}).reshape({-1, 0});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::reshape: cannot reshape an array of shape (0, 3) into (-1, 0)"},
      {"`transpose` with a permutation that repeats an axis",
       [=] {
         Array r = fj::transpose(m23, {0, 0});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "transpose: (0, 0) is not a permutation of the axes of f32[2,3]"},
      {"`transpose` with a permutation of the wrong length",
       [=] {
         Array r = fj::transpose(m23, {1, 0, 2});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "transpose: permutation (1, 0, 2) has 3 axes but f32[2,3] has 2"},
      {"`broadcast_to` a shape the array does not broadcast to",
       [=] {
         Array r = fj::broadcast_to(f3, fj::Shape{2, 4});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::broadcast_to: cannot broadcast an array of shape (3,) to shape (2, 4)"},
      {"`broadcast_to` a lower rank", [=] { Array r = fj::broadcast_to(m23, fj::Shape{3}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::broadcast_to: cannot broadcast an array of shape (2, 3) to shape (3,)"},
      {"`concatenate` of different ranks",
       [=] {
         Array r = fj::concatenate({f3, m23});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::concatenate: arrays must have one rank, got f32[3], f32[2,3]"},
      {"`concatenate` of shapes that differ off the axis",
       [=] {
         Array r = fj::concatenate({m23, fj::ones({2, 4})});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "operand shapes differ outside dimension 0: f32[2,3], f32[2,4]"},
      {"`concatenate` along an axis out of range",
       [=] {
         Array r = fj::concatenate({f3, f3}, 1);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::concatenate: axis 1 is out of range for f32[3], f32[3]"},
      {"`concatenate` of no arrays", [=] { Array r = fj::concatenate({}); },
       raises<fj::ValueError>("fj::ValueError"), "fj::concatenate: needs at least one array"},
      {"`pad` with a negative width",
       [=] {
         Array r = fj::pad(m23, {{1, -1}, {0, 0}});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::pad: pad_width ((1, -1), (0, 0)) must be nonnegative, for f32[2,3]"},
      {"`pad` with widths for another rank",
       [=] {
         Array r = fj::pad(f3, {{1, 1}, {2, 2}});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::pad: pad_width ((1, 1), (2, 2)) needs one (before, after) pair per axis of f32[3]"},
      {"`lax::pad` with negative interior padding",
       [=] {
         Array r = fj::lax::pad(f3, 0.0f, {{0, 0, -1}});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::pad: pad: interior padding must be nonnegative, got padding_config ((0, 0, -1),) "
       "for f32[3]"},
      {"`lax::pad` cropping more than the axis holds",
       [=] {
         Array r = fj::lax::pad(f3, 0.0f, {{-2, -2, 0}});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::pad: pad: padding_config ((-2, -2, 0),) leaves axis 0 of f32[3] with size -1"},
      {"`roll` along an axis out of range", [=] { Array r = fj::roll(m23, 1, -3); },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::roll: axis -3 is out of range for f32[2,3]"},
      {"`roll` by a float shift", [=] { Array r = fj::roll(m23, fj::ones({}), 0); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::roll: shift must have an integer dtype, got f32[] for f32[2,3]"},
      {"`lax::split` with sizes that do not sum to the axis",
       [=] {
         auto r = fj::lax::split(m23, {1, 1}, 1);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::split: sizes (1, 1) sum to 2, but f32[2,3] has 3 along axis 1"},
      {"`lax::split` along an axis out of range",
       [=] {
         auto r = fj::lax::split(m23, {1, 2}, 2);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::split: axis 2 is out of range for f32[2,3]"},
      {"`tile` with negative reps", [=] { Array r = fj::tile(m23, std::vector<std::int64_t>{-1}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::tile: reps (-1,) must be nonnegative, for f32[2,3]"},
      {"`repeat` a negative number of times", [=] { Array r = fj::repeat(m23, -2, 1); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::repeat: repeats must be nonnegative, got -2 for f32[2,3]"},
      {"`repeat` along an axis out of range", [=] { Array r = fj::repeat(m23, 2, 2); },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::repeat: axis 2 is out of range for f32[2,3]"},
      {"`repeat` with a count array of the wrong length",
       [=] {
         Array r = fj::repeat(m23, std::vector<std::int64_t>{1, 2}, 1);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::repeat: repeats (1, 2) has 2 counts for the 3 elements along axis 1 of f32[2,3]"},
      {"`repeat` with traced counts and no `total_repeat_length`",
       [=] {
         fj::jit([=](fj::Tracer c) { return fj::repeat(m23, c, 1); })(
             fj::array(std::vector<std::int32_t>{1, 2, 0}, {3}));
       },
       raises<fj::ConcretizationError>("fj::ConcretizationError"),
       "fj::repeat: repeats i32[3] is traced, so the result's length is not static: pass "
       "total_repeat_length"},
      {"`nonzero` of a scalar", [=] { fj::nonzero(fj::ones({})); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::nonzero: x must have at least one axis, got f32[]"},
      {"`argwhere` under jit without a `size`",
       [=] { fj::jit([](fj::Tracer x) { return fj::argwhere(x); })(m23); },
       raises<fj::ConcretizationError>("fj::ConcretizationError"),
       "fj::argwhere: x f32[2,3] is traced, so the number of its nonzero elements is not static: "
       "pass size"},
      {"`diff` of a scalar", [=] { Array r = fj::diff(fj::ones({})); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::diff: x must have at least one axis, got f32[]"},
      {"`bincount` of a float array", [=] { Array r = fj::bincount(f3, 4); },
       raises<fj::TypeError>("fj::TypeError"),
       "fj::bincount: x must be an integer array, got f32[3]"},
      {"`stack` along an axis out of range",
       [=] {
         Array r = fj::stack({m23, m23}, 3);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::stack: axis 3 is out of range for f32[2,3], f32[2,3]"},
      {"`stack` of different shapes",
       [=] {
         Array r = fj::stack({fj::ones({2}), f3});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::stack: stack: operand shapes differ: f32[2], f32[3]"},
      {"`squeeze` of an axis whose size is not 1", [=] { Array r = m23.squeeze({0}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::squeeze: cannot squeeze axis 0 of an array of shape (2, 3): its size is 2, not 1"},
      {"`squeeze` of an axis out of range", [=] { Array r = m23.squeeze({2}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::squeeze: axis 2 is out of range for an array of shape (2, 3)"},
      {"`expand_dims` at an axis out of range", [=] { Array r = fj::expand_dims(m23, {4}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::expand_dims: axis 4 is out of range for the result of rank 3"},
      {"`expand_dims` listing an axis twice",
       [=] {
         Array r = fj::expand_dims(m23, {0, 0});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::expand_dims: axis 0 is repeated in (0, 0) for an array of shape (2, 3)"},
      {"`flip` of an axis out of range", [=] { Array r = m23.flip({2}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::flip: axis 2 is out of range for an array of shape (2, 3)"},
      {"`iota` of bools", [=] { Array r = fj::iota(fj::bool_, 3); },
       raises<fj::DTypeError>("fj::DTypeError"), "fj::iota: the dtype must be numeric, got bool"},
      {"`iota` along a dimension out of range",
       [=] {
         Array r = fj::iota(fj::f32, fj::Shape{2, 3}, 2);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::iota: dimension 2 is out of range for shape (2, 3)"},
      {"a shape of rank above 8", [=] { fj::Shape s{1, 1, 1, 1, 1, 1, 1, 1, 1}; },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::Shape: rank 9 is above the maximum of 8"},
      {"a negative dimension in `zeros`",
       [=] {
         Array r = fj::zeros({2, -1});
       },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::Shape: negative extent -1"},
      {"a shape whose element count overflows int64",
       [=] {
         Array r = fj::zeros({std::int64_t{1} << 40, std::int64_t{1} << 40});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::Shape: (1099511627776, 1099511627776) has more elements than an int64 can count"},

      // Indexing and slicing.
      {"static `slice` bounds beyond the array",
       [=] {
         Array r = fj::slice(m23, {0, 0}, {3, 3});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::slice: bounds (0, 0) to (3, 3) are out of range for shape (2, 3)"},
      {"static `slice` with bounds for another rank", [=] { Array r = fj::slice(m23, {0}, {1}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::slice: needs one bound per axis of shape (2, 3), got (0,) to (1,)"},
      {"static `slice` with a step of 0",
       [=] {
         Array r = fj::slice(m23, {0, 0}, {2, 3}, {0, 1});
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::slice: steps must be positive, got (0, 1) for shape (2, 3)"},
      {"an integer index out of range (`x(5)` on 3 elements)", [=] { Array r = f3(5); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::Array::operator(): index 5 is out of range for axis 0 of an array of shape (3,)"},
      {"more indices than axes", [=] { Array r = f3(0, 0); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::Array::operator(): too many indices for an array of shape (3,): 2 were given"},
      {"`fj::range` with a step of INT64_MIN (Python takes one element)",
       [=] {
         const Array r =
             f3(fj::range(fj::none, fj::none, std::numeric_limits<std::int64_t>::min()));
         CHECK(r.shape() == fj::Shape{1});
       },
       no_error, "one element, `x[::-2**63]`"},
      {"`fj::range` with step 0", [=] { (void)fj::range(0, 3, 0); },
       raises<fj::ValueError>("fj::ValueError"), "fj::range: slice step cannot be zero"},
      {"`dynamic_slice` sizes larger than the operand",
       [=] { Array r = lax::dynamic_slice(f4, {0}, {5}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::dynamic_slice: slice_sizes (5,) do not fit in an operand of shape (4,)"},
      {"`dynamic_slice` with a float start index",
       [=] { Array r = lax::dynamic_slice(f4, {fj::array(1.5f)}, {2}); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::lax::dynamic_slice: start index 0 must be an integer scalar, got f32[]"},
      {"`dynamic_slice` with fewer start indices than axes",
       [=] {
         Array r = lax::dynamic_slice(m23, {0}, {1, 1});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::dynamic_slice: needs one start index per axis of shape (2, 3), got 1"},
      {"`dynamic_update_slice` with an update larger than the operand",
       [=] { Array r = lax::dynamic_update_slice(f3, f4, {0}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::dynamic_update_slice: update of shape (4,) does not fit in operand of shape (3,)"},
      {"`dynamic_update_slice` with an update of another rank",
       [=] {
         Array r = lax::dynamic_update_slice(m23, f3, {0, 0});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "update of shape (3,) and operand of shape (2, 3) differ in rank"},
      {"`dynamic_update_slice` with an update of another dtype",
       [=] { Array r = lax::dynamic_update_slice(f3, fj::array({1}), {0}); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::lax::dynamic_update_slice: update i32[1] and operand f32[3] differ in dtype"},

      // Reductions.
      {"a reduction over an axis out of range", [=] { Array r = fj::sum(m23, {2}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::sum: axis 2 is out of range for an array of shape (2, 3)"},
      {"a reduction listing an axis twice",
       [=] {
         Array r = fj::sum(m23, {1, -1});
       },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::sum: axis -1 is repeated"},
      {"`argmax` over an empty axis",
       [=] {
         Array r = fj::argmax(fj::zeros({3, 0}), 1);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::argmax: attempt to get argmax of an empty sequence (axis 1 of f32[3,0])"},
      {"`argmax` over an axis out of range", [=] { Array r = fj::argmax(m23, 2); },
       raises<fj::ShapeError>("fj::ShapeError"), "fj::argmax: axis 2 is out of range for f32[2,3]"},

      // Conversions and accessors.
      {"`bitcast_convert_type` to another width",
       [=] { Array r = lax::bitcast_convert_type(f3, fj::f64); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "bitcast_convert_type: cannot bitcast f32[3] to f64: needs two non-bool dtypes of one "
       "width"},
      {"`data<double>()` on an f32 array", [=] { (void)f3.data<double>(); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::Array::data<f64>: the array's dtype is float32, shape (3,)"},
      {"`item()` on an array of more than one element", [=] { (void)f3.item<float>(); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::Array::item: needs an array of size 1, got shape (3,)"},
      {"`to_vector()` of an empty `fj::Array`", [=] { (void)Array().to_vector<float>(); },
       raises<fj::TypeError>("fj::TypeError"), "the array is empty"},
      {"an empty `fj::Array` in an expression", [=] { Array r = Array() + 1.0f; },
       raises<fj::TypeError>("fj::TypeError"),
       "an empty fj::Array (default-constructed, holding no data) was used"},
      {"a jitted function returning an empty `fj::Array`",
       [=] { fj::jit([](Tracer) { return Array(); })(f3); }, raises<fj::TypeError>("fj::TypeError"),
       "fj::jit: the function '<lambda>' returned an empty fj::Array"},
      {"`fj::array` from ragged nested lists",
       [=] {
         (void)fj::array({{1, 2}, {3}});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::array: nested lists are ragged: a row of length 1 after rows of length 2"},
      {"`fj::array` from too few values for the shape",
       [=] {
         (void)fj::array(std::vector<float>{1, 2, 3}, {2, 2});
       },
       raises<fj::ShapeError>("fj::ShapeError"), "3 values do not fill shape (2, 2)"},
      {"`arange` with step 0", [=] { (void)fj::arange(0, 3, 0); },
       raises<fj::ValueError>("fj::ValueError"), "fj::arange: step must not be zero"},
      {"`eye` of a negative size", [=] { (void)fj::eye(-1); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::eye: negative dimensions are not allowed, got N=-1, M=-1"},
      {"`linspace` of a negative number of points", [=] { (void)fj::linspace(0, 1, -1); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::linspace: the number of samples, -1, must be non-negative"},

      // Eigen interop.
      {"`fj::view` of an `Eigen::Map` with a null pointer and a non-zero size",
       [=] {
         Eigen::Map<const Eigen::VectorXf> m(nullptr, 3);
         (void)fj::view(m);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::view: the Eigen object's data pointer is null but its shape is f32[3]"},
      {"`fj::view` of a column-major `Eigen::Map` with a null pointer",
       [=] {
         Eigen::Map<const Eigen::MatrixXd> m(nullptr, 2, 3);
         (void)fj::view(m);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::view: the Eigen object's data pointer is null but its shape is f64[2,3]"},
      {"`fj::to_eigen` of a rank-3 array",
       [=] {
         (void)fj::to_eigen<float>(fj::ones({2, 2, 2}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::to_eigen: needs an array of rank 0, 1 or 2, got shape (2, 2, 2)"},
      {"`fj::to_eigen<double>` of an f32 array", [=] { (void)fj::to_eigen<double>(m23); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::Array::data<f64>: the array's dtype is float32, shape (2, 3)"},

      // Tracing.
      {"`data()` of a tracer inside `jit`",
       [=] {
         fj::jit([](Tracer x) {
           (void)x.data<float>();
           return x;
         })(f3);
       },
       raises<fj::ConcretizationError>("fj::ConcretizationError"),
       "fj::Array::data: the array is a tracer JitTracer(float32[3]) inside the trace of"},
      {"`item()` of a tracer inside `jit`",
       [=] { fj::jit([](Tracer x) { return x * x.item<float>(); })(fj::array(1.0f)); },
       raises<fj::ConcretizationError>("fj::ConcretizationError"),
       "fj::Array::item: the array is a tracer"},
      {"`fj::to_eigen` of a tracer inside `jit`",
       [=] {
         fj::jit([](Tracer x) {
           (void)fj::to_eigen<float>(x);
           return x;
         })(m23);
       },
       raises<fj::ConcretizationError>("fj::ConcretizationError"),
       "fj::Array::data: the array is a tracer JitTracer(float32[2,3])"},
      {"`make_jaxpr` of a function whose shapes do not broadcast",
       [=] { (void)fj::make_jaxpr([](Tracer a, Tracer b) { return a + b; })(f3, f4); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "add: incompatible shapes for broadcasting: (3,) and (4,)"},
      {"a tracer used after its trace ended", [=] { Array r = leaked_tracer() + 1; },
       raises<fj::UnexpectedTracerError>("fj::UnexpectedTracerError"),
       "a tracer JitTracer(float32[3]) created while tracing '<lambda>' was used after that trace "
       "ended"},
      {"an escaped tracer passed to a jitted function",
       [=] { fj::jit([](Tracer x) { return x + 1; })(leaked_tracer()); },
       raises<fj::UnexpectedTracerError>("fj::UnexpectedTracerError"),
       "a tracer JitTracer(float32[3]) created while tracing '<lambda>' was used after that trace "
       "ended"},
      {"a compiled function (`jit(f).lower(x).compile()`) called with another shape",
       [=] {
         auto c = fj::jit([](Tracer x) { return x * 2; }).lower(f3).compile();
         (void)c(f4);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::CompiledFunction: argument 0 is f32[4] but the function was compiled for f32[3]"},
      {"a compiled function called with another dtype",
       [=] {
         auto c = fj::jit([](Tracer x) { return x * 2; }).lower(f3).compile();
         (void)c(fj::ones({3}, fj::f64));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::CompiledFunction: argument 0 is f64[3] but the function was compiled for f32[3]"},
      {"a compiled function called with the wrong number of arguments",
       [=] {
         auto c = fj::jit([](Tracer x) { return x * 2; }).lower(f3).compile();
         (void)c(f3, f3);
       },
       raises<fj::ValueError>("fj::ValueError"), "fj::CompiledFunction: expected 1"},
      {"an unknown backend name", [=] { fj::set_default_backend("tpu"); },
       raises<fj::ValueError>("fj::ValueError"), "fj::set_default_backend: unknown backend 'tpu'"},

      {"an array larger than memory", [=] { Array r = fj::zeros({std::int64_t{1} << 50}); },
       raises<fj::DeviceError>("fj::DeviceError"), "fj::runtime::allocate: out of host memory"},
      // "Static args that change type": a static argument's C++ type is part of the cache key,
      // so a new type retraces, as JAX retraces a static value that compares unequal. The
      // static misuses JAX raises at run time (an index past the arguments, an unhashable value)
      // are compile errors here: tests/compile_fail/, listed in README.md.
      {"a static argument whose C++ type changes between calls (`int`, then `long`)",
       [=] {
         auto f = fj::jit([](Tracer x, auto n) { return x * static_cast<float>(n); },
                          fj::static_argnums<1>);
         CHECK(f(f3, 2).to_vector<float>() == std::vector<float>{2, 2, 2});
         CHECK(f(f3, 2L).to_vector<float>() == std::vector<float>{2, 2, 2});
         CHECK(f.trace_count() == 2);
       },
       no_error, "a retrace (the static value's type is in the cache key)"},
  };
}

}  // namespace bad_input
