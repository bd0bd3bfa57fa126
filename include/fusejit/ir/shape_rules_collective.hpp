// Shape and dtype rules of the collectives (jax/_src/lax/parallel.py's abstract evals).
#pragma once
#include <string>
#include <vector>

#include "fusejit/core/error.hpp"
#include "fusejit/ir/collective_params.hpp"

namespace fj::ir::library_rules {

inline std::vector<Aval> collective(Prim p, const std::vector<Aval>& in, const Params& params) {
  const std::string who(name(p));
  (void)collective::axis_of(params);
  if (p == Prim::axis_index) return {Aval{DType::i32, Shape{}, false}};
  const Aval& a = in.at(0);
  if (a.dtype == DType::bool_ && p != Prim::pmax && p != Prim::pmin && p != Prim::all_gather &&
      p != Prim::all_to_all && p != Prim::ppermute)
    throw DTypeError(who + ": does not accept dtype bool (numbers only), got " + a.str());
  std::vector<std::int64_t> s = a.shape.to_vector();
  const auto rank = static_cast<std::int64_t>(s.size());
  auto check_axis = [&](const char* what, std::int64_t axis, std::int64_t bound) {
    if (axis < 0 || axis >= bound)
      throw ShapeError(who + ": " + what + " " + std::to_string(axis) + " is out of range for " +
                       a.str());
  };
  switch (p) {
    case Prim::all_gather: {
      const auto n = params.get<std::int64_t>("axis_size");
      const auto d = collective::dimension_of(p, params);
      if (params.get<bool>("tiled")) {
        check_axis("all_gather_dimension", d, rank);
        s[static_cast<std::size_t>(d)] *= n;
      } else {
        check_axis("all_gather_dimension", d, rank + 1);
        s.insert(s.begin() + d, n);
      }
      break;
    }
    case Prim::reduce_scatter: {
      const auto n = params.get<std::int64_t>("axis_size");
      const auto d = collective::dimension_of(p, params);
      check_axis("scatter_dimension", d, rank);
      const auto k = static_cast<std::size_t>(d);
      if (params.get<bool>("tiled")) {
        if (s[k] % n != 0)
          throw ShapeError(who + ": scatter_dimension " + std::to_string(d) + " of " + a.str() +
                           " is not a multiple of the axis size " + std::to_string(n));
        s[k] /= n;
      } else {
        if (s[k] != n)
          throw ShapeError(who + ": scatter_dimension " + std::to_string(d) + " of " + a.str() +
                           " must equal the axis size " + std::to_string(n));
        s.erase(s.begin() + d);
      }
      break;
    }
    case Prim::all_to_all: {
      const auto n = params.get<std::int64_t>("axis_size");
      const auto split = params.get<std::int64_t>("split_axis");
      const auto concat = params.get<std::int64_t>("concat_axis");
      check_axis("split_axis", split, rank);
      check_axis("concat_axis", concat, rank);
      if (s[static_cast<std::size_t>(split)] % n != 0)
        throw ShapeError(who + ": split_axis " + std::to_string(split) + " of " + a.str() +
                         " is not a multiple of the axis size " + std::to_string(n));
      s[static_cast<std::size_t>(split)] /= n;
      s[static_cast<std::size_t>(concat)] *= n;
      break;
    }
    case Prim::ppermute:
      (void)collective::perm_of(params);
      break;
    default:  // psum, pmax, pmin
      break;
  }
  return {Aval{a.dtype, Shape(s), a.weak}};
}

}  // namespace fj::ir::library_rules
