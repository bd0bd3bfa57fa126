// The seeds' transformations in C++: vmap of a convolution (in_axes / out_axes), the TD-learning
// update by grad with and without stop_gradient, and higher-order and composed transformations.
#include <fusejit/fusejit.hpp>
#include <iostream>

#include "seed_functions.hpp"

using fj::Tracer;
namespace seeds = fusejit_seeds;

int main() {
  try {
    const fj::Array x = fj::arange(5.0f);
    const fj::Array w = fj::array({2.f, 3.f, 4.f});
    const fj::Array xs = fj::stack({x, x}), ws = fj::stack({w, w});
    auto auto_batch_convolve = fj::vmap(seeds::convolve);
    std::cout << "auto_batch_convolve(xs, ws) =\n" << auto_batch_convolve(xs, ws) << "\n";
    auto auto_batch_convolve_v2 = fj::vmap(seeds::convolve, fj::in_axes{1, 1}, fj::out_axes{1});
    std::cout << "with in_axes=1, out_axes=1 on xs.T, ws.T =\n"
              << auto_batch_convolve_v2(xs.T(), ws.T()) << "\n";
    auto batch_convolve_v3 = fj::vmap(seeds::convolve, fj::in_axes{0, fj::none});
    std::cout << "with w broadcast (in_axes=(0, None)) =\n" << batch_convolve_v3(xs, w) << "\n";

    const fj::Array theta = fj::array({0.1f, -0.1f, 0.f});
    const fj::Array s_tm1 = fj::array({1.f, 2.f, -1.f}), r_t = fj::array(1.f);
    const fj::Array s_t = fj::array({2.f, 1.f, 0.f});
    auto td_update = fj::grad(
        [](Tracer th, Tracer a, Tracer r, Tracer b) { return seeds::td_loss(th, a, r, b); });
    auto td_update_stop = fj::grad([](Tracer th, Tracer a, Tracer r, Tracer b) {
      return seeds::td_loss(th, a, r, b, /*stop_target=*/true);
    });
    std::cout << "td_update = " << td_update(theta, s_tm1, r_t, s_t) << "\n";  // [-1.2, 1.2, -1.2]
    std::cout << "td_update with stop_gradient = " << td_update_stop(theta, s_tm1, r_t, s_t)
              << "\n";  // [1.2, 2.4, -1.2]

    auto cube = [](Tracer v) { return v * v * v; };
    std::cout << "d/dx x^3, d2/dx2, d3/dx3 at 2: " << fj::grad(cube)(2.f) << " "
              << fj::grad(fj::grad(cube))(2.f) << " " << fj::grad(fj::grad(fj::grad(cube)))(2.f)
              << "\n";
    auto per_example = fj::jit(fj::vmap(fj::grad([](Tracer v) { return fj::tanh(v) * v; })));
    std::cout << "jit(vmap(grad(tanh(x) * x)))(arange(5)) = " << per_example(x) << "\n";
    std::cout << fj::make_jaxpr(fj::grad([](Tracer v) { return fj::sin(v); }))(1.f) << "\n";

    // lax control flow: the seeds' value-dependent `if` and `while`, traced without static
    // arguments, and a gradient through a scan.
    auto f = fj::jit([](Tracer v) {
      return fj::lax::cond(
          v > 0, [](Tracer a) { return a; }, [](Tracer a) { return 2 * a; }, v);
    });
    std::cout << "f(3) = " << f(3.f) << ", f(-4) = " << f(-4.f) << " (traced " << f.trace_count()
              << " time)\n";
    auto g = fj::jit([](Tracer v, Tracer n) {
      auto i =
          fj::lax::while_loop([&](Tracer k) { return k < n; }, [](Tracer k) { return k + 1; }, 0);
      return v + i;
    });
    std::cout << "g(10, 20) = " << g(10, 20) << "\n";
    auto running = [](Tracer xs) {
      auto [total, partial] =
          fj::lax::scan([](Tracer c, Tracer v) { return std::make_pair(c * v + 1.f, c); }, 1.f, xs);
      return total + fj::sum(partial);
    };
    std::cout << "grad of a scan at [1, 2, 3]: " << fj::grad(running)(fj::array({1.f, 2.f, 3.f}))
              << "\n";
  } catch (const fj::Error& e) {
    std::cerr << "fusejit error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
