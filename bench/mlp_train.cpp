// One training step of a 2-layer MLP (784-512-10, batch 128, softmax cross-entropy): the loss
// and its gradients by fj::value_and_grad, then an SGD update of the four parameters.
//
// Rows are named mlp_step/<column>:
//   fusejit_jit       the whole step under fj::jit, warm (compiled before timing)
//   reference_eager   the same step without jit on the reference backend: value_and_grad's graph
//                     interpreted equation by equation and the SGD update as eager expressions
// Each row reports real time per step, in ms. Before timing, the binary checks that both columns
// give the same loss and updated parameters (within f32 accumulation-order differences) and
// that ten jitted steps lower the loss; it exits with status 1 otherwise.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <fusejit/fusejit.hpp>
#include <tuple>
#include <vector>

#include "bench_common.hpp"

namespace {

using fj::Array;

constexpr std::int64_t kBatch = 128, kIn = 784, kHidden = 512, kOut = 10;
constexpr float kLearningRate = 0.1f;

// A deterministic stream in [-1, 1): the same data on every run and column.
Array lcg_array(fj::Shape shape, std::uint32_t seed, float scale) {
  std::vector<float> v(static_cast<std::size_t>(shape.size()));
  std::uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = scale * (static_cast<float>(s >> 8) / 8388608.0f - 1.0f);
  }
  return fj::array(v, shape);
}

Array one_hot_labels() {
  std::vector<float> v(static_cast<std::size_t>(kBatch * kOut), 0.0f);
  for (std::int64_t i = 0; i < kBatch; ++i)
    v[static_cast<std::size_t>(i * kOut + (i * 7) % kOut)] = 1;
  return fj::array(v, fj::Shape{kBatch, kOut});
}

auto loss = [](Array w1, Array b1, Array w2, Array b2, Array x, Array y) {
  Array h = fj::maximum(fj::matmul(x, w1) + b1, 0.0f);
  Array logits = fj::matmul(h, w2) + b2;
  Array shifted = logits - fj::stop_gradient(fj::max(logits, {1}, true));
  Array log_probs = shifted - fj::log(fj::sum(fj::exp(shifted), {1}, true));
  return -fj::mean(fj::sum(y * log_probs, {1}));
};

// Made once: outside jit, a transformed function caches its compiled graph per argument avals.
const auto loss_and_grads = fj::value_and_grad(loss, fj::argnums{0, 1, 2, 3});

auto step = [](Array w1, Array b1, Array w2, Array b2, Array x, Array y) {
  auto [l, g] = loss_and_grads(w1, b1, w2, b2, x, y);
  auto& [g1, gb1, g2, gb2] = g;
  return std::make_tuple(l, Array(w1 - kLearningRate * g1), Array(b1 - kLearningRate * gb1),
                         Array(w2 - kLearningRate * g2), Array(b2 - kLearningRate * gb2));
};

struct Data {
  Array w1 = lcg_array({kIn, kHidden}, 1, 0.05f), b1 = fj::zeros({kHidden});
  Array w2 = lcg_array({kHidden, kOut}, 2, 0.05f), b2 = fj::zeros({kOut});
  Array x = lcg_array({kBatch, kIn}, 3, 1.0f), y = one_hot_labels();
};

const auto& jitted_step() {
  static auto s = fj::jit(step, "mlp_step");
  return s;
}

void BM_jit(benchmark::State& state) {
  Data d;
  if (!fusejit_bench::warm_up(state, [&] { jitted_step()(d.w1, d.b1, d.w2, d.b2, d.x, d.y); }))
    return;
  for (auto _ : state) {
    auto r = jitted_step()(d.w1, d.b1, d.w2, d.b2, d.x, d.y);
    benchmark::DoNotOptimize(std::get<0>(r));
  }
}

void BM_reference_eager(benchmark::State& state) {
  fusejit_bench::BackendGuard guard("reference");
  Data d;
  if (!fusejit_bench::warm_up(state, [&] { step(d.w1, d.b1, d.w2, d.b2, d.x, d.y); })) return;
  for (auto _ : state) {
    auto r = step(d.w1, d.b1, d.w2, d.b2, d.x, d.y);
    benchmark::DoNotOptimize(std::get<0>(r));
  }
}

// Both columns agree, and training lowers the loss.
bool self_check() {
  Data d;
  auto jr = jitted_step()(d.w1, d.b1, d.w2, d.b2, d.x, d.y);
  std::tuple<Array, Array, Array, Array, Array> er;
  {
    fusejit_bench::BackendGuard guard("reference");
    er = step(d.w1, d.b1, d.w2, d.b2, d.x, d.y);
  }
  bool ok = true;
  auto close = [&](const Array& a, const Array& b, const char* what) {
    const auto va = a.to_vector<float>(), vb = b.to_vector<float>();
    for (std::size_t i = 0; i < va.size(); ++i)
      // Sums of up to 784 f32 products in a different order: 1e-4 absolute on values of ~1.
      if (std::abs(va[i] - vb[i]) > 1e-4f * (1 + std::abs(vb[i]))) {
        std::fprintf(stderr, "mlp_train: %s differs at %zu: %g vs %g\n", what, i, va[i], vb[i]);
        ok = false;
        return;
      }
  };
  close(std::get<0>(jr), std::get<0>(er), "loss");
  close(std::get<1>(jr), std::get<1>(er), "w1");
  close(std::get<4>(jr), std::get<4>(er), "b2");
  Array w1 = d.w1, b1 = d.b1, w2 = d.w2, b2 = d.b2;
  const float first = std::get<0>(jr).item<float>();
  float last = first;
  for (int i = 0; i < 10; ++i) {
    auto r = jitted_step()(w1, b1, w2, b2, d.x, d.y);
    last = std::get<0>(r).item<float>();
    std::tie(std::ignore, w1, b1, w2, b2) = r;
  }
  if (!(last < first)) {
    std::fprintf(stderr, "mlp_train: the loss did not fall: %g -> %g\n", first, last);
    ok = false;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  fusejit_bench::row("mlp_step/fusejit_jit", 0.5, BM_jit);
  fusejit_bench::row("mlp_step/reference_eager", 0.5, BM_reference_eager);
  return fusejit_bench::checked_main(argc, argv, self_check);
}
