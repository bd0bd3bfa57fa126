// expect: TracerBoolConversionError
// expect: fj::where
// A value-dependent `if` on a traced array must be rejected by the compiler.
#include <fusejit/fusejit.hpp>
int main() {
  auto f = [](fj::Tracer x) -> fj::Array {
    if (x > 0) return x;
    return -x;
  };
  return fj::jit(f)(fj::array(1.0f)).ndim();
}
