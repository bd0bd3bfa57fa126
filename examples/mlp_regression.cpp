// The MLP of JAX's pytree tutorial fitted to a noisy 1-D function: the parameters are a
// std::vector of registered Layer structs, one jitted step computes value_and_grad of the loss
// and the SGD update through tree_map. Exits non-zero unless the loss falls 10x in 1000 steps.
#include <cmath>
#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <iostream>
#include <vector>

struct Layer {
  fj::Array weights, biases;
};
FUSEJIT_PYTREE(Layer, weights, biases)

namespace {

// Deterministic standard normals (a linear congruential generator and Box-Muller); this will
// switch to fj::random once it lands.
class Normals {
 public:
  explicit Normals(std::uint32_t seed) : x_(seed) {}
  float operator()() {
    const double u1 = uniform(), u2 = uniform();
    return static_cast<float>(std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  }

 private:
  double uniform() {
    x_ = x_ * 6364136223846793005ull + 1442695040888963407ull;
    return (static_cast<double>(x_ >> 11) + 0.5) / 9007199254740992.0;  // in (0, 1)
  }
  std::uint64_t x_;
};

// As the tutorial: weights normal * sqrt(2 / n_in), biases ones.
std::vector<Layer> init_mlp_params(const std::vector<std::int64_t>& widths, Normals& normal) {
  std::vector<Layer> params;
  for (std::size_t i = 0; i + 1 < widths.size(); ++i) {
    const std::int64_t n_in = widths[i], n_out = widths[i + 1];
    std::vector<float> w(static_cast<std::size_t>(n_in * n_out));
    for (auto& v : w) v = normal() * std::sqrt(2.0f / static_cast<float>(n_in));
    params.push_back({fj::array(w, {n_in, n_out}), fj::ones({n_out})});
  }
  return params;
}

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
    Normals normal(42);
    std::vector<Layer> params = init_mlp_params({1, 128, 128, 1}, normal);

    // ys = xs ** 2 plus a little noise, 128 points.
    std::vector<float> xv(128), yv(128);
    for (std::size_t i = 0; i < xv.size(); ++i) {
      xv[i] = normal();
      yv[i] = xv[i] * xv[i] + 0.05f * normal();
    }
    const fj::Array xs = fj::array(xv, {128, 1}), ys = fj::array(yv, {128, 1});

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
