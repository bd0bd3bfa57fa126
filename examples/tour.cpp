// A walk through the first half of JAX's jit tutorial, in C++: the demo `./scripts/demo` runs.
#include <algorithm>
#include <chrono>
#include <fusejit/fusejit.hpp>
#include <iostream>
#include <vector>

#include "seed_functions.hpp"

using fj::Tracer;
namespace seeds = fusejit_seeds;

namespace {

// Median wall time of `runs` calls of f, after one warm-up call.
template <class F>
double median_ms(F&& f, int runs = 7) {
  f();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void section(const char* title) { std::cout << "\n== " << title << " ==\n"; }

}  // namespace

int main() {
  try {
    section("1. log2 and its jaxpr");
    auto log2 = [](Tracer x) { return seeds::log2(x); };
    std::cout << "log2(8.0) = " << fj::jit(log2)(fj::array(8.0f)) << "\n";
    std::cout << fj::make_jaxpr(log2)(3.0) << "\n";

    section("2. side effects run only while tracing");
    auto log2_print =
        fj::jit([](Tracer x) { return seeds::log2_with_print(x); }, "log2_with_print");
    std::cout << "first call:\n";
    fj::Array r1 = log2_print(fj::array(4.0f));
    std::cout << "  -> " << r1 << "\nsecond call:\n";
    fj::Array r2 = log2_print(fj::array(16.0f));
    std::cout << "  -> " << r2 << "   (nothing printed: the trace was reused)\n";
    auto log2_debug =
        fj::jit([](Tracer x) { return seeds::log2_with_debug_print(x); }, "log2_with_debug_print");
    std::cout << "fj::debug::print instead prints each call's value (jax.debug.print):\n";
    fj::Array r3 = log2_debug(fj::array(4.0f));
    fj::Array r4 = log2_debug(fj::array(16.0f));
    std::cout << "  -> " << r3 << ", " << r4 << " (traced " << log2_debug.trace_count()
              << " time)\n";
    std::cout << "log2_if_rank_2 on i32[3]: " << fj::make_jaxpr([](Tracer x) {
      return seeds::log2_if_rank_2(x);
    })(fj::array({1, 2, 3}))
              << "\n";

    section("3. selu on arange(1'000'000): eager against jit");
    fj::Array x = fj::arange(1'000'000.0f);
    auto selu = [](Tracer v) { return seeds::selu(v); };
    auto selu_jit = fj::jit(selu, "selu");
    fj::Array eager_out, jit_out;
    // Eager: the reference interpreter runs op by op, materializing every intermediate (un-jitted
    // jnp).
    fj::set_default_backend("reference");
    const double eager_ms = median_ms([&] { eager_out = fj::jit(selu)(x); });
    fj::set_default_backend(fj::backend::backend_names().size() > 1 ? "llvm" : "reference");
    const double jit_ms = median_ms([&] {
      jit_out = selu_jit(x);
      jit_out.block_until_ready();
    });
    std::cout << "eager (reference interpreter, op by op): " << eager_ms << " ms\n";
    std::cout << "jit   (one fused " << fj::backend::default_backend().name()
              << " kernel):       " << jit_ms << " ms  (" << eager_ms / jit_ms << "x faster)\n";
    std::cout << "selu was traced " << selu_jit.trace_count() << " time; selu(x) = " << jit_out
              << "\n";

    section("4. static arguments: a loop on a concrete n");
    auto g = fj::jit(
        [](Tracer v, int n) {
          Tracer y = v;
          for (int i = 0; i < n; ++i) y = y + v;  // n is a C++ int: the loop unrolls at trace time
          return y;
        },
        fj::static_argnums<1>, "g");
    fj::Array v = fj::arange(5.0f);
    std::cout << "g(x, 10) = " << g(v, 10) << "\n";
    std::cout << "g(x, 20) = " << g(v, 20) << "\n";
    std::cout << "traces: " << g.trace_count() << " (one per value of n)\n";

    section("5. tracing happens once per shape and dtype");
    auto f = fj::jit([](Tracer t) { return t * 2 + 1; }, "f");
    f(fj::arange(10.0f));
    f(fj::arange(10.0f));
    f(fj::arange(20.0f));
    f(fj::astype(fj::arange(20.0f), fj::f64));
    std::cout << "f(arange(10.)), f(arange(10.)), f(arange(20.)), f(arange(20.).astype(f64))\n";
    std::cout << "trace_count = " << f.trace_count() << ", cache_size = " << f.cache_size() << "\n";
    std::cout << fj::cache_stats() << "\n";
  } catch (const fj::Error& e) {
    std::cerr << "fusejit error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
