// pad's padding_config: (lo, hi, interior) per axis, read from params and written as JAX 0.10.2
// prints it. jnp.pad's widths come from a NumPy array, so JAX prints them as `np.int64(1)`; the
// per-entry flag `np` keeps that spelling through the transformations that copy the config.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

struct PadConfig {
  using V = std::vector<std::int64_t>;
  V lo, hi, interior;
  /// Three flags per axis (lo, hi, interior): 1 where JAX prints the entry as np.int64(...).
  V np;

  static PadConfig from(const Params& p) {
    return {p.get<V>("padding_lo"), p.get<V>("padding_hi"), p.get<V>("padding_interior"),
            p.get<V>("padding_np")};
  }
  int rank() const { return static_cast<int>(lo.size()); }
  /// `((1, 2, 0), (np.int64(0), np.int64(1), 0))`, a Python tuple of triples.
  std::string str() const {
    auto entry = [&](std::size_t a, int k, std::int64_t v) {
      const std::size_t at = 3 * a + static_cast<std::size_t>(k);
      return at < np.size() && np[at] ? "np.int64(" + std::to_string(v) + ")" : std::to_string(v);
    };
    std::string s = "(";
    for (std::size_t a = 0; a < lo.size(); ++a)
      s += (a ? ", (" : "(") + entry(a, 0, lo[a]) + ", " + entry(a, 1, hi[a]) + ", " +
           entry(a, 2, interior[a]) + ")";
    return s + (lo.size() == 1 ? ",)" : ")");
  }
  /// The printed padding_config plus the machine-readable lists (hidden when printing).
  void add_to(Params& p) const {
    p.items.push_back({"padding_config", str(), true});
    p.items.push_back({"padding_lo", lo, false});
    p.items.push_back({"padding_hi", hi, false});
    p.items.push_back({"padding_interior", interior, false});
    V flags = np;
    flags.resize(3 * lo.size(), 0);
    p.items.push_back({"padding_np", flags, false});
  }
  Params params() const {
    Params p;
    add_to(p);
    return p;
  }
  /// The config with a (0, 0, 0) axis (printed as plain ints) in front: a vmapped pad.
  PadConfig with_front_axis() const {
    PadConfig c;
    c.lo = with_front(lo), c.hi = with_front(hi), c.interior = with_front(interior);
    V flags = np;
    flags.resize(3 * lo.size(), 0);
    c.np = V{0, 0, 0};
    c.np.insert(c.np.end(), flags.begin(), flags.end());
    return c;
  }

 private:
  static V with_front(const V& v) {
    V r{0};
    r.insert(r.end(), v.begin(), v.end());
    return r;
  }
};

}  // namespace fj::ir
