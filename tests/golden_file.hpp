// Reading a golden file: `=== name` sections, each the text JAX printed for that case.
#pragma once
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <string>

namespace fusejit_test {

/// The sections of tests/golden/<file>, by name, each without its last newline.
inline std::map<std::string, std::string> read_goldens(const std::string& file) {
  std::ifstream in(std::string(FUSEJIT_TESTS_DIR) + "/golden/" + file);
  REQUIRE(in.good());
  std::map<std::string, std::string> m;
  std::string line, name, text;
  auto flush = [&] {
    if (!name.empty()) m[name] = text.substr(0, text.size() - 1);
  };
  while (std::getline(in, line)) {
    if (line.rfind("=== ", 0) == 0) {
      flush();
      name = line.substr(4);
      text.clear();
    } else {
      text += line + "\n";
    }
  }
  flush();
  return m;
}

}  // namespace fusejit_test
