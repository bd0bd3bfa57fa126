// Shape and dtype rules of every primitive, as lax states them (implementation unit only).
#include <algorithm>
#include <string>

#include "fusejit/ir/builder.hpp"
#include "fusejit/ir/shape_rules_control.hpp"
#include "fusejit/ir/shape_rules_library.hpp"

namespace fj::ir {

namespace {

std::string describe(const std::vector<Aval>& in) {
  std::string s;
  for (std::size_t i = 0; i < in.size(); ++i) s += (i ? ", " : "") + in[i].str();
  return s;
}

// lax's elementwise broadcasting: a rank-0 operand goes with anything; otherwise equal ranks
// whose extents match or are 1.
Shape elementwise_shape(Prim p, const Aval& a, const Aval& b) {
  if (a.shape.rank() == 0) return b.shape;
  if (b.shape.rank() == 0) return a.shape;
  if (a.shape.rank() != b.shape.rank())
    throw ShapeError(std::string(name(p)) + ": operands of different ranks: " + a.str() + " and " +
                     b.str());
  return broadcast_shapes(a.shape, b.shape, std::string(name(p)).c_str());
}

void require_same_dtype(Prim p, const std::vector<Aval>& in) {
  for (auto& a : in)
    if (a.dtype != in[0].dtype)
      throw DTypeError(std::string(name(p)) + ": operands must have one dtype, got " +
                       describe(in));
}

}  // namespace

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
  switch (pi.kind) {
    case PrimKind::unary:
      if (is_float_only(p) && !is_float(in[0].dtype))
        throw DTypeError(std::string(pi.name) + ": needs a floating operand, got " + in[0].str());
      if (in[0].dtype == DType::bool_)
        throw DTypeError(std::string(pi.name) + ": does not take bool operands, got " +
                         in[0].str());
      if (is_int_only(p) && !is_int(in[0].dtype))
        throw DTypeError(std::string(pi.name) + ": needs an integer operand, got " + in[0].str());
      if (p == Prim::integer_pow) {
        const auto y = params.get<std::int64_t>("y");
        if (y < 0 && !is_float(in[0].dtype))
          throw DTypeError("integer_pow: integers cannot be raised to negative powers, got " +
                           in[0].str() + " to the power " + std::to_string(y));
      }
      if (is_predicate(p)) return {Aval{DType::bool_, in[0].shape, false}};
      return {in[0]};
    case PrimKind::binary:
    case PrimKind::compare: {
      require_same_dtype(p, in);
      if (pi.kind == PrimKind::binary && in[0].dtype == DType::bool_)
        throw DTypeError(std::string(pi.name) + ": does not take bool operands, got " +
                         describe(in));
      if (is_float_only(p) && !is_float(in[0].dtype))
        throw DTypeError(std::string(pi.name) + ": needs floating operands, got " + describe(in));
      if (is_int_only(p) && !is_int(in[0].dtype))
        throw DTypeError(std::string(pi.name) + ": needs integer operands, got " + describe(in));
      Shape s = elementwise_shape(p, in[0], in[1]);
      if (pi.kind == PrimKind::compare) return {Aval{DType::bool_, s, false}};
      return {Aval{in[0].dtype, s, in[0].weak && in[1].weak}};
    }
    case PrimKind::logical: {
      require_same_dtype(p, in);
      if (is_float(in[0].dtype))
        throw DTypeError(std::string(pi.name) + ": needs bool or integer operands, got " +
                         describe(in));
      if (in.size() == 1) return {in[0]};
      return {Aval{in[0].dtype, elementwise_shape(p, in[0], in[1]), in[0].weak && in[1].weak}};
    }
    case PrimKind::select: {
      if (p == Prim::clamp) {
        if (in[0].dtype != in[1].dtype || in[2].dtype != in[1].dtype)
          throw DTypeError("clamp: min, x and max must have one dtype, got " + describe(in));
        if (in[1].dtype == DType::bool_)
          throw DTypeError("clamp: does not take bool operands, got " + describe(in));
        for (int k : {0, 2})
          if (in[k].shape.rank() != 0 && !(in[k].shape == in[1].shape))
            throw ShapeError(std::string("clamp: ") + (k == 0 ? "min" : "max") +
                             " must be a scalar or have x's shape, got " + describe(in));
        return {Aval{in[1].dtype, in[1].shape, in[0].weak && in[1].weak && in[2].weak}};
      }
      if (in[0].dtype != DType::bool_)
        throw DTypeError("select_n: the predicate must be bool, got " + in[0].str());
      if (in[1].dtype != in[2].dtype || !(in[1].shape == in[2].shape))
        throw ShapeError("select_n: cases must have one shape and dtype, got " + describe(in));
      if (in[0].shape.rank() != 0 && !(in[0].shape == in[1].shape))
        throw ShapeError("select_n: predicate shape must be scalar or match the cases, got " +
                         describe(in));
      return {Aval{in[1].dtype, in[1].shape, in[1].weak && in[2].weak}};
    }
    case PrimKind::convert: {
      const DType to = params.get<DType>("new_dtype");
      if (p == Prim::bitcast_convert_type) {
        // Same width only (JAX also allows a narrower/wider bitcast that adds or drops a
        // trailing axis; not supported here). Bools have no bit pattern to reinterpret.
        if (in[0].dtype == DType::bool_ || to == DType::bool_ ||
            size_of(in[0].dtype) != size_of(to))
          throw DTypeError("bitcast_convert_type: cannot bitcast " + in[0].str() + " to " +
                           std::string(short_name(to)) +
                           ": needs two non-bool dtypes of one width");
        return {Aval{to, in[0].shape, false}};
      }
      return {Aval{to, in[0].shape, params.get<bool>("weak_type")}};
    }
    case PrimKind::multi: {
      // threefry2x32: four u32 operands broadcast as lax's elementwise ops; two u32 results.
      for (auto& a : in)
        if (a.dtype != DType::u32)
          throw DTypeError(std::string(pi.name) + ": operands must all be uint32, got " +
                           describe(in));
      Shape s = in[0].shape;
      for (std::size_t k = 1; k < in.size(); ++k)
        s = elementwise_shape(p, Aval{DType::u32, s, false}, in[k]);
      return {Aval{DType::u32, s, false}, Aval{DType::u32, s, false}};
    }
    case PrimKind::shape: {
      const auto& shape = params.get<std::vector<std::int64_t>>("shape");
      const auto& dims = params.get<std::vector<std::int64_t>>("broadcast_dimensions");
      Shape out(shape);
      if (static_cast<int>(dims.size()) != in[0].shape.rank())
        throw ShapeError("broadcast_in_dim: operand " + in[0].str() +
                         " needs one broadcast dimension per axis");
      for (int i = 0; i < in[0].shape.rank(); ++i) {
        const auto d = dims[static_cast<std::size_t>(i)];
        if (d < 0 || d >= out.rank() ||
            (in[0].shape[i] != 1 && in[0].shape[i] != out[static_cast<int>(d)]))
          throw ShapeError("broadcast_in_dim: cannot broadcast " + in[0].str() + " to " +
                           out.str());
      }
      return {Aval{in[0].dtype, out, in[0].weak}};
    }
    case PrimKind::index_map: {
      const Aval& a = in[0];
      Shape out;
      if (p == Prim::transpose) {
        const auto& perm = params.get<std::vector<std::int64_t>>("permutation");
        std::vector<bool> seen(static_cast<std::size_t>(a.shape.rank()), false);
        if (static_cast<int>(perm.size()) != a.shape.rank())
          throw ShapeError("transpose: permutation " + tuple_str(perm) + " has " +
                           std::to_string(perm.size()) + " axes but " + a.str() + " has " +
                           std::to_string(a.shape.rank()));
        for (auto d : perm) {
          if (d < 0 || d >= a.shape.rank() || seen[static_cast<std::size_t>(d)])
            throw ShapeError("transpose: " + tuple_str(perm) +
                             " is not a permutation of the axes of " + a.str());
          seen[static_cast<std::size_t>(d)] = true;
          out.push_back(a.shape[static_cast<int>(d)]);
        }
      } else if (p == Prim::slice) {
        const auto& start = params.get<std::vector<std::int64_t>>("start_indices");
        const auto& limit = params.get<std::vector<std::int64_t>>("limit_indices");
        const auto steps = slice_strides(params, a.shape.rank());
        if (static_cast<int>(start.size()) != a.shape.rank() ||
            static_cast<int>(limit.size()) != a.shape.rank())
          throw ShapeError("slice: bounds " + tuple_str(start) + " to " + tuple_str(limit) +
                           " for " + a.str());
        for (int d = 0; d < a.shape.rank(); ++d) {
          const auto b = start[static_cast<std::size_t>(d)], e = limit[static_cast<std::size_t>(d)],
                     st = steps[static_cast<std::size_t>(d)];
          if (b < 0 || e < b || e > a.shape[d] || st < 1)
            throw ShapeError("slice: bounds " + tuple_str(start) + " to " + tuple_str(limit) +
                             " are out of range for " + a.str());
          out.push_back((e - b + st - 1) / st);
        }
      } else if (p == Prim::rev) {
        const auto& dims = params.get<std::vector<std::int64_t>>("dimensions");
        std::vector<bool> seen(static_cast<std::size_t>(a.shape.rank()), false);
        for (auto d : dims) {
          if (d < 0 || d >= a.shape.rank() || seen[static_cast<std::size_t>(d)])
            throw ShapeError("rev: dimensions " + tuple_str(dims) +
                             " are out of range or repeated for " + a.str());
          seen[static_cast<std::size_t>(d)] = true;
        }
        out = a.shape;
      } else if (p == Prim::squeeze) {
        const auto& dims = params.get<std::vector<std::int64_t>>("dimensions");
        for (auto d : dims)
          if (d < 0 || d >= a.shape.rank() || a.shape[static_cast<int>(d)] != 1)
            throw ShapeError("squeeze: cannot squeeze dimensions " + tuple_str(dims) + " of " +
                             a.str() + ": each must exist and have size 1");
        for (int d = 0; d < a.shape.rank(); ++d)
          if (std::find(dims.begin(), dims.end(), d) == dims.end()) out.push_back(a.shape[d]);
        if (out.rank() + static_cast<int>(dims.size()) != a.shape.rank())
          throw ShapeError("squeeze: dimensions " + tuple_str(dims) + " are repeated for " +
                           a.str());
      } else {
        out = Shape(params.get<std::vector<std::int64_t>>("new_sizes"));
        if (out.size() != a.shape.size())
          throw ShapeError("reshape: cannot reshape " + a.str() + " to " + out.str() +
                           ": sizes differ");
      }
      return {Aval{a.dtype, out, a.weak}};
    }
    case PrimKind::reduce: {
      const auto& axes = params.get<std::vector<std::int64_t>>("axes");
      const Aval& a = in[0];
      if ((p == Prim::reduce_and || p == Prim::reduce_or) && is_float(a.dtype))
        throw DTypeError(std::string(pi.name) + ": needs bool or integer operands, got " + a.str());
      if ((p == Prim::reduce_sum || p == Prim::reduce_prod) && a.dtype == DType::bool_)
        throw DTypeError(std::string(pi.name) + ": does not take bool operands, got " + a.str());
      Shape out;
      for (int d = 0; d < a.shape.rank(); ++d) {
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) out.push_back(a.shape[d]);
      }
      for (auto ax : axes)
        if (ax < 0 || ax >= a.shape.rank())
          throw ShapeError(std::string(pi.name) + ": axis " + std::to_string(ax) +
                           " is out of range for " + a.str());
      return {Aval{a.dtype, out, a.weak}};
    }
    case PrimKind::library:
      return library_avals(p, in, params);
    case PrimKind::generator: {
      if (p == Prim::platform_index) return {Aval{DType::i32, Shape{}, false}};  // a branch index
      // iota: the index along `dimension` of an array of `shape`, in `dtype`.
      const DType d = params.get<DType>("dtype");
      const Shape shape(params.get<std::vector<std::int64_t>>("shape"));
      const auto dim = params.get<std::int64_t>("dimension");
      if (d == DType::bool_) throw DTypeError("iota: dtype must be numeric, got bool");
      if (dim < 0 || dim >= shape.rank())
        throw ShapeError("iota: dimension " + std::to_string(dim) + " is out of range for shape " +
                         shape.str());
      return {Aval{d, shape, false}};
    }
    case PrimKind::control:
      return control_avals(p, in, params);
    case PrimKind::callback:
      // Any operands; the results are what the C++ function declared (none for the debug ones).
      return params.get<CallbackPtr>("callback")->results;
  }
  throw ValueError(std::string(pi.name) + ": no shape rule");
}

}  // namespace fj::ir
