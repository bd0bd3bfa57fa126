// The array-level half of fj::custom_vjp: staging its call, and tracing and checking the user's
// fwd and bwd functions where reverse mode inlines them (implementation unit only).
#include "fusejit/api/custom_vjp.hpp"
#include "fusejit/transforms/emit.hpp"

namespace fj::detail {

std::vector<ir::Atom> inline_user_function(ir::GraphBuilder& b, const TraceSite& site,
                                           const std::vector<ir::Atom>& args, TraceBody call,
                                           PyTreeDef& tree) {
  std::vector<ir::Aval> avals;
  for (const ir::Atom& a : args) avals.push_back(b.aval(a));
  SubGraph s = trace_subgraph_flat(site, avals, call);
  if (!s.consts.empty())
    throw ValueError(std::string(site.api) + ": " + site.name +
                     " closes over arrays or tracers; pass them through the residuals (fwd's "
                     "second result) or as arguments instead");
  tree = s.out_tree;
  return ir::detail::inline_into(b.graph, *s.graph, args, true, true);
}

void check_user_avals(const std::string& who, const std::string& what,
                      const std::vector<ir::Aval>& got, const std::vector<ir::Aval>& want) {
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i)
    if (!(got[i].shape == want[i].shape) || got[i].dtype != want[i].dtype)
      throw TypeError(who + ": its " + what + " (leaf " + std::to_string(i) + ") is " +
                      got[i].str() + " but must be " + want[i].str());
}

std::vector<ir::Atom> with_zeros_first(ir::GraphBuilder& b, const std::vector<ir::Aval>& first,
                                       const std::vector<ir::Atom>& rest) {
  transforms::Emit E(b);
  std::vector<ir::Atom> all;
  for (const ir::Aval& a : first) all.push_back(E.zeros(a));
  all.insert(all.end(), rest.begin(), rest.end());
  return all;
}

std::vector<Array> emit_custom_vjp_call(const std::string& name, const SubGraph& s,
                                        const std::vector<Array>& leaves,
                                        std::shared_ptr<const ir::CustomVjpRule> rule) {
  return emit_closed_call(ir::Prim::custom_vjp_call, s, leaves, [&](ir::GraphPtr closed) {
    return ir::custom_vjp_params(name, std::move(closed), rule);
  });
}

}  // namespace fj::detail
