// The array-level half of fj::checkpoint: its policies, checkpoint_name and the staged remat2
// equation (implementation unit only).
#include "fusejit/api/checkpoint.hpp"

namespace fj {

namespace checkpoint_policies {
CheckpointPolicy save_only_these_names(std::initializer_list<std::string> names) {
  CheckpointPolicy p{"SaveOnlyTheseNames(saveable_names=frozenset({", "names", names};
  bool first = true;
  for (const std::string& n : names) {
    p.repr += (first ? "'" : ", '") + n + "'";
    first = false;
  }
  p.repr += "}))";
  return p;
}
}  // namespace checkpoint_policies

Array checkpoint_name(const Array& x, const std::string& name) {
  if (!detail::current_trace()) return x;
  ir::Params p;
  p.items.push_back({"name", name, true});
  return detail::atom_array(
      detail::current_trace()->builder.emit1(ir::Prim::checkpoint_name, {detail::lower_arg(x)}, p));
}

namespace detail {

std::vector<Array> emit_remat(const SubGraph& s, const std::vector<Array>& leaves,
                              const checkpoint_options& opt) {
  // The rules read the policy from the hidden `saveable`: its kind, then one name per line.
  std::string saveable = opt.policy.saves;
  for (const std::string& n : opt.policy.names) saveable += "\n" + n;
  return emit_closed_call(ir::Prim::remat2, s, leaves, [&](ir::GraphPtr closed) {
    ir::Params p;
    p.items.push_back({"differentiated", false, true});
    p.items.push_back({"jaxpr", std::move(closed), true});
    p.items.push_back({"policy", opt.policy.repr, true});
    p.items.push_back({"prevent_cse", opt.prevent_cse, true});
    p.items.push_back({"saveable", saveable, false});
    return p;
  });
}

}  // namespace detail

}  // namespace fj
