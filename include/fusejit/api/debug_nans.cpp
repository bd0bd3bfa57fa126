// fj::set_debug_nans: the flag, and finding the equation that made a NaN by re-running the traced
// graph on the reference interpreter (implementation unit only).
#include "fusejit/api/debug_nans.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <string>
#include <vector>

#include "fusejit/api/placement.hpp"
#include "fusejit/backend/reference/reference_backend.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/materialize.hpp"
#include "fusejit/ir/printer.hpp"

namespace fj {

namespace detail {

constinit std::atomic<int> debug_nans_state{-1};

bool parse_debug_nans(const char* value) {
  if (!value) return false;
  std::string v(value);
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* on : {"1", "true", "t", "yes", "y", "on"})
    if (v == on) return true;
  return false;
}

bool debug_nans_from_env() {
  const int from_env = parse_debug_nans(std::getenv("FUSEJIT_DEBUG_NANS")) ? 1 : 0;
  int expected = -1;  // a set_debug_nans() that ran meanwhile wins
  debug_nans_state.compare_exchange_strong(expected, from_env, std::memory_order_relaxed);
  return debug_nans_state.load(std::memory_order_relaxed) > 0;
}

namespace {

// A NaN has every exponent bit and a mantissa bit set: |bits| above infinity's.
template <class U>
bool any_nan(const void* data, std::size_t n, U inf) {
  const U mask = static_cast<U>(~U{0} >> 1);
  const auto* p = static_cast<const unsigned char*>(data);
  bool nan = false;
  for (std::size_t i = 0; i < n; ++i) {
    U u;
    std::memcpy(&u, p + i * sizeof(U), sizeof(U));
    nan |= (u & mask) > inf;
  }
  return nan;
}

// An equation that holds a sub-graph on the way from the NaN's equation up to the top graph:
// the graph it is in, and the param holding the sub-graph (its index: a cond's branch).
struct Holder {
  const ir::Graph* graph = nullptr;
  const ir::Eqn* eqn = nullptr;
  std::string param;
  std::size_t index = 0;
};

// What the re-run has found: the first equation whose result held a NaN, then the equations
// that ran the sub-graphs around it, innermost first.
struct Search {
  const ir::Graph* top = nullptr;
  const ir::Eqn* eqn = nullptr;
  std::size_t result = 0, run = 0;     // which result; which run of the equation (loops)
  const ir::Graph* current = nullptr;  // the graph whose holder comes next
  std::vector<Holder> holders;
  std::unordered_map<const ir::Eqn*, std::size_t> runs;
};

// Whether `e` holds sub-graph `g`; fills `h` then.
bool holds(const ir::Graph& in, const ir::Eqn& e, const ir::Graph& g, Holder& h) {
  for (const ir::Param& p : e.params.items) {
    std::vector<ir::GraphPtr> subs;
    if (auto* one = std::get_if<ir::GraphPtr>(&p.value)) subs.push_back(*one);
    if (auto* many = std::get_if<std::vector<ir::GraphPtr>>(&p.value)) subs = *many;
    for (std::size_t k = 0; k < subs.size(); ++k)
      if (subs[k].get() == &g) {
        h = {&in, &e, p.name, k};
        return true;
      }
  }
  return false;
}

std::string role(const Holder& h) {
  const std::string prim(ir::name(h.eqn->prim));
  if (h.eqn->prim == ir::Prim::cond) return "branch " + std::to_string(h.index) + " of the cond";
  if (h.param == "cond_jaxpr") return "the condition of the " + prim;
  if (h.param == "body_jaxpr" || h.eqn->prim == ir::Prim::scan) return "the body of the " + prim;
  if (auto* n = h.eqn->params.find("name"))
    if (auto* s = std::get_if<std::string>(n)) return "the " + prim + " '" + *s + "'";
  return "the " + h.param + " of the " + prim;
}

std::string ordinal(std::size_t n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                       : n % 10 == 1                    ? "st"
                       : n % 10 == 2                    ? "nd"
                       : n % 10 == 3                    ? "rd"
                                                        : "th";
  return std::to_string(n) + suffix;
}

// "invalid value (nan) encountered in log", the equation as make_jaxpr prints it, its line and
// the equations that ran it, innermost first.
std::string describe(const std::string& who, bool eager, const Search& s) {
  const ir::PrintedEqn at = ir::locate_eqn(*s.top, *s.eqn);
  std::string msg =
      who + ": invalid value (nan) encountered in " + std::string(ir::name(s.eqn->prim));
  if (s.eqn->out.size() > 1) msg += " (result " + std::to_string(s.result) + ")";
  msg += "\n  " + at.text + "\nat line " + std::to_string(at.line) +
         (eager ? " of the expression's jaxpr" : " of the jaxpr (as fj::make_jaxpr prints it)");
  if (s.run > 1) msg += ", the " + ordinal(s.run) + " time it ran";
  for (const Holder& h : s.holders)
    msg += ", in " + role(h) + " at line " + std::to_string(ir::locate_eqn(*s.top, *h.eqn).line);
  return msg +
         ". Found by re-running the call equation by equation on the reference interpreter: the "
         "first result to hold a NaN.";
}

}  // namespace

bool holds_nan(const backend::Value& v) {
  if (!v.buf || !v.buf->data) return false;
  if (v.buf->device >= 0) return holds_nan(put_value(v, cpu()));  // a GPU's result, copied back
  const auto n = static_cast<std::size_t>(v.aval.shape.size());
  switch (v.aval.dtype) {
    case DType::f32:
      return any_nan<std::uint32_t>(v.buf->data, n, 0x7f800000u);
    case DType::f64:
      return any_nan<std::uint64_t>(v.buf->data, n, 0x7ff0000000000000ull);
    default:
      return false;  // only floating values hold NaN
  }
}

void check_nans(const Compiled& c, std::span<const backend::Value> args,
                std::span<const backend::Value> outs) {
  const auto bad = std::find_if(outs.begin(), outs.end(), holds_nan);
  if (bad == outs.end()) return;
  const std::string who = c.name.empty() ? "fj" : c.name;
  // The reference interpreter re-runs the call on the host: a GPU's inputs are copied back.
  std::vector<backend::Value> inputs(c.consts);
  inputs.insert(inputs.end(), args.begin(), args.end());
  for (backend::Value& v : inputs) v = put_value(v, cpu());
  // The run goes on after the NaN until the top graph's equation that holds it has run: the
  // equations observed in between that hold the current graph are the ones that ran it (a
  // shared sub-graph may have several holders). Ending there is safe: the compiled call, the
  // same program, returned.
  Search s;
  s.top = c.graph.get();
  backend::run_observed(
      c.graph, inputs,
      [&](const ir::Graph& g, const ir::Eqn& e, std::span<const backend::Value> r) {
        if (!s.eqn) {
          const std::size_t run = ++s.runs[&e];
          const auto k = std::find_if(r.begin(), r.end(), holds_nan);
          if (k == r.end()) return;
          s.eqn = &e, s.result = static_cast<std::size_t>(k - r.begin()), s.run = run;
          s.current = &g;
        } else if (Holder h; holds(g, e, *s.current, h)) {
          s.holders.push_back(h);
          s.current = &g;
        }
        if (s.current == s.top) throw FloatingPointError(describe(who, c.name.empty(), s));
      });
  // JAX raises here too: no primitive made the NaN, yet the output holds one.
  const auto k = static_cast<std::size_t>(bad - outs.begin());
  throw FloatingPointError(
      who + ": invalid value (nan) in output " + std::to_string(k) + " (" + bad->aval.str() +
      "), but no equation's result held a NaN when the call was re-run equation by equation on "
      "the reference interpreter: it was passed in and returned unchanged (an argument, a "
      "captured constant or a literal), or the compiled code computed what the reference does "
      "not (a bug; please report it)");
}

}  // namespace detail

void set_debug_nans(bool on) {
  detail::debug_nans_state.store(on ? 1 : 0, std::memory_order_relaxed);
}

}  // namespace fj
