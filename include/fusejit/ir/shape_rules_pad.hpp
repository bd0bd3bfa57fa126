// Shape and dtype rules of pad and tile, after JAX's _pad_shape_rule / _pad_dtype_rule and
// _tile_abstract_eval (implementation unit only; included by shape_rules_library.hpp).
#pragma once
#include <string>

#include "fusejit/ir/builder.hpp"
#include "fusejit/ir/pad_config.hpp"
#include "fusejit/ir/shape_rules_common.hpp"

namespace fj::ir::library_rules {

/// pad(operand, padding_value): each axis becomes lo + hi + d + (d - 1) * interior (d > 0), lo
/// and hi possibly negative (cropping), interior >= 0; the padding value a scalar of the
/// operand's dtype.
inline std::vector<Aval> pad(const std::vector<Aval>& in, const Params& params) {
  const Aval &x = in[0], &v = in[1];
  const PadConfig c = PadConfig::from(params);
  if (v.shape.rank() != 0)
    throw ShapeError("pad: the padding value must be a scalar, got " + list(in));
  if (v.dtype != x.dtype)
    throw DTypeError("pad: operand and padding value must have one dtype, got " + list(in));
  if (c.rank() != x.shape.rank() || c.hi.size() != c.lo.size() || c.interior.size() != c.lo.size())
    throw ShapeError("pad: padding_config " + c.str() + " must have one entry per axis of " +
                     x.str());
  std::vector<std::int64_t> out;
  for (int a = 0; a < c.rank(); ++a) {
    const auto k = static_cast<std::size_t>(a);
    if (c.interior[k] < 0)
      throw ShapeError("pad: interior padding must be nonnegative, got padding_config " + c.str() +
                       " for " + x.str());
    const std::int64_t d = x.shape[a];
    const std::int64_t n = c.lo[k] + c.hi[k] + (d == 0 ? 0 : d + (d - 1) * c.interior[k]);
    if (n < 0)
      throw ShapeError("pad: padding_config " + c.str() + " leaves axis " + std::to_string(a) +
                       " of " + x.str() + " with size " + std::to_string(n));
    out.push_back(n);
  }
  return {Aval{x.dtype, Shape(out), x.weak}};
}

/// tile(operand): each axis d * reps[d]; reps has one nonnegative entry per axis.
inline std::vector<Aval> tile(const std::vector<Aval>& in, const Params& params) {
  const Aval& x = in[0];
  const auto& reps = params.get<std::vector<std::int64_t>>("reps");
  if (static_cast<int>(reps.size()) != x.shape.rank())
    throw ShapeError("tile: reps " + tuple_str(reps) + " must have one entry per axis of " +
                     x.str());
  std::vector<std::int64_t> out;
  for (int a = 0; a < x.shape.rank(); ++a) {
    const std::int64_t r = reps[static_cast<std::size_t>(a)];
    if (r < 0)
      throw ShapeError("tile: reps " + tuple_str(reps) + " must be nonnegative, for " + x.str());
    out.push_back(x.shape[a] * r);
  }
  return {Aval{x.dtype, Shape(out), x.weak}};
}

}  // namespace fj::ir::library_rules
