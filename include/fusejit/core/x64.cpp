// The environment's x64 setting, read once (implementation unit only).
#include "fusejit/core/x64.hpp"

#include <cstdlib>
#include <cstring>

namespace fj::detail {

bool x64_from_environment() {
  static const bool v = [] {
    const char* e = std::getenv("FUSEJIT_ENABLE_X64");
    return e && *e && std::strcmp(e, "0") != 0;
  }();
  return v;
}

}  // namespace fj::detail
