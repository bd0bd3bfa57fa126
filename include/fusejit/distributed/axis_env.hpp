// The axis names bound while a function is traced: fj::pmap and fj::vmap with an axis_name bind
// theirs, and the collectives read the axis size from here (JAX's axis environment).
#pragma once
#include <cstdint>
#include <string>

namespace fj::distributed::detail {

/// Binds `name` to an axis of `size` on this thread for the scope's lifetime (innermost first).
class AxisScope {
 public:
  AxisScope(std::string name, std::int64_t size);
  ~AxisScope();
  AxisScope(const AxisScope&) = delete;
  AxisScope& operator=(const AxisScope&) = delete;
};

/// The size of the bound axis `name`; fj::NameError naming `who` and listing the names in scope
/// when it is not bound.
std::int64_t axis_size(const std::string& name, const std::string& who);

}  // namespace fj::distributed::detail
