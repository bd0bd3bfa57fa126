// Jaxpr printing: JAX's naming, nesting, shared sub-jaxprs and layout (implementation unit only).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <set>

#include "fusejit/ir/linear_solve.hpp"
#include "fusejit/ir/pretty_doc.hpp"
#include "fusejit/ir/printer.hpp"

namespace fj::ir {

std::string python_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  // Shortest round-trip digits in scientific form, then Python's choice of notation:
  // fixed when -4 <= exponent < 16, scientific otherwise.
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  const auto epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  const int exp = std::stoi(sci.substr(epos + 1));
  std::string sign;
  if (mant[0] == '-') sign = "-", mant.erase(0, 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  if (exp < -4 || exp >= 16) {
    std::string m = digits.substr(0, 1);
    if (digits.size() > 1) m += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    return sign + m + e;
  }
  if (exp < 0) return sign + "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  const auto int_len = static_cast<std::size_t>(exp + 1);
  if (digits.size() <= int_len)
    return sign + digits + std::string(int_len - digits.size(), '0') + ".0";
  return sign + digits.substr(0, int_len) + "." + digits.substr(int_len);
}

std::string print_literal(const Literal& l, bool python_scalar) {
  std::string v;
  if (l.dtype == DType::bool_)
    v = l.i ? "True" : "False";
  else if (l.dtype == DType::f32 && l.weak && python_scalar)
    v = python_float_repr(l.f);  // the Python float itself, not yet rounded to f32
  else if (l.dtype == DType::f32)
    v = python_float_repr(static_cast<double>(static_cast<float>(l.f)));
  else if (is_float(l.dtype))
    v = python_float_repr(l.f);
  else
    v = std::to_string(l.i);
  return v + ":" + std::string(short_name(l.dtype)) + "[]";
}

namespace {

std::string encode_alphabetic(int n) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('a' + n % 26));
    n /= 26;
  } while (n);
  return s;
}

std::string tuple_repr(const std::vector<std::int64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

// Names are global across nested graphs, handed out in the order JAX's printer asks for them.
class Printer {
 public:
  explicit Printer(const Eqn* target = nullptr) : target_(target) {}
  std::string run(const Graph& top) { return pp::format(doc(top)); }
  /// The document of `top`; target_doc() is then the target equation's part of it.
  pp::Doc doc(const Graph& top) {
    // Outputs of the top-level graph that nothing reads print as `_`, as JAX's _dropvars does.
    std::set<VarId> used;
    for (auto& o : top.outvars)
      if (!o.is_literal()) used.insert(o.var);
    for (auto it = top.eqns.rbegin(); it != top.eqns.rend(); ++it) {
      for (VarId v : it->out)
        if (!used.count(v)) names_[Key{&top, v}].assign(1, '_');
      for (auto& a : it->in)
        if (!a.is_literal()) used.insert(a.var);
    }
    find_shared(top);
    find_closed_consts(top);
    std::vector<pp::Doc> docs;
    for (auto& [name, g] : shared_order_)
      docs.push_back(pp::concat({pp::text("let "), pp::text(name), pp::text(" = "), skeleton(*g),
                                 pp::text(" in"), pp::brk()}));
    docs.push_back(skeleton(top));
    return pp::concat(std::move(docs));
  }
  const pp::Doc& target_doc() const { return target_doc_; }

 private:
  const Eqn* target_;
  pp::Doc target_doc_;
  using Key = std::pair<const Graph*, VarId>;
  std::map<Key, std::string> names_;
  std::set<std::string> shared_names_;
  std::map<const Graph*, std::string> shared_;
  std::vector<std::pair<std::string, const Graph*>> shared_order_;
  std::map<const Graph*, std::int64_t> closed_consts_;  // a jit's sub-graph: its leading consts
  std::set<Key> hidden_constvars_;  // constvars read only as a jit's closed-over values
  int counter_ = 0;

  std::string fresh() {
    for (;;) {
      std::string n = encode_alphabetic(counter_++);
      if (!shared_names_.count(n)) return n;
    }
  }
  const std::string& name(const Graph& g, VarId v) {
    auto [it, inserted] = names_.try_emplace(Key{&g, v});
    if (inserted) it->second = fresh();
    return it->second;
  }
  std::string atom(const Graph& g, const Atom& a, bool python_scalars = false) {
    return a.is_literal() ? print_literal(a.lit, python_scalars) : name(g, a.var);
  }

  // A sub-graph used more than once, or with more than 10 equations, is printed once on top.
  void find_shared(const Graph& top) {
    std::map<const Graph*, int> counts;
    std::vector<const Graph*> order;
    std::map<const Graph*, std::string> names;
    std::deque<const Graph*> q{&top};
    while (!q.empty()) {
      const Graph* g = q.front();
      q.pop_front();
      if (!counts.count(g)) order.push_back(g);
      counts[g] += (g != &top && g->eqns.size() > 10) ? 2 : 1;
      for (auto& e : g->eqns)
        for (auto& p : e.params.items) {
          if (!p.printed) continue;  // a hidden sub-graph (shard_map's `lowered`) is never shown
          for_each_subgraph(Params{{p}}, [&](const Graph& sub) {
            q.push_back(&sub);
            // JAX names a hoisted jit's jaxpr after the jit; custom_jvp_call's is plain `jaxpr`.
            if (auto* n = e.params.find("name"); n && e.prim == Prim::jit)
              names.try_emplace(&sub, std::get<std::string>(*n));
          });
        }
    }
    std::map<std::string, int> name_counts;
    for (const Graph* g : order) {
      if (counts[g] == 1) continue;
      std::string n = names.count(g) ? names[g] : "jaxpr";
      n.erase(0, n.find_first_not_of('<'));
      n.erase(n.find_last_not_of('>') + 1);
      if (int c = name_counts[n]; c > 0) {
        name_counts[n] += 1;
        n += std::to_string(c);
      }
      name_counts[n] += 1;
      shared_names_.insert(n);
      shared_[g] = n;
      shared_order_.push_back({n, g});
    }
  }

  // A jit that closed over concrete arrays (ir::closed_consts) takes them as leading operands;
  // JAX holds them as constvars of its jaxpr instead. Its sub-graph prints those invars as
  // constvars, and a graph's own constvars that only such operands read are not printed.
  void find_closed_consts(const Graph& top) {
    std::set<const Graph*> seen;
    std::deque<const Graph*> q{&top};
    while (!q.empty()) {
      const Graph* g = q.front();
      q.pop_front();
      if (!seen.insert(g).second) continue;
      std::set<VarId> hidden, visible;
      for (auto& o : g->outvars)
        if (!o.is_literal()) visible.insert(o.var);
      for (auto& e : g->eqns) {
        const std::int64_t k = e.prim == Prim::jit ? closed_consts(e.params) : 0;
        if (k > 0) closed_consts_[e.params.get<GraphPtr>("jaxpr").get()] = k;
        for (std::size_t i = 0; i < e.in.size(); ++i)
          if (!e.in[i].is_literal())
            (static_cast<std::int64_t>(i) < k ? hidden : visible).insert(e.in[i].var);
        for_each_subgraph(e.params, [&](const Graph& sub) { q.push_back(&sub); });
      }
      for (VarId c : g->constvars)
        if (hidden.count(c) && !visible.count(c)) hidden_constvars_.insert(Key{g, c});
    }
  }
  std::size_t leading_consts(const Graph& g) const {
    const auto it = closed_consts_.find(&g);
    return it == closed_consts_.end() ? 0 : static_cast<std::size_t>(it->second);
  }

  pp::Doc vars(const Graph& g, const std::vector<Atom>& vs, const std::string& sep, bool shapes,
               bool python_scalars = false) {
    std::vector<pp::Doc> items;
    for (auto& a : vs)
      items.push_back(pp::text(atom(g, a, python_scalars) + (shapes ? ":" + g.aval(a).str() : "")));
    return pp::nest(2,
                    pp::group(pp::join(pp::concat({pp::text(sep), pp::group(pp::brk())}), items)));
  }
  static std::vector<Atom> as_atoms(const std::vector<VarId>& vs) {
    std::vector<Atom> r;
    for (VarId v : vs) r.push_back(Atom::of_var(v));
    return r;
  }

  pp::Doc graph_doc(const Graph& g) {
    if (auto it = shared_.find(&g); it != shared_.end()) return pp::text(it->second);
    return skeleton(g);
  }

  pp::Doc param_value(const ParamValue& v) {
    return std::visit(
        [&](const auto& x) -> pp::Doc {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::int64_t>)
            return pp::text(std::to_string(x));
          else if constexpr (std::is_same_v<T, bool>)
            return pp::text(x ? "True" : "False");
          else if constexpr (std::is_same_v<T, DType>)
            return pp::text(std::string(long_name(x)));
          else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>)
            return pp::text(tuple_repr(x));
          else if constexpr (std::is_same_v<T, std::string>)
            return pp::text(x);
          else if constexpr (std::is_same_v<T, GraphPtr>)
            return graph_doc(*x);
          else if constexpr (std::is_same_v<T, CallbackPtr>)
            return pp::text(x ? x->repr() : "None");
          else {  // a tuple of jaxprs, as JAX's pp_jaxprs lays it out
            std::vector<pp::Doc> gs;
            for (auto& sub : x) gs.push_back(graph_doc(*sub));
            return pp::group(pp::concat(
                {pp::nest(2, pp::concat({pp::text("("), pp::brk(""), pp::join(pp::brk(), gs)})),
                 pp::brk(""), pp::text(")")}));
          }
        },
        v);
  }

  // A tuple some of whose entries JAX holds as NumPy ints (a batching rule shifted them with
  // np.add): the hidden param `<name>@np`, one flag per entry, marks them, printed np.int64(...).
  // Flags of another length (a rule here rewrote the tuple since) are ignored.
  pp::Doc np_tuple_value(const Params& ps, const Param& p) {
    const auto* v = std::get_if<std::vector<std::int64_t>>(&p.value);
    const ParamValue* f = v ? ps.find(p.name + "@np") : nullptr;
    const auto* flags = f ? std::get_if<std::vector<std::int64_t>>(f) : nullptr;
    if (!flags || flags->size() != v->size()) return param_value(p.value);
    std::string s = "(";
    for (std::size_t i = 0; i < v->size(); ++i) {
      const std::string n = std::to_string((*v)[i]);
      s += (i ? ", " : "") + ((*flags)[i] ? "np.int64(" + n + ")" : n);
    }
    return pp::text(s + (v->size() == 1 ? ",)" : ")"));
  }

  // custom_linear_solve's params are _LinearSolveTuple namedtuples, printed by repr: the
  // const counts as ints, each sub-graph as str(ClosedJaxpr) (its own names, from `a`, and its
  // own shared jaxprs), newlines and all, as one piece of text.
  static pp::Doc linear_solve_value(const Param& p) {
    std::string s = "_LinearSolveTuple(";
    for (std::size_t k = 0; k < kLinearSolveParts.size(); ++k) {
      s += std::string(k ? ", " : "") + kLinearSolveParts[k] + "=";
      if (auto* n = std::get_if<std::vector<std::int64_t>>(&p.value); n && k < n->size())
        s += std::to_string((*n)[k]);
      else if (auto* gs = std::get_if<std::vector<GraphPtr>>(&p.value); gs && k < gs->size())
        s += (*gs)[k] ? Printer{}.run(*(*gs)[k]) : "None";
    }
    return pp::text(s + ")");
  }

  // JAX names a sub-graph's inputs and outputs after the outer operands they are bound to.
  void suggest_names(const Graph& inner, const std::vector<Atom>& for_vars, const Graph& outer,
                     const std::vector<Atom>& like) {
    if (for_vars.size() != like.size()) return;
    std::set<VarId> used;
    for (std::size_t i = 0; i < like.size(); ++i) {
      if (like[i].is_literal() || for_vars[i].is_literal() || used.count(like[i].var)) continue;
      if (names_.count(Key{&inner, for_vars[i].var})) continue;
      used.insert(like[i].var);
      names_[Key{&inner, for_vars[i].var}] = name(outer, like[i].var);
    }
  }

  pp::Doc eqn(const Graph& g, const Eqn& e) {
    std::vector<const Param*> ps;
    for (auto& p : e.params.items)
      if (p.printed) ps.push_back(&p);
    std::sort(ps.begin(), ps.end(), [&](const Param* a, const Param* b) {
      // jit and the custom calls print `name` first (JAX's param order), then by name.
      if ((e.prim == Prim::jit || e.prim == Prim::custom_jvp_call ||
           e.prim == Prim::custom_vjp_call) &&
          (a->name == "name") != (b->name == "name"))
        return a->name == "name";
      return a->name < b->name;
    });
    // A jit's closed-over leading operands are its sub-graph's constvars (fresh names).
    std::size_t hidden = 0;
    if (e.prim == Prim::jit) {
      const Graph& sub = *e.params.get<GraphPtr>("jaxpr");
      hidden = std::min(leading_consts(sub), e.in.size());
      if (!shared_.count(&sub)) {
        const auto skip = static_cast<std::ptrdiff_t>(std::min(hidden, sub.invars.size()));
        suggest_names(sub, as_atoms({sub.invars.begin() + skip, sub.invars.end()}), g,
                      {e.in.begin() + static_cast<std::ptrdiff_t>(hidden), e.in.end()});
        suggest_names(sub, sub.outvars, g, as_atoms(e.out));
      }
    }
    pp::Doc lhs = vars(g, as_atoms(e.out), "", true);
    pp::Doc kv = pp::nil();
    if (!ps.empty()) {
      std::vector<pp::Doc> pairs;
      for (auto* p : ps)
        pairs.push_back(pp::concat({pp::text(p->name + "="), e.prim == Prim::custom_linear_solve
                                                                 ? linear_solve_value(*p)
                                                                 : np_tuple_value(e.params, *p)}));
      kv = pp::group(pp::concat(
          {pp::nest(2, pp::concat({pp::text("["), pp::brk(""), pp::join(pp::brk(), pairs)})),
           pp::brk(""), pp::text("]")}));
    }
    pp::Doc head = pp::text(std::string(ir::name(e.prim)));
    // A jit's weak float operands are the Python floats passed to it, printed as Python does;
    // inside an equation of lax they have become f32 values.
    const std::vector<Atom> shown(e.in.begin() + static_cast<std::ptrdiff_t>(hidden), e.in.end());
    pp::Doc args = pp::concat({pp::text(" "), vars(g, shown, "", false, e.prim == Prim::jit)});
    pp::Doc d = e.out.empty() ? pp::concat({head, kv, args})
                              : pp::concat({lhs, pp::text(" = "), head, kv, args});
    if (&e == target_) target_doc_ = d;
    return d;
  }

  pp::Doc skeleton(const Graph& g) {
    std::vector<VarId> constvars;
    for (VarId c : g.constvars)
      if (!hidden_constvars_.count(Key{&g, c})) constvars.push_back(c);
    const auto lead = static_cast<std::ptrdiff_t>(std::min(leading_consts(g), g.invars.size()));
    constvars.insert(constvars.end(), g.invars.begin(), g.invars.begin() + lead);
    pp::Doc consts = vars(g, as_atoms(constvars), "", true);
    pp::Doc ins = vars(g, as_atoms({g.invars.begin() + lead, g.invars.end()}), "", true);
    std::vector<pp::Doc> eqns;
    for (auto& e : g.eqns) eqns.push_back(eqn(g, e));
    pp::Doc body = pp::join(pp::brk("; "), eqns);
    if (eqns.empty()) body = pp::nil();
    pp::Doc outs = pp::concat({pp::text("("), vars(g, g.outvars, ",", false),
                               pp::text(g.outvars.size() != 1 ? ")" : ",)")});
    // The closing " }" is inside the group, as JAX builds it: it counts when the group fits.
    return pp::group(
        pp::concat({pp::nest(2, pp::concat({pp::text("{ "), pp::text("lambda "), consts,
                                            pp::text("; "), ins, pp::text(". "), pp::text("let"),
                                            pp::nest(2, pp::concat({pp::brk(), body})), pp::brk(),
                                            pp::text("in "), outs})),
                    pp::text(" }")}));
  }
};

}  // namespace

std::string print_jaxpr(const Graph& g) { return Printer{}.run(g); }

PrintedEqn locate_eqn(const Graph& g, const Eqn& e) {
  Printer p(&e);
  const pp::Doc doc = p.doc(g);
  pp::Span span{p.target_doc().get()};
  if (!span.node) return {};
  const std::string text = pp::format(doc, 80, &span);
  if (!span.found) return {};
  const std::size_t line_start = text.rfind('\n', span.begin) + 1;  // npos + 1 == 0
  PrintedEqn r;
  r.line = 1 + static_cast<int>(std::count(
                   text.begin(), text.begin() + static_cast<std::ptrdiff_t>(line_start), '\n'));
  // Its continuation lines lose the equation's own indent, as if it were printed at column 0.
  const std::size_t indent = span.begin - line_start;
  for (std::size_t i = span.begin; i < span.end; ++i) {
    r.text += text[i];
    if (text[i] == '\n')
      for (std::size_t k = 0; k < indent && i + 1 < span.end && text[i + 1] == ' '; ++k) ++i;
  }
  return r;
}

}  // namespace fj::ir
