// fusejit_exhaustive: the LLVM backend's f32 math on every float (--full) or a strided subset plus
// every branch boundary's neighbourhood (--ci), and f64 on random samples, at each x86-64 level
// the host runs, against higher-precision references; --full writes docs/MATH.md's table, --ci
// fails when a function exceeds its documented ulp bound (issue 18).
#include <fusejit/fusejit.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../cpu_widths.hpp"
#include "functions.hpp"
#include "reference.hpp"

namespace fx = fusejit_exhaustive;
using fx::LD;

namespace {

struct Options {
  bool full = false;
  std::string docs = FUSEJIT_EXHAUSTIVE_DOCS;  // --full writes its table here (empty: nowhere)
  int f32_chunks = 256;                        // --full: how many of the 256 chunks of 2^24 floats
  int other_width_stride = 1;                  // --full: narrower widths only on every n-th chunk
  std::int64_t f64_count = 0;                  // per function (default by mode)
  std::vector<std::string> only;               // function names (empty: all)
};

// The worst input of one (function, format, width) and how many results broke the bound.
struct Stat {
  double ulp = -1;
  std::uint64_t bits = 0;  // the input's bit pattern
  double got = 0;
  LD ref = 0;
  std::uint64_t n = 0, over = 0, mismatched = 0;
  void add(double u, std::uint64_t b, double g, LD r, double bound) {
    ++n;
    if (u > bound) ++over;
    if (u >= fx::kMismatch) ++mismatched;
    if (u > ulp) ulp = u, bits = b, got = g, ref = r;
  }
  void merge(const Stat& o) {
    n += o.n, over += o.over, mismatched += o.mismatched;
    if (o.ulp > ulp) ulp = o.ulp, bits = o.bits, got = o.got, ref = o.ref;
  }
};

int threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// Runs body(begin, end) over [0, n) split evenly across the host's threads.
void parallel(std::int64_t n, const std::function<void(int, std::int64_t, std::int64_t)>& body) {
  const int t = threads();
  std::vector<std::thread> pool;
  for (int k = 0; k < t; ++k) pool.emplace_back(body, k, n * k / t, n * (k + 1) / t);
  for (auto& th : pool) th.join();
}

// Evaluates f on xs at each width (widths[w] when run[w]) and compares every result with the
// reference, computed once per input: the reference is the expensive part.
template <class T>
void sweep(const fx::MathFn& f, const std::vector<T>& xs,
           const std::vector<std::pair<std::string, int>>& widths, const std::vector<bool>& run,
           std::vector<Stat>& stats) {
  constexpr bool f32 = std::is_same_v<T, float>;
  const fj::Array in = fj::array(xs, fj::Shape{static_cast<std::int64_t>(xs.size())});
  std::vector<fj::Array> outs(widths.size());
  std::vector<const T*> got(widths.size(), nullptr);
  for (std::size_t w = 0; w < widths.size(); ++w) {
    if (!run[w]) continue;
    fj::set_cpu_target(widths[w].first);  // no-op when it is already the target
    outs[w] = f.run(in);
    got[w] = outs[w].template data<T>();
  }
  const double bound = f32 ? f.bound32 : f.bound64;
  std::vector<std::vector<Stat>> local(threads(), std::vector<Stat>(widths.size()));
  parallel(static_cast<std::int64_t>(xs.size()), [&](int k, std::int64_t b, std::int64_t e) {
    auto& st = local[k];
    for (std::int64_t i = b; i < e; ++i) {
      const T x = xs[i];
      const LD ref = f32 ? static_cast<LD>(f.ref32(x)) : f.ref64(x);
      for (std::size_t w = 0; w < widths.size(); ++w) {
        if (!got[w]) continue;
        const T g = got[w][i];
        const double u = f32 ? fx::ulp_error(float(g), double(ref)) : fx::ulp_error(double(g), ref);
        // Folding the bound check into add() would cost a branch per result; only the rare
        // large errors need the rest.
        if (u > st[w].ulp || u > bound)
          st[w].add(u, std::bit_cast<std::conditional_t<f32, std::uint32_t, std::uint64_t>>(x),
                    double(g), ref, bound);
        else
          ++st[w].n;
      }
    }
  });
  for (auto& st : local)
    for (std::size_t w = 0; w < widths.size(); ++w) stats[w].merge(st[w]);
}

// The 2k+1 consecutive values of T centred on v, and on -v.
template <class T>
void around(std::vector<T>& out, double v, int k) {
  using U = std::conditional_t<std::is_same_v<T, float>, std::uint32_t, std::uint64_t>;
  for (T c : {static_cast<T>(v), static_cast<T>(-v)}) {
    const U b = std::bit_cast<U>(c);
    const U sign = b & (U{1} << (sizeof(U) * 8 - 1));
    const U mag = b & ~sign, inf = std::bit_cast<U>(std::numeric_limits<T>::infinity());
    for (std::int64_t d = -k; d <= k; ++d) {
      const std::int64_t m = static_cast<std::int64_t>(mag) + d;  // stays within this sign
      if (m >= 0 && m <= static_cast<std::int64_t>(inf))
        out.push_back(std::bit_cast<T>(U(m) | sign));
    }
  }
}

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// f64 input i of function `fn` (deterministic, so chunks can be made in parallel): half uniform
// over bit patterns (every exponent equally: the whole range, subnormals, NaNs, infinities), a
// quarter uniform on [lo, hi], a quarter within 2^12 ulps of a branch boundary.
double f64_input(const fx::MathFn& f, std::uint64_t fn, std::uint64_t i) {
  const std::uint64_t r = splitmix(splitmix(fn * 0x100000001b3ull) ^ i);
  const std::uint64_t kind = i & 3;
  if (kind < 2) return std::bit_cast<double>(r);
  if (kind == 2) return f.lo + (f.hi - f.lo) * (static_cast<double>(r >> 11) * 0x1p-53);
  const double e = f.edges64[(r >> 32) % f.edges64.size()];
  const std::int64_t d = static_cast<std::int64_t>(r & 0x1fff) - 0x1000;
  const std::uint64_t b = std::bit_cast<std::uint64_t>(std::fabs(e));
  double v = std::bit_cast<double>(
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, static_cast<std::int64_t>(b) + d)));
  return (r >> 31) & 1 ? -v : v;
}

std::string fmt(const char* f, auto... a) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a...);
  return buf;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Results {
  std::vector<fx::MathFn> fns;
  std::vector<std::pair<std::string, int>> widths;
  // [format][function][width]
  std::vector<std::vector<Stat>> s32, s64;
  double secs32 = 0, secs64 = 0;
  std::vector<double> fn_secs32;  // per function, for the progress lines
};

void run_f32(const Options& o, Results& r) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t nw = r.widths.size();
  std::vector<bool> all(nw, true), widest(nw, false);
  widest[nw - 1] = true;
  // --ci: every 256th bit pattern, offset by a hash of its index so that all low-bit residues
  // occur (2^24 inputs), in 4 pieces; --full: 2^24 consecutive patterns per chunk.
  const int chunks = o.full ? o.f32_chunks : 4;
  const std::int64_t per = o.full ? (std::int64_t{1} << 24) : (std::int64_t{1} << 22);
  std::vector<float> xs(static_cast<std::size_t>(per));
  for (int c = 0; c < chunks; ++c) {
    // --f32-chunks n < 256 spreads its chunks evenly over the range (for timing estimates).
    const std::int64_t chunk = o.full ? std::int64_t{c} * 256 / chunks : c;
    parallel(per, [&](int, std::int64_t b, std::int64_t e) {
      for (std::int64_t i = b; i < e; ++i) {
        std::uint32_t bits;
        if (o.full) {
          bits = static_cast<std::uint32_t>((chunk << 24) | i);
        } else {
          const std::uint64_t k = static_cast<std::uint64_t>(chunk * per + i);
          bits = static_cast<std::uint32_t>((k << 8) | ((k * 2654435761u) >> 24 & 255));
        }
        xs[static_cast<std::size_t>(i)] = std::bit_cast<float>(bits);
      }
    });
    const bool every = !o.full || c % o.other_width_stride == 0;
    for (std::size_t f = 0; f < r.fns.size(); ++f) {
      const auto t1 = std::chrono::steady_clock::now();
      sweep<float>(r.fns[f], xs, r.widths, every ? all : widest, r.s32[f]);
      r.fn_secs32[f] += seconds_since(t1);
    }
    if (o.full) {
      std::string per_fn;
      for (std::size_t f = 0; f < r.fns.size(); ++f)
        per_fn += fmt(" %s %.0f", r.fns[f].name.c_str(), r.fn_secs32[f]);
      std::fprintf(stderr, "[exhaustive] f32 chunk %d/%d done, %.0f s (%s)\n", c + 1, chunks,
                   seconds_since(t0), per_fn.c_str());
    }
  }
  if (!o.full) {
    // Every branch boundary's neighbourhood: 4096 floats each side, both signs.
    for (std::size_t f = 0; f < r.fns.size(); ++f) {
      std::vector<float> near;
      for (double e : r.fns[f].edges32) around(near, e, 4096);
      sweep<float>(r.fns[f], near, r.widths, all, r.s32[f]);
    }
  }
  r.secs32 = seconds_since(t0);
}

void run_f64(const Options& o, Results& r) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t n = o.f64_count;
  const std::int64_t per = std::int64_t{1} << 22;
  std::vector<bool> all(r.widths.size(), true);
  std::vector<double> xs;
  for (std::size_t f = 0; f < r.fns.size(); ++f) {
    for (std::int64_t start = 0; start < n; start += per) {
      const std::int64_t m = std::min(per, n - start);
      xs.resize(static_cast<std::size_t>(m));
      parallel(m, [&](int, std::int64_t b, std::int64_t e) {
        for (std::int64_t i = b; i < e; ++i)
          xs[static_cast<std::size_t>(i)] =
              f64_input(r.fns[f], f, static_cast<std::uint64_t>(start + i));
      });
      sweep<double>(r.fns[f], xs, r.widths, all, r.s64[f]);
    }
    if (o.full)
      std::fprintf(stderr, "[exhaustive] f64 %s done, %.0f s\n", r.fns[f].name.c_str(),
                   seconds_since(t0));
  }
  r.secs64 = seconds_since(t0);
}

std::string bound_text(double b) { return fmt("%g", b); }

std::string worst_text(const Stat& s, bool f32) {
  if (s.ulp < 0) return "-";
  if (f32)
    return fmt("0x%08" PRIx64 " (%.9g): got %.9g, want %.10Lg", s.bits,
               double(std::bit_cast<float>(static_cast<std::uint32_t>(s.bits))), s.got, s.ref);
  return fmt("0x%016" PRIx64 " (%.17g): got %.17g, want %.19Lg", s.bits,
             std::bit_cast<double>(s.bits), s.got, s.ref);
}

std::string ulp_text(const Stat& s) {
  if (s.n == 0) return "-";
  return s.ulp >= fx::kMismatch ? "special-value mismatch" : fmt("%.3f", s.ulp);
}

// A markdown table: one row per function, the max ulp at each width, the worst input (over all
// widths) and the results beyond the bound.
std::string table(const Results& r, bool f32) {
  const auto& st = f32 ? r.s32 : r.s64;
  std::ostringstream t;
  t << "| function | bound |";
  for (auto& w : r.widths) t << ' ' << w.first << " (" << w.second << " f32 lanes) |";
  t << " worst input (all widths) | results over bound |\n| --- | --- |";
  for (std::size_t w = 0; w < r.widths.size(); ++w) t << " --- |";
  t << " --- | --- |\n";
  for (std::size_t f = 0; f < r.fns.size(); ++f) {
    Stat worst;
    std::uint64_t over = 0;
    t << "| " << r.fns[f].name << " | " << bound_text(f32 ? r.fns[f].bound32 : r.fns[f].bound64)
      << " |";
    for (const Stat& s : st[f]) {
      t << ' ' << ulp_text(s) << " |";
      worst.merge(s);
      over += s.over;
    }
    t << ' ' << worst_text(worst, f32) << " | " << over << " |\n";
  }
  return t.str();
}

// Max |double reference - long double reference| of erf_inv in f32 ulps, on 2^20 floats spread
// over (-1, 1): how far the f32 reference itself can be off.
double erf_inv_reference_check() {
  double worst = 0;
  for (std::uint32_t k = 0; k < (1u << 20); ++k) {
    const float x = std::bit_cast<float>(k << 12 | (k * 2654435761u) >> 20);
    if (!(std::fabs(x) < 1)) continue;  // about half of them
    const double d = fx::erf_inv_ref<double>(x, FLT_MAX);
    const LD l = fx::erf_inv_ref<LD>(x, FLT_MAX);
    if (l != 0) worst = std::max(worst, double(std::fabs(LD(d) - l) / LD(fx::ulp_f32(d))));
  }
  return worst;
}

void write_docs(const Options& o, const Results& r) {
  std::ifstream in(o.docs);
  std::stringstream buf;
  buf << in.rdbuf();
  std::string doc = buf.str();
  const std::string begin = "<!-- exhaustive:begin -->", end = "<!-- exhaustive:end -->";
  const fj::CpuTarget native = [] {
    fusejit_test::CpuTargetScope s("native");
    return fj::cpu_target();
  }();
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  std::ostringstream g;
  g << begin << "\n<!-- Generated by ./scripts/exhaustive (tests/exhaustive/exhaustive_math.cpp); "
    << "edits are overwritten. -->\n\n";
  g << "Measured " << date << " on " << cpu_model() << " (LLVM CPU `" << native.cpu
    << "`), kernels compiled for each x86-64 level through `fj::set_cpu_target`, " << threads()
    << " threads, through `fj::jit` on the `llvm` backend.\n\n";
  const bool whole = o.f32_chunks == 256;
  std::string f32_what =
      whole ? "**every one of the 2^32 f32 bit patterns**"
            : fmt("%d evenly spaced blocks of 2^24 consecutive bit patterns (%.3g inputs)",
                  o.f32_chunks, o.f32_chunks * 16777216.0);
  if (o.other_width_stride > 1)
    f32_what +=
        fmt(" at %s; at the narrower widths only the blocks of 2^24 consecutive bit patterns whose "
            "index is a multiple of %d (%.3g inputs: their maxima cover less; on the same inputs "
            "the widths agree, as `--ci` shows)",
            r.widths.back().first.c_str(), o.other_width_stride,
            std::ceil(double(o.f32_chunks) / o.other_width_stride) * 16777216.0);
  g << "**f32** (" << fmt("%.0f", r.secs32) << " s): " << f32_what
    << " per function, NaNs, infinities, zeros and subnormals included; reference: the C "
       "library's `double` function of the input (erf_inv: Newton on erf / erfc in double, within "
    << fmt("%.2g", erf_inv_reference_check())
    << " f32 ulp of the same in long double; logistic: 1 / (1 + exp(-x)); rsqrt: 1 / sqrt(x)). "
       "Special values must match exactly (erf_inv(+-1) = +-FLT_MAX, as documented).\n\n";
  g << table(r, true) << "\n";
  g << "**f64** (" << fmt("%.0f", r.secs64) << " s): " << fmt("%.3g", double(o.f64_count))
    << " inputs per function: half uniform over bit patterns, a quarter uniform on the "
       "function's interval, a quarter within 2^12 ulps of its branch boundaries "
       "(`tests/exhaustive/functions.hpp`); reference: `long double` (x87) libm, erf_inv by "
       "Newton on erfl / erfcl.\n\n";
  g << table(r, false) << "\n" << end;
  const auto b = doc.find(begin), e = doc.find(end);
  if (b != std::string::npos && e != std::string::npos && e > b)
    doc.replace(b, e + end.size() - b, g.str());
  else
    doc += "\n## Exhaustive sweep\n\n" + g.str() + "\n";
  std::ofstream(o.docs) << doc;
  std::fprintf(stderr, "[exhaustive] wrote %s\n", o.docs.c_str());
}

int usage() {
  std::fprintf(stderr,
               "usage: fusejit_exhaustive --ci | --full [--docs PATH] [--f32-chunks N (1-256)]\n"
               "       [--other-width-stride N] [--f64-count N] [--only fn,fn,...]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  bool mode = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--full" || a == "--ci")
      o.full = a == "--full", mode = true;
    else if (a == "--docs")
      o.docs = next();
    else if (a == "--f32-chunks")
      o.f32_chunks = std::clamp(std::atoi(next().c_str()), 1, 256);
    else if (a == "--other-width-stride")
      o.other_width_stride = std::max(1, std::atoi(next().c_str()));
    else if (a == "--f64-count")
      o.f64_count = std::atoll(next().c_str());
    else if (a == "--only") {
      std::stringstream ss(next());
      for (std::string s; std::getline(ss, s, ',');) o.only.push_back(s);
    } else
      return usage();
  }
  if (!mode) return usage();
  if (o.f64_count <= 0) o.f64_count = o.full ? 100'000'000 : 500'000;

  fj::set_default_backend("llvm");
  fj::runtime::set_thread_limit(threads());
  Results r;
  r.widths = fusejit_test::widths_here();
  if (r.widths.empty()) {
    std::printf("skipped: no LLVM backend in this build\n");
    return 77;
  }
  for (auto& f : fx::math_functions())
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), f.name) != o.only.end())
      r.fns.push_back(std::move(f));
  r.s32.assign(r.fns.size(), std::vector<Stat>(r.widths.size()));
  r.s64 = r.s32;
  r.fn_secs32.assign(r.fns.size(), 0);

  run_f32(o, r);
  run_f64(o, r);
  fj::set_cpu_target("native");

  std::printf("f32 (%.1f s)\n%s\nf64 (%.1f s)\n%s\n", r.secs32, table(r, true).c_str(), r.secs64,
              table(r, false).c_str());
  int passed = 0, failed = 0;
  for (int fmt32 = 1; fmt32 >= 0; --fmt32)
    for (std::size_t f = 0; f < r.fns.size(); ++f)
      for (std::size_t w = 0; w < r.widths.size(); ++w) {
        const Stat& s = (fmt32 ? r.s32 : r.s64)[f][w];
        if (s.n == 0) continue;
        const double bound = fmt32 ? r.fns[f].bound32 : r.fns[f].bound64;
        if (s.ulp <= bound) {
          ++passed;
          continue;
        }
        ++failed;
        std::printf("FAILED: %s %s at %s: %s ulp > bound %g, %" PRIu64 " results over, at %s\n",
                    r.fns[f].name.c_str(), fmt32 ? "f32" : "f64", r.widths[w].first.c_str(),
                    ulp_text(s).c_str(), bound, s.over, worst_text(s, fmt32).c_str());
      }
  std::printf("%d passed, %d failed\n", passed, failed);
  if (o.full && !o.docs.empty()) write_docs(o, r);
  return failed == 0 ? 0 : 1;
}
