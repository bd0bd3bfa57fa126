// Programs of any size (issue 45): a long run of fused equations is cut into kernels of bounded
// weight (fuse.hpp's kernel_weight), which compile once per structure and give the bits of the
// uncut kernel; programs of 20 000 and 100 000 equations trace, print, differentiate, batch,
// compile and run, with values checked against float64 arithmetic done here; and a 512-layer
// MLP's gradient agrees with the reference backend's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fusejit/fusejit.hpp>
#include <fusejit/ir/passes/fuse.hpp>
#include <set>
#include <string>
#include <vector>

#include "backend_compare.hpp"

namespace {

using fj::Tracer;

// n steps of y = y + a * sin(y): three equations a step (sin, mul, add).
auto chain(int n, float a) {
  return [n, a](Tracer x) {
    Tracer y = x;
    for (int i = 0; i < n; ++i) y = y + fj::sin(y) * a;
    return y;
  };
}

// The same steps in float64, and the derivative of the result by the input (the product of the
// steps' 1 + a cos(y)).
struct Reference {
  double value, derivative;
};
Reference chain_in_double(int n, double a, double x) {
  double y = x, d = 1;
  for (int i = 0; i < n; ++i) {
    d *= 1 + a * std::cos(y);
    y += a * std::sin(y);
  }
  return {y, d};
}

fj::Array arange_f32(std::int64_t n, float from, float step) {
  std::vector<float> v;
  for (std::int64_t i = 0; i < n; ++i) v.push_back(from + step * static_cast<float>(i));
  return fj::array(v);
}

std::vector<std::uint32_t> bits(const fj::Array& a) {
  const std::vector<float> v = a.to_vector<float>();
  std::vector<std::uint32_t> out(v.size());
  std::memcpy(out.data(), v.data(), v.size() * sizeof(float));
  return out;
}

// The kernels fuse() makes of f's graph: each one's weight, and how many structures they have.
struct Kernels {
  std::vector<std::size_t> weights;
  std::size_t structures = 0;
};
Kernels kernels_of(const fj::ir::Graph& g) {
  Kernels k;
  std::set<std::string> seen;
  for (const fj::ir::Eqn& e : fj::ir::fuse(g).eqns) {
    if (e.prim != fj::ir::Prim::fused) continue;
    const fj::ir::Graph& sub = *e.params.get<fj::ir::GraphPtr>("jaxpr");
    std::size_t w = 0;
    for (const fj::ir::Eqn& q : sub.eqns) w += fj::ir::kernel_weight(q.prim);
    k.weights.push_back(w);
    seen.insert(fj::ir::print_jaxpr(sub));
  }
  k.structures = seen.size();
  return k;
}

// Restores the LLVM backend's kernel weight bound.
struct WeightLimit {
  explicit WeightLimit(std::size_t w) { fj::ir::kernel_weight_limit() = w; }
  ~WeightLimit() { fj::ir::kernel_weight_limit() = fj::ir::kMaxKernelWeight; }
};

}  // namespace

TEST_CASE("program size: a long run of fused equations is cut into kernels of bounded weight") {
  const auto f = chain(300, 0.5f);  // 900 equations, weight 300 * (16 + 1 + 1)
  const fj::Array x = arange_f32(1000, -3.f, 0.006f);
  const Kernels k = kernels_of(fj::make_jaxpr(f)(x).graph());
  // Each kernel weighs at most the bound plus the equation that crossed it; a step is 18.
  CHECK(k.weights.size() >= 300 * 18 / (fj::ir::kMaxKernelWeight + 16));
  for (std::size_t w : k.weights) CHECK(w <= fj::ir::kMaxKernelWeight + 16);
  // Cut where the fewest values cross (between steps), the middle pieces are one structure.
  CHECK(k.structures <= 3);
  // Ordinary kernels are not cut: a softmax is one kernel per reduction, as before.
  const Kernels softmax = kernels_of(
      fj::make_jaxpr([](Tracer z) { return fj::exp(z - fj::max(z)) / fj::sum(fj::exp(z)); })(x)
          .graph());
  CHECK(softmax.weights.size() == 3);

  if (!fusejit_test::has_backend("llvm")) return;
  fusejit_test::BackendScope llvm("llvm");
  // Compiled once per structure (the kernel cache), and bit for bit the uncut kernel's values.
  const auto before = fj::cache_stats();
  const fj::Array cut = fj::jit(f)(x);
  CHECK(fj::cache_stats().compiles - before.compiles <= k.structures);
  fj::Array whole;
  {
    WeightLimit no_bound(0);
    whole = fj::jit(f)(x);
  }
  CHECK(bits(cut) == bits(whole));
}

namespace {

// Traces, prints, differentiates, batches, compiles and runs a chain of `steps` steps (3 * steps
// equations; 7 * steps under grad) on a few elements, checking the values in float64.
void check_program_of(int steps) {
  CAPTURE(steps);
  const float a = 1e-3f;
  const auto f = chain(steps, a);
  const fj::Array x = arange_f32(4, 0.5f, 0.5f);
  const std::vector<float> xs = x.to_vector<float>();
  const fj::Jaxpr jaxpr = fj::make_jaxpr(f)(x);
  CHECK(jaxpr.graph().eqns.size() == static_cast<std::size_t>(3 * steps));
  CHECK(jaxpr.str().size() > static_cast<std::size_t>(3 * steps) * 20);
  // Each step rounds to float32 (about 2^-24 relative, the derivative's factors near 1): the
  // errors add up over the steps, hence a bound of steps * 2^-22 relative.
  const double tol = steps * std::ldexp(1.0, -22);
  const std::vector<float> y = fj::jit(f)(x).to_vector<float>();
  auto sum_f = [&](Tracer t) { return fj::sum(f(t)); };
  const std::vector<float> dy = fj::jit(fj::grad(sum_f))(x).to_vector<float>();
  const fj::Array rows = fj::reshape(fj::concatenate({x, x * 2.f}), {2, 4});
  const std::vector<float> yb = fj::jit(fj::vmap(f))(rows).to_vector<float>();
  for (std::size_t i = 0; i < xs.size(); ++i) {
    CAPTURE(i);
    const Reference r = chain_in_double(steps, a, xs[i]);
    CHECK(std::abs(y[i] - r.value) <= tol * std::abs(r.value));
    CHECK(std::abs(dy[i] - r.derivative) <= tol * std::abs(r.derivative));
    CHECK(std::abs(yb[i] - r.value) <= tol * std::abs(r.value));
    const Reference r2 = chain_in_double(steps, a, 2.0 * xs[i]);
    CHECK(std::abs(yb[4 + i] - r2.value) <= tol * std::abs(r2.value));
  }
}

}  // namespace

TEST_CASE("program size: 20 000 equations trace, differentiate, batch, compile and run") {
  check_program_of(6667);
}

TEST_CASE("program size: 100 000 equations trace, differentiate, batch, compile and run") {
  check_program_of(33334);
}

TEST_CASE("program size: a 512-layer MLP's gradient agrees with the reference backend") {
  if (!fusejit_test::has_backend("llvm")) return;
  // Weights from a 64-bit LCG, uniform in +-sqrt(3 / 64): variance 1 / 64, the critical gain of a
  // tanh network, where a difference in rounding neither grows nor dies out exponentially with
  // depth (at gain 1.5 the two backends' last-ulp differences grew to the gradient's own size
  // over 512 layers, as chaos does; at gain 1 they stay near 1e-5).
  std::uint64_t state = 42;
  auto uniform = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>(static_cast<double>(state >> 11) * 0x1.0p-53 * 2 - 1);
  };
  auto matrix = [&](std::int64_t r, std::int64_t c, float scale) {
    std::vector<float> v(static_cast<std::size_t>(r * c));
    for (float& e : v) e = scale * uniform();
    return fj::array(v, fj::Shape({r, c}));
  };
  constexpr int kLayers = 512;
  std::vector<fj::Array> ws;
  for (int l = 0; l < kLayers; ++l) ws.push_back(matrix(64, 64, std::sqrt(3.f / 64)));
  const fj::Array x = matrix(32, 64, 1.f);
  auto loss = [](const std::vector<Tracer>& w, Tracer h) {
    for (const Tracer& wl : w) h = fj::tanh(fj::matmul(h, wl));
    return fj::sum(h * h);
  };
  auto gradient = [&](const char* backend) {
    fusejit_test::BackendScope scope(backend);
    return fj::jit(fj::grad(loss))(ws, x);
  };
  const std::vector<fj::Array> llvm = gradient("llvm"), reference = gradient("reference");
  REQUIRE(llvm.size() == ws.size());
  // Both sum each product in float32, in different orders (Eigen's blocked kernel, the
  // reference's loop): a few ulps a layer, carried through up to 512 layers of tanh and back
  // (measured: 1.1e-5 of the layer's largest entry). 1e-3 leaves a wide margin and is far below
  // the gradient's own scale, so a wrong rule or a wrong kernel still fails.
  double worst = 0;
  for (std::size_t l = 0; l < ws.size(); ++l) {
    const std::vector<float> a = llvm[l].to_vector<float>(), b = reference[l].to_vector<float>();
    double scale = 0, diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      scale = std::max(scale, std::abs(static_cast<double>(b[i])));
      diff = std::max(diff, std::abs(static_cast<double>(a[i]) - b[i]));
    }
    CAPTURE(l);
    REQUIRE(scale > 0);
    worst = std::max(worst, diff / scale);
  }
  MESSAGE("largest difference, relative to the layer's largest entry: " << worst);
  CHECK(worst <= 1e-3);
}
