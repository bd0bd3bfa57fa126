// expect: static_argnums index is out of range
// JAX raises at run time for a static_argnums index past the arguments; fusejit at compile time.
#include <fusejit/fusejit.hpp>
int main() {
  auto g = [](fj::Tracer x) { return x * 2; };
  return fj::jit(g, fj::static_argnums<3>)(fj::array(1.0f)).ndim();
}
