// Definitions of axis_env.hpp (implementation unit only).
#include "fusejit/distributed/axis_env.hpp"

#include <utility>
#include <vector>

#include "fusejit/core/error.hpp"

namespace fj::distributed::detail {

namespace {
struct BoundAxis {
  std::string name;
  std::int64_t size;
};
thread_local std::vector<BoundAxis> t_axes;
}  // namespace

AxisScope::AxisScope(std::string name, std::int64_t size) {
  t_axes.push_back({std::move(name), size});
}
AxisScope::~AxisScope() { t_axes.pop_back(); }

std::int64_t axis_size(const std::string& name, const std::string& who) {
  for (auto it = t_axes.rbegin(); it != t_axes.rend(); ++it)
    if (it->name == name) return it->size;
  std::string names;
  for (const BoundAxis& a : t_axes) names += (names.empty() ? "'" : ", '") + a.name + "'";
  throw NameError(
      who + ": unbound axis name '" + name + "'; the names in scope are " +
      (names.empty() ? "none (bind one with fj::pmap or fj::vmap's fj::axis_name)" : names));
}

}  // namespace fj::distributed::detail
