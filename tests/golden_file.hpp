// Reading a golden file: `=== name` sections, each the text JAX printed for that case.
#pragma once
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

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

/// The lines of section `name` of `goldens`; a missing section fails the test.
inline std::vector<std::string> golden_lines(const std::map<std::string, std::string>& goldens,
                                             const std::string& name) {
  auto it = goldens.find(name);
  REQUIRE_MESSAGE(it != goldens.end(), "no golden " << name);
  std::vector<std::string> lines;
  std::istringstream in(it->second);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

/// The numbers of one golden line: hex floats as Python's float.hex() prints them, inf, nan.
inline std::vector<double> golden_numbers(const std::string& line) {
  std::vector<double> v;
  std::istringstream in(line);
  for (std::string t; in >> t;) v.push_back(std::strtod(t.c_str(), nullptr));
  return v;
}

}  // namespace fusejit_test
