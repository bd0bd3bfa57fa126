// The vector widths a test can run at on this host, and a scope that compiles for one of them.
#pragma once
#include <fusejit/fusejit.hpp>

#include <string>
#include <utility>
#include <vector>

namespace fusejit_test {

/// Compiles new kernels for `name` in the scope; restores the previous target afterwards.
class CpuTargetScope {
 public:
  explicit CpuTargetScope(const std::string& name) : prev_(fj::cpu_target().name) {
    fj::set_cpu_target(name);
  }
  ~CpuTargetScope() { fj::set_cpu_target(prev_); }
  CpuTargetScope(const CpuTargetScope&) = delete;
  CpuTargetScope& operator=(const CpuTargetScope&) = delete;

 private:
  std::string prev_;
};

/// The x86-64 levels this host runs, with their f32 lanes: x86-64-v2 (4), x86-64-v3 (8),
/// x86-64-v4 (16). Empty without an LLVM backend.
inline std::vector<std::pair<std::string, int>> widths_here() {
  std::vector<std::pair<std::string, int>> out;
  if (fj::cpu_target().lanes == 0) return out;
  for (const auto& [name, lanes] :
       {std::pair<const char*, int>{"x86-64-v2", 4}, {"x86-64-v3", 8}, {"x86-64-v4", 16}})
    if (fj::cpu_target_supported(name)) out.emplace_back(name, lanes);
  return out;
}

}  // namespace fusejit_test
