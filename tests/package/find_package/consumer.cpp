// Uses fusejit through its public API only: JITs sum(sin(x) * x + 1) and checks it against a plain loop.
#include <fusejit/fusejit.hpp>

#include <cmath>
#include <cstdio>

int main() {
  const int n = 1000;
  const fj::Array x = fj::arange(static_cast<float>(n)) * 0.01f;
  auto f = fj::jit([](fj::Tracer t) { return fj::sum(fj::sin(t) * t + 1.0f); });
  const double got = f(x).item<double>();

  double expected = 0;  // the same sum in double precision, without fusejit
  for (int i = 0; i < n; ++i) {
    const double xi = static_cast<float>(i) * 0.01f;
    expected += std::sin(xi) * xi + 1.0;
  }
  // float32 sums of 1000 terms of size <= 10: well inside 1e-4 relative.
  if (!(std::fabs(got - expected) <= 1e-4 * std::fabs(expected))) {
    std::fprintf(stderr, "package consumer: expected %.9g, got %.9g\n", expected, got);
    return 1;
  }
  std::printf("package consumer: OK, sum = %.9g (expected %.9g)\n", got, expected);
  return 0;
}
