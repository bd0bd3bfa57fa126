// Built inside a project that add_subdirectory()s fusejit: JITs a dot product and checks it.
#include <fusejit/fusejit.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  const std::vector<float> a = {1.5f, -2.f, 3.f, 0.25f}, b = {4.f, 1.f, -0.5f, 8.f};
  auto dot = fj::jit([](fj::Tracer x, fj::Tracer y) { return fj::sum(x * y); });
  const double got = dot(fj::array(a, fj::Shape{4}), fj::array(b, fj::Shape{4})).item<double>();

  double expected = 0;
  for (std::size_t i = 0; i < a.size(); ++i) expected += double(a[i]) * b[i];
  if (std::fabs(got - expected) > 1e-6) {
    std::fprintf(stderr, "add_subdirectory consumer: expected %g, got %g\n", expected, got);
    return 1;
  }
  std::printf("add_subdirectory consumer: OK, dot = %g\n", got);
  return 0;
}
