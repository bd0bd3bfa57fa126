// The transcendentals a CUDA module calls, taken from the generated math (kernel_math.def and the
// kernel_math/ files it includes: the LLVM backend's polynomials translated to C), so that GPU
// and CPU kernels compute the same bits.
#pragma once
#include <cstddef>
#include <iterator>
#include <string>

namespace fj::backend::cuda {

namespace math_detail {

struct Entry {
  const char* name;  // fj_<name> in the kernels
  bool uses_table;   // reads the tables of kMathTables (2/pi's bits, for sin, cos and tan)
  const char* code;  // one overload (float or double) of fj_<name>, on one line
};

// kernel_math.def, read twice: its entries (in kernel_math/), then its tables, each stringified.
inline constexpr Entry kMathEntries[] = {
#define FJM_ENTRY(name, type, uses_table, ...) {#name, uses_table != 0, #__VA_ARGS__},
#define FJM_TABLE(...)
#include "fusejit/backend/cuda/kernel_math.def"
#undef FJM_TABLE
#undef FJM_ENTRY
};

inline constexpr const char* kMathTables =
#define FJM_ENTRY(name, type, uses_table, ...)
#define FJM_TABLE(...) #__VA_ARGS__
#include "fusejit/backend/cuda/kernel_math.def"
#undef FJM_TABLE
#undef FJM_ENTRY
    ;

}  // namespace math_detail

/// The definitions of every fj_<name> transcendental that `kernels` (CUDA C++ text) calls, both
/// overloads of each, and of the helpers those call, after the tables they read: only what a
/// module uses, since NVRTC's time grows with the text it parses. kMathEntries lists a helper
/// before its callers, so the definitions come out in an order C++ accepts.
inline std::string kernel_math(const std::string& kernels) {
  constexpr std::size_t n = std::size(math_detail::kMathEntries);
  bool chosen[n] = {};
  std::string calls = kernels;  // grows by each chosen entry's code, until nothing new is called
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < n; ++i) {
      const math_detail::Entry& e = math_detail::kMathEntries[i];
      if (chosen[i] || calls.find("fj_" + std::string(e.name) + "(") == std::string::npos) continue;
      chosen[i] = grew = true;
      calls += e.code;
    }
  }
  std::string code;
  bool table = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!chosen[i]) continue;
    code += math_detail::kMathEntries[i].code;
    code += "\n";
    table |= math_detail::kMathEntries[i].uses_table;
  }
  return table ? std::string(math_detail::kMathTables) + "\n" + code : code;
}

}  // namespace fj::backend::cuda
