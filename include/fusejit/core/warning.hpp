// Warnings: problems the library worked around (a corrupt on-disk cache entry), reported once.
#pragma once
#include <array>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace fj {

/// Receives each warning's text (one line, no trailing newline).
using WarningHandler = std::function<void(std::string_view)>;

namespace detail {
// The kinds of warning; each is logged once per process (per installed handler), so that a
// directory of damaged entries gives one line, not one per kernel.
enum class WarningKind : int { disk_corrupt, disk_foreign, disk_unwritable, count_ };

struct WarningState {
  std::mutex mu;
  WarningHandler handler;  // null: the default, one line on stderr
  std::array<bool, static_cast<std::size_t>(WarningKind::count_)> logged{};
};
inline WarningState& warning_state() {
  static WarningState s;
  return s;
}

/// Logs `text` unless a warning of `kind` was logged already. Never throws: a warning comes from
/// an operation that succeeded, and a throwing handler must not turn it into a failure.
inline void warn_once(WarningKind kind, std::string_view text) noexcept {
  WarningHandler h;
  {
    auto& s = warning_state();
    std::lock_guard lock(s.mu);
    bool& logged = s.logged[static_cast<std::size_t>(kind)];
    if (logged) return;
    logged = true;
    h = s.handler;  // called outside the lock: a handler may call back into the library
  }
  try {
    if (h)
      h(text);
    else
      std::fprintf(stderr, "fusejit: warning: %.*s\n", static_cast<int>(text.size()), text.data());
  } catch (...) {
  }
}
}  // namespace detail

/// Installs the function that receives warnings (null restores the default: one line on stderr,
/// prefixed "fusejit: warning: ") and returns the previous one. Each kind of warning (corrupt
/// on-disk cache entry, entry of another version or target, unwritable cache directory) is
/// logged once per process; installing a handler starts that count afresh.
inline WarningHandler set_warning_handler(WarningHandler handler) {
  auto& s = detail::warning_state();
  std::lock_guard lock(s.mu);
  WarningHandler old = std::move(s.handler);
  s.handler = std::move(handler);
  s.logged = {};
  return old;
}

}  // namespace fj
