// The run-time parameters of one fused kernel, from its plan and extents: what the LLVM and the
// CUDA backends pass to the kernels they generate from the same plan (kernel_plan.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "fusejit/backend/kernel_plan.hpp"

namespace fj::backend::kernel {

// Reductions split each output's range into blocks of this many points, then combine the
// blocks: on the CPU each block is reduced in vector lanes (accurate f32 sums: each lane adds
// 4096/lanes terms) and the blocks pairwise; on a GPU each block is one CUDA block's work item.
// Parallel work even for one output, and fixed boundaries, so that results do not depend on the
// number of threads.
inline constexpr std::int64_t kReduceBlock = std::int64_t{1} << 12;

/// Everything a kernel's launch needs besides its buffers.
struct LaunchParams {
  std::vector<ir::Aval> out_avals;
  std::vector<std::int64_t> iparams;  // extents, each load's strides, each iota's step/offset
  std::vector<std::int64_t> scalars;  // constants, one 8-byte slot each
  std::int64_t size = 0;              // work items: points, or (output, block) pairs
  std::int64_t nblocks = 1;           // reductions: partials per output
  std::int64_t work_per_item = 1;     // points one work item visits
  ir::Prim reduce = ir::Prim::fused;  // the reduction, when this launch is one
  // Per load: the kernel input it reads, and whether it reads it at the iteration point itself
  // (row-major, same shape), which makes the kernel a valid epilogue for that input's producer.
  std::vector<std::pair<int, bool>> load_reads;
};

/// The parameters of `plan`, the plan of fused sub-graph `sub`.
inline LaunchParams launch_params(const Plan& plan, const ir::Graph& sub) {
  LaunchParams l;
  for (auto& o : sub.outvars) l.out_avals.push_back(sub.aval(o));
  // The iteration space: the outputs' shape, or a reduction operand's in kept-then-reduced order.
  Shape space;
  std::int64_t row_size = 0;
  if (plan.rows) {
    // A row kernel iterates over its reductions' operand shape, a row per work item.
    const auto red = std::find_if(sub.eqns.begin(), sub.eqns.end(), [](const ir::Eqn& q) {
      return ir::info(q.prim).kind == ir::PrimKind::reduce;
    });
    space = sub.aval(red->in[0]).shape;
    row_size = 1;
    for (int d = plan.outer_rank; d < space.rank(); ++d) row_size *= space[d];
  } else if (plan.reduction) {
    const ir::Eqn& red = sub.eqns.back();
    const Shape& operand = sub.aval(red.in[0]).shape;
    for (int d : plan.order) space.push_back(operand[d]);
    l.reduce = plan.reduce;
  } else {
    for (int d : plan.space_dims) space.push_back(l.out_avals.at(0).shape[d]);
  }
  for (int k = 0; k < plan.rank; ++k) l.iparams.push_back(k < space.rank() ? space[k] : 1);
  // Each load: its stride along every iteration dim, then its base offset (slices start there).
  for (int id : plan.loads) {
    const Node& n = plan.nodes[static_cast<std::size_t>(id)];
    const auto st = row_major_strides(n.view);
    std::vector<std::int64_t> strides(static_cast<std::size_t>(plan.rank), 0);
    std::int64_t base = 0;
    for (std::size_t d = 0; d < n.map.size(); ++d) {
      if (n.map[d].iter >= 0)
        strides[static_cast<std::size_t>(n.map[d].iter)] += n.map[d].step * st[d];
      base += n.map[d].offset * st[d];
    }
    l.iparams.insert(l.iparams.end(), strides.begin(), strides.end());
    l.iparams.push_back(base);
    // At the point: the output's own shape, each iterated dim at the output's stride.
    const Shape& out_shape = l.out_avals.at(0).shape;
    const auto out_st = row_major_strides(out_shape);
    bool at_point = !plan.reduction && !plan.rows && n.view == out_shape && base == 0;
    for (int k = 0; at_point && k < space.rank(); ++k)
      at_point = strides[static_cast<std::size_t>(k)] ==
                 out_st[static_cast<std::size_t>(plan.space_dims[static_cast<std::size_t>(k)])];
    l.load_reads.emplace_back(n.input, at_point);
  }
  // Each iota: offset + step * i[iter], or the offset alone when no iteration dim drives it.
  for (int id : plan.iotas) {
    const Dim& d = plan.nodes[static_cast<std::size_t>(id)].map[0];
    l.iparams.insert(l.iparams.end(), {d.iter >= 0 ? d.step : 0, d.offset});
  }
  if (plan.rows) {
    l.iparams.push_back(row_size);
    l.size = row_size == 0 ? 0 : space.size() / row_size;
    l.work_per_item = std::max<std::int64_t>(row_size, 1);
  } else if (plan.reduction) {
    const std::int64_t out_size = l.out_avals[0].shape.size();
    const std::int64_t red_size = out_size == 0 ? 0 : space.size() / out_size;
    l.nblocks = red_size > kReduceBlock ? (red_size + kReduceBlock - 1) / kReduceBlock : 1;
    l.iparams.insert(
        l.iparams.end(),
        {red_size, l.nblocks, l.nblocks > 1 ? kReduceBlock : std::max<std::int64_t>(red_size, 1)});
    l.size = out_size * l.nblocks;
    l.work_per_item = l.nblocks > 1 ? kReduceBlock : std::max<std::int64_t>(red_size, 1);
  } else {
    l.size = space.size();
  }
  for (const ir::Literal& lit : plan.literals) {
    std::int64_t slot = lit.i;
    if (is_float(lit.dtype)) std::memcpy(&slot, &lit.f, sizeof slot);
    l.scalars.push_back(slot);
  }
  return l;
}

}  // namespace fj::backend::kernel
