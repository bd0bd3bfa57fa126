// Conan test_package's consumer: JIT-compiles x*2+1 over f32 and checks it element by element; exits 1 on a mismatch.
#if defined(FUSEJIT_IMPLEMENTATION)
// The package must never hand this definition to consumers: with the compiled library it would
// define every symbol of libfusejit a second time.
#error "FUSEJIT_IMPLEMENTATION came from the package's usage requirements"
#endif
#if FUSEJIT_TEST_HEADER_ONLY
// The headers-only package: this is the one translation unit that compiles the library.
#define FUSEJIT_IMPLEMENTATION
constexpr const char* kPackage = "header-only";
#else
constexpr const char* kPackage = "compiled library";
#endif
#include <fusejit/fusejit.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  // 37 elements: more than one vector of any x86 width, with a remainder, and values whose
  // 2x+1 is exact in f32 (so the comparison is exact whatever the kernel fuses).
  std::vector<float> in;
  for (int i = 0; i < 37; ++i) in.push_back(0.25f * static_cast<float>(i) - 4.5f);

  auto f = fj::jit([](fj::Tracer x) { return x * 2.0 + 1.0; });
  const fj::Array x = fj::array(in, fj::Shape{static_cast<std::int64_t>(in.size())});
  const std::vector<float> out = f(x).to_vector<float>();

  int bad = 0;
  if (out.size() != in.size()) {
    std::fprintf(stderr, "test_package: %zu results for %zu inputs\n", out.size(), in.size());
    return 1;
  }
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float expected = in[i] + in[i] + 1.0f;  // computed here, not by fusejit
    if (out[i] != expected) {
      std::fprintf(stderr, "test_package: x=%g: got %g, expected %g\n", in[i], out[i], expected);
      ++bad;
    }
  }
  if (bad) return 1;
  std::printf("test_package: fusejit %s (%s): jit(x*2+1) over %zu f32 values OK\n", FUSEJIT_VERSION, kPackage,
              in.size());
  return 0;
}
