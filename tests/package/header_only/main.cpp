// The program's other translation unit: uses fusejit through its headers only (jit and grad) and checks the results.
#include <fusejit/fusejit.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  const std::vector<float> xs = {0.5f, 1.f, 2.f, -3.f};
  // f(x) = sum(x^3 - 2x); its gradient 3x^2 - 2, elementwise.
  auto f = [](fj::Tracer x) { return fj::sum(x * x * x - 2.0f * x); };
  const fj::Array x = fj::array(xs, fj::Shape{std::int64_t(xs.size())});
  const double value = fj::jit(f)(x).item<double>();
  const std::vector<float> grad = fj::jit(fj::grad(f))(x).to_vector<float>();

  double expected = 0;
  bool ok = grad.size() == xs.size();
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    expected += x * x * x - 2 * x;
    if (ok && std::fabs(grad[i] - (3 * x * x - 2)) > 1e-5) ok = false;
  }
  if (!ok || std::fabs(value - expected) > 1e-5) {
    std::fprintf(stderr, "header-only consumer: f = %g (expected %g), gradient %s\n", value, expected,
                 ok ? "right" : "wrong");
    return 1;
  }
  std::printf("header-only consumer: OK, f = %g and its gradient\n", value);
  return 0;
}
