// The bad-input matrix (issue 9): every user-reachable misuse, the fj::Error it raises and a piece
// of its message, one table; README.md's "Errors" section is checked against it.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>
#include <fusejit/fusejit.hpp>

using fj::Array;
using fj::Tracer;
namespace lax = fj::lax;
namespace rnd = fj::random;

namespace {

/// What a row expects: an exception of exactly this type, or (`type == nullptr`) none at all.
struct Expect {
  const std::type_info* type;
  const char* name;
};
template <class E>
Expect raises(const char* name) {
  return {&typeid(E), name};
}
const Expect no_error{nullptr, "none"};

/// One misuse: what it is, code doing it, the exception and a substring of its message. For a
/// row that must not raise, `contains` states the result (the callable checks it).
struct Row {
  const char* misuse;
  std::function<void()> run;
  Expect expect;
  const char* contains;
};

// A tracer leaked out of a finished trace, for the escaped-tracer rows.
Array leaked_tracer() {
  Array leaked;
  fj::jit([&](Tracer x) {
    leaked = x;
    return x * 2;
  })(fj::ones({3}));
  return leaked;
}

template <class T>
std::vector<T> values(const Array& a) {
  return a.to_vector<T>();
}

// Integer division by zero follows XLA on CPU, not C++: no trap. Checked eagerly and under jit on
// every registered backend (the LLVM one and the reference interpreter).
void check_int_division_by_zero() {
  const std::string prev(fj::backend::default_backend().name());
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  const Array x = fj::array({7, -7, 0, kMin}), zero = fj::array({0, 0, 0, -1});
  const Array u = fj::array(std::vector<std::uint32_t>{7, 0}, {2}), uzero = fj::zeros({2}, fj::u32);
  auto fd = [](Tracer a, Tracer b) { return fj::floor_divide(a, b); };
  auto rem = [](Tracer a, Tracer b) { return a % b; };
  for (const std::string& backend : fj::backend::backend_names()) {
    fj::set_default_backend(backend);
    for (int jitted = 0; jitted < 2; ++jitted) {
      CAPTURE(backend);
      CAPTURE(jitted);
      auto run = [&](auto f, const Array& a, const Array& b) {
        return jitted ? fj::jit(f)(a, b) : f(a, b);
      };
      // jnp.floor_divide: lax.div(x, 0) = -1, minus one where the signs differ and rem != 0;
      // INT_MIN / -1 wraps to INT_MIN (x86's idiv would trap). Values from JAX 0.10.2.
      CHECK(values<std::int32_t>(run(fd, x, zero)) == std::vector<std::int32_t>{-2, -2, -1, kMin});
      // jnp.remainder divides by 1 where the divisor is 0.
      CHECK(values<std::int32_t>(run(rem, x, zero)) == std::vector<std::int32_t>{0, 0, 0, 0});
      CHECK(values<std::uint32_t>(run(fd, u, uzero)) ==
            std::vector<std::uint32_t>{4294967295u, 4294967295u});
      CHECK(values<std::uint32_t>(run(rem, u, uzero)) == std::vector<std::uint32_t>{0, 0});
    }
  }
  fj::set_default_backend(prev);
}

std::vector<Row> matrix() {
  const Array f3 = fj::ones({3}), f4 = fj::ones({4}), i3 = fj::array({1, 2, 3});
  const Array m23 = fj::ones({2, 3}), m45 = fj::ones({4, 5});
  const Array key = rnd::key(0);
  auto vm = [](auto f, auto... axes) { return fj::vmap(f, fj::in_axes{axes...}); };
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

      // fj::random.
      {"a float key", [=] { (void)rnd::split(fj::zeros({2})); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::split: the key must be a uint32[2] array"},
      {"a key of the wrong shape",
       [=] {
         (void)rnd::normal(fj::array(std::vector<std::uint32_t>{1, 2, 3}, {3}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::normal: the key must be a uint32[2] array"},
      {"`split` into a negative count", [=] { (void)rnd::split(key, -1); },
       raises<fj::ValueError>("fj::ValueError"), "fj::random::split: n must be >= 0, got -1"},
      {"a negative dimension in a random shape",
       [=] {
         (void)rnd::normal(key, {2, -1});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::normal: shape (2, -1) has a negative dimension"},
      {"`uniform` of an integer dtype", [=] { (void)rnd::uniform(key, {3}, fj::i32); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::uniform: dtype must be float32 or float64, got int32"},
      {"`uniform` with minval > maxval", [=] { (void)rnd::uniform(key, {3}, fj::f32, 2.0, 1.0); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::random::uniform: minval 2.000000 must not exceed maxval 1.000000"},
      {"`randint` of a float dtype", [=] { (void)rnd::randint(key, {3}, 0, 5, fj::f32); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::randint: dtype must be int32 or uint32, got float32"},
      {"`bits` of a float dtype", [=] { (void)rnd::bits(key, {3}, fj::f32); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::bits: dtype must be uint32, or int64 for JAX's uint64 bits"},
      {"`fold_in` with non-scalar data",
       [=] {
         (void)rnd::fold_in(key, fj::array({1, 2}));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::fold_in: data must be an integer scalar, got i32[2]"},
      {"a float seed for `key`", [=] { (void)rnd::key(fj::array(1.5f)); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::key: the seed must be an integer scalar, got f32[]"},
      {"`permutation` of a negative count", [=] { (void)rnd::permutation(key, -3); },
       raises<fj::ValueError>("fj::ValueError"), "fj::random::permutation: n must be >= 0, got -3"},
      {"`permutation` along an axis out of range", [=] { (void)rnd::permutation(key, m23, 5); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::permutation: axis 5 is out of range for f32[2,3]"},
      {"`categorical` of integer logits",
       [=] {
         (void)rnd::categorical(key, fj::array({1, 2}));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::categorical: logits must be float32 or float64, got int32"},
      {"`categorical` along an axis out of range",
       [=] {
         (void)rnd::categorical(key, fj::zeros({3, 4}), 2);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::categorical: axis 2 is out of range for logits f32[3,4]"},
      {"`categorical` with a shape not ending in the logits' batch shape",
       [=] {
         (void)rnd::categorical(key, fj::zeros({3, 4}), -1, std::vector<std::int64_t>{2});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::categorical: shape (2,) must end with the logits' batch shape (3,)"},
      {"`bernoulli` with integer probabilities",
       [=] {
         (void)rnd::bernoulli(key, fj::array({1, 0}));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::bernoulli: p must be float32 or float64, got int32"},
      {"`bernoulli` with a shape that `p` does not broadcast to",
       [=] { (void)rnd::bernoulli(key, fj::full({3}, 0.5), std::vector<std::int64_t>{2}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::bernoulli: incompatible shapes for broadcasting: (2,) and (3,)"},

      // vmap.
      {"`vmap` with inconsistent sizes of the mapped axes",
       [=] { (void)fj::vmap([](Tracer a, Tracer b) { return a + b; })(f3, f4); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: inconsistent sizes for the mapped axes: argument 0 has size 3, argument 1 has "
       "size 4 (shape (4,), axis 0)"},
      {"`vmap` with an `in_axes` out of range",
       [=] { (void)vm([](Tracer a) { return a; }, 2)(m23); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: in_axes 2 is out of range for argument 0 of shape (2, 3)"},
      {"`vmap` over a rank-0 argument",
       [=] { (void)fj::vmap([](Tracer a) { return a; })(fj::array(1.0f)); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: in_axes 0 is out of range for argument 0 of shape ()"},
      {"`vmap` with no mapped argument",
       [=] { (void)vm([](Tracer a) { return a; }, fj::none)(f3); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: at least one argument must be mapped (in_axes are all none)"},
      {"`vmap` with more `in_axes` than arguments",
       [=] { (void)vm([](Tracer a) { return a; }, 0, 0)(f3); },
       raises<fj::ValueError>("fj::ValueError"), "fj::vmap: in_axes has 2 entries for 1 arguments"},
      {"`vmap` with an `out_axes` out of range",
       [=] { (void)fj::vmap([](Tracer a) { return a; }, fj::in_axes{0}, fj::out_axes{3})(m23); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: out_axes 3 is out of range for output 0 of rank 2"},
      {"`vmap` with more `out_axes` than outputs",
       [=] {
         (void)fj::vmap([](Tracer a) { return a; }, fj::in_axes{0}, fj::out_axes{0, 0})(m23);
       },
       raises<fj::ValueError>("fj::ValueError"), "fj::vmap: out_axes has 2 entries for 1 outputs"},
      {"`vmap` with `out_axes` none for a mapped output",
       [=] {
         (void)fj::vmap([](Tracer a) { return a; }, fj::in_axes{0}, fj::out_axes{fj::none})(f3);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: output 0 depends on a mapped argument but its out_axes is none"},
      {"`vmap` with an `in_axes` pytree that is not a prefix of the argument",
       [=] {
         const std::vector<Array> xs{f3, f3};
         (void)fj::vmap([](const std::vector<Tracer>& v) { return v[0]; },
                        fj::in_axes{std::vector<int>{0, 0, 0}})(xs);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: in_axes for argument 0 has structure PyTreeDef([*, *, *]) but the argument has "
       "PyTreeDef([*, *])"},

      // grad.
      {"`grad` of a function whose output is not a scalar",
       [=] {
         (void)fj::grad([](Tracer x) { return x * 2.0f; })(fj::array({1.0f, 2.0f}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::grad: gradient only defined for scalar-output functions; the output has shape (2,)"},
      {"`grad` with respect to an integer argument",
       [=] {
         (void)fj::grad([](Tracer x) { return fj::sum(x); })(fj::array({1, 2}));
       },
       raises<fj::DTypeError>("fj::DTypeError"), "fj::grad: argument 0 has dtype int32"},
      {"`grad` with an argnum out of range",
       [=] {
         (void)fj::grad([](Tracer x, Tracer) { return fj::sum(x); }, fj::argnums{2})(
             fj::array(1.0f), fj::array(1.0f));
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::grad: argnums entry 2 is out of range for a call with 2 arguments"},
      {"`grad` of a function with an integer output",
       [=] {
         (void)fj::grad([](Tracer x) { return fj::sum(x).astype(fj::i32); })(fj::array({1.0f}));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::grad: the output must be floating, got i32[]"},
      {"`grad` through a `while_loop`",
       [=] {
         (void)fj::grad([](Tracer x) {
           return lax::while_loop([](Tracer c) { return c < 10.0; },
                                  [](Tracer c) { return c * 2.0; }, x);
         })(1.0);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::grad: reverse-mode differentiation does not work for lax.while_loop"},
      {"`jvp` with a tangent of another shape than its primal",
       [=] {
         (void)fj::jvp([](Tracer x) { return x * 2; }, std::array<Array, 1>{f3},
                       std::array<Array, 1>{f4});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::jvp: tangent 0 is f32[4] but its primal is f32[3]"},
      {"`vjp` with a cotangent of another shape than the output",
       [=] {
         auto [y, back] = fj::vjp([](Tracer x) { return x * 2; }, std::array<Array, 1>{f3});
         (void)back(f4);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::vjp: the cotangent of output 0 is f32[4] but the output is f32[3]"},

      // lax control flow.
      {"`cond` branches returning different shapes",
       [=] {
         (void)lax::cond(
             true, [](Tracer x) { return x; }, [](Tracer x) { return Tracer(x(fj::range(0, 2))); },
             f3);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "lax.cond: true_fn output 0 is f32[3] but false_fn output 0 is f32[2]"},
      {"`cond` branches returning different dtypes",
       [=] {
         (void)lax::cond(
             true, [](Tracer x) { return x; }, [](Tracer x) { return Tracer(x.astype(fj::i32)); },
             f3);
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "lax.cond: true_fn output 0 is f32[3] but false_fn output 0 is i32[3]"},
      {"`cond` branches returning different pytree structures",
       [=] {
         (void)lax::cond(
             true, [](Tracer x) { return std::vector<Tracer>{x}; },
             [](Tracer x) {
               return std::vector<Tracer>{x, x};
             },
             f3);
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.cond: false_fn returns structure PyTreeDef([*, *]) but true_fn returns PyTreeDef([*])"},
      {"`cond` with a predicate that is not a scalar",
       [=] {
         (void)lax::cond(
             fj::ones({3}, fj::bool_), [](Tracer x) { return x; }, [](Tracer x) { return x; }, f3);
       },
       raises<fj::TypeError>("fj::TypeError"), "lax.cond: pred must be a scalar, got bool[3]"},
      // fusejit has no lax.switch, so a branch index of the wrong dtype is not reachable; a
      // non-bool cond predicate is compared with 0, as JAX 0.10.2 does.
      {"`cond` with a float or integer predicate",
       [=] {
         auto pick = [](auto pred) {
           return lax::cond(
               pred, [] { return Array(fj::array(1.0f)); }, [] { return Array(fj::array(0.0f)); });
         };
         CHECK(pick(fj::array(0.5f)).item<float>() == 1.0f);
         CHECK(pick(fj::array(-3)).item<float>() == 1.0f);
         CHECK(pick(fj::array(0.0f)).item<float>() == 0.0f);
       },
       no_error, "the predicate is compared with 0 (`0.5` and `-3` pick `true_fn`), as in JAX"},
      {"a `while_loop` body that changes the carry's shape",
       [=] {
         (void)lax::while_loop([](Tracer c) { return fj::sum(c) < 10.0f; },
                               [](Tracer c) {
                                 return Tracer(fj::concatenate({c, c}));
                               },
                               f3);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "lax.while_loop: body_fn output carry 0 is f32[6] but the input carry 0 is f32[3]"},
      {"a `while_loop` body that changes the carry's dtype",
       [=] {
         (void)lax::while_loop([](Tracer c) { return c < 10; },
                               [](Tracer c) { return Tracer(c.astype(fj::f32)); }, fj::array(1));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "lax.while_loop: body_fn output carry 0 is f32[] but the input carry 0 is i32[]"},
      {"a `while_loop` body that changes the carry's pytree structure",
       [=] {
         (void)lax::while_loop([](const std::vector<Tracer>& c) { return c[0] < 10.0f; },
                               [](const std::vector<Tracer>& c) {
                                 return std::vector<Tracer>{c[0], c[0], c[0]};
                               },
                               std::vector<Array>{fj::array(1.0f), fj::array(1.0f)});
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.while_loop: body_fn returns a carry of structure PyTreeDef([*, *, *]) but the init "
       "has PyTreeDef([*, *])"},
      {"a `while_loop` condition that is not a bool scalar",
       [=] {
         (void)lax::while_loop([](Tracer c) { return c; }, [](Tracer c) { return c; },
                               fj::array(1.0f));
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.while_loop: cond_fn must return a bool scalar, got (f32[])"},
      {"`scan` over xs of different lengths",
       [=] {
         (void)lax::scan(
             [](Tracer c, const std::pair<Tracer, Tracer>& x) {
               return std::make_pair(c + x.first + x.second, c);
             },
             fj::array(0.0f), std::make_pair(f3, f4));
       },
       raises<fj::ValueError>("fj::ValueError"),
       "lax.scan: xs have leading axes of different lengths: 3 and 4"},
      {"`scan` over a rank-0 x",
       [=] {
         (void)lax::scan([](Tracer c, Tracer x) { return std::make_pair(c + x, c); },
                         fj::array(0.0f), fj::array(1.0f));
       },
       raises<fj::ValueError>("fj::ValueError"),
       "lax.scan: got a value with no leading axis to scan over: f32[]"},
      {"a `scan` body that changes the carry's shape",
       [=] {
         (void)lax::scan(
             [](Tracer c, Tracer r) {
               return std::make_pair(Tracer(fj::concatenate({c, r})), r);
             },
             fj::ones({2}), fj::ones({2, 2}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "lax.scan: f output carry 0 is f32[4] but the input carry 0 is f32[2]"},
      {"`scan` over no xs",
       [=] {
         (void)lax::scan([](Tracer c, std::tuple<>) { return std::make_pair(c, c); },
                         fj::array(0.0f), std::tuple<>{});
       },
       raises<fj::ValueError>("fj::ValueError"), "lax.scan: xs must hold at least one array"},
      {"`fori_loop` with float array bounds",
       [=] {
         (void)lax::fori_loop(
             fj::array(0.0f), fj::array(3.0f), [](Tracer, Tracer c) { return c + 1.0f; },
             fj::array(0.0f));
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.fori_loop: bounds must be integer scalars, got f32[] and f32[]"},
      {"a `fori_loop` body that changes the carry's pytree structure",
       [=] {
         (void)lax::fori_loop(
             0, 3, [](Tracer, const std::vector<Tracer>& c) { return std::vector<Tracer>{c[0]}; },
             std::vector<Array>{f3, f3});
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.fori_loop: body_fun returns a carry of structure PyTreeDef([*]) but init_val has "
       "PyTreeDef([*, *])"},
      {"a `fori_loop` body that changes the carry's dtype",
       [=] {
         (void)lax::fori_loop(
             0, 3, [](Tracer, Tracer c) { return Tracer(c.astype(fj::i32)); }, fj::array(0.0f));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "output carry 1 is i32[] but the input carry 1 is f32[]"},

      // Pytrees.
      {"`tree_map` over vectors of different lengths",
       [=] {
         (void)fj::tree_map([](int a, int b) { return a + b; }, std::vector<int>{1, 2},
                            std::vector<int>{1, 2, 3});
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::tree_map: tree 1 has structure PyTreeDef([*, *, *]) but the first tree has "
       "PyTreeDef([*, *])"},
      {"`tree_map` over maps with different keys",
       [=] {
         (void)fj::tree_map([](int a, int b) { return a + b; },
                            std::map<std::string, int>{{"a", 1}},
                            std::map<std::string, int>{{"b", 1}});
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::tree_map: tree 1 has structure PyTreeDef({'b': *}) but the first tree has "
       "PyTreeDef({'a': *})"},
      {"`tree_unflatten` with the wrong number of leaves",
       [=] {
         const auto def = fj::tree_structure(std::vector<double>{1, 2});
         (void)fj::tree_unflatten<std::vector<double>>(def, std::vector<double>{1});
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::tree_unflatten: the structure PyTreeDef([*, *]) has 2 leaves but 1 were given"},
      {"`tree_unflatten` with a structure that does not fit the C++ type",
       [=] {
         (void)fj::tree_unflatten<std::vector<double>>(fj::tree_structure(1.0),
                                                       std::vector<double>{1.0});
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::tree_unflatten: the structure PyTreeDef(*) does not fit the C++ type"},

      // Integer division by zero is no error: XLA's results, no SIGFPE.
      {"integer `floor_divide` and `%` by zero, eager and under `jit`, on every backend",
       [] { check_int_division_by_zero(); }, no_error,
       "i32: `x // 0 == -2` (`0 // 0 == -1`), `x % 0 == 0`, `INT_MIN // -1 == INT_MIN`, "
       "`INT_MIN % -1 == 0`; u32: `x // 0 == 4294967295`, `x % 0 == 0` (JAX's values)"},

      // Arrays from another device: no row yet. fusejit has only host (CPU) arrays until the
      // CUDA backend (issue 7) lands; then mixing a device array with a host one, or arrays of
      // two devices, becomes a row here raising fj::DeviceError.
  };
}

/// The exception's fusejit type name, for failure messages.
std::string type_name(const std::exception& e) {
#define FUSEJIT_MATRIX_TYPE(T) \
  if (typeid(e) == typeid(T)) return #T;
  FUSEJIT_MATRIX_TYPE(fj::ShapeError)
  FUSEJIT_MATRIX_TYPE(fj::DTypeError)
  FUSEJIT_MATRIX_TYPE(fj::ValueError)
  FUSEJIT_MATRIX_TYPE(fj::TypeError)
  FUSEJIT_MATRIX_TYPE(fj::CompileError)
  FUSEJIT_MATRIX_TYPE(fj::DeviceError)
  FUSEJIT_MATRIX_TYPE(fj::ConcretizationError)
  FUSEJIT_MATRIX_TYPE(fj::UnexpectedTracerError)
  FUSEJIT_MATRIX_TYPE(fj::Error)
#undef FUSEJIT_MATRIX_TYPE
  return std::string("a non-fusejit exception (") + typeid(e).name() + ")";
}

/// Runs one row; returns what went wrong, or "" when the row holds.
std::string run_row(const Row& row) {
  try {
    row.run();
  } catch (const std::exception& e) {
    const std::string got = type_name(e), what = e.what();
    if (!row.expect.type) return "expected no exception, got " + got + ": " + what;
    if (typeid(e) != *row.expect.type)
      return std::string("expected ") + row.expect.name + ", got " + got + ": " + what;
    if (what.find(row.contains) == std::string::npos)
      return std::string("the message does not contain \"") + row.contains + "\": " + what;
    if (std::getenv("FUSEJIT_MATRIX_PRINT"))
      MESSAGE(std::string(row.misuse), " -> ", got, ": ", what);
    return "";
  } catch (...) {
    return "a non-std::exception was thrown";
  }
  if (row.expect.type) return std::string("expected ") + row.expect.name + ", nothing was thrown";
  return "";
}

std::string escape_cell(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '|') r += '\\';
    r += c;
  }
  return r;
}

/// The README block: one line per row.
std::string render_table(const std::vector<Row>& rows) {
  std::string s =
      "| misuse | exception | message contains |\n"
      "| --- | --- | --- |\n";
  for (const Row& r : rows) {
    const std::string cell = r.expect.type ? "`" + std::string(r.contains) + "`"
                                           : "no error: " + std::string(r.contains);
    s += "| " + escape_cell(r.misuse) + " | " +
         (r.expect.type ? "`" + std::string(r.expect.name) + "`" : std::string("none")) + " | " +
         escape_cell(cell) + " |\n";
  }
  return s;
}

const char* const kBegin = "<!-- bad-input-matrix:begin -->";
const char* const kEnd = "<!-- bad-input-matrix:end -->";

}  // namespace

TEST_CASE("bad-input matrix: each misuse raises its fj::Error with a clear message") {
  const std::vector<Row> rows = matrix();
  // Doctest runs this body once per subcase, entering one new SUBCASE each time.
  for (const Row& row : rows) {
    SUBCASE(row.misuse) {
      const std::string failure = run_row(row);
      CHECK_MESSAGE(failure.empty(), "row \"", std::string(row.misuse), "\": ", failure);
    }
  }
}

TEST_CASE("bad-input matrix: README.md's Errors section shows the matrix") {
  const std::vector<Row> rows = matrix();
  std::set<std::string> names;  // a row's name is its subcase's and its README line's
  for (const Row& row : rows)
    CHECK_MESSAGE(names.insert(row.misuse).second, "two rows are named: ", std::string(row.misuse));
  const std::string path = FUSEJIT_TESTS_DIR "/../README.md";
  std::string readme;
  {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in, "cannot read ", path);
    std::stringstream ss;
    ss << in.rdbuf();
    readme = ss.str();
  }
  const auto begin = readme.find(kBegin), end = readme.find(kEnd);
  REQUIRE_MESSAGE((begin != std::string::npos && end != std::string::npos && begin < end),
                  "README.md needs the markers ", kBegin, " and ", kEnd);
  const std::size_t body = begin + std::string(kBegin).size() + 1;  // after the marker's newline
  const std::string want = render_table(rows), have = readme.substr(body, end - body);
  if (have != want && std::getenv("FUSEJIT_UPDATE_README")) {
    std::ofstream(path) << readme.substr(0, body) << want << readme.substr(end);
    MESSAGE("rewrote the bad-input matrix in ", path);
  } else {
    CHECK_MESSAGE(have == want,
                  "README.md's bad-input matrix differs from tests/test_bad_input_matrix.cpp; "
                  "run the test with FUSEJIT_UPDATE_README=1 to rewrite it");
  }

  // The summary table above the matrix and the rows name the same exception types, except
  // fj::CompileError: a backend failing on a well-typed graph is a library bug, not bad input
  // (the shape rules reject a malformed graph first), so no row can raise it.
  const auto section = readme.find("## Errors");
  REQUIRE(section < begin);
  const std::string summary = readme.substr(section, begin - section);
  std::set<std::string> named, raised;
  for (auto at = summary.find("`fj::"); at != std::string::npos; at = summary.find("`fj::", at)) {
    const auto close = summary.find('`', at + 1);
    const std::string name = summary.substr(at + 1, close - at - 1);
    if (name.ends_with("Error") && name != "fj::Error") named.insert(name);  // not the base
    at = close;
  }
  for (const Row& r : rows)
    if (r.expect.type) raised.insert(r.expect.name);
  for (const std::string& t : named)
    CHECK_MESSAGE((raised.count(t) || t == "fj::CompileError"), "README's Errors table names ", t,
                  " but no row of the bad-input matrix raises it");
  for (const std::string& t : raised)
    CHECK_MESSAGE(named.count(t), "a row raises ", t,
                  " but README's Errors table does not name it");

  // The misuses that are compile errors instead are listed too, one per tests/compile_fail file.
  for (const auto& f : std::filesystem::directory_iterator(FUSEJIT_TESTS_DIR "/compile_fail")) {
    if (f.path().extension() != ".cpp") continue;
    const std::string name = "tests/compile_fail/" + f.path().filename().string();
    CHECK_MESSAGE(summary.find(name) != std::string::npos, "README's Errors section does not list ",
                  name);
  }
}
