// expect: must return fj::Array, an expression, a C.. scalar
// A jitted function must return arrays, expressions or scalars (or tuples of them).
#include <fusejit/fusejit.hpp>
#include <string>
int main() {
  auto g = [](fj::Tracer) { return std::string("not an array"); };
  return static_cast<int>(fj::jit(g)(fj::array(1.0f)).ndim());
}
