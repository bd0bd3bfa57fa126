// flip, squeeze, expand_dims, broadcast_to, x(...) indexing, iota and the creation functions:
// values against index arithmetic done here (or numbers printed by JAX 0.10.2), on every
// backend, fused with elementwise ops and reductions; the LLVM backend against the reference.
#include <doctest/doctest.h>

#include <functional>
#include <optional>

#include "backend_compare.hpp"

using fj::Tracer;
using fusejit_test::check_close;
using fusejit_test::random_array;

namespace {

using Idx = std::vector<std::int64_t>;
using Fn = std::function<fj::Array(const fj::Array&)>;

std::vector<const char*> backends() {
  std::vector<const char*> b{"reference"};
  if (fusejit_test::has_backend("llvm")) b.push_back("llvm");
  return b;
}

// f through a fresh fj::jit on `backend` (the eager expression cache does not key on backends).
fj::Array run_on(const char* backend, const Fn& f, const fj::Array& x) {
  fusejit_test::BackendScope scope(backend);
  return fj::jit([&f](Tracer a) { return f(a); })(x);
}

std::int64_t flat(const fj::Shape& s, const Idx& idx) {
  std::int64_t f = 0;
  for (int d = 0; d < s.rank(); ++d) f = f * s[d] + idx[static_cast<std::size_t>(d)];
  return f;
}

// The array of shape `out` whose element at idx is x's element at flat index src(idx).
fj::Array gather(const fj::Array& x, const fj::Shape& out,
                 const std::function<std::int64_t(const Idx&)>& src) {
  return fj::visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* p = x.data<T>();
    std::vector<T> v(static_cast<std::size_t>(out.size()));
    Idx idx(static_cast<std::size_t>(out.rank()), 0);
    for (std::size_t i = 0; i < v.size(); ++i) {
      v[i] = p[src(idx)];
      for (int d = out.rank() - 1; d >= 0; --d) {
        if (++idx[static_cast<std::size_t>(d)] < out[d]) break;
        idx[static_cast<std::size_t>(d)] = 0;
      }
    }
    return fj::array(v, out);
  });
}

// The indices x[start:stop:step] selects from range(n), by CPython's PySlice_AdjustIndices and
// a walk from the adjusted start.
Idx python_slice(std::int64_t n, std::optional<std::int64_t> start,
                 std::optional<std::int64_t> stop, std::int64_t step) {
  auto adjust = [&](std::optional<std::int64_t> v, std::int64_t dflt) {
    if (!v) return dflt;
    std::int64_t a = *v;
    if (a < 0) {
      a += n;
      if (a < 0) a = step < 0 ? -1 : 0;
    } else if (a >= n) {
      a = step < 0 ? n - 1 : n;
    }
    return a;
  };
  const std::int64_t b = adjust(start, step < 0 ? n - 1 : 0), e = adjust(stop, step < 0 ? -1 : n);
  Idx out;
  for (std::int64_t i = b; step > 0 ? i < e : i > e; i += step) out.push_back(i);
  return out;
}

const fj::DType kAllDTypes[] = {fj::f32, fj::f64, fj::i32, fj::i64, fj::u32, fj::bool_};

}  // namespace

TEST_CASE("shape ops: flip, squeeze, expand_dims and broadcast_to move elements as indexed") {
  unsigned seed = 1000;
  for (fj::DType d : kAllDTypes)
    for (const char* backend : backends()) {
      CAPTURE(std::string(backend));
      CAPTURE(std::string(fj::short_name(d)));
      const fj::Array x = random_array(d, fj::Shape{7, 37, 65}, -50, 50, seed++);
      const fj::Shape& s = x.shape();
      auto rev = [&](const Idx& i, std::vector<int> dims) {
        Idx j = i;
        for (int k : dims)
          j[static_cast<std::size_t>(k)] = s[k] - 1 - i[static_cast<std::size_t>(k)];
        return flat(s, j);
      };
      check_close(run_on(
                      backend, [](const fj::Array& a) -> fj::Array { return fj::flip(a); }, x),
                  gather(x, s,
                         [&](const Idx& i) {
                           return rev(i, {0, 1, 2});
                         }),
                  0, "flip all");
      check_close(
          run_on(
              backend, [](const fj::Array& a) -> fj::Array { return fj::flip(a, {-1}); }, x),
          gather(x, s, [&](const Idx& i) { return rev(i, {2}); }), 0, "flip last");
      check_close(run_on(
                      backend,
                      [](const fj::Array& a) -> fj::Array {
                        return a.flip({1, 0});
                      },
                      x),
                  gather(x, s,
                         [&](const Idx& i) {
                           return rev(i, {0, 1});
                         }),
                  0, "flip outer");

      const fj::Array y = random_array(d, fj::Shape{1, 37, 1, 5}, -50, 50, seed++);
      check_close(run_on(
                      backend, [](const fj::Array& a) -> fj::Array { return a.squeeze(); }, y),
                  gather(y, fj::Shape{37, 5},
                         [&](const Idx& i) {
                           return flat(y.shape(), {0, i[0], 0, i[1]});
                         }),
                  0, "squeeze all");
      check_close(
          run_on(
              backend, [](const fj::Array& a) -> fj::Array { return fj::squeeze(a, {-2}); }, y),
          gather(y, fj::Shape{1, 37, 5},
                 [&](const Idx& i) {
                   return flat(y.shape(), {0, i[1], 0, i[2]});
                 }),
          0, "squeeze one");

      const fj::Array row = random_array(d, fj::Shape{65}, -50, 50, seed++);
      check_close(run_on(
                      backend,
                      [](const fj::Array& a) -> fj::Array {
                        return fj::expand_dims(a, {0, -1});
                      },
                      row),
                  gather(row, fj::Shape{1, 65, 1}, [](const Idx& i) { return i[1]; }), 0,
                  "expand_dims");
      check_close(run_on(
                      backend,
                      [](const fj::Array& a) -> fj::Array {
                        return fj::broadcast_to(fj::expand_dims(a, {0}), {3, 37, 65});
                      },
                      row),
                  gather(row, fj::Shape{3, 37, 65}, [](const Idx& i) { return i[2]; }), 0,
                  "broadcast_to");
    }
}

TEST_CASE("shape ops: x(...) indexing selects what NumPy selects") {
  using fj::none;
  using fj::range;
  struct Case {
    std::vector<fj::Range> r;  // per axis; an integer index is tested separately below
  };
  const fj::Array x = random_array(fj::f32, fj::Shape{7, 37, 65}, -5, 5, 77);
  const fj::Shape& s = x.shape();
  const std::vector<std::vector<fj::Range>> cases{
      {range(1, 4)},
      {range(), range(1, 100), range(-100, 3)},
      {range(none, none, -1), range(36, 0, -3), range(2, 60, 7)},
      {range(5, none, -2), range(none, none, -4), range(-1, -66, -1)},
      {range(3, 1), range(10, -10, -3), range(64, 63, -5)},
      {range(-2, none), range(0, 37, 36), range(100, -100, -1)},
  };
  for (const auto& c : cases) {
    std::vector<Idx> sel;
    fj::Shape out;
    for (int d = 0; d < 3; ++d) {
      const fj::Range r = d < static_cast<int>(c.size()) ? c[static_cast<std::size_t>(d)] : range();
      sel.push_back(python_slice(s[d], r.start, r.stop, r.step));
      out.push_back(static_cast<std::int64_t>(sel.back().size()));
    }
    const fj::Array want = gather(x, out, [&](const Idx& i) {
      return flat(s,
                  {sel[0][static_cast<std::size_t>(i[0])], sel[1][static_cast<std::size_t>(i[1])],
                   sel[2][static_cast<std::size_t>(i[2])]});
    });
    for (const char* backend : backends()) {
      CAPTURE(std::string(backend));
      CAPTURE(out.str());
      const Fn f = [&c](const fj::Array& a) -> fj::Array {
        if (c.size() == 1) return a(c[0]);
        return a(c[0], c[1], c[2]);
      };
      check_close(run_on(backend, f, x), want, 0, "ranges");
    }
  }
  // Integers select one element and drop the axis; negative ones count from the end.
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    check_close(
        run_on(
            backend, [](const fj::Array& a) -> fj::Array { return a(2, range(1, 30, 4), -1); }, x),
        gather(x, fj::Shape{8},
               [&](const Idx& i) {
                 return flat(s, {2, 1 + 4 * i[0], 64});
               }),
        0, "int, range, int");
    check_close(run_on(
                    backend, [](const fj::Array& a) -> fj::Array { return a(-7); }, x),
                gather(x, fj::Shape{37, 65},
                       [&](const Idx& i) {
                         return flat(s, {0, i[0], i[1]});
                       }),
                0, "leading int");
    check_close(run_on(
                    backend, [](const fj::Array& a) -> fj::Array { return a(6, 36, 64); }, x),
                gather(x, fj::Shape{},
                       [&](const Idx&) {
                         return flat(s, {6, 36, 64});
                       }),
                0, "all ints");
  }
  // Python's own answers for a few clampings: list(range(7))[10:-10:-3] == [6, 3, 0].
  CHECK(python_slice(7, 10, -10, -3) == Idx{6, 3, 0});
  const fj::Array v = fj::arange(7);
  CHECK(fj::Array(v(range(10, -10, -3))).to_vector<int>() == std::vector<int>{6, 3, 0});
  CHECK(fj::Array(v(range(-100, 100, 2))).to_vector<int>() == std::vector<int>{0, 2, 4, 6});
  CHECK(fj::Array(v(range(5, 2))).size() == 0);
}

TEST_CASE("shape ops: Array methods T, slice, reshape, astype") {
  std::vector<int> v(24);
  for (int i = 0; i < 24; ++i) v[static_cast<std::size_t>(i)] = i;
  const fj::Array x = fj::array(v, fj::Shape{2, 3, 4});  // x[i, j, k] = 12 i + 4 j + k
  const fj::Array t = x.T();
  REQUIRE(t.shape() == fj::Shape{4, 3, 2});
  const auto tv = t.to_vector<int>();
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i)
        CHECK(tv[static_cast<std::size_t>(k * 6 + j * 2 + i)] == 12 * i + 4 * j + k);
  CHECK(fj::Array(x.slice({1, 0, 1}, {2, 3, 4}, {1, 2, 2})).to_vector<int>() ==
        std::vector<int>{13, 15, 21, 23});
  const fj::Array r = x.reshape({4, -1});
  CHECK(r.shape() == fj::Shape{4, 6});
  CHECK(r.to_vector<int>() == v);
  const fj::Array f = fj::array({1.5f, -2.5f, 3.7f}).astype(fj::i32);
  CHECK(f.dtype() == fj::i32);
  CHECK(f.to_vector<int>() == std::vector<int>{1, -2, 3});
  CHECK(fj::Array(fj::array({1, 2, 3}).flip()).to_vector<int>() == std::vector<int>{3, 2, 1});
  CHECK(fj::Array(fj::ones({1, 3, 1}).squeeze()).shape() == fj::Shape{3});
}

TEST_CASE("shape ops: iota along every dimension, in every numeric dtype") {
  for (const char* backend : backends()) {
    fusejit_test::BackendScope scope(backend);
    CAPTURE(std::string(backend));
    for (fj::DType d : {fj::f32, fj::f64, fj::i32, fj::i64, fj::u32})
      for (int dim = 0; dim < 3; ++dim) {
        CAPTURE(dim);
        const fj::Shape s{3, 37, 65};
        const fj::Array got = fj::jit([&] { return fj::iota(d, s, dim); })();
        REQUIRE(got.dtype() == d);
        REQUIRE(got.shape() == s);
        const fj::Array as_f64 = fj::jit([](Tracer a) { return fj::astype(a, fj::f64); })(got);
        const double* p = as_f64.data<double>();
        std::int64_t bad = 0;
        for (std::int64_t a = 0; a < 3; ++a)
          for (std::int64_t b = 0; b < 37; ++b)
            for (std::int64_t c = 0; c < 65; ++c) {
              const std::int64_t want = dim == 0 ? a : dim == 1 ? b : c;
              bad += p[(a * 37 + b) * 65 + c] != static_cast<double>(want);
            }
        CHECK(bad == 0);
      }
    CHECK(fj::Array(fj::iota(fj::i32, 5)).to_vector<int>() == std::vector<int>{0, 1, 2, 3, 4});
  }
}

TEST_CASE("shape ops: iota composed with index maps and reductions") {
  for (const char* backend : backends()) {
    fusejit_test::BackendScope scope(backend);
    CAPTURE(std::string(backend));
    // iota seen through a rev, a slice and a transpose: n - 1 - i, 3 + 2 j, the other axis.
    const fj::Array r = fj::jit([] { return fj::flip(fj::iota(fj::i32, 37)); })();
    const auto rv = r.to_vector<int>();
    for (int i = 0; i < 37; ++i) CHECK(rv[static_cast<std::size_t>(i)] == 36 - i);
    const fj::Array sl = fj::jit([] {
      return fj::Array(fj::iota(fj::i64, fj::Shape{5, 65}, 1))(fj::range(), fj::range(3, 60, 2));
    })();
    REQUIRE(sl.shape() == fj::Shape{5, 29});
    const auto sv = sl.to_vector<std::int64_t>();
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 29; ++j) CHECK(sv[static_cast<std::size_t>(i * 29 + j)] == 3 + 2 * j);
    const fj::Array tr = fj::jit([] {
      return fj::transpose(fj::iota(fj::u32, fj::Shape{37, 65}, 0)) * 2u;
    })();
    REQUIRE(tr.shape() == fj::Shape{65, 37});
    const auto tv = tr.to_vector<std::uint32_t>();
    for (int i = 0; i < 65; ++i)
      for (int j = 0; j < 37; ++j)
        CHECK(tv[static_cast<std::size_t>(i * 37 + j)] == static_cast<std::uint32_t>(2 * j));
    // Reductions of iota: sums of 0..n-1 in every row, exact in integers.
    const fj::Array rows = fj::jit([] {
      return fj::sum(fj::iota(fj::i32, fj::Shape{3, 4097}, 1), {1});
    })();
    CHECK(rows.to_vector<int>() == std::vector<int>(3, 4097 * 4096 / 2));
    const fj::Array cols = fj::jit([] {
      return fj::sum(fj::iota(fj::i64, fj::Shape{37, 65}, 0), {0});
    })();
    CHECK(cols.to_vector<std::int64_t>() == std::vector<std::int64_t>(65, 37 * 36 / 2));
    // sum(flip(x) * iota): x = 0..n-1, so the sum is sum_i (n - 1 - i) i.
    const fj::Array dot = fj::jit(
        [](Tracer x) { return fj::sum(fj::flip(x) * fj::iota(fj::i32, 65)); })(fj::arange(65));
    std::int64_t want = 0;
    for (int i = 0; i < 65; ++i) want += (64 - i) * i;
    CHECK(dot.item<std::int64_t>() == want);
  }
}

TEST_CASE("shape ops: fused with elementwise ops and reductions, llvm against the reference") {
  if (!fusejit_test::has_backend("llvm")) return;
  using fj::none;
  using fj::range;
  const std::vector<std::pair<const char*, Fn>> exact{
      {"x + x.T", [](const fj::Array& x) -> fj::Array { return x + x.T(); }},
      {"flip(x, 0) - x", [](const fj::Array& x) -> fj::Array { return fj::flip(x, {0}) - x; }},
      {"flip of the inner axis, scaled",
       [](const fj::Array& x) -> fj::Array { return fj::maximum(fj::flip(x, {1}) * 3, x); }},
      {"iota feeding a where",
       [](const fj::Array& x) -> fj::Array {
         return fj::where(fj::iota(fj::i32, fj::Shape{65, 65}, 1) > 30, x, fj::flip(x));
       }},
      {"indexing with negative steps",
       [](const fj::Array& x) -> fj::Array {
         return x(range(60, 2, -3), range(none, none, -2)) * 2;
       }},
      {"a row broadcast back",
       [](const fj::Array& x) -> fj::Array {
         return fj::broadcast_to(fj::expand_dims(x(5), {0}), {65, 65}) +
                fj::squeeze(x(range(1, 2)));
       }},
      {"flip of a broadcast row",
       [](const fj::Array& x) -> fj::Array {
         return fj::flip(fj::broadcast_to(fj::expand_dims(x(3, range(0, 65)), {0}), {65, 65}) - x);
       }},
      {"max over a reversed axis",
       [](const fj::Array& x) -> fj::Array { return fj::max(fj::flip(x), {1}); }},
      {"min of a transposed reversal",
       [](const fj::Array& x) -> fj::Array { return fj::min(fj::flip(x.T(), {1}), {0}); }},
      {"iota times x, flipped twice",
       [](const fj::Array& x) -> fj::Array {
         return fj::flip(fj::flip(x) * fj::iota(x.dtype(), fj::Shape{65, 65}, 0));
       }},
  };
  unsigned seed = 500;
  for (const auto& [name, f] : exact)
    for (fj::DType d : {fj::f32, fj::f64, fj::i32, fj::i64}) {
      const fj::Array x = random_array(d, fj::Shape{65, 65}, -100, 100, seed++);
      check_close(run_on("llvm", f, x), run_on("reference", f, x), 0,
                  std::string(name) + " " + std::string(fj::short_name(d)));
    }
  // Float sums and transcendental functions differ between backends by rounding only.
  for (fj::DType d : {fj::f32, fj::f64}) {
    const fj::Array x = random_array(d, fj::Shape{1, 37, 1, 65}, -2, 2, seed++);
    const Fn e = [](const fj::Array& a) -> fj::Array { return fj::exp(fj::squeeze(a)); };
    check_close(run_on("llvm", e, x), run_on("reference", e, x), 6, "exp(squeeze(x))");
    const Fn s = [](const fj::Array& a) -> fj::Array {
      return fj::sum(fj::flip(fj::squeeze(a)) * fj::iota(a.dtype(), fj::Shape{37, 65}, 1), {1});
    };
    fusejit_test::check_abs(run_on("llvm", s, x), run_on("reference", s, x),
                            65 * 2 * 64 * (d == fj::f32 ? 0x1p-24 : 0x1p-53) * 8,
                            "sum(flip(x) * iota)");
  }
}

TEST_CASE("shape ops: iota is fused into the kernel, a rev of the inner axis is one vector load") {
  if (!fusejit_test::has_backend("llvm")) return;
  fusejit_test::BackendScope scope("llvm");
  auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
  };
  const fj::Array x = fj::ones({37, 65});
  const std::string text = fj::jit([](Tracer a) {
                             return fj::flip(a, {1}) + fj::iota(fj::f32, fj::Shape{37, 65}, 1);
                           })
                               .lower(x)
                               .as_text();
  CHECK(count(text, "# kernel") == 1);       // one kernel: the iota is computed, not materialized
  CHECK(count(text, "shufflevector") >= 1);  // the reversed load's lanes
}

TEST_CASE("shape ops: eye, traced and concrete") {
  for (auto [n, m, k] : {std::tuple{3, 3, 0}, {3, 5, 1}, {37, 65, -2}, {4, 2, 3}, {0, 0, 0}})
    for (fj::DType d : {fj::f32, fj::i32, fj::bool_}) {
      CAPTURE(n);
      CAPTURE(m);
      CAPTURE(k);
      std::vector<double> want;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) want.push_back(j == i + k ? 1 : 0);
      const fj::Array concrete = fj::eye(n, m, k, d);
      std::vector<fj::Array> got{concrete};
      for (const char* backend : backends()) {
        fusejit_test::BackendScope scope(backend);
        got.push_back(fj::jit([=] { return fj::eye(n, m, k, d); })());
      }
      for (const fj::Array& g : got) {
        REQUIRE(g.shape() == fj::Shape{n, m});
        REQUIRE(g.dtype() == d);
        const fj::Array as_f64 = fj::astype(g, fj::f64);
        CHECK(as_f64.to_vector<double>() == want);
      }
    }
  CHECK(fj::eye(2).to_vector<float>() == std::vector<float>{1, 0, 0, 1});
}

TEST_CASE("shape ops: linspace gives jnp.linspace's float32 values") {
  // np.asarray(jnp.linspace(0, 1, 7)).view(np.uint32), JAX 0.10.2 on the CPU.
  const std::vector<std::uint32_t> bits_0_1_7{0,          1042983595, 1051372203, 1056964608,
                                              1059760811, 1062557014, 1065353216};
  auto bits = [](const fj::Array& a) {
    std::vector<std::uint32_t> b;
    for (float f : a.to_vector<float>()) {
      std::uint32_t u;
      std::memcpy(&u, &f, 4);
      b.push_back(u);
    }
    return b;
  };
  CHECK(bits(fj::linspace(0, 1, 7)) == bits_0_1_7);
  for (const char* backend : backends()) {
    fusejit_test::BackendScope scope(backend);
    CAPTURE(std::string(backend));
    CHECK(bits(fj::jit([] { return fj::linspace(0, 1, 7); })()) == bits_0_1_7);
  }
  // jnp.linspace(-3.7, 11.3, 37)[k] and jnp.linspace(2.5, -1.25, 101)[k], as float32 bits.
  const std::vector<std::pair<int, std::uint32_t>> a{{0, 3228355789},  {7, 3209201802},
                                                     {12, 1067869802}, {26, 1088701509},
                                                     {33, 1092668622}, {36, 1093979341}};
  const std::vector<std::pair<int, std::uint32_t>> b{
      {1, 1075681689}, {22, 1071015526}, {55, 1054867457}, {68, 3175926988}, {100, 3214934016}};
  const auto la = bits(fj::linspace(-3.7, 11.3, 37)), lb = bits(fj::linspace(2.5, -1.25, 101));
  for (auto [i, u] : a) CHECK(la[static_cast<std::size_t>(i)] == u);
  for (auto [i, u] : b) CHECK(lb[static_cast<std::size_t>(i)] == u);
  // Traced, each backend rounds the same arithmetic its own way (the reference without fused
  // multiply-adds): within a few roundings of the bounds' size (start * (1 - i / div) cancels
  // near zero, so ulps of the result are the wrong measure).
  for (const char* backend : backends()) {
    fusejit_test::BackendScope scope(backend);
    const fj::Array t = fj::jit([] { return fj::linspace(-3.7, 11.3, 37); })();
    fusejit_test::check_abs(t, fj::linspace(-3.7, 11.3, 37), 4 * 11.3 * 0x1p-24,
                            std::string("traced linspace ") + backend);
  }
  // endpoint=false, integer dtypes (the floor), and the degenerate counts.
  CHECK(fj::linspace(0, 1, 4, false).to_vector<float>() ==
        std::vector<float>{0, 0.25f, 0.5f, 0.75f});
  CHECK(fj::linspace(0, 10, 4, true, fj::i32).to_vector<int>() == std::vector<int>{0, 3, 6, 10});
  CHECK(fj::jit([] { return fj::linspace(0, 10, 4, true, fj::i32); })().to_vector<int>() ==
        std::vector<int>{0, 3, 6, 10});
  CHECK(fj::linspace(2, 3, 1).to_vector<float>() == std::vector<float>{2});
  CHECK(fj::linspace(2, 3, 0).size() == 0);
  CHECK(fj::jit([] { return fj::linspace(2, 3, 1); })().to_vector<float>() ==
        std::vector<float>{2});
}

TEST_CASE("shape ops: zeros_like, ones_like, full_like") {
  const fj::Array x = random_array(fj::i32, fj::Shape{3, 37}, -5, 5, 9);
  for (const char* backend : backends()) {
    fusejit_test::BackendScope scope(backend);
    const fj::Array z = fj::jit([](Tracer a) { return fj::zeros_like(a) + a; })(x);
    check_close(z, x, 0, "zeros_like(x) + x");
    const fj::Array o = fj::jit([](Tracer a) { return fj::ones_like(a); })(x);
    CHECK(o.to_vector<int>() == std::vector<int>(111, 1));
    const fj::Array h = fj::jit([](Tracer a) { return fj::full_like(a, 2.5, fj::f64); })(x);
    CHECK(h.to_vector<double>() == std::vector<double>(111, 2.5));
  }
  CHECK(fj::full_like(x, 3.9).to_vector<int>() == std::vector<int>(111, 3));  // truncated
  CHECK(fj::zeros_like(fj::ones({2}) * 2).to_vector<float>() == std::vector<float>{0, 0});
  CHECK(fj::ones_like(fj::array({true, false})).to_vector<bool>() == std::vector<bool>{1, 1});
}

TEST_CASE("shape ops: bad input raises ShapeError naming the function, argument and shapes") {
  const fj::Array x = fj::ones({1, 3, 1});
  const fj::Array m = fj::ones({5, 6});
  auto message = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const fj::ShapeError& e) {
      return e.what();
    }
    return "no ShapeError";
  };
  auto has = [](const std::string& s, std::initializer_list<const char*> parts) {
    CAPTURE(s);
    for (const char* p : parts) CHECK(s.find(p) != std::string::npos);
  };
  has(message([&] { fj::Array y = fj::squeeze(x, {1}); }),
      {"fj::squeeze", "axis 1", "(1, 3, 1)", "size is 3"});
  has(message([&] { fj::Array y = fj::squeeze(x, {3}); }), {"fj::squeeze", "axis 3", "(1, 3, 1)"});
  has(message([&] { fj::Array y = fj::flip(m, {2}); }), {"fj::flip", "axis 2", "(5, 6)"});
  has(message([&] { fj::Array y = fj::flip(m, {0, -2}); }), {"fj::flip", "repeated", "(5, 6)"});
  has(message([&] { fj::Array y = fj::expand_dims(m, {3}); }),
      {"fj::expand_dims", "axis 3", "(5, 6)"});
  has(message([&] {
        fj::Array y = fj::broadcast_to(m, {3, 6});
      }),
      {"fj::broadcast_to", "(5, 6)", "(3, 6)"});
  has(message([&] { fj::Array y = fj::broadcast_to(m, {6}); }),
      {"fj::broadcast_to", "(5, 6)", "(6,)"});
  has(message([&] { fj::Array y = m(5); }), {"index 5", "axis 0", "(5, 6)"});
  has(message([&] { fj::Array y = m(0, -7); }), {"index -7", "axis 1", "(5, 6)"});
  has(message([&] { fj::Array y = m(0, 1, 2); }), {"too many indices", "(5, 6)"});
  has(message([&] {
        fj::Array y = fj::iota(fj::f32, fj::Shape{2, 3}, 2);
      }),
      {"fj::iota", "dimension 2", "(2, 3)"});
  // Traced, the same errors come from the trace.
  has(message([&] { fj::make_jaxpr([](Tracer a) { return fj::squeeze(a, {1}); })(x); }),
      {"fj::squeeze", "(1, 3, 1)"});
  CHECK_THROWS_AS(fj::range(0, 5, 0), fj::ValueError);
  CHECK_THROWS_AS(fj::eye(-1), fj::ValueError);
  CHECK_THROWS_AS(fj::linspace(0, 1, -1), fj::ValueError);
  CHECK_THROWS_AS(fj::Array(fj::iota(fj::bool_, 3)), fj::DTypeError);
}
