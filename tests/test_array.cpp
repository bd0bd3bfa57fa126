// fj::Array: factories, queries, dtype promotion, printing and Eigen interop.
#include <doctest/doctest.h>

#include <fusejit/eigen.hpp>
#include <sstream>

namespace {
std::string str(const fj::Array& a) {
  std::ostringstream os;
  os << a;
  return os.str();
}
}  // namespace

TEST_CASE("array: factories and queries") {
  fj::Array s = fj::array(3.0f);
  CHECK(s.ndim() == 0);
  CHECK(s.dtype() == fj::f32);
  CHECK(s.item<float>() == 3.0f);
  CHECK(fj::array(2.5).dtype() == fj::f64);
  CHECK(fj::array(7).dtype() == fj::i32);
  fj::Array m = fj::array({{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}});
  CHECK(m.shape() == fj::Shape{2, 3});
  CHECK(m.size() == 6);
  CHECK(m.to_vector<float>() == std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK(reinterpret_cast<std::uintptr_t>(m.data<float>()) % 64 == 0);
  fj::Array v = fj::array(std::vector<std::int64_t>{1, 2, 3, 4}, {2, 2});
  CHECK(v.dtype() == fj::i64);
  CHECK(fj::zeros({2, 2}, fj::u32).to_vector<std::uint32_t>() ==
        std::vector<std::uint32_t>{0, 0, 0, 0});
  CHECK(fj::ones({3}).to_vector<float>() == std::vector<float>{1, 1, 1});
  CHECK(fj::full({2}, 1.5, fj::f64).to_vector<double>() == std::vector<double>{1.5, 1.5});
  CHECK(fj::arange(4).dtype() == fj::i32);
  CHECK(fj::arange(4.0).dtype() == fj::f32);  // like jnp.arange without x64
  CHECK(fj::arange(1, 7, 2).to_vector<int>() == std::vector<int>{1, 3, 5});
  CHECK(fj::arange(0.0f, 1.0f, 0.25f).to_vector<float>() ==
        std::vector<float>{0, 0.25f, 0.5f, 0.75f});
  CHECK(fj::zeros({0, 3}).size() == 0);
  fj::Array copy = m;  // copies share the buffer, as jax.Array is immutable
  CHECK(copy.data<float>() == m.data<float>());
  m.block_until_ready();
}

TEST_CASE("array: a vector without a shape is 1-D, as jnp.array(list)") {
  const std::vector<float> v{1.5f, -2.0f, 4.0f};
  const fj::Array a = fj::array(v);
  CHECK(a.shape() == fj::Shape{3});
  CHECK(a.dtype() == fj::f32);
  CHECK(a.to_vector<float>() == v);
  const fj::Array b = fj::array(std::vector<bool>{true, false, true});
  CHECK(b.dtype() == fj::bool_);
  CHECK(b.to_vector<bool>() == std::vector<bool>{true, false, true});
  CHECK(fj::array(std::vector<std::int64_t>{}).shape() == fj::Shape{0});
}

TEST_CASE("expressions read like arrays: item, to_vector, shape, dtype, ndim") {
  const fj::Array a = fj::array({1.0f, 2.0f, 3.0f});
  // Each expected value is the arithmetic done by hand on the inputs.
  CHECK(fj::matmul(fj::ones({2, 3}), fj::ones({3, 2}))(1, 0).item<float>() == 3.0f);
  CHECK((a * 2.0f).to_vector<float>() == std::vector<float>{2.0f, 4.0f, 6.0f});
  CHECK((a.reshape({3, 1}) + a).shape() == fj::Shape{3, 3});
  CHECK((a > 1.5f).dtype() == fj::bool_);
  CHECK(fj::sum(a).ndim() == 0);
  // Inside a trace the expression is recorded, and its shape is the traced one.
  auto f = fj::jit([](fj::Tracer x) { return x * static_cast<float>(fj::sum(x, {1}).ndim()); });
  CHECK(f(fj::ones({2, 4})).to_vector<float>() == std::vector<float>(8, 1.0f));
}

TEST_CASE("array: bad input raises errors that name the shapes and dtypes") {
  CHECK_THROWS_AS(fj::array({{1, 2}, {3}}), fj::ShapeError);
  CHECK_THROWS_AS(fj::array(std::vector<float>{1, 2, 3}, {2, 2}), fj::ShapeError);
  fj::Array a = fj::ones({2, 2});
  try {
    (void)a.data<double>();
    FAIL("no DTypeError");
  } catch (const fj::DTypeError& e) {
    CHECK(std::string(e.what()).find("float32") != std::string::npos);
  }
  CHECK_THROWS_AS(a.item<float>(), fj::ShapeError);
  CHECK_THROWS_AS(fj::Shape({1, 1, 1, 1, 1, 1, 1, 1, 1}), fj::ShapeError);
  CHECK_THROWS_AS(fj::Array().to_vector<float>(), fj::TypeError);
}

TEST_CASE("promotion: the lattice matches jnp.promote_types") {
  // JAX 0.10.2 `dtypes.result_type(a, b, return_weak_type_flag=True)` with x64 on; JAX's
  // 64-bit defaults for weak ints/floats are replaced by fusejit's 32-bit defaults (x64 off).
  using T = fj::TypedDType;
  const T b{fj::bool_}, i{fj::i32}, l{fj::i64}, u{fj::u32}, f{fj::f32}, d{fj::f64},
      wi{fj::i32, true}, wf{fj::f32, true};
  const std::vector<T> types{b, i, l, u, f, d, wi, wf};
  const std::vector<std::vector<T>> expected{{b, i, l, u, f, d, wi, wf},   // bool
                                             {i, i, l, l, f, d, i, wf},    // i32
                                             {l, l, l, l, f, d, l, wf},    // i64
                                             {u, l, l, u, f, d, u, wf},    // u32
                                             {f, f, f, f, f, d, f, f},     // f32
                                             {d, d, d, d, d, d, d, d},     // f64
                                             {wi, i, l, u, f, d, wi, wf},  // weak int
                                             {wf, wf, wf, wf, f, d, wf, wf}};
  for (std::size_t r = 0; r < types.size(); ++r)
    for (std::size_t c = 0; c < types.size(); ++c) {
      CAPTURE(r);
      CAPTURE(c);
      CHECK(fj::promote_types(types[r], types[c]) == expected[r][c]);
    }
}

TEST_CASE("printing: operator<< gives JAX's repr") {
  // Expected strings printed by JAX 0.10.2 (repr of the same jnp arrays).
  CHECK(str(fj::array({1.0f, 2.0f})) == "Array([1., 2.], dtype=float32)");
  CHECK(str(fj::arange(20.0f)) ==
        "Array([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12.,\n"
        "       13., 14., 15., 16., 17., 18., 19.], dtype=float32)");
  CHECK(str(fj::array({{1.0f, 2.5f}, {3.0f, 4.0f}})) ==
        "Array([[1. , 2.5],\n       [3. , 4. ]], dtype=float32)");
  CHECK(str(fj::array({1, 2, 30})) == "Array([ 1,  2, 30], dtype=int32)");
  CHECK(str(fj::array({true, false})) == "Array([ True, False], dtype=bool)");
  CHECK(str(fj::array({0.1f, 1e-5f, 3.0f})) == "Array([1.e-01, 1.e-05, 3.e+00], dtype=float32)");
  CHECK(str(fj::array({NAN, INFINITY, -1.5f})) == "Array([ nan,  inf, -1.5], dtype=float32)");
  CHECK(str(fj::arange(2000.0f)) ==
        "Array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n"
        "       1.999e+03], dtype=float32)");
  std::vector<int> v(24);
  for (int k = 0; k < 24; ++k) v[static_cast<std::size_t>(k)] = k;
  CHECK(str(fj::array(v, {2, 3, 4})) ==
        "Array([[[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n        [ 8,  9, 10, 11]],\n\n"
        "       [[12, 13, 14, 15],\n        [16, 17, 18, 19],\n        [20, 21, 22, 23]]], "
        "dtype=int32)");
  CHECK(str(fj::zeros({0})) == "Array([], shape=(0,), dtype=float32)");
  CHECK(str(fj::array({1.0f / 3, 2.0f})) == "Array([0.33333334, 2.        ], dtype=float32)");
}

TEST_CASE("eigen: view wraps without copying, to_eigen maps back") {
  Eigen::VectorXf vec = Eigen::VectorXf::LinSpaced(5, 0, 4);
  fj::Array a = fj::view(vec);
  CHECK(a.shape() == fj::Shape{5});
  CHECK(a.data<float>() == vec.data());  // zero copy
  fj::Array doubled = a * 2;
  CHECK(doubled.to_vector<float>() == std::vector<float>{0, 2, 4, 6, 8});

  Eigen::Matrix<double, 2, 3, Eigen::RowMajor> rm;
  rm << 1, 2, 3, 4, 5, 6;
  fj::Array r = fj::view(rm);
  CHECK(r.shape() == fj::Shape{2, 3});
  CHECK(r.data<double>() == rm.data());

  Eigen::MatrixXf cm(2, 3);  // column-major: element (i, j) must stay (i, j)
  cm << 1, 2, 3, 4, 5, 6;
  fj::Array c = fj::view(cm);
  CHECK(c.shape() == fj::Shape{2, 3});
  CHECK(c.to_vector<float>() == std::vector<float>{1, 2, 3, 4, 5, 6});

  auto back = fj::to_eigen<float>(c);
  CHECK(back.rows() == 2);
  CHECK(back.cols() == 3);
  CHECK(back(1, 0) == 4.0f);
  CHECK(back.isApprox(cm));
  CHECK_THROWS_AS(fj::to_eigen<double>(c), fj::DTypeError);
}

TEST_CASE("array: an allocation beyond memory raises fj::DeviceError, not UB") {
  // 2^50 f32 elements (4 PiB) exceed any address space: the allocator's bad_alloc is wrapped.
  CHECK_THROWS_AS(fj::zeros({std::int64_t{1} << 50}), fj::DeviceError);
  auto f = fj::jit([](fj::Tracer x) { return x + 1; });
  CHECK(f(fj::ones({2})).to_vector<float>() == std::vector<float>{2, 2});  // the process goes on
}
