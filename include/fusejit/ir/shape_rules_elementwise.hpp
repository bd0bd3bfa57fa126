// The shape and dtype rules of the elementwise primitives (unary, binary, comparisons, logical,
// select_n, clamp, conversions, threefry2x32), as lax states them; registered by
// transforms/elementwise_rules.cpp.
#pragma once
#include <string>
#include <vector>

#include "fusejit/ir/builder.hpp"
#include "fusejit/ir/shape_rules_common.hpp"

namespace fj::ir::shape_rules {

using library_rules::list;

/// lax's elementwise broadcasting: a rank-0 operand goes with anything; otherwise equal ranks
/// whose extents match or are 1.
inline Shape elementwise_shape(Prim p, const Aval& a, const Aval& b) {
  if (a.shape.rank() == 0) return b.shape;
  if (b.shape.rank() == 0) return a.shape;
  if (a.shape.rank() != b.shape.rank())
    throw ShapeError(std::string(name(p)) + ": operands of different ranks: " + a.str() + " and " +
                     b.str());
  return broadcast_shapes(a.shape, b.shape, std::string(name(p)).c_str());
}

inline void require_same_dtype(Prim p, const std::vector<Aval>& in) {
  for (auto& a : in)
    if (a.dtype != in[0].dtype)
      throw DTypeError(std::string(name(p)) + ": operands must have one dtype, got " + list(in));
}

inline std::vector<Aval> unary(Prim p, const std::vector<Aval>& in, const Params& params) {
  const std::string who(name(p));
  if (is_float_only(p) && !is_float(in[0].dtype))
    throw DTypeError(who + ": needs a floating operand, got " + in[0].str());
  if (in[0].dtype == DType::bool_)
    throw DTypeError(who + ": does not take bool operands, got " + in[0].str());
  if (is_int_only(p) && !is_int(in[0].dtype))
    throw DTypeError(who + ": needs an integer operand, got " + in[0].str());
  if (p == Prim::integer_pow) {
    const auto y = params.get<std::int64_t>("y");
    if (y < 0 && !is_float(in[0].dtype))
      throw DTypeError("integer_pow: integers cannot be raised to negative powers, got " +
                       in[0].str() + " to the power " + std::to_string(y));
  }
  if (is_predicate(p)) return {Aval{DType::bool_, in[0].shape, false}};
  return {in[0]};
}

/// Binary arithmetic and comparisons: one dtype, lax's broadcasting; comparisons give bool.
inline std::vector<Aval> binary(Prim p, const std::vector<Aval>& in, const Params&) {
  const std::string who(name(p));
  const bool compare = info(p).kind == PrimKind::compare;
  require_same_dtype(p, in);
  if (!compare && in[0].dtype == DType::bool_)
    throw DTypeError(who + ": does not take bool operands, got " + list(in));
  if (is_float_only(p) && !is_float(in[0].dtype))
    throw DTypeError(who + ": needs floating operands, got " + list(in));
  if (is_int_only(p) && !is_int(in[0].dtype))
    throw DTypeError(who + ": needs integer operands, got " + list(in));
  Shape s = elementwise_shape(p, in[0], in[1]);
  if (compare) return {Aval{DType::bool_, s, false}};
  return {Aval{in[0].dtype, s, in[0].weak && in[1].weak}};
}

inline std::vector<Aval> logical(Prim p, const std::vector<Aval>& in, const Params&) {
  require_same_dtype(p, in);
  if (is_float(in[0].dtype))
    throw DTypeError(std::string(name(p)) + ": needs bool or integer operands, got " + list(in));
  if (in.size() == 1) return {in[0]};
  return {Aval{in[0].dtype, elementwise_shape(p, in[0], in[1]), in[0].weak && in[1].weak}};
}

inline std::vector<Aval> select_n(Prim, const std::vector<Aval>& in, const Params&) {
  if (in[0].dtype != DType::bool_)
    throw DTypeError("select_n: the predicate must be bool, got " + in[0].str());
  if (in[1].dtype != in[2].dtype || !(in[1].shape == in[2].shape))
    throw ShapeError("select_n: cases must have one shape and dtype, got " + list(in));
  if (in[0].shape.rank() != 0 && !(in[0].shape == in[1].shape))
    throw ShapeError("select_n: predicate shape must be scalar or match the cases, got " +
                     list(in));
  return {Aval{in[1].dtype, in[1].shape, in[1].weak && in[2].weak}};
}

inline std::vector<Aval> clamp(Prim, const std::vector<Aval>& in, const Params&) {
  if (in[0].dtype != in[1].dtype || in[2].dtype != in[1].dtype)
    throw DTypeError("clamp: min, x and max must have one dtype, got " + list(in));
  if (in[1].dtype == DType::bool_)
    throw DTypeError("clamp: does not take bool operands, got " + list(in));
  for (int k : {0, 2})
    if (in[k].shape.rank() != 0 && !(in[k].shape == in[1].shape))
      throw ShapeError(std::string("clamp: ") + (k == 0 ? "min" : "max") +
                       " must be a scalar or have x's shape, got " + list(in));
  return {Aval{in[1].dtype, in[1].shape, in[0].weak && in[1].weak && in[2].weak}};
}

inline std::vector<Aval> convert_element_type(Prim, const std::vector<Aval>& in,
                                              const Params& params) {
  return {Aval{params.get<DType>("new_dtype"), in[0].shape, params.get<bool>("weak_type")}};
}

inline std::vector<Aval> bitcast_convert_type(Prim, const std::vector<Aval>& in,
                                              const Params& params) {
  // Same width only (JAX also allows a narrower/wider bitcast that adds or drops a trailing
  // axis; not supported here). Bools have no bit pattern to reinterpret.
  const DType to = params.get<DType>("new_dtype");
  if (in[0].dtype == DType::bool_ || to == DType::bool_ || size_of(in[0].dtype) != size_of(to))
    throw DTypeError("bitcast_convert_type: cannot bitcast " + in[0].str() + " to " +
                     std::string(short_name(to)) + ": needs two non-bool dtypes of one width");
  return {Aval{to, in[0].shape, false}};
}

/// threefry2x32: four u32 operands broadcast as lax's elementwise ops; two u32 results.
inline std::vector<Aval> threefry2x32(Prim p, const std::vector<Aval>& in, const Params&) {
  for (auto& a : in)
    if (a.dtype != DType::u32)
      throw DTypeError(std::string(name(p)) + ": operands must all be uint32, got " + list(in));
  Shape s = in[0].shape;
  for (std::size_t k = 1; k < in.size(); ++k)
    s = elementwise_shape(p, Aval{DType::u32, s, false}, in[k]);
  return {Aval{DType::u32, s, false}, Aval{DType::u32, s, false}};
}

}  // namespace fj::ir::shape_rules
