// lax control flow on concrete values, shared by the backends (implementation unit only): each
// backend compiles the sub-graphs of a cond / while / scan equation its own way and passes
// `run_sub(k, inputs)`, which runs sub-graph k (cond: branch k; while: 0 = cond_jaxpr,
// 1 = body_jaxpr; scan: 0 = jaxpr). Both backends thus loop, index and stack identically.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "fusejit/backend/backend.hpp"

namespace fj::backend {

/// The sub-graphs of a control equation, in the order run_control's `run_sub` numbers them.
inline std::vector<ir::GraphPtr> control_subgraphs(const ir::Eqn& e) {
  switch (e.prim) {
    case ir::Prim::cond:
      return e.params.get<std::vector<ir::GraphPtr>>("branches");
    case ir::Prim::while_:
      return {e.params.get<ir::GraphPtr>("cond_jaxpr"), e.params.get<ir::GraphPtr>("body_jaxpr")};
    case ir::Prim::scan:
      return {e.params.get<ir::GraphPtr>("jaxpr")};
    default:
      throw ValueError("run_control: " + std::string(ir::name(e.prim)) + " is not lax control");
  }
}

namespace control_detail {
inline std::size_t bytes_of(const ir::Aval& a) {
  return static_cast<std::size_t>(a.shape.size()) * size_of(a.dtype);
}
}  // namespace control_detail

/// How run_control reads and moves the memory of the values it handles: host memory here; the
/// CUDA backend passes one that copies predicates to the host and rows on its stream.
struct HostMemory {
  static std::int64_t read_index(const Value& v) {
    std::int32_t i = 0;
    std::memcpy(&i, v.buf->data, sizeof i);
    return i;
  }
  static bool read_bool(const Value& v) { return *static_cast<const bool*>(v.buf->data); }
  // `bytes` of `v` from byte `offset` on, as a buffer that keeps v's alive.
  static runtime::BufferPtr view(const Value& v, std::size_t offset, std::size_t bytes) {
    return runtime::wrap(static_cast<char*>(v.buf->data) + offset, bytes, v.buf);
  }
  static runtime::BufferPtr allocate(std::size_t bytes) { return runtime::allocate(bytes); }
  static void copy(const runtime::Buffer& dst, std::size_t offset, const runtime::Buffer& src,
                   std::size_t bytes) {
    std::memcpy(static_cast<char*>(dst.data) + offset, src.data, bytes);
  }
};

/// Runs control equation `e` on `in` (one Value per operand) and returns its results, typed as
/// `out_avals`. Sub-graph results are passed on without copies; scan copies each y into its
/// stacked output and passes each x as a view of its xs row.
template <class RunSub, class Memory = HostMemory>
std::vector<Value> run_control(const ir::Eqn& e, std::span<const Value> in,
                               const std::vector<ir::Aval>& out_avals, RunSub&& run_sub,
                               Memory&& mem = Memory{}) {
  using namespace control_detail;
  auto finish = [&](std::vector<Value> outs) {
    for (std::size_t i = 0; i < outs.size() && i < out_avals.size(); ++i)
      outs[i].aval = out_avals[i];
    return outs;
  };
  switch (e.prim) {
    case ir::Prim::cond: {
      const auto n =
          static_cast<std::int64_t>(e.params.get<std::vector<ir::GraphPtr>>("branches").size());
      // XLA's Conditional clamps an out-of-range index to the last branch; so do we, both ways.
      const std::int64_t k = std::clamp<std::int64_t>(mem.read_index(in[0]), 0, n - 1);
      return finish(run_sub(static_cast<std::size_t>(k), in.subspan(1)));
    }
    case ir::Prim::while_: {
      const auto cn = static_cast<std::size_t>(e.params.get<std::int64_t>("cond_nconsts"));
      const auto bn = static_cast<std::size_t>(e.params.get<std::int64_t>("body_nconsts"));
      const std::size_t nc = in.size() - cn - bn;
      // Two argument vectors, consts in front, the carry refreshed in place each iteration.
      std::vector<Value> cargs(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(cn));
      std::vector<Value> bargs(in.begin() + static_cast<std::ptrdiff_t>(cn), in.end());
      cargs.insert(cargs.end(), in.begin() + static_cast<std::ptrdiff_t>(cn + bn), in.end());
      for (;;) {
        std::vector<Value> p = run_sub(0, std::span<const Value>(cargs));
        if (!mem.read_bool(p.at(0))) break;
        std::vector<Value> next = run_sub(1, std::span<const Value>(bargs));
        for (std::size_t i = 0; i < nc; ++i) {
          cargs[cn + i] = next[i];
          bargs[bn + i] = std::move(next[i]);
        }
      }
      return finish(
          std::vector<Value>(bargs.begin() + static_cast<std::ptrdiff_t>(bn), bargs.end()));
    }
    case ir::Prim::scan: {
      const auto n_consts = static_cast<std::size_t>(e.params.get<std::int64_t>("num_consts"));
      const auto n_carry = static_cast<std::size_t>(e.params.get<std::int64_t>("num_carry"));
      const std::int64_t length = e.params.get<std::int64_t>("length");
      const bool reverse = e.params.get<bool>("reverse");
      const std::size_t first_x = n_consts + n_carry, n_xs = in.size() - first_x;
      std::vector<Value> args(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(first_x));
      // Each x: a view of one row of its xs, typed as the row.
      std::vector<ir::Aval> x_avals;
      std::vector<std::size_t> x_bytes;
      for (std::size_t j = 0; j < n_xs; ++j) {
        const ir::Aval& xs = in[first_x + j].aval;
        ir::Aval x{xs.dtype, {}, xs.weak};
        for (int d = 1; d < xs.shape.rank(); ++d) x.shape.push_back(xs.shape[d]);
        x_avals.push_back(x);
        x_bytes.push_back(bytes_of(x));
        args.push_back({});
      }
      std::vector<Value> ys;
      std::vector<std::size_t> y_bytes;
      for (std::size_t i = n_carry; i < out_avals.size(); ++i) {
        ys.push_back({mem.allocate(bytes_of(out_avals[i])), out_avals[i]});
        y_bytes.push_back(length ? bytes_of(out_avals[i]) / static_cast<std::size_t>(length) : 0);
      }
      for (std::int64_t it = 0; it < length; ++it) {
        const std::int64_t row = reverse ? length - 1 - it : it;
        for (std::size_t j = 0; j < n_xs; ++j) {
          const Value& xs = in[first_x + j];
          const std::size_t off = static_cast<std::size_t>(row) * x_bytes[j];
          args[first_x + j] = {mem.view(xs, off, x_bytes[j]), x_avals[j]};
        }
        std::vector<Value> outs = run_sub(0, std::span<const Value>(args));
        for (std::size_t i = 0; i < n_carry; ++i) args[n_consts + i] = std::move(outs[i]);
        for (std::size_t k = 0; k < ys.size(); ++k)
          if (y_bytes[k])
            mem.copy(*ys[k].buf, static_cast<std::size_t>(row) * y_bytes[k], *outs[n_carry + k].buf,
                     y_bytes[k]);
      }
      std::vector<Value> result(args.begin() + static_cast<std::ptrdiff_t>(n_consts),
                                args.begin() + static_cast<std::ptrdiff_t>(first_x));
      for (auto& y : ys) result.push_back(std::move(y));
      return finish(std::move(result));
    }
    default:
      break;
  }
  throw ValueError("run_control: " + std::string(ir::name(e.prim)) + " is not lax control");
}

}  // namespace fj::backend
