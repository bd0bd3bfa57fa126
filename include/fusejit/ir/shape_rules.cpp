// Shape inference: the arity check every primitive shares, then the primitive's own shape rule
// from the rules table (ir/prim_rules.hpp); lax control flow's rules are defined here
// (shape_rules_control.hpp), the rest in the shape_rules_*.hpp headers their families register
// (implementation unit only).
#include <string>

#include "fusejit/ir/builder.hpp"
#include "fusejit/ir/prim_rules.hpp"
#include "fusejit/ir/shape_rules_control.hpp"

namespace fj::ir {

std::string tuple_str(const std::vector<std::int64_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

std::vector<std::int64_t> slice_strides(const Params& params, int rank) {
  const ParamValue* v = params.find("strides");
  if (const auto* st = v ? std::get_if<std::vector<std::int64_t>>(v) : nullptr) return *st;
  return std::vector<std::int64_t>(static_cast<std::size_t>(rank), 1);  // strides=None
}

std::vector<Aval> infer_avals(Prim p, const std::vector<Aval>& in, const Params& params) {
  const PrimInfo& pi = info(p);
  if (pi.arity >= 0 && static_cast<int>(in.size()) != pi.arity)
    throw ValueError(std::string(pi.name) + ": expected " + std::to_string(pi.arity) +
                     " operands, got " + std::to_string(in.size()));
  const ShapeRule rule = rules(p).shape;
  if (!rule) throw NotImplementedError(std::string(pi.name) + ": no shape rule");
  return rule(p, in, params);
}

}  // namespace fj::ir
