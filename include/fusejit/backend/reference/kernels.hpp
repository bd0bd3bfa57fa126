// Per-equation kernels and their resolution, at compile time, from primitive and dtypes.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/backend/backend.hpp"
#include "fusejit/backend/reference/elementwise.hpp"
#include "fusejit/backend/reference/generators.hpp"
#include "fusejit/backend/reference/ops.hpp"
#include "fusejit/backend/reference/index_maps.hpp"
#include "fusejit/backend/reference/reductions.hpp"
#include "fusejit/backend/reference/library_ops.hpp"
#include "fusejit/backend/reference/resolve.hpp"

namespace fj::detail::reference {

using backend::Value;

template <class T>
const T* data_of(const Value& v) {
  return static_cast<const T*>(v.buf->data);
}
template <class T>
T* data_of(Value& v) {
  return static_cast<T*>(v.buf->data);
}

template <class Op>
Op make_op(const ir::Params& params) {
  if constexpr (std::is_constructible_v<Op, const ir::Params&>)
    return Op(params);
  else
    return Op{};
}

template <class Op, class T>
inline constexpr bool use_simd = (std::is_floating_point_v<T> && Op::template vectorized<T>);

template <class Op, class T>
void run_map(const ir::Eqn& eqn, const Value* in, Value* out) {
  using Out = typename Op::template result<T>;
  const Op op = make_op<Op>(eqn.params);
  const Shape& shape = out[0].aval.shape;
  const auto kernel = [&op](std::int64_t n, Out* o, const auto*... p) {
    if constexpr (use_simd<Op, T>) {
      simd_map<T>(op, n, o, p...);
    } else {
      for (std::int64_t i = 0; i < n; ++i) o[i] = op.template scalar<T>(p[i]...);
    }
  };
  const auto name = ir::name(eqn.prim);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    for_each_chunk(shape, data_of<Out>(out[0]), kernel,
                   broadcast_operand(data_of<T>(in[I]), in[I].aval.shape, shape, name)...);
  }
  (std::make_index_sequence<static_cast<std::size_t>(Op::arity)>{});
}

template <class T>
void run_select(const ir::Eqn&, const Value* in, Value* out) {
  const Shape& shape = out[0].aval.shape;
  const auto kernel = [](std::int64_t n, T* o, const bool* pred, const T* c0, const T* c1) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = pred[i] ? c1[i] : c0[i];
  };
  for_each_chunk(shape, data_of<T>(out[0]), kernel,
                 broadcast_operand(data_of<bool>(in[0]), in[0].aval.shape, shape, "select_n"),
                 broadcast_operand(data_of<T>(in[1]), in[1].aval.shape, shape, "select_n"),
                 broadcast_operand(data_of<T>(in[2]), in[2].aval.shape, shape, "select_n"));
}

// lax.clamp: max with min, then min with max, each NaN-propagating as lax's max and min.
template <class T>
void run_clamp(const ir::Eqn&, const Value* in, Value* out) {
  const Shape& shape = out[0].aval.shape;
  const auto kernel = [](std::int64_t n, T* o, const T* lo, const T* x, const T* hi) {
    for (std::int64_t i = 0; i < n; ++i)
      o[i] = math::min_scalar(math::max_scalar(x[i], lo[i]), hi[i]);
  };
  for_each_chunk(shape, data_of<T>(out[0]), kernel,
                 broadcast_operand(data_of<T>(in[0]), in[0].aval.shape, shape, "clamp"),
                 broadcast_operand(data_of<T>(in[1]), in[1].aval.shape, shape, "clamp"),
                 broadcast_operand(data_of<T>(in[2]), in[2].aval.shape, shape, "clamp"));
}

template <class From, class To>
void run_convert(const ir::Eqn&, const Value* in, Value* out) {
  const Shape& shape = out[0].aval.shape;
  if (!(in[0].aval.shape == shape))
    throw ShapeError("convert_element_type: operand " + in[0].aval.str() + " but output " +
                     out[0].aval.str());
  const auto kernel = [](std::int64_t n, To* o, const From* p) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = ops::convert_element_type::cast<To>(p[i]);
  };
  for_each_chunk(shape, data_of<To>(out[0]), kernel,
                 broadcast_operand(data_of<From>(in[0]), shape, shape, "convert_element_type"));
}

// The same bytes under another dtype of the same width.
template <class From, class To>
void run_bitcast(const ir::Eqn&, const Value* in, Value* out) {
  static_assert(sizeof(From) == sizeof(To));
  const std::int64_t n = out[0].aval.shape.size();
  if (n > 0) std::memcpy(data_of<To>(out[0]), data_of<From>(in[0]), sizeof(To) * std::size_t(n));
}

// threefry2x32 over the broadcast operands, both results at once, in chunks.
inline void run_threefry(const ir::Eqn&, const Value* in, Value* out) {
  const Shape& shape = out[0].aval.shape;
  std::vector<Stream<std::uint32_t>> streams;
  streams.reserve(4);
  for (int k = 0; k < 4; ++k)
    streams.emplace_back(
        broadcast_operand(data_of<std::uint32_t>(in[k]), in[k].aval.shape, shape, "threefry2x32"));
  std::uint32_t* y0 = data_of<std::uint32_t>(out[0]);
  std::uint32_t* y1 = data_of<std::uint32_t>(out[1]);
  const std::int64_t n = shape.size();
  for (std::int64_t s = 0; s < n; s += kChunk) {
    const std::int64_t m = std::min(kChunk, n - s);
    const std::uint32_t* p[4];
    for (std::size_t k = 0; k < 4; ++k) p[k] = streams[k].at(shape, s, m);
    for (std::int64_t i = 0; i < m; ++i)
      ops::threefry2x32::apply(p[0][i], p[1][i], p[2][i], p[3][i], &y0[s + i], &y1[s + i]);
  }
}

template <class T>
void run_broadcast_in_dim(const ir::Eqn& eqn, const Value* in, Value* out) {
  const Shape& shape = out[0].aval.shape;
  const Shape& from = in[0].aval.shape;
  const auto& dims = eqn.params.get<std::vector<std::int64_t>>("broadcast_dimensions");
  // Operand dim i walks output dim dims[i]; output dims it does not map to are broadcast.
  const Strides src = row_major_strides(from);
  Strides st{};
  for (int i = 0; i < from.rank(); ++i) {
    const auto d = dims[static_cast<std::size_t>(i)];
    if (from[i] != 1) st[static_cast<std::size_t>(d)] = src[static_cast<std::size_t>(i)];
  }
  const auto kernel = [](std::int64_t n, T* o, const T* p) { std::copy_n(p, n, o); };
  for_each_chunk(shape, data_of<T>(out[0]), kernel,
                 make_operand(data_of<T>(in[0]), from.size(), shape, st));
}

// ---- resolution --------------------------------------------------------------------------

[[noreturn]] inline void unsupported(ir::Prim p, DType d) {
  throw DTypeError("reference backend: " + std::string(ir::name(p)) + " does not take " +
                   std::string(short_name(d)) + " operands");
}

// kernel(T{})'s function for d's element type T, which must not be bool (the primitive takes
// none).
template <class Kernel>
EqnFn unless_bool(ir::Prim p, DType d, Kernel kernel) {
  return visit_dtype(d, [&](auto t) -> EqnFn {
    if constexpr (std::is_same_v<decltype(t), bool>)
      unsupported(p, d);
    else
      return kernel(t);
  });
}

inline void expect_dtype(const ir::Eqn& e, const char* what, DType got, DType want) {
  if (got != want)
    throw DTypeError("reference backend: " + std::string(ir::name(e.prim)) + ": " + what + " is " +
                     std::string(short_name(got)) + ", expected " + std::string(short_name(want)));
}

template <class Param>
const Param& require_param(const ir::Eqn& e, std::string_view key) {
  const ir::ParamValue* v = e.params.find(key);
  const Param* p = v ? std::get_if<Param>(v) : nullptr;
  if (!p)
    throw ValueError(std::string(ir::name(e.prim)) + ": missing or mistyped param " +
                     std::string(key));
  return *p;
}

// Checks params a kernel reads without further checks, so a malformed graph raises here.
inline void check_broadcast_params(const ir::Graph& g, const ir::Eqn& e) {
  const Shape out(require_param<std::vector<std::int64_t>>(e, "shape"));
  const auto& dims = require_param<std::vector<std::int64_t>>(e, "broadcast_dimensions");
  const Shape& from = g.aval(e.in[0]).shape;
  if (!(g.aval(e.out[0]).shape == out) || static_cast<int>(dims.size()) != from.rank())
    throw ShapeError("broadcast_in_dim: params do not match " + g.aval(e.in[0]).str() + " -> " +
                     g.aval(e.out[0]).str());
  for (int i = 0; i < from.rank(); ++i) {
    const auto d = dims[static_cast<std::size_t>(i)];
    if (d < 0 || d >= out.rank() || (from[i] != 1 && from[i] != out[static_cast<int>(d)]))
      throw ShapeError("broadcast_in_dim: cannot broadcast " + g.aval(e.in[0]).str() + " to " +
                       out.str());
  }
}

/// The kernel for eqn e of graph g; nullptr for a sub-graph call, which the interpreter runs.
template <ir::PrimKind K, class Op>
EqnFn resolve_kind(const ir::Graph& g, const ir::Eqn& e) {
  using ir::PrimKind;
  if constexpr (K == PrimKind::control) {
    static_assert(Op::calls_jaxpr, "a new control primitive needs its own case in the interpreter");
    return nullptr;
  } else if constexpr (K == PrimKind::callback) {
    static_assert(Op::is_library);  // operands and results of any number: no dtype checks here
    return Op::resolve(g, e);
  } else if constexpr (std::is_same_v<Op, ops::platform_index>) {
    expect_dtype(e, "the output", g.aval(e.out[0]).dtype, DType::i32);
    (void)require_param<std::int64_t>(e, "default_index");
    return &run_platform_index;
  } else if constexpr (K == PrimKind::generator) {
    static_assert(Op::is_generator);
    const DType out = g.aval(e.out[0]).dtype;
    expect_dtype(e, "the output", out, require_param<DType>(e, "dtype"));
    const Shape shape(require_param<std::vector<std::int64_t>>(e, "shape"));
    const auto dim = require_param<std::int64_t>(e, "dimension");
    if (!(g.aval(e.out[0]).shape == shape) || dim < 0 || dim >= shape.rank())
      throw ShapeError("iota: params do not match its output " + g.aval(e.out[0]).str());
    return unless_bool(e.prim, out, [](auto t) -> EqnFn { return &run_iota<decltype(t)>; });
  } else if constexpr (K == PrimKind::library) {
    static_assert(Op::is_library);  // the routine checks its own operands (some have none)
    return Op::resolve(g, e);
  } else {
    const DType d0 = g.aval(e.in[0]).dtype;
    const DType out = g.aval(e.out[0]).dtype;
    if constexpr (K == PrimKind::select && std::is_same_v<Op, ops::clamp>) {
      expect_dtype(e, "x", g.aval(e.in[1]).dtype, d0);
      expect_dtype(e, "max", g.aval(e.in[2]).dtype, d0);
      expect_dtype(e, "the output", out, d0);
      return unless_bool(e.prim, out, [](auto t) -> EqnFn { return &run_clamp<decltype(t)>; });
    } else if constexpr (K == PrimKind::select) {
      expect_dtype(e, "the predicate", d0, DType::bool_);
      expect_dtype(e, "case 1", g.aval(e.in[2]).dtype, g.aval(e.in[1]).dtype);
      expect_dtype(e, "the output", out, g.aval(e.in[1]).dtype);
      return visit_dtype(out, [](auto t) -> EqnFn { return &run_select<decltype(t)>; });
    } else if constexpr (K == PrimKind::multi) {
      static_assert(std::is_same_v<Op, ops::threefry2x32>, "a new multi primitive needs a kernel");
      for (const ir::Atom& a : e.in) expect_dtype(e, "an operand", g.aval(a).dtype, DType::u32);
      for (ir::VarId v : e.out) expect_dtype(e, "a result", g.aval(v).dtype, DType::u32);
      return &run_threefry;
    } else if constexpr (K == PrimKind::convert) {
      expect_dtype(e, "the output", out, require_param<DType>(e, "new_dtype"));
      if constexpr (Op::is_bitcast) {
        return visit_dtype(d0, [&](auto from) -> EqnFn {
          return visit_dtype(out, [&](auto to) -> EqnFn {
            using From = decltype(from);
            using To = decltype(to);
            if constexpr (sizeof(From) == sizeof(To) && !std::is_same_v<From, bool> &&
                          !std::is_same_v<To, bool>)
              return &run_bitcast<From, To>;
            else
              throw DTypeError("reference backend: bitcast_convert_type from " +
                               std::string(short_name(d0)) + " to " + std::string(short_name(out)) +
                               ": widths differ");
          });
        });
      }
      return visit_dtype(d0, [&](auto from) -> EqnFn {
        return visit_dtype(
            out, [](auto to) -> EqnFn { return &run_convert<decltype(from), decltype(to)>; });
      });
    } else if constexpr (K == PrimKind::index_map) {
      static_assert(Op::is_index_map);
      expect_dtype(e, "the output", out, d0);
      return visit_dtype(d0, [](auto t) -> EqnFn { return &run_index_map<decltype(t)>; });
    } else if constexpr (K == PrimKind::reduce) {
      static_assert(Op::is_reduction);
      expect_dtype(e, "the output", out, d0);
      (void)require_param<std::vector<std::int64_t>>(e, "axes");
      return visit_dtype(d0, [&](auto t) -> EqnFn {
        using T = decltype(t);
        if constexpr (Op::template accepts<T>)
          return &run_reduce<Op, T>;
        else
          unsupported(e.prim, d0);
      });
    } else if constexpr (K == PrimKind::shape) {
      expect_dtype(e, "the output", out, d0);
      check_broadcast_params(g, e);
      return visit_dtype(d0, [](auto t) -> EqnFn { return &run_broadcast_in_dim<decltype(t)>; });
    } else {
      for (const ir::Atom& a : e.in) expect_dtype(e, "an operand", g.aval(a).dtype, d0);
      (void)make_op<Op>(e.params);  // raises on bad params now rather than at run time
      return visit_dtype(d0, [&](auto t) -> EqnFn {
        using T = decltype(t);
        if constexpr (Op::template accepts<T>) {
          expect_dtype(e, "the output", out, dtype_of_v<typename Op::template result<T>>);
          return &run_map<Op, T>;
        } else {
          unsupported(e.prim, d0);
        }
      });
    }
  }
}

}  // namespace fj::detail::reference
