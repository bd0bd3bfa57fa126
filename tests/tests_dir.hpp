// Where the checked-in test data lives (tests/ of the source tree), for tests that read it.
#pragma once
#include <string>

namespace fusejit_test {

/// The absolute path of the source tree's tests/ folder. Only tests_dir.cpp is compiled with that
/// path, so every other test file's object is the same in any clone and ccache can share it.
const std::string& tests_dir();

}  // namespace fusejit_test
