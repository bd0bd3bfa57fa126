// Checking an error's type and the parts of its message a test cares about.
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace fusejit_test {

/// Checks that f throws E whose message contains every one of `parts`.
template <class E, class F>
void check_throws_with(F&& f, const std::vector<std::string>& parts) {
  bool thrown = false;
  try {
    f();
  } catch (const E& e) {
    thrown = true;
    const std::string m = e.what();
    for (const auto& p : parts) CHECK_MESSAGE(m.find(p) != std::string::npos, m, " lacks ", p);
  }
  CHECK(thrown);
}

}  // namespace fusejit_test
