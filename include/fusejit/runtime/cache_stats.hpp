// Counters of every cache (traces, hits, misses, compiles), the switch that empties them, and
// the caches' settings (capacity, on-disk cache directory).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <ostream>
#include <string>

namespace fj {

/// Counts of every cache's events since the process started, as fj::cache_stats() returns them
/// (JAX has no one counterpart: compare jax.jit(f)._cache_size() and the compilation log).
struct CacheStats {
  std::uint64_t traces = 0;             ///< functions or expressions traced into a graph
  std::uint64_t cache_hits = 0;         ///< calls served by a per-function or per-expression cache
  std::uint64_t cache_misses = 0;       ///< calls that had to trace
  std::uint64_t kernel_cache_hits = 0;  ///< kernels found already compiled (global kernel cache)
  /// Kernels (or graphs, on the reference backend) the in-memory caches had to produce: compiled
  /// by LLVM, or loaded from the on-disk cache (disk_hits of them).
  std::uint64_t compiles = 0;
  std::uint64_t evictions = 0;    ///< entries dropped by a cache at its capacity
  std::uint64_t disk_hits = 0;    ///< kernels loaded from the on-disk cache instead of compiled
  std::uint64_t disk_writes = 0;  ///< entries written to the on-disk cache
  /// entries found but not used (corrupt, of another version or target)
  std::uint64_t disk_rejects = 0;
};

namespace detail {
struct StatCounters {
  std::atomic<std::uint64_t> traces{0}, hits{0}, misses{0}, kernel_hits{0}, compiles{0},
      evictions{0}, disk_hits{0}, disk_writes{0}, disk_rejects{0};
  // Bumped by clear_caches(); a cache filled under an older generation empties itself.
  std::atomic<std::uint64_t> generation{0};
  // Entries each cache keeps at most (0: no bound): FUSEJIT_CACHE_MAX_ENTRIES, or
  // set_cache_capacity(), else kDefaultCapacity.
  std::atomic<std::size_t> capacity{initial_capacity()};

  // As JAX bounds each jitted function's cache (4096). Unbounded, a process that compiles
  // distinct kernels without end (the fuzzer's long run) exhausted the JIT's memory mappings
  // after about 40 000 kernels.
  static constexpr std::size_t kDefaultCapacity = 4096;
  static std::size_t initial_capacity() {
    const char* env = std::getenv("FUSEJIT_CACHE_MAX_ENTRIES");
    if (!env || !*env) return kDefaultCapacity;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(env, &end, 10);
    return end && *end == '\0' ? static_cast<std::size_t>(n) : kDefaultCapacity;  // malformed
  }
};
inline StatCounters& stat_counters() {
  static StatCounters c;
  return c;
}

/// The on-disk cache's directory when FUSEJIT_CACHE_DIR is not set, where Dr.Jit keeps its own:
/// `$XDG_CACHE_HOME/fusejit`, else `$HOME/.cache/fusejit`, else none (off). The XDG base
/// directory specification ignores a relative XDG_CACHE_HOME, and so does this.
inline std::string default_cache_dir(const char* xdg_cache_home, const char* home) {
  if (xdg_cache_home && xdg_cache_home[0] == '/') return std::string(xdg_cache_home) + "/fusejit";
  if (home && *home) return std::string(home) + "/.cache/fusejit";
  return {};
}
/// The directory the environment asks for: FUSEJIT_CACHE_DIR when it is set (set and empty turns
/// the cache off), else default_cache_dir() of XDG_CACHE_HOME and HOME.
inline std::string cache_dir_from_env() {
  if (const char* env = std::getenv("FUSEJIT_CACHE_DIR")) return env;
  return default_cache_dir(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
}

// The on-disk cache's directory (empty: off): cache_dir_from_env(), read once, or set_cache_dir().
struct DiskCacheDir {
  std::mutex mu;
  std::string dir = cache_dir_from_env();
  // Whether `dir` is the default, which nobody asked for: if it cannot be written, the cache is
  // turned off without a warning (one named by FUSEJIT_CACHE_DIR or set_cache_dir warns).
  bool is_default = std::getenv("FUSEJIT_CACHE_DIR") == nullptr;
  // The entries' size bound: FUSEJIT_CACHE_DIR_MAX_BYTES (decimal), else 1 GiB, about 20 000
  // kernels; 0 is no bound.
  std::atomic<std::uint64_t> max_bytes = [] {
    const char* env = std::getenv("FUSEJIT_CACHE_DIR_MAX_BYTES");
    char* end = nullptr;
    const unsigned long long v = env && *env ? std::strtoull(env, &end, 10) : 0;
    return env && *env && end && *end == '\0' ? std::uint64_t{v} : std::uint64_t{1} << 30;
  }();
};
inline DiskCacheDir& disk_cache_dir() {
  static DiskCacheDir d;
  return d;
}
/// Turns the cache off if `dir` is the default directory still in use, which has proved
/// unwritable; returns whether it did (if not, the caller warns).
inline bool turn_off_default_cache_dir(const std::string& dir) {
  auto& d = disk_cache_dir();
  std::lock_guard lock(d.mu);
  if (!d.is_default || d.dir != dir) return false;
  d.dir.clear();
  return true;
}
}  // namespace detail

namespace detail {
/// A global clock of cache uses, for least-recently-used eviction.
inline std::uint64_t next_use_tick() {
  static std::atomic<std::uint64_t> tick{0};
  return tick.fetch_add(1, std::memory_order_relaxed) + 1;
}
/// Erases the least recently used entries of `entries` (a vector) beyond the caches' capacity;
/// `used(entry)` is an entry's last use tick.
template <class Entries, class Used>
void evict_beyond_capacity(Entries& entries, Used used) {
  const std::size_t cap = stat_counters().capacity.load(std::memory_order_relaxed);
  while (cap && entries.size() > cap) {
    auto oldest = entries.begin();
    for (auto it = entries.begin(); it != entries.end(); ++it)
      if (used(*it) < used(*oldest)) oldest = it;
    entries.erase(oldest);
    stat_counters().evictions.fetch_add(1, std::memory_order_relaxed);
  }
}
}  // namespace detail

/// The cache counters now: fj::cache_stats().compiles counts kernels compiled (or loaded) so far.
inline CacheStats cache_stats() {
  auto& c = detail::stat_counters();
  return {c.traces.load(),      c.hits.load(),        c.misses.load(),
          c.kernel_hits.load(), c.compiles.load(),    c.evictions.load(),
          c.disk_hits.load(),   c.disk_writes.load(), c.disk_rejects.load()};
}

/// Bounds every cache (each function's, each eager expression's, the global kernel cache) to
/// `max_entries`, evicting the least recently used beyond it; the JIT memory of an evicted
/// kernel is freed once no compiled function holds it. 0 removes the bound. The default is 4096,
/// or FUSEJIT_CACHE_MAX_ENTRIES.
inline void set_cache_capacity(std::size_t max_entries) {
  detail::stat_counters().capacity.store(max_entries);
}
/// The caches' capacity in entries (0: unbounded), as set_cache_capacity set it.
inline std::size_t cache_capacity() { return detail::stat_counters().capacity.load(); }

/// Sets the on-disk kernel cache's directory (created if missing); empty turns the cache off. The
/// default is FUSEJIT_CACHE_DIR (set and empty: off), else `$XDG_CACHE_HOME/fusejit`, else
/// `$HOME/.cache/fusejit`; a default directory that cannot be created or written turns the cache
/// off quietly. Compiled kernels are written there and loaded by later processes instead of
/// compiled again; entries of another fusejit or LLVM version or another CPU, and damaged ones,
/// are recompiled (one warning: set_warning_handler).
inline void set_cache_dir(std::string dir) {
  auto& d = detail::disk_cache_dir();
  std::lock_guard lock(d.mu);
  d.dir = std::move(dir);
  d.is_default = false;
}
/// The on-disk cache's directory in use; empty when the cache is off.
inline std::string cache_dir() {
  auto& d = detail::disk_cache_dir();
  std::lock_guard lock(d.mu);
  return d.dir;
}

/// Bounds the on-disk cache's entries to `max_bytes`: past it, the least recently used entries
/// (by file time; a hit refreshes it) are removed until they fit in 3/4 of it, and temporary
/// files more than an hour old (a writer that died) go too. 0 removes the bound. The default is
/// 1 GiB, or FUSEJIT_CACHE_DIR_MAX_BYTES.
inline void set_cache_dir_limit(std::uint64_t max_bytes) {
  detail::disk_cache_dir().max_bytes.store(max_bytes);
}
/// The on-disk cache's size bound in bytes (0: unbounded), as set_cache_dir_limit set it.
inline std::uint64_t cache_dir_limit() { return detail::disk_cache_dir().max_bytes.load(); }

/// Empties every cache: per-function, per-expression and the global kernel cache; the next call of
/// each traces and compiles again (code already loaded stays valid for executables that hold it).
inline void clear_caches() { detail::stat_counters().generation.fetch_add(1); }

/// Prints "CacheStats(traces=1, cache_hits=2, ...)", every counter by name.
inline std::ostream& operator<<(std::ostream& os, const CacheStats& s) {
  return os << "CacheStats(traces=" << s.traces << ", cache_hits=" << s.cache_hits
            << ", cache_misses=" << s.cache_misses << ", kernel_cache_hits=" << s.kernel_cache_hits
            << ", compiles=" << s.compiles << ", evictions=" << s.evictions
            << ", disk_hits=" << s.disk_hits << ", disk_writes=" << s.disk_writes
            << ", disk_rejects=" << s.disk_rejects << ")";
}

}  // namespace fj
