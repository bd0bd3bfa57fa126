// What the debug.print and callback tests share: captured print lines, JAX's golden texts with
// callbacks masked, and the backends a runtime case runs on.
#pragma once
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>
#include <regex>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"

namespace fusejit_test {

/// Collects the lines fj::debug::print emits while it lives; restores the previous handler.
class CapturePrints {
 public:
  CapturePrints()
      : prev_(fj::debug::set_print_handler(
            [this](std::string_view line) { lines.emplace_back(line); })) {}
  ~CapturePrints() { fj::debug::set_print_handler(std::move(prev_)); }
  CapturePrints(const CapturePrints&) = delete;
  CapturePrints& operator=(const CapturePrints&) = delete;
  std::vector<std::string> lines;

 private:
  fj::debug::PrintHandler prev_;
};

/// A jaxpr with each callback function's repr masked (a Python name and address in JAX's text,
/// a C++ type and address in fusejit's), as tests/golden/debug_goldens.py masks JAX's.
inline std::string mask_functions(const std::string& jaxpr) {
  return std::regex_replace(jaxpr, std::regex("<function .*? at 0x[0-9a-fA-FX]+>"),
                            "<function F at 0xX>");
}

/// fj::repr of a concrete value: how a printed argument must appear.
template <class T>
std::string repr_of(T v) {
  return fj::repr(fj::array(v));
}

/// The text JAX 0.10.2 printed for a case of tests/golden/debug_goldens.py.
inline const std::string& debug_golden(const std::string& name) {
  static const auto g = read_goldens("debug_goldens.txt");
  auto it = g.find(name);
  REQUIRE_MESSAGE(it != g.end(), "no golden named " << name);
  return it->second;
}

/// The backends a runtime case runs on: the reference interpreter and the LLVM backend.
inline std::vector<std::string> backends() {
  std::vector<std::string> r{"reference"};
  if (has_backend("llvm")) r.push_back("llvm");
  return r;
}

}  // namespace fusejit_test
