// jnp.einsum: the subscripts parsed and checked against the operands, then each contraction
// staged as JAX's _einsum (jax/_src/numpy/einsum.py) stages it.
#include "fusejit/expr/lowering_einsum.hpp"

#include "fusejit/expr/einsum_path.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/core/error.hpp"
#include "fusejit/expr/lowering_helpers.hpp"

namespace fj::detail {
namespace {

constexpr const char* kWho = "fj::einsum";

std::string shape_list(GraphBuilder& b, const std::vector<Atom>& xs) {
  std::string s;
  for (const Atom& x : xs) s += (s.empty() ? "" : ", ") + b.aval(x).shape.str();
  return s;
}

/// The subscripts with '...' spelled out in letters, one string per operand, and the output's.
struct Subscripts {
  std::vector<std::string> inputs;
  std::string output;
};

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts(1);
  for (char c : s) {
    if (c == sep)
      parts.emplace_back();
    else
      parts.back().push_back(c);
  }
  return parts;
}

// opt_einsum's reading: '...' stands for the leading axes an operand has beyond its letters,
// named by the first unused letters (in code order, as it sorts them); without '->' the output
// is the ellipsis' letters, then every letter used once, in code order.
Subscripts parse(GraphBuilder& b, const std::string& text, const std::vector<Atom>& xs) {
  std::string s;
  for (char c : text)
    if (c != ' ') s += c;
  const auto arrow = s.find("->");
  if (arrow != std::string::npos && s.find("->", arrow + 2) != std::string::npos)
    throw ValueError(std::string(kWho) + ": subscripts '" + text + "' have more than one '->'");
  const std::string lhs = s.substr(0, arrow);
  Subscripts r;
  r.inputs = split(lhs, ',');
  if (r.inputs.size() != xs.size())
    throw ShapeError(std::string(kWho) + ": subscripts '" + text + "' name " +
                     std::to_string(r.inputs.size()) + " operand(s) but " +
                     std::to_string(xs.size()) + " were given, of shapes " + shape_list(b, xs));
  auto check_letters = [&](const std::string& part) {
    for (std::size_t i = 0; i < part.size(); ++i)
      if (!is_letter(part[i]) && part.compare(i, 3, "...") != 0)
        throw ValueError(std::string(kWho) + ": subscripts '" + text +
                         "' may hold letters, ',', '->' and '...' only");
      else if (!is_letter(part[i]))
        i += 2;
  };
  std::string used;
  for (const std::string& in : r.inputs) check_letters(in), used += in;
  if (arrow != std::string::npos) check_letters(s.substr(arrow + 2)), used += s.substr(arrow + 2);
  std::string unused;
  for (char c = 'A'; c <= 'z'; ++c)
    if (is_letter(c) && used.find(c) == std::string::npos) unused += c;
  std::size_t longest = 0;
  std::vector<std::size_t> ell(xs.size(), 0);
  for (std::size_t k = 0; k < xs.size(); ++k) {
    std::string& in = r.inputs[k];
    const auto at = in.find("...");
    const auto letters = static_cast<std::int64_t>(
        std::count_if(in.begin(), in.end(), [](char c) { return is_letter(c); }));
    const std::int64_t rank = b.aval(xs[k]).shape.rank();
    if (at == std::string::npos ? letters != rank : letters > rank)
      throw ShapeError(std::string(kWho) + ": operand " + std::to_string(k) + " has shape " +
                       b.aval(xs[k]).shape.str() + " but its subscripts '" + in + "' name " +
                       std::to_string(letters) + " axes");
    if (at != std::string::npos) ell[k] = static_cast<std::size_t>(rank - letters);
    longest = std::max(longest, ell[k]);
  }
  const std::string ell_letters = unused.substr(0, longest);
  for (std::size_t k = 0; k < xs.size(); ++k)
    if (const auto at = r.inputs[k].find("..."); at != std::string::npos)
      r.inputs[k].replace(at, 3, ell_letters.substr(longest - ell[k]));
  if (arrow != std::string::npos) {
    r.output = s.substr(arrow + 2);
    if (const auto at = r.output.find("..."); at != std::string::npos)
      r.output.replace(at, 3, ell_letters);
  } else {
    std::map<char, int> count;
    for (const std::string& in : r.inputs)
      for (char c : in) ++count[c];
    r.output = ell_letters;
    for (const auto& [c, n] : count)  // a std::map iterates in code order
      if (n == 1 && ell_letters.find(c) == std::string::npos) r.output += c;
  }
  for (std::size_t i = 0; i < r.output.size(); ++i) {
    const char c = r.output[i];
    if (r.output.find(c, i + 1) != std::string::npos)
      throw ValueError(std::string(kWho) + ": output subscript '" + std::string(1, c) +
                       "' appears more than once in '" + text + "'");
    if (std::none_of(r.inputs.begin(), r.inputs.end(),
                     [c](const std::string& in) { return in.find(c) != std::string::npos; }))
      throw ValueError(std::string(kWho) + ": output subscript '" + std::string(1, c) + "' in '" +
                       text + "' names no operand's axis");
  }
  // One size per letter; 1 broadcasts against any size, as in JAX.
  std::map<char, std::pair<std::int64_t, std::size_t>> size;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const Shape sh = b.aval(xs[k]).shape;
    for (std::size_t i = 0; i < r.inputs[k].size(); ++i) {
      const char c = r.inputs[k][i];
      const std::int64_t n = sh[static_cast<int>(i)];
      auto [it, fresh] = size.try_emplace(c, n, k);
      if (fresh || n == it->second.first || n == 1) continue;
      if (it->second.first != 1)
        throw ShapeError(std::string(kWho) + ": subscript '" + std::string(1, c) + "' is " +
                         std::to_string(it->second.first) + " in operand " +
                         std::to_string(it->second.second) + " but " + std::to_string(n) +
                         " in operand " + std::to_string(k) + " (shapes " + shape_list(b, xs) +
                         ")");
      it->second = {n, k};
    }
  }
  return r;
}

std::string without(const std::string& names, const std::string& chars) {
  std::string r;
  for (char c : names)
    if (chars.find(c) == std::string::npos) r += c;
  return r;
}

std::vector<std::int64_t> positions(const std::string& names, const std::string& of) {
  std::vector<std::int64_t> r;
  for (char c : of) r.push_back(static_cast<std::int64_t>(names.find(c)));
  return r;
}

/// One step of _einsum: the operands it takes and the letters of each, its result's letters.
class Contractor {
 public:
  Contractor(GraphBuilder& b, DType preferred) : b_(b), preferred_(preferred) {}

  // lax.reduce with add (or, for bools) over `axes`, in the result dtype when that differs.
  Atom sum(Atom x, const std::vector<std::int64_t>& axes) {
    const TypedDType t = typed(b_, x);
    if (promote_types(t, {preferred_, false}).dtype != t.dtype)
      x = convert(b_, x, {preferred_, false});
    const bool is_bool = b_.aval(x).dtype == DType::bool_;
    std::vector<int> ax(axes.begin(), axes.end());
    return lower_reduce(b_, is_bool ? Prim::reduce_or : Prim::reduce_sum, x, ax, false, false);
  }

  // Sums out the letters in `uniques` (each once in `names`).
  void sum_uniques(Atom& x, std::string& names, const std::string& uniques) {
    if (uniques.empty()) return;
    x = sum(x, positions(names, uniques));
    names = without(names, uniques);
  }

  // A letter repeated within one operand: its diagonal (mask with lax._delta, then sum all but
  // the last copy when the letter is kept, all copies when not). `counts` in first-seen order.
  void sum_repeats(Atom& x, std::string& names, const std::vector<std::pair<char, int>>& counts,
                   const std::string& keep) {
    for (const auto& [c, n] : counts) {
      if (n < 2) continue;
      std::vector<std::int64_t> axes;
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == c) axes.push_back(static_cast<std::int64_t>(i));
      // lax.select(eye, x, zeros): select_n picks its second case where the predicate holds.
      const Atom eye = delta(b_.aval(x).shape, axes);
      x = b_.emit1(Prim::select_n, {eye, full_like(b_, x, 0), x});
      if (keep.find(c) == std::string::npos) {
        x = sum(x, axes);
        names = without(names, std::string(1, c));
      } else {
        x = sum(x, std::vector<std::int64_t>(axes.begin(), axes.end() - 1));
        std::string kept;
        int seen = 0;
        for (char d : names)
          if (d != c || ++seen == n) kept += d;
        names = kept;
      }
    }
  }

  // Drops x's size-1 axes whose letter has a larger size in the other operand.
  void filter_singletons(Atom& x, std::string& names, const Shape& other,
                         const std::string& other_names) {
    const Shape s = b_.aval(x).shape;
    std::vector<int> drop;
    std::string kept;
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto j = other_names.find(names[i]);
      if (s[static_cast<int>(i)] == 1 && j != std::string::npos && other[static_cast<int>(j)] != 1)
        drop.push_back(static_cast<int>(i));
      else
        kept += names[i];
    }
    if (drop.empty()) return;
    x = lower_squeeze(b_, x, drop, false);
    names = kept;
  }

  // lax._delta: true where the listed axes' indices are all equal (u32 iotas, eq, and).
  Atom delta(const Shape& shape, const std::vector<std::int64_t>& axes) {
    Shape base;
    for (std::int64_t a : axes) base.push_back(shape[static_cast<int>(a)]);
    std::vector<Atom> iotas;
    for (int i = 0; i < base.rank(); ++i) iotas.push_back(lower_iota(b_, DType::u32, base, i));
    Atom eye = lower_binary(b_, Prim::eq, iotas[0], iotas[1]);
    for (std::size_t i = 1; i + 1 < iotas.size(); ++i)
      eye = lower_binary(b_, Prim::and_, eye, lower_binary(b_, Prim::eq, iotas[i], iotas[i + 1]));
    if (base == shape) return eye;
    ir::Params p;
    p.items.push_back({"shape", shape.to_vector(), false});
    p.items.push_back({"broadcast_dimensions", axes, true});
    return b_.emit1(Prim::broadcast_in_dim, {eye}, std::move(p));
  }

  // One operand: its contracted letters summed out, repeated ones reduced to their diagonal.
  Atom one(Atom x, std::string names, const std::string& contracted, const std::string& result,
           std::string& out_names) {
    const auto counts = count(names);
    std::string uniques;
    for (char c : contracted)
      if (count_of(counts, c) == 1) uniques += c;
    sum_uniques(x, names, uniques);
    sum_repeats(x, names, counts, result);
    out_names = names;
    return x;
  }

  // Two operands, lhs the later one (opt_einsum lists a pair's operands in descending order).
  Atom two(Atom lhs, std::string ln, Atom rhs, std::string rn, std::string contracted,
           const std::string& result, std::string& out_names) {
    filter_singletons(lhs, ln, b_.aval(rhs).shape, rn);
    filter_singletons(rhs, rn, b_.aval(lhs).shape, ln);
    const auto lc = count(ln), rc = count(rn);
    std::string lu, ru;
    for (char c : contracted) {
      if (count_of(lc, c) == 1 && count_of(rc, c) == 0) lu += c;
      if (count_of(rc, c) == 1 && count_of(lc, c) == 0) ru += c;
    }
    sum_uniques(lhs, ln, lu);
    sum_uniques(rhs, rn, ru);
    sum_repeats(lhs, ln, lc, result + rn);
    sum_repeats(rhs, rn, rc, result + ln);
    std::string still, batch;
    for (char c : contracted)
      if (ln.find(c) != std::string::npos || rn.find(c) != std::string::npos) still += c;
    for (char c : result)
      if (ln.find(c) != std::string::npos && rn.find(c) != std::string::npos) batch += c;
    const std::string lrest = without(ln, batch + still), rrest = without(rn, batch + still);
    ir::DotDims d;
    // Both orders are tried, as JAX does: the one whose result needs no transpose wins.
    if (batch + rrest + lrest == result) {
      d = {positions(rn, still), positions(ln, still), positions(rn, batch), positions(ln, batch)};
      out_names = batch + rrest + lrest;
      return lower_dot_general(b_, rhs, lhs, d, preferred_, kWho);
    }
    d = {positions(ln, still), positions(rn, still), positions(ln, batch), positions(rn, batch)};
    out_names = batch + lrest + rrest;
    return lower_dot_general(b_, lhs, rhs, d, preferred_, kWho);
  }

 private:
  static std::vector<std::pair<char, int>> count(const std::string& names) {
    std::vector<std::pair<char, int>> r;
    for (char c : names) {
      auto it = std::find_if(r.begin(), r.end(), [c](const auto& p) { return p.first == c; });
      if (it == r.end())
        r.emplace_back(c, 1);
      else
        ++it->second;
    }
    return r;
  }
  static int count_of(const std::vector<std::pair<char, int>>& counts, char c) {
    for (const auto& [d, n] : counts)
      if (d == c) return n;
    return 0;
  }

  GraphBuilder& b_;
  DType preferred_;
};

}  // namespace

Atom lower_einsum(GraphBuilder& b, const std::string& subscripts, const std::vector<Atom>& xs) {
  if (xs.empty()) throw ValueError(std::string(kWho) + ": needs at least one operand");
  const Subscripts s = parse(b, subscripts, xs);
  TypedDType t = typed(b, xs[0]);
  for (std::size_t k = 1; k < xs.size(); ++k) t = promote_types(t, typed(b, xs[k]));
  Contractor c(b, t.dtype);
  std::vector<Atom> ops = xs;
  std::vector<std::string> names = s.inputs;
  auto finish = [&](Atom r, const std::string& got) {
    if (got != s.output) r = lower_transpose(b, r, positions(got, s.output));
    return convert(b, r, t);
  };
  if (ops.size() == 1) {
    std::string contracted;
    for (char ch : names[0])
      if (s.output.find(ch) == std::string::npos && contracted.find(ch) == std::string::npos)
        contracted += ch;
    std::sort(contracted.begin(), contracted.end());
    std::string got;
    const Atom r = c.one(ops[0], names[0], contracted, s.output, got);
    return finish(r, got);
  }
  std::map<char, std::int64_t> size;  // each letter's extent (a broadcast 1 gives way)
  for (std::size_t k = 0; k < ops.size(); ++k)
    for (std::size_t d = 0; d < names[k].size(); ++d) {
      std::int64_t& e = size[names[k][d]];
      e = std::max(e, b.aval(ops[k]).shape[static_cast<int>(d)]);
    }
  const std::vector<std::pair<int, int>> order = einsum_contraction_path(names, s.output, size);
  for (std::size_t step = 0; step < order.size(); ++step) {
    const bool last = step + 1 == order.size();
    // opt_einsum pops the later operand first: it is the dot's lhs.
    const auto [p, q] = order[step];
    const std::string lhs_names = names[static_cast<std::size_t>(q)];
    const std::string rhs_names = names[static_cast<std::size_t>(p)];
    const Atom lhs = ops[static_cast<std::size_t>(q)], rhs = ops[static_cast<std::size_t>(p)];
    ops.erase(ops.begin() + q);
    ops.erase(ops.begin() + p);
    names.erase(names.begin() + q);
    names.erase(names.begin() + p);
    // The letters still needed after this step: the output's and the other operands'.
    std::string needed = s.output;
    for (const std::string& other : names) needed += other;
    std::string contracted, result;
    for (char ch : lhs_names + rhs_names) {
      const bool keep = needed.find(ch) != std::string::npos;
      std::string& to = keep ? result : contracted;
      if (to.find(ch) == std::string::npos) to += ch;
    }
    std::sort(contracted.begin(), contracted.end());
    // An intermediate's letters in their order of first appearance in the pair (opt_einsum's
    // "tensordot order"); the last step's are the output's.
    std::string got;
    const Atom r = c.two(lhs, lhs_names, rhs, rhs_names, contracted, last ? s.output : result, got);
    if (last) return finish(r, got);
    ops.push_back(r);
    names.push_back(got);
  }
  throw ValueError(std::string(kWho) + ": no contraction");  // unreachable: two or more operands
}

}  // namespace fj::detail
