// jit(grad(f)) and vmap(grad(g)) of two one-line lambdas: three transforms more than one_jit.
#include <fusejit/fusejit.hpp>
int main() {
  auto f = [](fj::Tracer x) { return fj::sum(fj::sin(x) * x); };
  auto g = [](fj::Tracer x) { return fj::sum(x * x * x); };
  auto df = fj::jit(fj::grad(f));
  auto per_row = fj::vmap(fj::grad(g));
  fj::Array a = df(fj::ones({4}));
  fj::Array b = per_row(fj::ones({3, 4}));
  return a.shape() == b.shape() ? 1 : 0;
}
