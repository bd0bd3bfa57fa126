// opt_einsum's path searches (optimal, branch and bound, greedy), which decide the order of
// jnp.einsum's pairwise dot_generals, and so its jaxpr text and the sizes of its intermediates.
#include "fusejit/expr/einsum_path.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <set>
#include <tuple>

namespace fj::detail {
namespace {

using Letters = std::set<char>;
using Sizes = std::map<char, std::int64_t>;
using Pairs = std::vector<std::pair<int, int>>;  // static single assignment ids, or linear

constexpr double kInf = std::numeric_limits<double>::infinity();

Letters letters_of(const std::string& s) { return Letters(s.begin(), s.end()); }

Letters unite(const Letters& a, const Letters& b) {
  Letters r = a;
  r.insert(b.begin(), b.end());
  return r;
}

Letters intersect(const Letters& a, const Letters& b) {
  Letters r;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.end()));
  return r;
}

Letters subtract(const Letters& a, const Letters& b) {
  Letters r;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.end()));
  return r;
}

// opt_einsum's compute_size_by_dict: the product of the letters' extents. Doubles hold these
// exactly up to 2^53, far past any array that fits in memory.
double size_of(const Letters& k, const Sizes& size) {
  double n = 1;
  for (char c : k) n *= static_cast<double>(size.at(c));
  return n;
}

// opt_einsum's flop_count of one contraction over the letters `either`: their size, times the
// number of terms less one (at least 1), plus one with an inner product (a letter summed away).
double flop_count(const Letters& either, bool inner, int terms, const Sizes& size) {
  return size_of(either, size) * (std::max(1, terms - 1) + (inner ? 1 : 0));
}

/// A CPython set of small non-negative ints, to iterate `remaining` in the order opt_einsum's
/// recursive searches do: `itertools.combinations(remaining, 2)` takes the set's hash-table
/// order, which is not increasing once ids outgrow the table (ids reach 2n - 2, a table of six
/// ids has 16 slots), and that order decides which branches the cutoff keeps. CPython 3.11's
/// setobject.c as far as ints are concerned (an int hashes to itself): open addressing with up to
/// nine linear probes, deleted slots left as dummies, tables of 8 << k slots kept under 60% full.
class PySet {
 public:
  static PySet range(int n) {
    PySet s;
    for (int k = 0; k < n; ++k) s.add(k);
    return s;
  }

  /// `self - {i, j}` (set_difference): a copy with the two discarded when the set has at least
  /// four times as many members, else the members but those two inserted into an empty set.
  PySet without(int i, int j) const {
    PySet r;
    if ((used_ >> 2) > 2) {
      r.merge(*this);
      r.discard(i);
      r.discard(j);
    } else {
      for (int k : members())
        if (k != i && k != j) r.add(k);
    }
    return r;
  }

  /// `self | {k}` (set_or): a copy, then k merged in.
  PySet with(int k) const {
    PySet r, one;
    r.merge(*this);
    one.add(k);
    r.merge(one);
    return r;
  }

  std::vector<int> members() const {
    std::vector<int> m;
    for (int k : table_)
      if (k >= 0) m.push_back(k);
    return m;
  }

 private:
  static constexpr int kNull = -1, kDummy = -2, kLinearProbes = 9;
  std::vector<int> table_ = std::vector<int>(8, kNull);
  std::size_t fill_ = 0, used_ = 0;  // slots not null; members

  std::size_t mask() const { return table_.size() - 1; }

  // set_add_entry: the first null slot on k's probe sequence, or a dummy met before it.
  void add(int k) {
    std::size_t perturb = static_cast<std::size_t>(k), i = perturb & mask();
    std::optional<std::size_t> free_slot;
    for (;;) {
      const std::size_t probes = i + kLinearProbes <= mask() ? kLinearProbes : 0;
      for (std::size_t p = 0; p <= probes; ++p) {
        const int at = table_[i + p];
        if (at == k) return;
        if (at == kDummy && !free_slot) free_slot = i + p;
        if (at == kNull) {
          if (free_slot) {
            table_[*free_slot] = k;
            ++used_;
            return;
          }
          table_[i + p] = k;
          ++fill_;
          ++used_;
          if (fill_ * 5 >= mask() * 3) resize(used_ > 50000 ? used_ * 2 : used_ * 4);
          return;
        }
      }
      perturb >>= 5;
      i = (i * 5 + 1 + perturb) & mask();
    }
  }

  void discard(int k) {
    for (int& at : table_)
      if (at == k) {
        at = kDummy;
        --used_;
        return;
      }
  }

  // set_insert_clean: into a table without dummies or k.
  static void insert_clean(std::vector<int>& table, int k) {
    const std::size_t mask = table.size() - 1;
    std::size_t perturb = static_cast<std::size_t>(k), i = perturb & mask;
    for (;;) {
      const std::size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      for (std::size_t p = 0; p <= probes; ++p)
        if (table[i + p] == kNull) {
          table[i + p] = k;
          return;
        }
      perturb >>= 5;
      i = (i * 5 + 1 + perturb) & mask;
    }
  }

  // set_table_resize: the smallest 8 << k slots above `min_used`, members reinserted in order.
  void resize(std::size_t min_used) {
    std::size_t size = 8;
    while (size <= min_used) size <<= 1;
    std::vector<int> old = std::move(table_);
    table_.assign(size, kNull);
    for (int k : old)
      if (k >= 0) insert_clean(table_, k);
    fill_ = used_;
  }

  // set_merge: one resize up front, then the other's members in its slot order; into an empty
  // table of the same size the slots are copied as they are.
  void merge(const PySet& other) {
    if (other.used_ == 0) return;
    if ((fill_ + other.used_) * 5 >= mask() * 3) resize((used_ + other.used_) * 2);
    if (fill_ == 0 && mask() == other.mask() && other.fill_ == other.used_) {
      table_ = other.table_;
    } else if (fill_ == 0) {
      for (int k : other.table_)
        if (k >= 0) insert_clean(table_, k);
    } else {
      for (int k : other.members()) add(k);
      return;
    }
    fill_ = used_ = other.used_;
  }
};

/// The letters a pairwise contraction keeps and its flop count (opt_einsum's calc_k12_flops).
struct PairResult {
  Letters k12;
  double flops = 0;
};

/// What the recursive searches share: the operands' letters by static single assignment id
/// (contracted ones stay, as in opt_einsum), and its cache of pair results. The cache is keyed by
/// the two operands' letters alone, as opt_einsum's `result_cache` is, so a result found in one
/// branch is reused in another; keeping that makes the paths opt_einsum's in every case.
class PairSearch {
 public:
  PairSearch(const std::vector<std::string>& inputs, const std::string& output, const Sizes& size)
      : output_(letters_of(output)), size_(size) {
    for (const std::string& in : inputs) sets_.push_back(letters_of(in));
  }

  const PairResult& contract(const std::vector<int>& remaining, int i, int j) {
    const Letters& k1 = sets_[static_cast<std::size_t>(i)];
    const Letters& k2 = sets_[static_cast<std::size_t>(j)];
    auto [it, fresh] = cache_.try_emplace({k1, k2});
    if (!fresh) return it->second;
    Letters keep = output_;
    for (int r : remaining)
      if (r != i && r != j) keep.insert(set(r).begin(), set(r).end());
    const Letters either = unite(k1, k2);
    const bool inner = !subtract(intersect(k1, k2), keep).empty();
    it->second = {intersect(either, keep), flop_count(either, inner, 2, size_)};
    return it->second;
  }

  const Letters& set(int id) const { return sets_[static_cast<std::size_t>(id)]; }
  int count() const { return static_cast<int>(sets_.size()); }
  void push(const Letters& k12) { sets_.push_back(k12); }
  void pop() { sets_.pop_back(); }
  double size(const Letters& k) const { return size_of(k, size_); }

 private:
  std::vector<Letters> sets_;
  Letters output_;
  const Sizes& size_;
  std::map<std::pair<Letters, Letters>, PairResult> cache_;
};

std::vector<int> first_ids(int n) {
  std::vector<int> ids(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) ids[static_cast<std::size_t>(k)] = k;
  return ids;
}

// opt_einsum's "optimal": depth first over every order, pairs in itertools.combinations order,
// keeping the first path of least total flop count.
Pairs optimal(PairSearch& s) {
  double best = kInf;
  Pairs best_path, path;
  std::function<void(const PySet&, double)> search = [&](const PySet& remaining, double flops) {
    const std::vector<int> pool = remaining.members();
    if (pool.size() == 1) {
      best = flops;
      best_path = path;
      return;
    }
    for (std::size_t a = 0; a < pool.size(); ++a)
      for (std::size_t b = a + 1; b < pool.size(); ++b) {
        const int i = std::min(pool[a], pool[b]), j = std::max(pool[a], pool[b]);
        const PairResult r = s.contract(pool, i, j);
        const double total = flops + r.flops;
        if (total >= best) continue;
        const PySet next = remaining.without(i, j).with(s.count());
        s.push(r.k12);
        path.emplace_back(i, j);
        search(next, total);
        path.pop_back();
        s.pop();
      }
  };
  search(PySet::range(s.count()), 0);
  return best_path;
}

// opt_einsum's BranchBound (minimize="flops", cost "memory-removed", cutoff factor 4): depth
// first like "optimal", but at each step only the `nbranch` (0: all) best candidates by the
// size the contraction removes, outer products only when nothing else is left, and a branch
// dropped when its flops pass four times the best seen at the same depth.
Pairs branch(PairSearch& s, int nbranch) {
  double best_flops = kInf, best_size = kInf;
  std::map<int, double> best_progress;  // by the number of operands so far (the depth)
  Pairs best_path, path;
  struct Candidate {
    double cost, flops12, flops, size;
    int i, j;
    Letters k12;
    bool operator<(const Candidate& o) const {
      return std::tie(cost, flops12, flops, size, i, j) <
             std::tie(o.cost, o.flops12, o.flops, o.size, o.i, o.j);
    }
  };
  std::function<void(const PySet&, double, double)> search = [&](const PySet& remaining,
                                                                 double flops, double size) {
    const std::vector<int> pool = remaining.members();
    if (pool.size() == 1) {
      best_size = size;
      best_flops = flops;
      best_path = path;
      return;
    }
    const int depth = s.count();
    auto assess = [&](int i, int j) -> std::optional<Candidate> {
      const PairResult r = s.contract(pool, i, j);
      const double size12 = s.size(r.k12);
      const double new_flops = flops + r.flops, new_size = std::max(size, size12);
      if (!(std::pair(new_flops, new_size) < std::pair(best_flops, best_size))) return std::nullopt;
      auto [progress, fresh] = best_progress.try_emplace(depth, kInf);
      if (new_flops < progress->second)
        progress->second = new_flops;
      else if (new_flops > 4 * progress->second)
        return std::nullopt;
      const double cost = size12 - s.size(s.set(i)) - s.size(s.set(j));
      return Candidate{cost, r.flops, new_flops, new_size, i, j, r.k12};
    };
    std::vector<Candidate> candidates;
    for (bool outer : {false, true}) {
      if (outer && !candidates.empty()) break;
      for (std::size_t a = 0; a < pool.size(); ++a)
        for (std::size_t b = a + 1; b < pool.size(); ++b) {
          const int i = std::min(pool[a], pool[b]), j = std::max(pool[a], pool[b]);
          if (!outer && intersect(s.set(i), s.set(j)).empty()) continue;
          if (auto c = assess(i, j)) candidates.push_back(*c);
        }
    }
    std::sort(candidates.begin(), candidates.end());
    const std::size_t take =
        nbranch == 0 ? candidates.size() : std::min<std::size_t>(candidates.size(), nbranch);
    for (std::size_t k = 0; k < take; ++k) {
      const Candidate& c = candidates[k];
      const PySet next = remaining.without(c.i, c.j).with(s.count());
      s.push(c.k12);
      path.emplace_back(c.i, c.j);
      search(next, c.flops, c.size);
      path.pop_back();
      s.pop();
    }
  };
  search(PySet::range(s.count()), 0, 0);
  return best_path;
}

// opt_einsum's ssa_greedy_optimize (cost "memory-removed"): operands with equal letters
// multiplied first (Hadamard products), then repeatedly the pair sharing a letter that removes
// the most memory (ties broken by the pair's ids, the larger one first, as opt_einsum breaks
// them), then outer products from the smallest up. Operands are told apart by their letters, as
// opt_einsum's keys are.
Pairs greedy(const std::vector<std::string>& inputs, const std::string& output_letters,
             const Sizes& size) {
  const int n = static_cast<int>(inputs.size());
  Letters output = letters_of(output_letters);
  Letters common = letters_of(inputs[0]);  // in every operand: contracted last anyway
  for (const std::string& in : inputs) common = intersect(common, letters_of(in));
  output.insert(common.begin(), common.end());

  Pairs path;
  int next_id = n;
  std::map<Letters, int> remaining;  // letters -> id
  for (int id = 0; id < n; ++id) {
    const Letters key = letters_of(inputs[static_cast<std::size_t>(id)]);
    if (auto it = remaining.find(key); it != remaining.end()) {
      path.emplace_back(it->second, id);
      it->second = next_id++;
    } else {
      remaining[key] = id;
    }
  }
  std::map<char, std::set<Letters>> dim_to_keys;
  for (const auto& [key, id] : remaining)
    for (char dim : subtract(key, output)) dim_to_keys[dim].insert(key);
  Letters ref2, ref3;  // letters held by at least two (three) operands, not output
  for (const auto& [dim, keys] : dim_to_keys) {
    if (keys.size() >= 2) ref2.insert(dim);
    if (keys.size() >= 3) ref3.insert(dim);
  }
  std::map<Letters, double> footprint;
  for (const auto& [key, id] : remaining) footprint[key] = size_of(key, size);

  struct Candidate {
    double cost;
    int id2, id1;
    Letters k1, k2, k12;
    bool operator>(const Candidate& o) const {
      return std::tie(cost, id2, id1) > std::tie(o.cost, o.id2, o.id1);
    }
  };
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
  auto candidate = [&](Letters k1, Letters k2) {
    const Letters either = unite(k1, k2), two = intersect(k1, k2), one = subtract(either, two);
    const Letters k12 =
        unite(unite(intersect(either, output), intersect(two, ref3)), intersect(one, ref2));
    const double cost = size_of(k12, size) - footprint.at(k1) - footprint.at(k2);
    int id1 = remaining.at(k1), id2 = remaining.at(k2);
    if (id1 > id2) {
      std::swap(k1, k2);
      std::swap(id1, id2);
    }
    return Candidate{cost, id2, id1, k1, k2, k12};
  };
  auto push_best = [&](const Letters& k1, const std::vector<Letters>& k2s) {
    std::optional<Candidate> best;
    for (const Letters& k2 : k2s) {
      Candidate c = candidate(k1, k2);
      if (!best || *best > c) best = std::move(c);
    }
    queue.push(std::move(*best));
  };
  for (const auto& [dim, keys] : dim_to_keys) {
    std::vector<Letters> by_id(keys.begin(), keys.end());
    std::sort(by_id.begin(), by_id.end(), [&](const Letters& a, const Letters& b) {
      return remaining.at(a) < remaining.at(b);
    });
    for (std::size_t k = 0; k + 1 < by_id.size(); ++k)
      push_best(by_id[k], std::vector<Letters>(by_id.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                                               by_id.end()));
  }

  while (!queue.empty()) {
    const Candidate c = queue.top();
    queue.pop();
    if (!remaining.count(c.k1) || !remaining.count(c.k2)) continue;  // obsolete
    const int id1 = remaining.at(c.k1), id2 = remaining.at(c.k2);
    remaining.erase(c.k1);
    remaining.erase(c.k2);
    for (char dim : subtract(c.k1, output)) dim_to_keys[dim].erase(c.k1);
    for (char dim : subtract(c.k2, output)) dim_to_keys[dim].erase(c.k2);
    path.emplace_back(id1, id2);
    if (auto it = remaining.find(c.k12); it != remaining.end())
      path.emplace_back(it->second, next_id++);
    else
      for (char dim : subtract(c.k12, output)) dim_to_keys[dim].insert(c.k12);
    remaining[c.k12] = next_id++;
    // opt_einsum's `k1 | k2 - output`: all of k1's letters, k2's outside the output.
    for (char dim : unite(c.k1, subtract(c.k2, output))) {
      const std::size_t count = dim_to_keys[dim].size();
      if (count >= 2)
        ref2.insert(dim);
      else
        ref2.erase(dim);
      if (count >= 3)
        ref3.insert(dim);
      else
        ref3.erase(dim);
    }
    footprint[c.k12] = size_of(c.k12, size);
    std::set<Letters> k2s;
    for (char dim : c.k12) {
      const std::set<Letters>& keys = dim_to_keys[dim];
      k2s.insert(keys.begin(), keys.end());
    }
    k2s.erase(c.k12);
    if (!k2s.empty()) push_best(c.k12, std::vector<Letters>(k2s.begin(), k2s.end()));
  }

  // What is left shares no letter to contract: outer products, the smallest first.
  using Entry = std::tuple<double, int, Letters>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> rest;
  for (const auto& [key, id] : remaining)
    rest.emplace(size_of(intersect(key, output), size), id, key);
  auto [s1, id1, k1] = rest.top();
  rest.pop();
  while (!rest.empty()) {
    const auto [s2, id2, k2] = rest.top();
    rest.pop();
    path.emplace_back(std::min(id1, id2), std::max(id1, id2));
    const Letters k12 = intersect(unite(k1, k2), output);
    rest.emplace(size_of(k12, size), next_id++, k12);
    std::tie(s1, id1, k1) = rest.top();
    rest.pop();
  }
  return path;
}

// opt_einsum's ssa_to_linear: each id becomes its position in the shrinking list.
Pairs ssa_to_linear(const Pairs& ssa, int n) {
  std::vector<int> ids = first_ids(n);
  int next = n;
  Pairs linear;
  for (auto [i, j] : ssa) {
    const int p = static_cast<int>(std::lower_bound(ids.begin(), ids.end(), i) - ids.begin());
    const int q = static_cast<int>(std::lower_bound(ids.begin(), ids.end(), j) - ids.begin());
    linear.emplace_back(std::min(p, q), std::max(p, q));
    ids.erase(ids.begin() + std::max(p, q));
    ids.erase(ids.begin() + std::min(p, q));
    ids.push_back(next++);
  }
  return linear;
}

}  // namespace

std::vector<std::pair<int, int>> einsum_contraction_path(const std::vector<std::string>& inputs,
                                                         const std::string& output,
                                                         const std::map<char, std::int64_t>& size) {
  const int n = static_cast<int>(inputs.size());
  if (n <= 2) return n == 2 ? Pairs{{0, 1}} : Pairs{};
  if (n >= 15) return ssa_to_linear(greedy(inputs, output, size), n);
  PairSearch s(inputs, output, size);
  const Pairs ssa = n <= 4 ? optimal(s) : branch(s, n <= 6 ? 0 : n <= 8 ? 2 : 1);
  return ssa_to_linear(ssa, n);
}

}  // namespace fj::detail
