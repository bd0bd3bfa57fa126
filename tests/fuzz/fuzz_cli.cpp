// `fuzz_graphs_cli N [FIRST_SEED] [BACKEND]`: checks N random programs (seeds FIRST_SEED ...) on
// BACKEND (default llvm) against the reference, prints a report per mismatch and a summary line;
// exit status 1 when any program differs. Run by ./scripts/fuzz. FUSEJIT_FUZZ_VERBOSE=1 prints
// each seed to stderr before it runs (to find one that crashes).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "shrink.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s N [FIRST_SEED] [BACKEND]\n", argv[0]);
    return 2;
  }
  const std::uint64_t n = std::strtoull(argv[1], nullptr, 10);
  const std::uint64_t first = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 0;
  const std::string backend = argc > 3 ? argv[3] : "llvm";
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t failed = 0, eqns = 0;
  const bool verbose = std::getenv("FUSEJIT_FUZZ_VERBOSE") != nullptr;
  for (std::uint64_t s = first; s < first + n; ++s) {
    if (verbose) std::fprintf(stderr, "seed %llu\n", static_cast<unsigned long long>(s));
    eqns += fusejit_fuzz::generate(s).graph->eqns.size();
    const std::string r = fusejit_fuzz::run_seed(s, backend);
    if (r.empty()) continue;
    ++failed;
    std::printf("%s\n", r.c_str());
    std::fflush(stdout);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("fuzz: %llu programs (seeds %llu-%llu, %llu equations) on %s: %llu differ; %.1f s\n",
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(first),
              static_cast<unsigned long long>(first + n - 1), static_cast<unsigned long long>(eqns),
              backend.c_str(), static_cast<unsigned long long>(failed), secs);
  return failed ? 1 : 0;
}
