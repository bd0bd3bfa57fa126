// Uses fjpoly (and through it fusejit's headers and library) and checks the polynomial's values.
#include <fjpoly.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  const std::vector<float> c = {1.f, -3.f, 0.5f, 2.f};  // 1 - 3x + x^2/2 + 2x^3
  const std::vector<float> xs = {-2.f, -0.5f, 0.f, 1.f, 1.5f};
  const fj::Array x = fj::array(xs, fj::Shape{std::int64_t(xs.size())});
  const std::vector<float> got = fjpoly::horner(c, x).to_vector<float>();

  bool ok = got.size() == xs.size();
  for (std::size_t i = 0; ok && i < xs.size(); ++i) {
    const double x = xs[i], expected = 1 - 3 * x + 0.5 * x * x + 2 * x * x * x;
    if (std::fabs(got[i] - expected) > 1e-5 * (1 + std::fabs(expected))) {
      std::fprintf(stderr, "fjpoly app: p(%g) = %g, expected %g\n", x, got[i], expected);
      ok = false;
    }
  }
  if (!ok) return 1;
  std::printf("fjpoly app: OK, %zu values\n", got.size());
  return 0;
}
