// The MLP parameters of JAX's pytree tutorial, shared by the examples: a std::vector of Layer
// structs registered as pytree nodes, initialized from a random key as the tutorial does.
#pragma once
#include <cmath>
#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <vector>

struct Layer {
  fj::Array weights, biases;
};
FUSEJIT_PYTREE(Layer, weights, biases)

/// As the tutorial: for each (n_in, n_out), weights normal * sqrt(2 / n_in) and biases ones;
/// each layer draws from its own key, split from `key`.
inline std::vector<Layer> init_mlp_params(const std::vector<std::int64_t>& widths,
                                          const fj::Array& key) {
  std::vector<Layer> params;
  const auto n_layers = static_cast<std::int64_t>(widths.size()) - 1;
  const fj::Array keys = fj::random::split(key, n_layers);
  for (std::int64_t i = 0; i < n_layers; ++i) {
    const std::int64_t n_in = widths[static_cast<std::size_t>(i)];
    const std::int64_t n_out = widths[static_cast<std::size_t>(i) + 1];
    const fj::Array w = fj::random::normal(keys(i), {n_in, n_out}) *
                        static_cast<float>(std::sqrt(2.0 / static_cast<double>(n_in)));
    params.push_back({w, fj::ones({n_out})});
  }
  return params;
}
