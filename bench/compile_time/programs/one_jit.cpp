// One jitted one-line lambda, called once.
#include <fusejit/fusejit.hpp>
int main() {
  auto f = fj::jit([](fj::Tracer x) { return fj::sum(x * x); });
  return f(fj::ones({8})).item<float>() == 8.0f ? 0 : 1;
}
