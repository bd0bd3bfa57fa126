// The seeds' pytrees in C++: leaf counts and structures of nested containers, tree_map over
// lists of lists, an MLP's parameters as a std::vector of registered Layer structs, and the same
// tree through jit, grad and a lax loop.
#include <fusejit/fusejit.hpp>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "mlp_params.hpp"

namespace {

// Python's (1, 128) prints as (1,128) in the seed; (128,) keeps its comma.
std::string shape_text(const fj::Shape& s) {
  std::string r = "(";
  for (int d = 0; d < s.rank(); ++d) r += (d ? "," : "") + std::to_string(s[d]);
  return r + (s.rank() == 1 ? ",)" : ")");
}

}  // namespace

int main() {
  try {
    // example_trees: leaves of (1, (2, 3), ()) and [1, {'k1': 2, 'k2': (3, 4)}, 5]. A Python list
    // of mixed values is a std::vector of a std::variant; a dict's values of different
    // structures are std::variant values of a std::map (the variant is transparent).
    const std::tuple<int, std::tuple<int, int>, std::tuple<>> t1{1, {2, 3}, {}};
    using DictValue = std::variant<int, std::tuple<int, int>>;
    using Dict = std::map<std::string, DictValue>;
    const std::vector<std::variant<int, Dict>> t2{1, Dict{{"k1", 2}, {"k2", std::tuple{3, 4}}}, 5};
    std::cout << fj::tree_structure(t1) << " has " << fj::tree_leaves(t1).size() << " leaves\n";
    std::cout << fj::tree_structure(t2) << " has " << fj::tree_leaves(t2).size() << " leaves\n";

    // tree_map over a list of lists.
    const std::vector<std::vector<int>> list_of_lists{{1, 2, 3}, {1, 2}, {1, 2, 3, 4}};
    std::cout << "tree_map(x * 2):";
    for (const auto& l : fj::tree_map([](int x) { return x * 2; }, list_of_lists)) {
      std::cout << " [";
      for (std::size_t i = 0; i < l.size(); ++i) std::cout << (i ? ", " : "") << l[i];
      std::cout << "]";
    }
    std::cout << "\n";

    // The MLP's parameters: tree_map of the shapes.
    const std::vector<Layer> params = init_mlp_params({1, 128, 128, 1}, fj::random::key(0));
    for (const auto& layer : fj::tree_map([](const fj::Array& p) { return p.shape(); }, params))
      std::cout << shape_text(layer.get<0>()) << " " << shape_text(layer.get<1>()) << "\n";
    std::cout << fj::tree_structure(params) << "\n";

    // The same pytree through jit and grad: the gradient is a std::vector<Layer> too.
    auto loss = [](const std::vector<Layer>& p, const fj::Array& x, const fj::Array& y) {
      fj::Array h = x;
      for (std::size_t i = 0; i < p.size(); ++i) {
        fj::Array z = fj::matmul(h, p[i].weights) + p[i].biases;
        h = i + 1 < p.size() ? fj::Array(fj::tanh(z)) : z;
      }
      return fj::mean((h - y) * (h - y));
    };
    const fj::Array x = fj::array({{-1.0f}, {0.0f}, {1.0f}}),
                    y = fj::array({{1.0f}, {0.0f}, {1.0f}});
    auto step = fj::jit([&](const std::vector<Layer>& p, const fj::Array& xs, const fj::Array& ys) {
      auto [value, grads] = fj::value_and_grad(loss)(p, xs, ys);
      auto next = fj::tree_map([](const fj::Array& w, const fj::Array& g) { return w - 0.01f * g; },
                               p, grads);
      return std::make_pair(value, next);
    });
    auto [l0, p1] = step(params, x, y);
    auto [l1, p2] = step(p1, x, y);
    std::cout << "loss " << l0.item<float>() << " -> " << l1.item<float>()
              << " after one SGD step; structure kept: "
              << (fj::tree_structure(p2) == fj::tree_structure(params) ? "yes" : "no") << "\n";

    // A lax loop over the pytree: ten SGD steps in one fori_loop.
    auto ten = fj::jit([&](const std::vector<Layer>& p) {
      return fj::lax::fori_loop(
          0, 10,
          [&](const fj::Array&, const std::vector<Layer>& c) {
            auto g = fj::grad(loss)(c, x, y);
            return fj::tree_map(
                [](const fj::Array& w, const fj::Array& d) { return w - 0.01f * d; }, c, g);
          },
          p);
    });
    std::cout << "loss after ten more steps in a fori_loop: "
              << fj::Array(loss(ten(p2), x, y)).item<float>() << "\n";

    // A mismatched structure is an fj::Error showing both.
    try {
      fj::tree_map([](int a, int b) { return a + b; }, list_of_lists,
                   std::vector<std::vector<int>>{{1, 2, 3}, {1, 2}});
    } catch (const fj::ValueError& e) {
      std::cout << "mismatch: " << e.what() << "\n";
    }
  } catch (const fj::Error& e) {
    std::cerr << "fusejit error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
