// expect: static argument's type must be hashable
// A static argument must hash and compare, as jax.jit requires of static_argnums values.
#include <fusejit/fusejit.hpp>
struct Config {
  int n;
};
int main() {
  auto g = [](fj::Tracer x, const Config& c) { return x * c.n; };
  return fj::jit(g, fj::static_argnums<1>)(fj::array(1.0f), Config{2}).ndim();
}
