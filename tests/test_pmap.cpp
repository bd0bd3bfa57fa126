// fj::pmap over the 4 CPU devices tests/main.cpp asks for, and fj::lax's collectives under pmap
// and under vmap with an axis name: values against JAX 0.10.2's (jax_num_cpu_devices=4) and the
// issue's, or against plain loops over the devices' slices.
#include <doctest/doctest.h>
#include <fusejit/fusejit.hpp>

#include <cmath>
#include <vector>

#include "../examples/seed_functions.hpp"
#include "throws_with.hpp"

using fj::Array;
using fusejit_test::check_throws_with;

namespace {

constexpr int kDevices = 4;

std::vector<float> values(const Array& a) {
  return Array(a.astype(fj::DType::f32)).to_vector<float>();
}

// arange(n) as f32 of the given shape.
Array iota(std::int64_t n, std::initializer_list<std::int64_t> shape) {
  return fj::arange(static_cast<float>(n)).reshape(shape);
}

// Device d's slice of x (leading axis), as plain floats: the reference's inputs.
std::vector<float> slice_of(const std::vector<float>& x, int d) {
  const std::size_t per = x.size() / kDevices;
  return {x.begin() + static_cast<std::ptrdiff_t>(per * static_cast<std::size_t>(d)),
          x.begin() + static_cast<std::ptrdiff_t>(per * static_cast<std::size_t>(d + 1))};
}

}  // namespace

TEST_CASE("pmap: the seed's convolve on 4 devices, mapped and with in_axes (0, None)") {
  REQUIRE(fj::local_device_count() == kDevices);
  const Array xs = iota(20, {4, 5});
  const Array w = fj::array({2.f, 3.f, 4.f});
  const Array ws = fj::stack({w, w, w, w});
  const std::vector<float> want = {11, 20, 29, 56, 65, 74, 101, 110, 119, 146, 155, 164};
  const Array r = fj::pmap(fusejit_seeds::convolve)(xs, ws);
  CHECK(r.shape() == fj::Shape{4, 3});
  CHECK(values(r) == want);
  CHECK(values(fj::pmap(fusejit_seeds::convolve, fj::in_axes{0, fj::none})(xs, w)) == want);
  CHECK(values(fj::vmap(fusejit_seeds::convolve)(xs, ws)) == want);
}

TEST_CASE("pmap: x / psum(x) normalizes across devices") {
  auto f = fj::pmap([](const Array& x) { return x / fj::lax::psum(x, "i"); }, fj::axis_name{"i"});
  const std::vector<float> r = values(f(fj::arange(4.0f)));
  const std::vector<float> want = {0.f, 1.f / 6, 2.f / 6, 3.f / 6};  // JAX's [0 .167 .333 .5]
  for (int i = 0; i < 4; ++i)
    CHECK(r[static_cast<std::size_t>(i)] == want[static_cast<std::size_t>(i)]);
}

TEST_CASE("pmap: psum, pmean, pmax, pmin, all_gather, ppermute and axis_index against loops") {
  const Array x = iota(24, {4, 2, 3});
  const std::vector<float> xv = values(x);
  auto f = fj::pmap(
      [](const Array& v) {
        return std::make_tuple(fj::lax::psum(v, "i"), fj::lax::pmean(v, "i"), fj::lax::pmax(v, "i"),
                               fj::lax::pmin(v, "i"), fj::lax::all_gather(v, "i"),
                               fj::lax::all_gather(v, "i", 1, true),
                               fj::lax::ppermute(v, "i", {{0, 1}, {1, 2}}),
                               fj::lax::axis_index("i"));
      },
      fj::axis_name{"i"});
  const auto [sum, mean, mx, mn, gathered, tiled, permuted, index] = f(x);
  std::vector<float> want_sum, want_mean, want_max, want_min;
  for (int d = 0; d < kDevices; ++d)
    for (std::size_t k = 0; k < 6; ++k) {
      float s = 0, hi = -INFINITY, lo = INFINITY;
      for (int e = 0; e < kDevices; ++e) {
        const float v = slice_of(xv, e)[k];
        s += v, hi = std::max(hi, v), lo = std::min(lo, v);
      }
      want_sum.push_back(s), want_mean.push_back(s / 4), want_max.push_back(hi);
      want_min.push_back(lo);
    }
  CHECK(values(sum) == want_sum);
  CHECK(values(mean) == want_mean);  // JAX: [[9 10 11] [12 13 14]] on every device
  CHECK(values(mx) == want_max);
  CHECK(values(mn) == want_min);
  // all_gather: every device holds x whole; tiled along axis 1: (2, 12), devices side by side.
  CHECK(gathered.shape() == fj::Shape{4, 4, 2, 3});
  for (int d = 0; d < kDevices; ++d) CHECK(values(gathered(d)) == xv);
  CHECK(tiled.shape() == fj::Shape{4, 2, 12});
  std::vector<float> want_tiled;
  for (int row = 0; row < 2; ++row)
    for (int e = 0; e < kDevices; ++e)
      for (int c = 0; c < 3; ++c)
        want_tiled.push_back(slice_of(xv, e)[static_cast<std::size_t>(row * 3 + c)]);
  for (int d = 0; d < kDevices; ++d) CHECK(values(tiled(d)) == want_tiled);
  // ppermute (0->1, 1->2): devices 0 and 3 receive nothing, so zeros (JAX's values).
  CHECK(values(permuted(0)) == std::vector<float>(6, 0.f));
  CHECK(values(permuted(1)) == slice_of(xv, 0));
  CHECK(values(permuted(2)) == slice_of(xv, 1));
  CHECK(values(permuted(3)) == std::vector<float>(6, 0.f));
  CHECK(index.dtype() == fj::DType::i32);
  CHECK(index.to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 1, 2, 3});
}

TEST_CASE("pmap: all_to_all and psum_scatter, JAX 0.10.2's values") {
  const Array y = iota(32, {4, 4, 2});
  auto f = fj::pmap(
      [](const Array& v) {
        return std::make_tuple(fj::lax::all_to_all(v, "i", 0, 0),
                               fj::lax::psum_scatter(v, "i", 0, true),
                               fj::lax::psum_scatter(v, "i"));
      },
      fj::axis_name{"i"});
  const auto [a2a, tiled, scattered] = f(y);
  // JAX: device d holds row d of every device's (4, 2) block, in device order.
  CHECK(values(a2a) == std::vector<float>{0,  1,  8,  9,  16, 17, 24, 25, 2,  3,  10,
                                          11, 18, 19, 26, 27, 4,  5,  12, 13, 20, 21,
                                          28, 29, 6,  7,  14, 15, 22, 23, 30, 31});
  CHECK(tiled.shape() == fj::Shape{4, 1, 2});
  CHECK(values(tiled) == std::vector<float>{48, 52, 56, 60, 64, 68, 72, 76});
  CHECK(scattered.shape() == fj::Shape{4, 2});
  CHECK(values(scattered) == std::vector<float>{48, 52, 56, 60, 64, 68, 72, 76});
  // Not tiled, split 0 and concat 1: JAX stages expand_dims, all_to_all and squeeze.
  const Array z = iota(48, {4, 4, 3});
  const Array r = fj::pmap([](const Array& v) { return fj::lax::all_to_all(v, "i", 0, 1); },
                           fj::axis_name{"i"})(z);
  CHECK(r.shape() == fj::Shape{4, 3, 4});
  CHECK(values(r(1)) == std::vector<float>{3, 15, 27, 39, 4, 16, 28, 40, 5, 17, 29, 41});
}

TEST_CASE("pmap: grad through psum is psum's transpose, as in JAX's pmap") {
  auto g = fj::pmap(fj::grad([](const Array& v) { return fj::lax::psum(v * v, "i"); }),
                    fj::axis_name{"i"});
  CHECK(values(g(fj::arange(4.0f))) == std::vector<float>{0, 8, 16, 24});
  // all_gather's transpose is psum_scatter: d/dv sum(all_gather(v) * c) = sum over devices of c.
  auto h = fj::pmap(fj::grad([](const Array& v) {
                      return fj::sum(fj::lax::all_gather(v, "i") * fj::arange(4.0f));
                    }),
                    fj::axis_name{"i"});
  CHECK(values(h(fj::arange(4.0f))) == std::vector<float>{0, 4, 8, 12});
}

TEST_CASE("vmap with an axis name: collectives act on the batch axis, as in JAX") {
  auto f = fj::vmap(
      [](const Array& v) {
        return std::make_tuple(fj::lax::psum(v, "i"), fj::lax::axis_index("i"),
                               fj::lax::all_gather(v, "i"),
                               fj::lax::ppermute(v, "i", {{0, 1}, {1, 2}}), fj::lax::pmax(v, "i"),
                               fj::lax::psum_scatter(fj::lax::all_gather(v, "i"), "i"));
      },
      fj::axis_name{"i"});
  const auto [s, idx, g, p, mx, sc] = f(fj::arange(4.0f));
  // JAX 0.10.2: [6 6 6 6], [0 1 2 3], [[0 1 2 3] x4], [0 0 1 0], [3 3 3 3], psum_scatter of the
  // gathered rows: 4 * [0 1 2 3].
  CHECK(values(s) == std::vector<float>{6, 6, 6, 6});
  CHECK(idx.to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 1, 2, 3});
  CHECK(values(g) == std::vector<float>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3});
  CHECK(values(p) == std::vector<float>{0, 0, 1, 0});
  CHECK(values(mx) == std::vector<float>{3, 3, 3, 3});
  CHECK(values(sc) == std::vector<float>{0, 4, 8, 12});
  // The same function under pmap gives the same values.
  auto pf =
      fj::pmap([](const Array& v) { return fj::lax::psum(v, "i") + fj::lax::axis_index("i"); },
               fj::axis_name{"i"});
  auto vf =
      fj::vmap([](const Array& v) { return fj::lax::psum(v, "i") + fj::lax::axis_index("i"); },
               fj::axis_name{"i"});
  CHECK(values(pf(fj::arange(4.0f))) == values(vf(fj::arange(4.0f))));
  // all_to_all positionally, tiled and not, equals the devices' exchange.
  const Array y = iota(32, {4, 4, 2}), z = iota(48, {4, 4, 3});
  auto a2a = [](const Array& v) {
    return std::make_tuple(fj::lax::all_to_all(v, "i", 0, 0),
                           fj::lax::all_to_all(v, "i", 0, 1, true));
  };
  auto a2a_cols = [](const Array& v) { return fj::lax::all_to_all(v, "i", 0, 1); };
  const auto [pa, pt] = fj::pmap(a2a, fj::axis_name{"i"})(y);
  const auto [va, vt] = fj::vmap(a2a, fj::axis_name{"i"})(y);
  CHECK(values(va) == values(pa));
  CHECK(vt.shape() == pt.shape());
  CHECK(values(vt) == values(pt));
  CHECK(values(fj::vmap(a2a_cols, fj::axis_name{"i"})(z)) ==
        values(fj::pmap(a2a_cols, fj::axis_name{"i"})(z)));
  // Inside another trace a pmap stages as a shard_map that runs as the vmap with its axis name:
  // the same values (its printing: test_pmap_jaxpr.cpp).
  CHECK(values(fj::jit(pf)(fj::arange(4.0f))) == values(vf(fj::arange(4.0f))));
}

TEST_CASE("pmap: out_axes none gives device 0's value; compiled once; fewer devices") {
  int traces = 0;
  auto f = fj::pmap(
      [&traces](const Array& v) {
        ++traces;
        return std::make_tuple(fj::lax::psum(v, "i"), v * 2.f);
      },
      fj::axis_name{"i"}, fj::out_axes{fj::none, 0});
  const auto [total, doubled] = f(fj::arange(4.0f));
  CHECK(total.shape() == fj::Shape{});
  CHECK(total.item<float>() == 6.f);
  CHECK(values(doubled) == std::vector<float>{0, 2, 4, 6});
  f(fj::arange(4.0f));
  CHECK(traces == 1);  // one trace for all devices and both calls
  auto two = fj::pmap([](const Array& v) { return fj::lax::psum(v, "i"); }, fj::axis_name{"i"},
                      fj::axis_size{2});
  CHECK(values(two(fj::array({1.f, 2.f}))) == std::vector<float>{3, 3});
  auto listed = fj::pmap([](const Array&) { return fj::lax::axis_index("i"); }, fj::axis_name{"i"},
                         fj::devices_arg{fj::local_devices()[2], fj::local_devices()[3]});
  CHECK(listed(fj::zeros({2})).to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 1});
}

TEST_CASE("pmap: bad input names the sizes, the axis names in scope and the failing device") {
  auto sum = fj::pmap([](const Array& v) { return fj::lax::psum(v, "i"); }, fj::axis_name{"i"});
  check_throws_with<fj::ValueError>([&] { sum(fj::arange(3.0f)); },
                                    {"fj::pmap", "size 3", "4 devices"});
  auto unbound = fj::pmap([](const Array& v) { return fj::lax::psum(v, "j"); }, fj::axis_name{"i"});
  check_throws_with<fj::NameError>([&] { unbound(fj::arange(4.0f)); },
                                   {"fj::lax::psum", "unbound axis name 'j'", "'i'"});
  check_throws_with<fj::NameError>(
      [&] { fj::jit([](const Array& v) { return fj::lax::psum(v, "i"); })(fj::arange(4.0f)); },
      {"unbound axis name 'i'", "none"});
  check_throws_with<fj::ValueError>(
      [&] {
        fj::pmap(
            [](const Array& v) {
              return fj::lax::ppermute(v, "i", {{0, 4}});
            },
            fj::axis_name{"i"})(fj::arange(4.0f));
      },
      {"ppermute", "(0, 4)", "size 4"});
  // A device that raises stops the others at their next collective; the error is its own.
  auto failing = fj::pmap(
      [](const Array& v) {
        Array w = fj::pure_callback(
            [](const Array& a) {
              if (a.item<float>() == 2.f) throw std::runtime_error("device two refuses");
              return a;
            },
            fj::ShapeDtypeStruct{fj::Shape{}, fj::DType::f32}, v);
        return fj::lax::psum(w, "i");
      },
      fj::axis_name{"i"});
  check_throws_with<fj::CallbackError>([&] { failing(fj::arange(4.0f)); }, {"device two refuses"});
  CHECK(values(failing.operator()(fj::array({0.f, 1.f, 3.f, 4.f}))) ==
        std::vector<float>{8, 8, 8, 8});  // the devices recover for the next call
  // in_axes and out_axes out of range: one check for the devices' run and the staged one.
  auto bad_in = fj::pmap([](const Array& v) { return v; }, fj::in_axes{2});
  auto bad_out = fj::pmap([](const Array& v) { return v; }, fj::out_axes{-3});
  for (bool staged : {false, true}) {
    CAPTURE(staged);
    auto run = [&](const auto& f) {
      if (staged)
        (void)fj::jit(f)(iota(8, {4, 2}));
      else
        (void)f(iota(8, {4, 2}));
    };
    check_throws_with<fj::ValueError>([&] { run(bad_in); },
                                      {"fj::pmap", "in_axes 2", "out of range", "(4, 2)"});
    check_throws_with<fj::ValueError>([&] { run(bad_out); },
                                      {"fj::pmap", "out_axes -3", "out of range", "rank 2"});
  }
  auto no_grad =
      fj::pmap(fj::grad([](const Array& v) { return fj::lax::pmax(v, "i"); }), fj::axis_name{"i"});
  check_throws_with<fj::Error>([&] { no_grad(fj::arange(4.0f)); }, {"pmax"});
}

TEST_CASE("pmap: the transposes of ppermute, all_to_all and psum_scatter, jvp, and vmap inside") {
  const Array x = fj::arange(4.0f);
  auto scale = [] { return fj::lax::axis_index("i").astype(fj::DType::f32) + 1.0f; };
  // JAX 0.10.2: ppermute's cotangent travels the inverted pairs back: [2 3 0 0].
  auto gp = fj::pmap(fj::grad([&](const Array& v) {
                       return fj::sum(fj::lax::ppermute(v, "i", {{0, 1}, {1, 2}}) * scale());
                     }),
                     fj::axis_name{"i"});
  CHECK(values(gp(x)) == std::vector<float>{2, 3, 0, 0});
  // all_to_all's transpose swaps split and concat: device d's row j gets (j+1) * c[d].
  const Array y = iota(32, {4, 4, 2});
  auto ga = fj::pmap(fj::grad([&](const Array& v) {
                       return fj::sum(fj::lax::all_to_all(v, "i", 0, 0) *
                                      fj::arange(8.0f).reshape({4, 2}) * scale());
                     }),
                     fj::axis_name{"i"});
  CHECK(values(ga(y)) == std::vector<float>{0,  1,  0, 2, 0,  3,  0,  4,  2,  3,  4,
                                            6,  6,  9, 8, 12, 4,  5,  8,  10, 12, 15,
                                            16, 20, 6, 7, 12, 14, 18, 21, 24, 28});
  // psum_scatter's transpose is all_gather: row j of every device gets j + 1.
  auto gs = fj::pmap(fj::grad([&](const Array& v) {
                       return fj::sum(fj::lax::psum_scatter(v, "i", 0, true) * scale());
                     }),
                     fj::axis_name{"i"});
  std::vector<float> want;
  for (int d = 0; d < 4; ++d)
    for (int j = 1; j <= 4; ++j) want.insert(want.end(), {float(j), float(j)});
  CHECK(values(gs(y)) == want);
  // jvp: ppermute is linear, so the tangent of u*u (2u) is what travels: [0 0 2 0].
  auto jp = fj::pmap(
      [](const Array& v) {
        return fj::jvp(
                   [](const Array& u) {
                     return fj::lax::ppermute(u * u, "i", {{0, 1}, {1, 2}});
                   },
                   std::array<Array, 1>{v}, std::array<Array, 1>{fj::ones_like(v)})
            .second;
      },
      fj::axis_name{"i"});
  CHECK(values(jp(x)) == std::vector<float>{0, 0, 2, 0});
  // An unnamed vmap inside the pmap: the collectives map over its rows.
  const Array z = iota(24, {4, 3, 2});
  auto inner = fj::pmap(fj::vmap([](const Array& r) {
                          return std::make_tuple(
                              fj::lax::psum(r, "i"), fj::lax::all_gather(r, "i"),
                              fj::lax::psum_scatter(fj::lax::all_gather(r, "i"), "i", 0, true));
                        }),
                        fj::axis_name{"i"});
  const auto [rows, gathered, scattered] = inner(z);
  auto at = [](int g, int r, int k) { return static_cast<float>(g * 6 + r * 2 + k); };
  std::vector<float> want_rows, want_gathered, want_scattered;
  for (int d = 0; d < 4; ++d)
    for (int r = 0; r < 3; ++r) {
      for (int k = 0; k < 2; ++k)
        want_rows.push_back(at(0, r, k) + at(1, r, k) + at(2, r, k) + at(3, r, k));
      for (int g = 0; g < 4; ++g)
        for (int k = 0; k < 2; ++k) want_gathered.push_back(at(g, r, k));
      for (int k = 0; k < 2; ++k) want_scattered.push_back(4 * at(d, r, k));  // JAX: 0 4 8 12 ...
    }
  CHECK(values(rows) == want_rows);
  CHECK(gathered.shape() == fj::Shape{4, 3, 4, 2});
  CHECK(values(gathered) == want_gathered);
  CHECK(scattered.shape() == fj::Shape{4, 3, 1, 2});
  CHECK(values(scattered) == want_scattered);
}
