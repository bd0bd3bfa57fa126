// Uses the installed fusejit through its public API only; exits non-zero on a wrong result.
#include <fusejit/fusejit.hpp>

#include <cstddef>
#include <cstdio>
#include <vector>

int main() {
  fj::Array x = fj::array({1.f, 2.f, 3.f});
  auto f = fj::jit([](fj::Tracer t) { return t * 2.0 + 1.0; });
  fj::Array y = f(x);
  std::vector<float> v = y.to_vector<float>();

  const std::vector<float> expected = {3.f, 5.f, 7.f};
  if (v != expected) {
    std::fprintf(stderr, "package consumer: expected {3, 5, 7}, got {");
    for (std::size_t i = 0; i < v.size(); ++i) std::fprintf(stderr, "%s%g", i ? ", " : "", v[i]);
    std::fprintf(stderr, "}\n");
    return 1;
  }
  std::printf("package consumer: OK {3, 5, 7}\n");
  return 0;
}
