// The seeds' array programs in C++: convolutions with slices, dot and stack; a jitted dense layer
// whose bias-add and relu run on each panel of Eigen's GEMM; argmax and dynamic slices.
#include <fusejit/fusejit.hpp>
#include <iostream>

#include "seed_functions.hpp"

using fj::Tracer;
namespace seeds = fusejit_seeds;

int main() {
  const fj::Array x = fj::arange(5.0f);
  const fj::Array w = fj::array({2.f, 3.f, 4.f});
  std::cout << "convolve(x, w) = " << fj::jit(seeds::convolve)(x, w) << "\n";  // [11, 20, 29]

  const fj::Array xs = fj::stack({x, x}), ws = fj::stack({w, w});
  std::cout << "manually_vectorized_convolve(xs, ws) =\n"
            << fj::jit(seeds::manually_vectorized_convolve)(xs, ws) << "\n";

  const fj::Array big = fj::arange(1'000'000.0f);
  std::cout << "sum(x**2 + sin(x)) over arange(1e6) = "
            << fj::jit(seeds::sum_of_squares_plus_sin)(big).item<double>() << "\n";

  // A dense layer: the GEMM runs on Eigen, the bias and relu on each output panel after it.
  auto dense = [](Tracer in, Tracer weights, Tracer bias) {
    return fj::maximum(fj::matmul(in, weights) + bias, 0);
  };
  const fj::Array in = fj::ones({4, 3}), weights = fj::ones({3, 2}), bias = fj::array({-4.f, 1.f});
  std::cout << "relu(x @ W + b) =\n" << fj::jit(dense)(in, weights, bias) << "\n";
  std::cout << fj::make_jaxpr(dense)(in, weights, bias) << "\n";

  const fj::Array scores = fj::array({{0.1f, 0.7f, 0.2f}, {0.5f, 0.3f, 0.5f}});
  std::cout << "argmax(scores, axis=1) = " << fj::Array(fj::argmax(scores, 1)) << "\n";
  auto window = [](Tracer v, Tracer start) { return fj::lax::dynamic_slice(v, {start}, {2}); };
  std::cout << "dynamic_slice(x, 4, 2) = " << fj::jit(window)(x, fj::array(4))
            << "  (the start is clamped so the window fits, as in JAX)\n";
}
