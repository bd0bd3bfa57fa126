// Counters of every cache (traces, hits, misses, compiles) and the switch that empties them.
#pragma once
#include <atomic>
#include <cstdint>
#include <ostream>

namespace fj {

struct CacheStats {
  std::uint64_t traces = 0;             // functions or expressions traced into a graph
  std::uint64_t cache_hits = 0;         // calls served by a per-function or per-expression cache
  std::uint64_t cache_misses = 0;       // calls that had to trace
  std::uint64_t kernel_cache_hits = 0;  // kernels found already compiled (global kernel cache)
  std::uint64_t compiles = 0;           // kernels (or graphs, on the reference backend) compiled
};

namespace detail {
struct StatCounters {
  std::atomic<std::uint64_t> traces{0}, hits{0}, misses{0}, kernel_hits{0}, compiles{0};
  // Bumped by clear_caches(); a cache filled under an older generation empties itself.
  std::atomic<std::uint64_t> generation{0};
};
inline StatCounters& stat_counters() {
  static StatCounters c;
  return c;
}
}  // namespace detail

inline CacheStats cache_stats() {
  auto& c = detail::stat_counters();
  return {c.traces.load(), c.hits.load(), c.misses.load(), c.kernel_hits.load(), c.compiles.load()};
}

/// Empties every cache: per-function, per-expression and the global kernel cache; the next call of
/// each traces and compiles again (code already loaded stays valid for executables that hold it).
inline void clear_caches() { detail::stat_counters().generation.fetch_add(1); }

inline std::ostream& operator<<(std::ostream& os, const CacheStats& s) {
  return os << "CacheStats(traces=" << s.traces << ", cache_hits=" << s.cache_hits
            << ", cache_misses=" << s.cache_misses << ", kernel_cache_hits=" << s.kernel_cache_hits
            << ", compiles=" << s.compiles << ")";
}

}  // namespace fj
