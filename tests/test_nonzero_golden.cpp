// fj::nonzero, fj::flatnonzero and fj::argwhere against JAX 0.10.2
// (tests/golden/nonzero_goldens.txt, printed by tests/golden/nonzero_goldens.py): the indices,
// concrete and with a static size (cut, padded, filled), on every backend and under jit and vmap;
// jaxpr text byte for byte; and bad input.
#include <doctest/doctest.h>

#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "throws_with.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"nonzero_goldens.txt"};

// The golden inputs in the dtypes the script gave them.
Array input(const std::string& name) {
  const Array x = fusejit_test::golden_input(kGolden, name);
  if (name == "m") return x.astype(fj::DType::i32);
  if (name == "b") return x.astype(fj::DType::bool_);
  return x.astype(fj::DType::f32);
}

// "shape : values", as the script prints an integer array.
std::string ints(const Array& a) {
  std::ostringstream s;
  for (int d = 0; d < a.shape().rank(); ++d) s << (d ? " " : "") << a.shape()[d];
  s << " : ";
  bool first = true;
  for (double v : fusejit_test::as_doubles(a)) {
    s << (first ? "" : " ") << static_cast<std::int64_t>(v);
    first = false;
  }
  return s.str();
}

using Size = std::optional<std::int64_t>;
using Indices = std::function<std::vector<Array>(const Array&)>;

// Each case: its input and the function (a static size where the case has one).
std::map<std::string, std::pair<const char*, Indices>> cases() {
  auto nz = [](Size size, Size fill) {
    return [=](const Array& x) { return fj::nonzero(x, size, fill); };
  };
  auto one = [](Array (*f)(const Array&, Size, Size, std::source_location), Size size, Size fill) {
    return [=](const Array& x) { return std::vector<Array>{f(x, size, fill, {})}; };
  };
  return {
      {"nonzero_v", {"v", nz({}, {})}},
      {"nonzero_m", {"m", nz({}, {})}},
      {"nonzero_b", {"b", nz({}, {})}},
      {"nonzero_z", {"z", nz({}, {})}},
      {"nonzero_t", {"t", nz({}, {})}},
      {"nonzero_m_size3", {"m", nz(3, {})}},
      {"nonzero_m_size7", {"m", nz(7, {})}},
      {"nonzero_m_size7_fill", {"m", nz(7, -1)}},
      {"nonzero_v_size0", {"v", nz(0, {})}},
      {"flatnonzero_m", {"m", one(fj::flatnonzero, {}, {})}},
      {"flatnonzero_b_size5_fill", {"b", one(fj::flatnonzero, 5, 9)}},
      {"argwhere_m", {"m", one(fj::argwhere, {}, {})}},
      {"argwhere_v_size6_fill", {"v", one(fj::argwhere, 6, -2)}},
      {"argwhere_b", {"b", one(fj::argwhere, {}, {})}},
      {"argwhere_s1", {"s1", one(fj::argwhere, {}, {})}},
      {"argwhere_s0", {"s0", one(fj::argwhere, {}, {})}},
      {"argwhere_z", {"z", one(fj::argwhere, {}, {})}},
  };
}

}  // namespace

TEST_CASE("nonzero golden: indices as JAX's, concrete and with a static size, every backend") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, c] : cases()) {
      CAPTURE(backend);
      CAPTURE(name);
      const std::vector<std::string> want = kGolden.lines("values " + name);
      const std::vector<Array> got = c.second(input(c.first));
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].dtype() == fj::DType::i32);
        CHECK(ints(got[i]) == want[i]);
      }
    }
  }
}

TEST_CASE("nonzero golden: under jit with the count as the size, and under vmap") {
  // jit: the same indices, the size given as the concrete count was.
  const Array m = input("m");
  const auto jitted = fj::jit([](Tracer x) {
    auto r = fj::nonzero(x, 5);
    return std::tuple{Tracer(r[0]), Tracer(r[1])};
  })(m);
  const std::vector<std::string> want = kGolden.lines("values nonzero_m");
  CHECK(ints(std::get<0>(jitted)) == want[0]);
  CHECK(ints(std::get<1>(jitted)) == want[1]);
  // vmap over m's rows: each row's own nonzero indices, padded with -1 to 3.
  const Array batched = fj::vmap([](Tracer row) { return fj::nonzero(row, 3, -1)[0]; })(m);
  for (std::int64_t r = 0; r < 3; ++r) {
    CAPTURE(r);
    const Array row = fj::nonzero(Array(m(r)), 3, -1)[0];
    CHECK(fusejit_test::as_doubles(Array(batched(r))) == fusejit_test::as_doubles(row));
  }
}

TEST_CASE("nonzero golden: jaxpr text as JAX's") {
  using T = Tracer;
  auto all = [](const std::vector<Array>& r) {
    std::vector<T> out(r.begin(), r.end());
    return out;
  };
  const std::map<std::string, std::function<std::string()>> texts = {
      {"nonzero_1d",
       [&] {
         return fj::make_jaxpr([&](T x) { return all(fj::nonzero(x, 4)); })(fj::ones({6})).str();
       }},
      {"nonzero_2d_fill",
       [&] {
         return fj::make_jaxpr([&](T x) { return all(fj::nonzero(x, 5, -1)); })(fj::ones({2, 3}))
             .str();
       }},
      {"nonzero_3d_bool",
       [&] {
         return fj::make_jaxpr([&](T x) { return all(fj::nonzero(x, 3)); })(
                    fj::ones({2, 2, 2}, fj::DType::bool_))
             .str();
       }},
      {"nonzero_size0",
       [&] {
         return fj::make_jaxpr([&](T x) { return all(fj::nonzero(x, 0)); })(fj::ones({4})).str();
       }},
      {"nonzero_empty",
       [&] {
         return fj::make_jaxpr([&](T x) { return all(fj::nonzero(x, 3)); })(fj::ones({0, 2})).str();
       }},
      {"flatnonzero_2d",
       [&] {
         return fj::make_jaxpr([](T x) { return fj::flatnonzero(x, 3); })(
                    fj::ones({2, 3}, fj::DType::i32))
             .str();
       }},
      {"argwhere_1d",
       [&] { return fj::make_jaxpr([](T x) { return fj::argwhere(x, 2); })(fj::ones({4})).str(); }},
      {"argwhere_2d_bool",
       [&] {
         return fj::make_jaxpr([](T x) { return fj::argwhere(x, 3, 0); })(
                    fj::ones({2, 3}, fj::DType::bool_))
             .str();
       }},
      {"argwhere_scalar",
       [&] { return fj::make_jaxpr([](T x) { return fj::argwhere(x, 2); })(fj::ones({})).str(); }},
      {"argwhere_size0",
       [&] {
         return fj::make_jaxpr([](T x) { return fj::argwhere(x, 0); })(fj::ones({2, 3})).str();
       }},
  };
  for (const auto& [name, text] : texts) {
    CAPTURE(name);
    CHECK(text() == kGolden.all().at("jaxpr " + name));
  }
}

TEST_CASE("nonzero golden: bad input names the function and the operand") {
  using fusejit_test::check_throws_with;
  check_throws_with<fj::ValueError>([] { fj::nonzero(fj::ones({})); },
                                    {"fj::nonzero", "at least one axis", "f32[]"});
  check_throws_with<fj::ValueError>([] { fj::nonzero(fj::ones({3}), -1); },
                                    {"fj::nonzero", "size must be nonnegative", "-1"});
  // Under jit the count is not static: JAX's jnp.nonzero needs size there too.
  check_throws_with<fj::ConcretizationError>(
      [] {
        fj::jit([](Tracer x) { return fj::argwhere(x); })(fj::ones({2, 3}));
      },
      {"fj::argwhere", "f32[2,3]", "pass size"});
}
