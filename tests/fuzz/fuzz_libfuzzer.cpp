// libFuzzer entry point (the `fuzz_graphs` target, built with clang's -fsanitize=fuzzer): each
// input's bytes become a seed of the same generator the CI run and ./scripts/fuzz use; a
// difference from the reference prints the report and aborts, as libFuzzer expects of a crash.
#include <cstdio>
#include <cstdlib>

#include "shrink.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fusejit_fuzz::Program p = fusejit_fuzz::generate_from_bytes(data, size);
  const auto target = fusejit_fuzz::on_backend("llvm");
  if (const auto f = fusejit_fuzz::check(p, target)) {
    const auto small = fusejit_fuzz::shrink(p, target);
    std::fprintf(stderr, "%s\n", fusejit_fuzz::report(p, *f, small, target).c_str());
    std::abort();
  }
  return 0;
}
