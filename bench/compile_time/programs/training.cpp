// A 100-line training program as a JAX user first writes it: pytree parameters (a struct of
// layers), value_and_grad of a loss, a jitted Adam step built with tree_map, a data-generating
// fori_loop, and a training loop on the host.
#include <cmath>
#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <iostream>
#include <utility>
#include <vector>

struct Dense {
  fj::Array w, b;
};
FUSEJIT_PYTREE(Dense, w, b)

struct Model {
  std::vector<Dense> layers;
};
FUSEJIT_PYTREE(Model, layers)

struct AdamState {
  Model m, v;
  fj::Array step;
};
FUSEJIT_PYTREE(AdamState, m, v, step)

Model init_model(const std::vector<std::int64_t>& widths, fj::Array key) {
  Model model;
  for (std::size_t i = 0; i + 1 < widths.size(); ++i) {
    fj::Array keys = fj::random::split(key, 2);
    key = keys(0);
    const float scale = std::sqrt(2.0f / static_cast<float>(widths[i]));
    model.layers.push_back({fj::random::normal(keys(1), {widths[i], widths[i + 1]}) * scale,
                            fj::zeros({widths[i + 1]})});
  }
  return model;
}

fj::Array predict(const Model& model, fj::Array x) {
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    x = fj::matmul(x, model.layers[i].w) + model.layers[i].b;
    if (i + 1 < model.layers.size()) x = fj::tanh(x);
  }
  return x;
}

fj::Array loss(const Model& model, const fj::Array& x, const fj::Array& y) {
  fj::Array err = predict(model, x) - y;
  return fj::mean(err * err);
}

AdamState adam_init(const Model& model) {
  auto zeros_like = [](const fj::Array& p) { return fj::zeros_like(p); };
  return {fj::tree_map(zeros_like, model), fj::tree_map(zeros_like, model), fj::zeros({}, fj::i32)};
}

int main() {
  const float lr = 1e-2f, b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
  fj::Array key = fj::random::key(0);
  Model model = init_model({1, 32, 32, 1}, key);
  AdamState opt = adam_init(model);

  // Inputs on a grid and a target built by a fori_loop (a truncated Taylor series of sin).
  fj::Array x = fj::reshape(fj::linspace(-2.0f, 2.0f, 64), {64, 1});
  auto taylor_sin = fj::jit([](fj::Tracer t) {
    auto body = [&](fj::Tracer k, std::pair<fj::Array, fj::Array> c) {
      fj::Array kf = fj::astype(k, fj::f32);
      fj::Array next = -c.second * t * t / ((2.0f * kf + 2.0f) * (2.0f * kf + 3.0f));
      return std::make_pair(c.first + next, next);
    };
    return fj::lax::fori_loop(0, 8, body, std::make_pair(fj::Array(t), fj::Array(t))).first;
  });
  fj::Array y = taylor_sin(x);

  auto train_step = fj::jit(
      [&](const Model& params, const AdamState& state, const fj::Array& xb, const fj::Array& yb) {
        auto [value, grads] = fj::value_and_grad(loss)(params, xb, yb);
        fj::Array t = fj::astype(state.step + 1, fj::f32);
        Model m = fj::tree_map(
            [&](const fj::Array& mi, const fj::Array& g) { return b1 * mi + (1 - b1) * g; },
            state.m, grads);
        Model v = fj::tree_map(
            [&](const fj::Array& vi, const fj::Array& g) { return b2 * vi + (1 - b2) * g * g; },
            state.v, grads);
        fj::Array c1 = 1.0f - fj::pow(b1, t), c2 = 1.0f - fj::pow(b2, t);
        Model next = fj::tree_map(
            [&](const fj::Array& p, const fj::Array& mi, const fj::Array& vi) {
              return p - lr * (mi / c1) / (fj::sqrt(vi / c2) + eps);
            },
            params, m, v);
        return std::make_tuple(value, next, AdamState{m, v, state.step + 1});
      });

  float first = 0, last = 0;
  for (int step = 0; step < 200; ++step) {
    auto [value, next, next_opt] = train_step(model, opt, x, y);
    model = std::move(next);
    opt = std::move(next_opt);
    last = value.item<float>();
    if (step == 0) first = last;
  }
  std::cout << "loss " << first << " -> " << last << "\n";
  return last < first ? 0 : 1;
}
