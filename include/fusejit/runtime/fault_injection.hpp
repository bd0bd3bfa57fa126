// Test-only fault injection: makes the next backend compiles or host allocations fail on demand.
#pragma once
#include <atomic>
#include <cstdint>

namespace fj {

namespace detail {
enum class Fault { compile, allocation };
struct FaultPlan {
  // Per fault kind: operations still to let through, then failures still to inject.
  std::atomic<std::int64_t> skip[2]{0, 0}, fail[2]{0, 0};
};
inline FaultPlan& fault_plan() {
  static FaultPlan p;
  return p;
}
/// True when this operation of kind `f` must fail (consumes one injected failure). Costs one
/// relaxed load when nothing is armed, which is the only state outside tests.
inline bool take_injected_fault(Fault f) {
  auto& p = fault_plan();
  const auto i = static_cast<int>(f);
  if (p.fail[i].load(std::memory_order_relaxed) <= 0) return false;
  if (p.skip[i].fetch_sub(1) > 0) return false;
  return p.fail[i].fetch_sub(1) > 0;
}
}  // namespace detail

/// Hooks for testing failure paths; not for production use.
namespace testing {
/// After `skip` more backend compiles succeed, the next `count` fail with fj::CompileError, as a
/// failed LLVM compile would: no cache keeps a half-built entry, and later compiles succeed.
inline void fail_next_compiles(std::int64_t count = 1, std::int64_t skip = 0) {
  auto& p = detail::fault_plan();
  p.skip[0].store(skip);
  p.fail[0].store(count);
}
/// After `skip` more host allocations succeed, the next `count` fail as an exhausted heap does
/// (fj::DeviceError).
inline void fail_next_allocations(std::int64_t count = 1, std::int64_t skip = 0) {
  auto& p = detail::fault_plan();
  p.skip[1].store(skip);
  p.fail[1].store(count);
}
/// Disarms both hooks.
inline void clear_injected_faults() {
  fail_next_compiles(0);
  fail_next_allocations(0);
}
}  // namespace testing

}  // namespace fj
