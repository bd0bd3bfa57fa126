// The one test file compiled with the source tree's path (FUSEJIT_TESTS_DIR, set in
// CMakeLists.txt).
#include "tests_dir.hpp"

namespace fusejit_test {

const std::string& tests_dir() {
  static const std::string dir = FUSEJIT_TESTS_DIR;
  return dir;
}

}  // namespace fusejit_test
