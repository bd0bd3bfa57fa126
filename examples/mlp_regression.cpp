// The MLP of JAX's pytree tutorial fitted to a noisy 1-D function: the parameters are a
// std::vector of registered Layer structs, one jitted step computes value_and_grad of the loss
// and the SGD update through tree_map. Exits non-zero unless the loss falls 10x in 1000 steps.
#include <cmath>
#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <iostream>
#include <vector>

#include "mlp_params.hpp"

namespace {

fj::Array forward(const std::vector<Layer>& params, fj::Array x) {
  for (std::size_t i = 0; i + 1 < params.size(); ++i)
    x = fj::maximum(fj::matmul(x, params[i].weights) + params[i].biases, 0.0f);
  return fj::matmul(x, params.back().weights) + params.back().biases;
}

fj::Array loss_fn(const std::vector<Layer>& params, const fj::Array& x, const fj::Array& y) {
  const fj::Array d = forward(params, x) - y;
  return fj::mean(d * d);
}

}  // namespace

int main() {
  try {
    // As the tutorial: params from one key; xs normal, ys = xs ** 2 plus a little noise.
    const fj::Array key = fj::random::key(42);
    const fj::Array keys = fj::random::split(key, 3);
    std::vector<Layer> params = init_mlp_params({1, 128, 128, 1}, keys(0));
    const fj::Array xs = fj::random::normal(keys(1), {128, 1});
    const fj::Array ys = fj::Array(xs * xs + 0.05f * fj::random::normal(keys(2), {128, 1}));

    const float learning_rate = 1e-3f;
    auto update = fj::jit([&](const std::vector<Layer>& p, const fj::Array& x, const fj::Array& y) {
      auto [loss, grads] = fj::value_and_grad(loss_fn)(p, x, y);
      auto next = fj::tree_map(
          [&](const fj::Array& w, const fj::Array& g) { return w - learning_rate * g; }, p, grads);
      return std::make_pair(loss, next);
    });

    float first = 0, last = 0;
    for (int step = 0; step < 1000; ++step) {
      auto [loss, next] = update(params, xs, ys);
      params = std::move(next);
      last = loss.item<float>();
      if (step == 0) first = last;
      if (step % 100 == 0) std::cout << "step " << step << ": loss " << last << "\n";
    }
    last = fj::Array(loss_fn(params, xs, ys)).item<float>();
    std::cout << "final loss " << last << " (" << first / last << "x lower; traced "
              << update.trace_count() << " time)\n";
    if (!(last * 10 <= first)) {
      std::cerr << "the loss did not fall 10x\n";
      return 1;
    }
  } catch (const fj::Error& e) {
    std::cerr << "fusejit error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
