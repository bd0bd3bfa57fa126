// Reading a golden file: `=== name` sections, each the text JAX printed for that case.
#pragma once
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include "tests_dir.hpp"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fusejit_test {

/// The sections of tests/golden/<file>, by name, each without its last newline.
inline std::map<std::string, std::string> read_goldens(const std::string& file) {
  std::ifstream in(tests_dir() + "/golden/" + file);
  REQUIRE(in.good());
  std::map<std::string, std::string> m;
  std::string line, name, text;
  auto flush = [&] {
    if (name.empty()) return;
    // A section printed twice would let the later one answer for both: the goldens' script
    // reused a name (an input of a new section, say).
    INFO("golden file ", file, " has two sections named \"", name, "\"");
    CHECK(m.count(name) == 0);
    m[name] = text.substr(0, text.size() - 1);
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

/// The lines of one section of a golden map; a missing section fails the test case.
inline std::vector<std::string> golden_lines(const std::map<std::string, std::string>& goldens,
                                             const std::string& name) {
  auto it = goldens.find(name);
  REQUIRE_MESSAGE(it != goldens.end(), "no golden " << name);
  std::vector<std::string> lines;
  std::istringstream in(it->second);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

/// One golden file, read once: its sections (`all`), one section's `lines`.
struct Golden {
  const char* file;
  const std::map<std::string, std::string>& all() const {
    static std::map<std::string, std::map<std::string, std::string>> cache;
    auto it = cache.find(file);
    if (it == cache.end()) it = cache.emplace(file, read_goldens(file)).first;
    return it->second;
  }
  std::vector<std::string> lines(const std::string& name) const {
    return golden_lines(all(), name);
  }
};

/// Each function's jaxpr text against the section "jaxpr <name>" of `g`, byte for byte.
inline void check_jaxpr_texts(const Golden& g,
                              const std::map<std::string, std::function<std::string()>>& texts) {
  for (const auto& [name, text] : texts) {
    CAPTURE(name);
    auto it = g.all().find("jaxpr " + name);
    REQUIRE(it != g.all().end());
    CHECK(text() == it->second);
  }
}

/// The numbers of a line separated by spaces; hex floats, "nan", "-nan" and "inf" too.
inline std::vector<double> golden_numbers(const std::string& line) {
  std::vector<double> v;
  std::istringstream in(line);
  for (std::string t; in >> t;) v.push_back(std::strtod(t.c_str(), nullptr));
  return v;
}

/// The f64 array of the section "input <name>" of `g` (line 0: its shape, line 1: its elements).
inline fj::Array golden_input(const Golden& g, const std::string& name) {
  const auto l = g.lines("input " + name);
  std::vector<std::int64_t> dims;
  for (double d : golden_numbers(l.at(0))) dims.push_back(static_cast<std::int64_t>(d));
  return fj::array(golden_numbers(l.at(1)), fj::Shape(dims));
}

/// An array's elements as doubles, whatever its dtype (exact for every dtype but i64/u64 > 2^53).
inline std::vector<double> as_doubles(const fj::Array& a) {
  return fj::visit_dtype(a.dtype(), [&](auto x) {
    using T = decltype(x);
    std::vector<double> v;
    for (std::int64_t i = 0; i < a.size(); ++i) v.push_back(static_cast<double>(a.data<T>()[i]));
    return v;
  });
}

/// A values section (line 0: the shape, line 1: the elements) beside `out`: checks the shape
/// and the count, and returns {out's elements, the section's}.
inline std::pair<std::vector<double>, std::vector<double>> golden_values(
    const fj::Array& out, const std::vector<std::string>& lines) {
  const auto shape = golden_numbers(lines.at(0));
  REQUIRE(out.shape().rank() == static_cast<int>(shape.size()));
  for (int d = 0; d < out.shape().rank(); ++d)
    CHECK(out.shape()[d] == shape[static_cast<std::size_t>(d)]);
  auto got = as_doubles(out), want = golden_numbers(lines.at(1));
  REQUIRE(got.size() == want.size());
  return {std::move(got), std::move(want)};
}

}  // namespace fusejit_test
