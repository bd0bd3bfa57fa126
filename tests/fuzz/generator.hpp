// Random well-typed graphs from a seed, for differential fuzzing of the backends.
//
// A program is an ir::Graph plus concrete inputs. The generator keeps a pool of typed atoms
// (inputs and equation results) and appends equations drawn from the whole primitive table with
// random operands and params; the shape rules decide what is well typed (a draw they reject is
// redrawn). Dtypes, ranks 0-4, size-0 and size-1 dims, lengths that fill SIMD vectors or leave
// tails, broadcastable operands, scalar literals; input values (values.hpp) span each format's
// whole range and mix NaN, +-Inf, +-0, subnormals and huge values with ordinary ones lane by lane.
// Deterministic: the same seed gives the same program on every platform (no std distributions).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fusejit/fusejit.hpp>
#include <fusejit/ir/builder.hpp>
#include <fusejit/ir/dot_dims.hpp>
#include <fusejit/ir/pad_config.hpp>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "exactness.hpp"
#include "values.hpp"

namespace fusejit_fuzz {

namespace ir = fj::ir;
using fj::DType;
using fj::Shape;
using Dims = std::vector<std::int64_t>;

/// Which graphs to draw. Exact programs use only primitives whose results both backends must
/// agree on bit for bit (no rounding, or rounding fixed by IEEE), so they can be compared whole
/// with fusion-breaking points anywhere; the others expose every intermediate and are compared
/// equation by equation (check.hpp).
struct GenConfig {
  int min_eqns = 2, max_eqns = 8;
  std::int64_t max_elements = 2048;  // per array
  bool exact_only = false;
  // When not empty, equations are drawn from these primitives only (a test that needs one
  // primitive in a program); the default draws from the whole table.
  std::vector<ir::Prim> only;
};

struct Program {
  std::uint64_t seed = 0;
  bool exact_only = false;
  ir::GraphPtr graph;
  std::vector<fj::backend::Value> inputs;  // one per invar (the graph has no constvars)
};

namespace gen_detail {

inline const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> d{DType::f32, DType::f32, DType::f64,  DType::i32,
                                    DType::i64, DType::u32, DType::bool_};
  return d;
}

inline ir::Literal literal(Rng& r, DType d) {
  ir::Literal l;
  l.dtype = d;
  if (fj::is_float(d)) {
    l.f = float_value(r, d);
    if (d == DType::f32) l.f = static_cast<double>(static_cast<float>(l.f));
  } else if (d == DType::bool_) {
    l.i = r.below(2);
  } else {
    l.i = int_value(r, d);
  }
  return l;
}

/// An input's values: bools at random, numbers in one fill for the whole array (values.hpp).
inline fj::backend::Value random_value(Rng& r, const ir::Aval& a) {
  const std::int64_t n = a.shape.size();
  auto buf = fj::runtime::allocate(static_cast<std::size_t>(n) * fj::size_of(a.dtype));
  const Fill f = random_fill(r);
  fj::visit_dtype(a.dtype, [&](auto x) {
    using T = decltype(x);
    T* p = static_cast<T*>(buf->data);
    if constexpr (std::is_same_v<T, bool>) {
      for (std::int64_t i = 0; i < n; ++i) p[i] = r.chance(50);
    } else {
      fill(r, a.dtype, f, p, n);
    }
  });
  return {std::move(buf), a};
}

inline ir::Params params(std::vector<ir::Param> items) {
  ir::Params p;
  p.items = std::move(items);
  return p;
}

class Generator {
 public:
  Generator(std::uint64_t seed, const GenConfig& cfg) : r_(seed), cfg_(cfg) {}

  Program run(std::uint64_t seed) {
    const int n_in = 1 + static_cast<int>(r_.below(3));
    for (int i = 0; i < n_in; ++i) new_input(random_aval());
    const int n_eqns =
        cfg_.min_eqns + static_cast<int>(r_.below(cfg_.max_eqns - cfg_.min_eqns + 1));
    int made = 0;
    for (int tries = 0; made < n_eqns && tries < n_eqns * 40; ++tries)
      if (try_eqn()) ++made;
    Program p;
    p.seed = seed;
    p.exact_only = cfg_.exact_only;
    outputs();
    p.graph = std::make_shared<const ir::Graph>(std::move(b_.graph));
    p.inputs = std::move(inputs_);
    return p;
  }

 private:
  Rng r_;
  GenConfig cfg_;
  ir::GraphBuilder b_;
  std::vector<fj::backend::Value> inputs_;
  std::vector<ir::VarId> pool_;

  // 30% of the arrays are vectors: rank 1 or 2, the last dim a length that fills vectors of
  // 4, 8 or 16 lanes or leaves a tail (values.hpp); the rest take ranks 0-4 of small dims.
  ir::Aval random_aval(DType d) {
    if (r_.chance(30)) {
      Shape s;
      if (r_.chance(40)) s.push_back(1 + r_.below(3));
      s.push_back(r_.pick(vector_lengths()));
      return {d, s, false};
    }
    const int rank = static_cast<int>(r_.below(5));
    Shape s;
    std::int64_t total = 1;
    for (int k = 0; k < rank; ++k) {
      std::int64_t n = r_.pick(dim_sizes());
      if (n == 0 && !r_.chance(30)) n = 1;  // size-0 arrays, but not too many of them
      if (total * std::max<std::int64_t>(n, 1) > cfg_.max_elements) n = 1;
      total *= std::max<std::int64_t>(n, 1);
      s.push_back(n);
    }
    return {d, s, false};
  }
  ir::Aval random_aval() { return random_aval(r_.pick(all_dtypes())); }

  ir::VarId new_input(const ir::Aval& a) {
    const ir::VarId v = b_.add_invar(a);
    inputs_.push_back(random_value(r_, a));
    pool_.push_back(v);
    return v;
  }
  ir::Atom any_var() { return ir::Atom::of_var(r_.pick(pool_)); }
  const ir::Aval& aval(ir::VarId v) const { return b_.graph.aval(v); }

  // A second operand for x's binary op: x itself, a pool var of its aval, a scalar literal, or a
  // new input that broadcasts against x (some dims 1, or rank 0).
  ir::Atom partner(const ir::Atom& x, DType d) {
    const ir::Aval xa = b_.aval(x);
    switch (r_.below(5)) {
      case 0:
        return x;
      case 1: {
        std::vector<ir::VarId> same;
        for (ir::VarId v : pool_)
          if (aval(v).shape == xa.shape && aval(v).dtype == d) same.push_back(v);
        if (!same.empty()) return ir::Atom::of_var(r_.pick(same));
        [[fallthrough]];
      }
      case 2:
        return ir::Atom::of_literal(literal(r_, d));
      default: {
        Shape s = xa.shape;
        for (int k = 0; k < s.rank(); ++k)
          if (r_.chance(30)) s[k] = 1;
        if (r_.chance(15)) s = Shape{};
        return ir::Atom::of_var(new_input({d, s, false}));
      }
    }
  }

  Dims random_subset(int rank, bool sorted = true) {
    Dims d;
    for (int k = 0; k < rank; ++k)
      if (r_.chance(50)) d.push_back(k);
    if (!sorted) std::reverse(d.begin(), d.end());
    return d;
  }

  // The primitives a program may hold: the table less the callbacks, whose C++ function a
  // generator cannot make up, platform_index, which only jnp.diagonal stages before its cond,
  // and shard_map, which only a staged pmap makes (each tested there; so a seed draws what it
  // drew before they existed).
  static const std::vector<ir::Prim>& drawable() {
    static const std::vector<ir::Prim> table = [] {
      std::vector<ir::Prim> t;
      for (int i = 0; i < ir::kNumPrims; ++i)
        if (ir::info(static_cast<ir::Prim>(i)).kind != ir::PrimKind::callback &&
            static_cast<ir::Prim>(i) != ir::Prim::platform_index &&
            static_cast<ir::Prim>(i) != ir::Prim::shard_map)
          t.push_back(static_cast<ir::Prim>(i));
      return t;
    }();
    return table;
  }

  // Appends one random equation; false when the draw was ill-typed (the builder is unchanged).
  bool try_eqn() {
    const std::vector<ir::Prim>& table = cfg_.only.empty() ? drawable() : cfg_.only;
    const auto p =
        table[static_cast<std::size_t>(r_.below(static_cast<std::int64_t>(table.size())))];
    const ir::PrimKind k = ir::info(p).kind;
    if (p == ir::Prim::fused || p == ir::Prim::jit) return false;
    std::vector<ir::Atom> in;
    ir::Params ps;
    const ir::Atom x = any_var();
    const ir::Aval xa = b_.aval(x);
    const int rank = xa.shape.rank();
    using P = ir::Prim;
    switch (k) {
      case ir::PrimKind::unary:
      case ir::PrimKind::convert:
        in = {x};
        if (p == P::integer_pow) ps = params({{"y", static_cast<std::int64_t>(r_.below(8) - 3)}});
        if (p == P::round)
          ps = params({{"rounding_method", static_cast<std::int64_t>(r_.below(2))}});
        if (p == P::convert_element_type)
          ps = params({{"new_dtype", r_.pick(all_dtypes())}, {"weak_type", false}});
        if (p == P::bitcast_convert_type) {  // to a dtype of the same width
          const std::vector<DType> w4{DType::f32, DType::i32, DType::u32},
              w8{DType::f64, DType::i64};
          ps = params({{"new_dtype", r_.pick(fj::size_of(xa.dtype) == 8 ? w8 : w4)}});
        }
        break;
      case ir::PrimKind::binary:
      case ir::PrimKind::compare:
        in = {x, partner(x, xa.dtype)};
        if (r_.chance(50)) std::swap(in[0], in[1]);
        break;
      case ir::PrimKind::logical:
        in = {x};
        if (ir::info(p).arity == 2) in.push_back(partner(x, xa.dtype));
        break;
      case ir::PrimKind::select: {
        if (p == ir::Prim::clamp) {  // bounds of x's dtype, scalars or x's shape
          if (xa.dtype == DType::bool_) return false;
          in = {partner(x, xa.dtype), x, partner(x, xa.dtype)};
          break;
        }
        const ir::Atom pred = partner(x, DType::bool_);
        in = {pred, x, partner(x, xa.dtype)};
        break;
      }
      case ir::PrimKind::shape: {  // broadcast_in_dim
        const int out_rank = std::min(4, rank + static_cast<int>(r_.below(3)));
        Dims bdims;  // an increasing choice of rank out of out_rank positions
        for (int i = 0, left = rank; i < out_rank && left > 0; ++i)
          if (out_rank - i == left || r_.chance(50)) bdims.push_back(i), --left;
        Dims shape(static_cast<std::size_t>(out_rank));
        for (int i = 0; i < out_rank; ++i) shape[static_cast<std::size_t>(i)] = 1 + r_.below(4);
        for (std::size_t j = 0; j < bdims.size(); ++j) {
          const std::int64_t n = xa.shape[static_cast<int>(j)];
          shape[static_cast<std::size_t>(bdims[j])] = n == 1 && r_.chance(50) ? 1 + r_.below(5) : n;
        }
        in = {x};
        ps = params(
            {{"shape", shape}, {"broadcast_dimensions", bdims}, {"sharding", std::string("None")}});
        break;
      }
      case ir::PrimKind::index_map:
        in = {x};
        ps = index_map_params(p, xa);
        break;
      case ir::PrimKind::reduce:
        in = {x};
        ps = params({{"axes", random_subset(rank)}});
        if (p == P::reduce_sum || p == P::reduce_max || p == P::reduce_min || p == P::reduce_prod)
          ps.items.push_back({"out_sharding", std::string("None")});
        break;
      case ir::PrimKind::generator: {
        const ir::Aval a = random_aval();
        if (a.shape.rank() == 0 || a.dtype == DType::bool_) return false;
        ps = params({{"dtype", a.dtype},
                     {"shape", a.shape.to_vector()},
                     {"dimension", static_cast<std::int64_t>(r_.below(a.shape.rank()))},
                     {"sharding", std::string("None")}});
        break;
      }
      case ir::PrimKind::library:
        if (!library_eqn(p, x, xa, in, ps)) return false;
        break;
      case ir::PrimKind::control:
        if (!control_eqn(p, x, xa, in, ps)) return false;
        break;
      case ir::PrimKind::multi: {  // threefry2x32: key and counter words, u32, broadcasting
        // A u32 pool var is rare, so x's shape gets a new u32 input when x is not one (the
        // CUDA codegen test counts on the first 240 seeds drawing every fusable primitive).
        const ir::Atom k =
            xa.dtype == DType::u32 ? x : ir::Atom::of_var(new_input({DType::u32, xa.shape, false}));
        in = {k, partner(k, DType::u32), partner(k, DType::u32), partner(k, DType::u32)};
        break;
      }
      default:
        return false;
    }
    try {
      const auto outs = b_.emit(p, in, ps);
      if (cfg_.exact_only && !is_exact(b_.graph, b_.graph.eqns.back())) {
        b_.graph.eqns.pop_back();
        return false;
      }
      for (auto& o : outs) pool_.push_back(o.var);
      return true;
    } catch (const fj::Error&) {
      return false;  // ill-typed draw: redraw
    }
  }

  // An exact operation on x that keeps its aval (so a chain of them fits a loop carry or a
  // branch result): neg, abs, max/min with another value, select between two, integer
  // arithmetic, floor/ceil, not. Sub-graphs use only these, so a control equation's results are
  // exact too and compare bit for bit.
  static ir::Atom preserving_op(Rng& r, ir::GraphBuilder& b, const ir::Atom& x,
                                const std::vector<ir::Atom>& same) {
    using P = ir::Prim;
    const ir::Aval a = b.aval(x);
    const ir::Atom y = same.empty() ? x : r.pick(same);
    for (int tries = 0; tries < 8; ++tries) {
      ir::Literal l = literal(r, a.dtype);
      const ir::Atom lit = ir::Atom::of_literal(l);
      std::vector<std::pair<P, std::vector<ir::Atom>>> choices{
          {P::neg, {x}},   {P::abs, {x}},    {P::max, {x, y}},   {P::min, {x, lit}}, {P::not_, {x}},
          {P::floor, {x}}, {P::add, {x, y}}, {P::mul, {x, lit}}, {P::sub, {y, x}}};
      auto [p, in] = r.pick(choices);
      const std::size_t n = b.graph.eqns.size();
      try {
        ir::Atom out = b.emit1(p, in);
        if (b.aval(out) == a && is_exact(b.graph, b.graph.eqns.back())) return out;
      } catch (const fj::Error&) {
      }
      b.graph.eqns.resize(n);
    }
    return x;
  }

  // A closed sub-graph over `ins` whose k-th result is a chain of 0-3 preserving ops from input
  // `from[k]` (the results take those inputs' avals).
  ir::GraphPtr chain_graph(const std::vector<ir::Aval>& ins, const std::vector<std::size_t>& from) {
    ir::GraphBuilder b;
    std::vector<ir::Atom> vars;
    for (auto& a : ins) vars.push_back(ir::Atom::of_var(b.add_invar(a)));
    for (std::size_t src : from) {
      ir::Atom x = vars.at(src);
      std::vector<ir::Atom> same;
      for (auto& v : vars)
        if (b.aval(v) == b.aval(x)) same.push_back(v);
      const int n = static_cast<int>(r_.below(4));
      for (int i = 0; i < n; ++i) x = preserving_op(r_, b, x, same);
      b.graph.outvars.push_back(x);
    }
    return std::make_shared<const ir::Graph>(std::move(b.graph));
  }

  // cond on an i32 index (from an input: out-of-range values clamp), while counting to a small
  // bound, scan over a new xs of 0-5 rows, custom_jvp_call; each body a chain_graph.
  // custom_linear_solve is not drawn (false below): its sub-graphs must invert one another, so
  // random bodies would not make one; backends inline its solve, a chain like any other.
  bool control_eqn(ir::Prim p, const ir::Atom& x, const ir::Aval& xa, std::vector<ir::Atom>& in,
                   ir::Params& ps) {
    using P = ir::Prim;
    ir::Literal zero;
    zero.dtype = DType::i32;
    const ir::Aval i32{DType::i32, Shape{}, false};
    switch (p) {
      case P::cond: {
        const int n = 2 + static_cast<int>(r_.below(2));
        std::vector<ir::GraphPtr> branches;
        for (int k = 0; k < n; ++k) branches.push_back(chain_graph({xa}, {0}));
        in = {ir::Atom::of_var(new_input(i32)), x};
        ps = params({{"branches", branches}});
        return true;
      }
      case P::while_: {
        // carry (k, x); cond_jaxpr: k < bound; body: (k + 1, chain(x)).
        ir::Literal bound = zero;
        bound.i = r_.below(5);
        ir::GraphBuilder c;
        const ir::Atom ck = ir::Atom::of_var(c.add_invar(i32));
        c.add_invar(xa);
        c.graph.outvars = {c.emit1(P::lt, {ck, ir::Atom::of_literal(bound)})};
        ir::GraphPtr chain = chain_graph({i32, xa}, {1});
        ir::Graph body = *chain;
        ir::Literal one = zero;
        one.i = 1;
        ir::GraphBuilder bb;
        bb.graph = body;
        const ir::Atom next =
            bb.emit1(P::add, {ir::Atom::of_var(body.invars[0]), ir::Atom::of_literal(one)});
        bb.graph.outvars.insert(bb.graph.outvars.begin(), next);
        in = {ir::Atom::of_literal(zero), x};
        ps = params({{"body_jaxpr", std::make_shared<const ir::Graph>(std::move(bb.graph))},
                     {"body_nconsts", std::int64_t{0}},
                     {"cond_jaxpr", std::make_shared<const ir::Graph>(std::move(c.graph))},
                     {"cond_nconsts", std::int64_t{0}}});
        return true;
      }
      case P::scan: {
        const std::int64_t length = r_.below(6);
        Shape xs_shape{length};
        for (auto d : xa.shape) xs_shape.push_back(d);
        if (xs_shape.size() > cfg_.max_elements) return false;
        const ir::Atom xs = ir::Atom::of_var(new_input({xa.dtype, xs_shape, false}));
        // body (c, x_row) -> (chain(c or x_row), chain(c or x_row)): a carry and a y.
        in = {x, xs};
        ps = params(
            {{"jaxpr", chain_graph({xa, xa}, {r_.below(2) ? 1u : 0u, r_.below(2) ? 1u : 0u})},
             {"length", length},
             {"num_carry", std::int64_t{1}},
             {"num_consts", std::int64_t{0}},
             {"reverse", r_.chance(30)},
             {"unroll", std::int64_t{1}}});
        return true;
      }
      case P::custom_jvp_call: {
        // Backends only run call_jaxpr; the rule (the identity on tangents) is never called.
        static const auto rule = std::make_shared<const ir::FunctionJvpRule>(
            "fuzz_jvp",
            [](ir::GraphBuilder&, const std::vector<ir::Atom>&, const std::vector<ir::Atom>&,
               const std::vector<ir::Atom>& t) { return t; });
        in = {x};
        ps = ir::custom_jvp_params("fuzz", chain_graph({xa}, {0}), rule);
        return true;
      }
      default:
        return false;
    }
  }

  ir::Params index_map_params(ir::Prim p, const ir::Aval& xa) {
    const int rank = xa.shape.rank();
    using P = ir::Prim;
    switch (p) {
      case P::transpose: {
        Dims perm(static_cast<std::size_t>(rank));
        for (int i = 0; i < rank; ++i) perm[static_cast<std::size_t>(i)] = i;
        for (int i = rank - 1; i > 0; --i)
          std::swap(perm[static_cast<std::size_t>(i)],
                    perm[static_cast<std::size_t>(r_.below(i + 1))]);
        return params({{"permutation", perm}});
      }
      case P::slice: {
        Dims start, limit, strides;
        for (int d = 0; d < rank; ++d) {
          const std::int64_t n = xa.shape[d];
          const std::int64_t a = r_.below(n + 1), b = a + r_.below(n - a + 1);
          start.push_back(a);
          limit.push_back(b);
          strides.push_back(1 + r_.below(3));
        }
        ir::Params ps = params({{"start_indices", start}, {"limit_indices", limit}});
        if (r_.chance(50))
          ps.items.push_back({"strides", strides});
        else
          ps.items.push_back({"strides", std::string("None")});
        return ps;
      }
      case P::reshape: {
        // Another factorization of the same size: split or merge adjacent dims.
        Dims sizes = xa.shape.to_vector();
        if (!sizes.empty() && r_.chance(50)) {
          const std::size_t i = static_cast<std::size_t>(r_.below(rank));
          if (i + 1 < sizes.size()) {
            sizes[i] *= sizes[i + 1];
            sizes.erase(sizes.begin() + static_cast<std::ptrdiff_t>(i) + 1);
          }
        } else {
          sizes.insert(sizes.begin() + r_.below(rank + 1), 1);
        }
        return params({{"new_sizes", sizes}, {"dimensions", std::string("None")}});
      }
      case P::rev:
        return params({{"dimensions", random_subset(rank)}});
      case P::squeeze: {
        Dims ones;
        for (int d = 0; d < rank; ++d)
          if (xa.shape[d] == 1 && r_.chance(70)) ones.push_back(d);
        return params({{"dimensions", ones}});
      }
      default:
        return {};  // a primitive this generator does not know: the shape rule decides
    }
  }

  bool library_eqn(ir::Prim p, const ir::Atom& x, const ir::Aval& xa, std::vector<ir::Atom>& in,
                   ir::Params& ps) {
    const int rank = xa.shape.rank();
    using P = ir::Prim;
    switch (p) {
      case P::dot_general: {
        if (rank == 0 || rank > 3 || xa.dtype == DType::bool_) return false;
        const std::int64_t c = r_.below(rank);
        Shape rs{xa.shape[static_cast<int>(c)], 1 + r_.below(6)};
        const bool flip = r_.chance(30);
        if (flip) rs = Shape{rs[1], rs[0]};
        in = {x, ir::Atom::of_var(new_input({xa.dtype, rs, false}))};
        ir::DotDims{{c}, {flip ? 1 : 0}, {}, {}}.add_to(ps);
        ps.items.push_back({"precision", std::string("None")});
        ps.items.push_back({"preferred_element_type", xa.dtype});
        return true;
      }
      case P::argmax:
      case P::argmin:
        if (rank == 0) return false;
        in = {x};
        ps = params({{"axes", Dims{r_.below(rank)}}, {"index_dtype", DType::i32}});
        return true;
      case P::concatenate:
      case P::stack: {
        if (p == P::concatenate && rank == 0) return false;
        const std::int64_t axis = r_.below(p == P::stack ? rank + 1 : rank);
        Shape s = xa.shape;
        if (p == P::concatenate) s[static_cast<int>(axis)] = r_.below(4);
        in = {x, r_.chance(40) && p == P::stack
                     ? x
                     : ir::Atom::of_var(new_input({xa.dtype, s, false}))};
        ps = params({{p == P::stack ? "axis" : "dimension", axis}});
        return true;
      }
      case P::split: {
        if (rank == 0) return false;
        // One, two or three pieces (empty ones too) that cover the axis.
        const std::int64_t axis = r_.below(rank);
        const std::int64_t n = xa.shape[static_cast<int>(axis)], cut = r_.below(n + 1);
        Dims sizes = r_.chance(60) ? Dims{cut, n - cut} : Dims{n};
        if (r_.chance(30)) sizes.insert(sizes.begin(), 0);
        in = {x};
        ps = params({{"axis", axis}, {"sizes", sizes}});
        return true;
      }
      case P::dynamic_slice:
      case P::dynamic_update_slice: {
        Dims sizes;
        for (int d = 0; d < rank; ++d) sizes.push_back(r_.below(xa.shape[d] + 1));
        in = {x};
        if (p == P::dynamic_update_slice)
          in.push_back(ir::Atom::of_var(new_input({xa.dtype, Shape(sizes), false})));
        for (int d = 0; d < rank; ++d) {
          // Start indices anywhere, out of range and negative too: both clamp.
          ir::Literal l;
          l.dtype = DType::i32;
          l.i = r_.below(xa.shape[d] + 5) - 2;
          in.push_back(r_.chance(50) ? ir::Atom::of_literal(l)
                                     : ir::Atom::of_var(new_input({DType::i32, Shape{}, false})));
        }
        if (p == P::dynamic_slice) ps = params({{"slice_sizes", sizes}});
        return true;
      }
      case P::cumsum:
      case P::cumprod:
      case P::cummax:
      case P::cummin:
        if (rank == 0) return false;
        in = {x};
        ps = params({{"axis", r_.below(rank)}, {"reverse", r_.chance(50)}});
        return true;
      case P::sort: {
        if (rank == 0) return false;
        // The keys alone, or with a carried operand of the same shape (any dtype).
        in = {x};
        if (r_.chance(50)) {
          std::vector<ir::VarId> same;
          for (ir::VarId v : pool_)
            if (aval(v).shape == xa.shape) same.push_back(v);
          in.push_back(same.empty()
                           ? ir::Atom::of_var(new_input({r_.pick(all_dtypes()), xa.shape, false}))
                           : ir::Atom::of_var(r_.pick(same)));
        }
        ps = params({{"dimension", r_.below(rank)},
                     {"is_stable", r_.chance(50)},
                     {"num_keys", std::int64_t{1}}});
        return true;
      }
      case P::top_k:
        if (rank == 0) return false;
        in = {x};
        ps = params({{"k", r_.below(xa.shape[rank - 1] + 1)}, {"axis", std::int64_t{rank - 1}}});
        return true;
      case P::qr:
      case P::svd: {
        // Any float matrix (1..4 rows and columns; batched or not), either shape of the
        // factors; svd with or without them.
        ir::Atom a = x;
        ir::Aval aa = xa;
        if (rank < 2 || !fj::is_float(xa.dtype) || xa.shape.size() == 0) {
          aa = {r_.chance(50) ? DType::f32 : DType::f64,
                r_.chance(30) ? Shape{2, 1 + r_.below(4), 1 + r_.below(4)}
                              : Shape{1 + r_.below(4), 1 + r_.below(4)},
                false};
          a = ir::Atom::of_var(new_input(aa));
        }
        in = {a};
        if (p == P::svd)
          ps = params({{"algorithm", std::string("None")},
                       {"compute_uv", r_.chance(50)},
                       {"full_matrices", r_.chance(50)},
                       {"subset_by_index", std::string("None")}});
        else
          ps = params({{"full_matrices", r_.chance(50)},
                       {"pivoting", false},
                       {"use_magma", std::string("None")}});
        return true;
      }
      case P::cholesky:
      case P::eigh:
      case P::triangular_solve: {
        // Square float matrices, any values (not positive definite: NaNs; singular:
        // infinities, the same on both backends, which run one routine). Random shapes are
        // rarely square, so a fresh matrix stands in for x when x is not one.
        ir::Atom a = x;
        ir::Aval aa = xa;
        if (rank < 2 || !fj::is_float(xa.dtype) || xa.shape[rank - 1] != xa.shape[rank - 2]) {
          const std::int64_t n = 1 + r_.below(5);
          aa = {r_.chance(50) ? DType::f32 : DType::f64,
                r_.chance(30) ? Shape{2, n, n} : Shape{n, n}, false};
          a = ir::Atom::of_var(new_input(aa));
        }
        const int ar = aa.shape.rank();
        in = {a};
        if (p == P::cholesky) return true;
        if (p == P::eigh) {
          ps = params({{"algorithm", std::string("None")},
                       {"lower", r_.chance(50)},
                       {"sort_eigenvalues", true},
                       {"subset_by_index", std::string("None")}});
          return true;
        }
        const bool left = r_.chance(50);
        Shape bs = aa.shape;
        bs[left ? ar - 1 : ar - 2] = 1 + r_.below(4);
        in.push_back(ir::Atom::of_var(new_input({aa.dtype, bs, false})));
        ps = params({{"left_side", left},
                     {"lower", r_.chance(50)},
                     {"transpose_a", r_.chance(50)},
                     {"conjugate_a", false},
                     {"unit_diagonal", r_.chance(50)}});
        return true;
      }
      case P::lu: {
        // f32 / f64 matrices of any shape (square, tall, wide, batched; singular ones too: the
        // factors with zeros on U's diagonal). A fresh one stands in for x when x is not one.
        if (rank >= 2 && (xa.dtype == DType::f32 || xa.dtype == DType::f64)) {
          in = {x};
          return true;
        }
        const std::int64_t m = 1 + r_.below(5), n = 1 + r_.below(5);
        const Shape s = r_.chance(30) ? Shape{2, m, n} : Shape{m, n};
        in = {ir::Atom::of_var(new_input({r_.chance(50) ? DType::f32 : DType::f64, s, false}))};
        return true;
      }
      case P::gather:
      case P::scatter_add:
      case P::scatter:
      case P::scatter_mul:
      case P::scatter_min:
      case P::scatter_max: {
        // x[idx] along axis 0 (JAX's take), or x.at[idx].add(u) (set, mul, min, max): i32
        // indices of shape (m, 1), anywhere, out of range and negative too, in a random mode.
        if (rank == 0) return false;
        if (xa.dtype == DType::bool_ && p != P::gather && p != P::scatter) return false;
        const std::int64_t m = r_.below(5);
        const ir::Atom idx = ir::Atom::of_var(new_input({DType::i32, Shape{m, 1}, false}));
        const auto mode = static_cast<ir::GatherMode>(r_.below(3));
        ir::IndexDims d;
        d.collapsed = {0};
        d.start_map = {0};
        for (int k = 1; k < rank; ++k) d.window.push_back(k);
        if (p == P::gather) {
          Dims sizes = xa.shape.to_vector();
          sizes[0] = 1;
          in = {x, idx};
          ps = fj::detail::gather_params(d, sizes, mode, "None", false, false);
          return true;
        }
        Shape us = xa.shape;
        us[0] = m;
        in = {x, idx, ir::Atom::of_var(new_input({xa.dtype, us, false}))};
        ps = fj::detail::scatter_params(p, d, xa.dtype, mode, false, false);
        return true;
      }
      case P::pad: {
        // lo and hi in [-2, 2] (cropping too), interior in [0, 2]; a literal or an input as the
        // padding value. A draw that crops an axis below size 0 is rejected by the shape rule.
        ir::PadConfig c;
        for (int d = 0; d < rank; ++d) {
          c.lo.push_back(r_.below(5) - 2);
          c.hi.push_back(r_.below(5) - 2);
          c.interior.push_back(r_.below(3));
        }
        in = {x, r_.chance(50) ? ir::Atom::of_literal(literal(r_, xa.dtype))
                               : ir::Atom::of_var(new_input({xa.dtype, Shape{}, false}))};
        ps = c.params();
        return true;
      }
      case P::tile: {
        Dims reps;
        for (int d = 0; d < rank; ++d) reps.push_back(r_.below(4));
        in = {x};
        ps = params({{"reps", reps}});
        return true;
      }
      default:
        return false;
    }
  }

  // Mode "per equation" exposes every result; exact programs expose a random subset (each a
  // fusion-breaking point) plus the last equation's results.
  void outputs() {
    auto& g = b_.graph;
    std::vector<ir::VarId> produced;
    for (auto& e : g.eqns)
      for (ir::VarId v : e.out) produced.push_back(v);
    for (std::size_t i = 0; i < produced.size(); ++i) {
      const bool last = i + 1 == produced.size();
      if (!cfg_.exact_only || last || r_.chance(35))
        g.outvars.push_back(ir::Atom::of_var(produced[i]));
    }
    if (g.outvars.empty())
      for (ir::VarId v : g.invars) g.outvars.push_back(ir::Atom::of_var(v));
  }
};

}  // namespace gen_detail

/// The program of `seed`: exact-only when the seed's low bit is set (so a seed range mixes both).
inline Program generate(std::uint64_t seed, GenConfig cfg = {}) {
  cfg.exact_only = cfg.exact_only || (seed & 1);
  return gen_detail::Generator(seed * 0x2545F4914F6CDD1Dull + 1, cfg).run(seed);
}

/// For libFuzzer: the bytes become the seed.
inline Program generate_from_bytes(const std::uint8_t* data, std::size_t size) {
  std::uint64_t seed = 0xCBF29CE484222325ull;
  for (std::size_t i = 0; i < size; ++i) seed = (seed ^ data[i]) * 0x100000001B3ull;
  return generate(seed);
}

}  // namespace fusejit_fuzz
