// expect: dynamic argument must be fj::Array
// An argument that is neither an array nor a scalar can only be passed as a static argument.
#include <fusejit/fusejit.hpp>
#include <string>
int main() {
  auto g = [](fj::Tracer x, const std::string&) { return x; };
  return fj::jit(g)(fj::array(1.0f), std::string("s")).ndim();
}
