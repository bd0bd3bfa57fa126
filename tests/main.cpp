// The doctest main for fusejit_tests; every other tests/*.cpp only defines test cases.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include <cstdio>
#include <cstdlib>

// Exit status of a run whose FUSEJIT_CPU this host cannot execute: ctest counts it as skipped
// (SKIP_RETURN_CODE of the cpu_width.* entries), so one list of entries serves every host.
constexpr int kSkipped = 77;

int main(int argc, char** argv) {
  if (const char* target = std::getenv("FUSEJIT_CPU"); target && *target)
    if (!fj::cpu_target_supported(target)) {
      std::printf("skipped: this host cannot run code for FUSEJIT_CPU=%s\n", target);
      return kSkipped;
    }
  return doctest::Context(argc, argv).run();
}
