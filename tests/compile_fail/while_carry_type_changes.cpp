// expect: body_fn must return a carry of init's pytree type
// A while_loop body returning another pytree type than its carry is a compile error.
#include <fusejit/fusejit.hpp>
#include <tuple>
#include <vector>
int main() {
  const std::vector<fj::Array> init{fj::array(1.0f)};
  auto r = fj::lax::while_loop(
      [](const std::vector<fj::Array>& c) { return c[0] < 10.0f; },
      [](const std::vector<fj::Array>& c) { return std::make_tuple(c[0]); }, init);
  return static_cast<int>(r.size());
}
