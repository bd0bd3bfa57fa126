// The emitters' out-of-line parts (implementation unit only).
#include <algorithm>
#include <numeric>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

Atom Emit::unbroadcast(Atom ct, const Aval& to) {
  const Shape from = shape(ct);
  if (from == to.shape) return ct;
  if (to.shape.rank() == 0) {
    Dims all(static_cast<std::size_t>(from.rank()));
    std::iota(all.begin(), all.end(), 0);
    return reduce_sum(ct, all);
  }
  // lax broadcasts equal ranks whose extents are 1 on one side.
  Dims axes;
  for (int d = 0; d < from.rank(); ++d)
    if (to.shape[d] == 1 && from[d] != 1) axes.push_back(d);
  return reshape(reduce_sum(ct, axes), to.shape);
}

Atom Emit::dynamic_slice(Atom x, const std::vector<Atom>& starts, const Dims& sizes) {
  std::vector<Atom> in{x};
  in.insert(in.end(), starts.begin(), starts.end());
  ir::Params p;
  p.items.push_back({"slice_sizes", sizes, true});
  return b.emit1(Prim::dynamic_slice, std::move(in), std::move(p));
}

Atom Emit::dynamic_update_slice(Atom x, Atom update, const std::vector<Atom>& starts) {
  std::vector<Atom> in{x, update};
  in.insert(in.end(), starts.begin(), starts.end());
  return b.emit1(Prim::dynamic_update_slice, std::move(in));
}

Atom Emit::move_axis(Atom x, int from, int to) {
  if (from == to) return x;
  Dims perm(static_cast<std::size_t>(rank(x)));
  std::iota(perm.begin(), perm.end(), 0);
  perm.erase(perm.begin() + from);
  perm.insert(perm.begin() + to, from);
  return transpose(x, perm);
}

ir::Params map_dims(const ir::Params& p, const std::vector<std::string>& names,
                    const std::function<Dims(const Dims&)>& f) {
  ir::Params out = p;
  for (auto& item : out.items)
    if (std::find(names.begin(), names.end(), item.name) != names.end())
      if (auto* v = std::get_if<Dims>(&item.value)) *v = f(*v);
  return out;
}

Dims shifted(const Dims& v, std::int64_t k) {
  Dims r = v;
  for (auto& d : r) d += k;
  return r;
}

}  // namespace fj::transforms
