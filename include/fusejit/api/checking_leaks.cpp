// fj::checking_leaks, out of line: the process-wide switch and the leak report (impl. unit only).
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fusejit/api/checking_leaks.hpp"
#include "fusejit/core/error.hpp"

namespace fj {

namespace {
std::atomic<bool>& everywhere() {
  static std::atomic<bool> on{[] {
    const char* v = std::getenv("FUSEJIT_CHECK_TRACER_LEAKS");
    return v && *v && std::strcmp(v, "0") != 0;
  }()};
  return on;
}
}  // namespace

void set_check_tracer_leaks(bool on) { everywhere().store(on, std::memory_order_relaxed); }
bool check_tracer_leaks() { return everywhere().load(std::memory_order_relaxed); }

namespace detail {

void check_no_leaks(std::shared_ptr<TraceState> ended) {
  // Every reference but `ended` belongs to a tracer (or to a nested trace holding one).
  const long leaked = ended.use_count() - 1;
  if (leaked <= 0) return;
  const std::string n = std::to_string(leaked);
  throw UnexpectedTracerError(
      "Found " + n + " leaked tracer(s) of the trace of " + ended->site().str() + ": " + n +
      " reference(s) to its tracers remained after the trace ended (fj::checking_leaks). A "
      "traced value must not outlive its function; look for one stored in a global or in a "
      "variable captured by reference, captured by a lambda (e.g. a std::function) that escapes "
      "the function, or returned through a side channel (an output argument, a container).");
}

}  // namespace detail

}  // namespace fj
