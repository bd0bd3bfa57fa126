// The doctest main for fusejit_tests; every other tests/*.cpp only defines test cases.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

// Exit status of a run whose FUSEJIT_CPU this host cannot execute: ctest counts it as skipped
// (SKIP_RETURN_CODE of the cpu_width.* entries), so one list of entries serves every host.
constexpr int kSkipped = 77;

// The on-disk kernel cache is on by default, in the user's cache directory; the tests never
// touch it. ctest gives every entry FUSEJIT_CACHE_DIR (CMakeLists.txt); a run by hand without it
// uses a directory next to the executable, the same one.
void use_own_cache_dir() {
  if (std::getenv("FUSEJIT_CACHE_DIR")) return;  // set, or set and empty (off): as asked
  // A child of tests/test_disk_cache.cpp that checks the library's own default directory.
  if (const char* keep = std::getenv("FUSEJIT_TEST_KEEP_CACHE_ENV"); keep && *keep) return;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::string dir = ec ? std::string() : (exe.parent_path() / "test-kernel-cache").string();
  ::setenv("FUSEJIT_CACHE_DIR", dir.c_str(), 1);  // empty where the executable is not known: off
}

int main(int argc, char** argv) {
  use_own_cache_dir();  // before anything reads it (fj::cache_dir() reads it once)
  // pmap's tests map over 4 CPU devices (tests/test_pmap.cpp); set before any test lists them.
  if (!std::getenv("FUSEJIT_CPU_DEVICES")) fj::set_cpu_device_count(4);
  if (const char* target = std::getenv("FUSEJIT_CPU"); target && *target)
    if (!fj::cpu_target_supported(target)) {
      std::printf("skipped: this host cannot run code for FUSEJIT_CPU=%s\n", target);
      return kSkipped;
    }
  return doctest::Context(argc, argv).run();
}
