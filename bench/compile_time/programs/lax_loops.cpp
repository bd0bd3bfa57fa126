// A program with fori_loop, scan and cond inside one jitted function.
#include <fusejit/fusejit.hpp>
#include <utility>
int main() {
  auto step = fj::jit([](fj::Tracer x, fj::Tracer k) {
    auto y = fj::lax::fori_loop(
        0, 10, [](fj::Tracer, fj::Tracer c) { return c * 0.5f + 1.0f; }, x);
    auto [total, partial] =
        fj::lax::scan([](fj::Tracer c, fj::Tracer r) { return std::make_pair(c + r, fj::sum(r)); },
                      fj::zeros({4}), fj::reshape(y, {2, 4}));
    return fj::lax::cond(
        fj::sum(k) > 0.0f, [](fj::Tracer a, fj::Tracer b) { return a + fj::sum(b); },
        [](fj::Tracer a, fj::Tracer b) { return a - fj::sum(b); }, total, partial);
  });
  fj::Array r = step(fj::ones({8}), fj::ones({3}));
  return r.shape().rank() == 1 ? 0 : 1;
}
