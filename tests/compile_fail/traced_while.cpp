// expect: TracerBoolConversionError
// expect: static_argnums
// A loop bound that is traced (not static) must be rejected by the compiler.
#include <fusejit/fusejit.hpp>
int main() {
  auto g = [](fj::Tracer x, fj::Tracer n) {
    fj::Tracer y = x;
    for (int i = 0; i < n; ++i) y = y + x;
    return y;
  };
  return fj::jit(g)(fj::array(1.0f), 3).ndim();
}
