// The seed tutorial's functions in C++, shared by the golden tests and examples/tour.
#pragma once
#include <fusejit/fusejit.hpp>
#include <cstdint>
#include <iostream>
#include <vector>

namespace fusejit_seeds {

inline fj::Array log2(const fj::Tracer& x) {
  fj::Tracer ln_x = fj::log(x);
  fj::Tracer ln_2 = fj::log(2.0);
  return ln_x / ln_2;
}

/// Prints only while tracing: the print is a side effect of the C++ code, not of the graph.
inline fj::Array log2_with_print(const fj::Tracer& x) {
  std::cout << "printed x: " << x << "\n";
  return log2(x);
}

/// The same with jax.debug.print: staged as an equation, so it prints the runtime value on every
/// call of the compiled function, not the tracer once.
inline fj::Array log2_with_debug_print(const fj::Tracer& x) {
  fj::debug::print("debug.print x: {}", x);
  return log2(x);
}

/// Python's `if x.ndim == 2` is on static information, so it is plain C++ here too.
inline fj::Array log2_if_rank_2(const fj::Tracer& x) {
  if (x.ndim() == 2) return log2(x);
  return x;
}

inline fj::Array selu(const fj::Tracer& x, float alpha = 1.67f, float lambda = 1.05f) {
  return lambda * fj::where(x > 0, x, alpha * fj::exp(x) - alpha);
}

inline fj::Array many_adds(fj::Tracer x) {
  for (int i = 0; i < 30; ++i) x = x + 1.0;
  return x;
}

/// The seeds' 1-D convolution: each output is a dot product of a window of x with w.
inline fj::Array convolve(const fj::Tracer& x, const fj::Tracer& w) {
  std::vector<fj::Array> output;
  for (std::int64_t i = 1; i < x.shape()[0] - 1; ++i)
    output.push_back(fj::dot(x.slice({i - 1}, {i + 2}), w));
  return fj::stack(output);
}

/// The same convolution over a batch, vectorized by hand: windows of every row at once.
inline fj::Array manually_vectorized_convolve(const fj::Tracer& xs, const fj::Tracer& ws) {
  std::vector<fj::Array> output;
  const std::int64_t n = xs.shape()[xs.ndim() - 1];
  for (std::int64_t i = 1; i < n - 1; ++i)
    output.push_back(
        fj::sum(xs(fj::range(), fj::range(i - 1, i + 2)) * ws, {1}));  // xs[:, i-1:i+2]
  return fj::stack(output, 1);
}

/// The seeds' TD-learning example: a linear value function, and the TD loss whose gradient is
/// the TD update; with `stop_target` the target is held constant (fj::stop_gradient).
inline fj::Array value_fn(const fj::Tracer& theta, const fj::Tracer& state) {
  return fj::dot(theta, state);
}
inline fj::Array td_loss(const fj::Tracer& theta, const fj::Tracer& s_tm1, const fj::Tracer& r_t,
                         const fj::Tracer& s_t, bool stop_target = false) {
  fj::Array v_tm1 = value_fn(theta, s_tm1);
  fj::Array v_t = value_fn(theta, s_t);
  fj::Array target = r_t + (stop_target ? fj::stop_gradient(v_t) : v_t);
  return -0.5f * fj::pow(target - v_tm1, 2);
}

/// jnp.sum(x ** 2 + jnp.sin(x)).
inline fj::Array sum_of_squares_plus_sin(const fj::Tracer& x) {
  return fj::sum(fj::pow(x, 2) + fj::sin(x));
}

}  // namespace fusejit_seeds
