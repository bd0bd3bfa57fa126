// CUDA C++ source for one fused kernel, generated from its plan (backend/kernel_plan.hpp): the
// GPU half of "one expression, fused on either device". NVRTC compiles it (nvrtc.hpp).
#pragma once
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fusejit/backend/cuda/kernel_math.hpp"
#include "fusejit/backend/cuda/kernel_prelude.hpp"
#include "fusejit/backend/kernel_plan.hpp"
#include "fusejit/ir/integer_pow.hpp"
#include "fusejit/ir/threefry.hpp"

namespace fj::backend::cuda {

using kernel::Node;
using kernel::Plan;

/// Threads per block. A reduction's tree has this fixed shape, so its result does not depend on
/// how the kernel is launched.
inline constexpr int kThreadsPerBlock = 256;

/// Points each thread handles per loop trip. Their loads are all issued before any is used, so
/// each warp has this many loads in flight: one at a time leaves an H200 latency-bound at about
/// 70% of its copy bandwidth (bench/gpu.cpp, selu at 64M).
inline constexpr int kPointsPerTrip = 4;

/// The kernel's one parameter, passed by value (no device memory for parameters):
///   struct { void* buf[inputs + outputs (+1: a reduction's partials)];
///            long long i[...]; long long s[...]; long long n; }
/// `i` has the LLVM backend's layout (llvm_backend.cpp, make_launch): the iteration extents,
/// each load's stride per iteration dim then its base, each iota's step and offset, and for a
/// reduction (points reduced per output, blocks per output, points per block). `s` holds the
/// constants, one 8-byte slot each (a double's bits for floats). `n` is the number of points
/// (elementwise) or of work items, (output, block) pairs (reduction).
struct ParamLayout {
  int buffers = 0, iparams = 0, scalars = 0;
};

inline ParamLayout param_layout(const Plan& p) {
  ParamLayout l;
  l.buffers = p.num_inputs + static_cast<int>(p.outputs.size()) + (p.reduction ? 1 : 0);
  l.iparams = p.rank + (p.rank + 1) * static_cast<int>(p.loads.size()) +
              2 * static_cast<int>(p.iotas.size()) + (p.reduction ? 3 : 0);
  l.scalars = static_cast<int>(p.literals.size());
  return l;
}

/// C type of a dtype in registers and in memory (bools are one byte in memory, as on the host).
inline const char* c_type(DType d) {
  switch (d) {
    case DType::bool_:
      return "bool";
    case DType::i32:
      return "int";
    case DType::u32:
      return "unsigned";
    case DType::i64:
      return "long long";
    case DType::f32:
      return "float";
    case DType::f64:
      break;
  }
  return "double";
}
inline const char* memory_type(DType d) { return d == DType::bool_ ? "unsigned char" : c_type(d); }

class KernelSource {
 public:
  KernelSource(const Plan& plan, std::string name) : p_(plan), name_(std::move(name)) {}

  std::string build() {
    const ParamLayout l = param_layout(p_);
    std::ostringstream os;
    os << "// fusejit kernel " << name_ << "\n";
    os << "struct " << name_ << "_params {\n  void* buf[" << l.buffers << "];\n  long long i["
       << std::max(l.iparams, 1) << "];\n  long long s[" << std::max(l.scalars, 1)
       << "];\n  long long n;\n};\n\n";
    os << "extern \"C\" __global__ void __launch_bounds__(" << kThreadsPerBlock << ") " << name_
       << "(const " << name_ << "_params P) {\n";
    emit_constants(os);
    if (p_.reduction)
      emit_reduction(os);
    else
      emit_elementwise(os);
    os << "}\n";
    if (p_.reduction) emit_combine(os);
    return os.str();
  }

 private:
  // Index of the first iparam of load li (its strides, then its base) and of iota ii.
  int load_param(std::size_t li) const { return p_.rank + (p_.rank + 1) * static_cast<int>(li); }
  int iota_param(std::size_t ii) const {
    return p_.rank + (p_.rank + 1) * static_cast<int>(p_.loads.size()) + 2 * static_cast<int>(ii);
  }
  int reduction_param() const { return iota_param(p_.iotas.size()); }

  // A node's value at sub-point `sub_` of the loop trip (kPointsPerTrip of them).
  std::string var(int id) const { return "v" + std::to_string(id) + "_" + std::to_string(sub_); }
  std::string index(int k) const { return "i" + std::to_string(k) + "_" + std::to_string(sub_); }

  void emit_constants(std::ostringstream& os) const {
    for (std::size_t s = 0; s < p_.literals.size(); ++s) {
      const DType d = p_.literals[s].dtype;
      os << "  const " << c_type(d) << " c" << s << " = ";
      if (is_float(d))
        os << "(" << c_type(d) << ")__longlong_as_double(P.s[" << s << "]);\n";
      else if (d == DType::bool_)
        os << "P.s[" << s << "] != 0;\n";
      else
        os << "(" << c_type(d) << ")P.s[" << s << "];\n";
    }
  }

  // The iteration indices of flat point `point` (row-major over the extents), for sub-point sub_.
  void emit_indices(std::ostringstream& os, const std::string& point) const {
    const std::string rest = "rest_" + std::to_string(sub_);
    os << "    long long " << rest << " = " << point << ";\n";
    for (int k = p_.rank - 1; k >= 0; --k) {
      os << "    const long long " << index(k) << " = ";
      if (k == 0) {
        os << rest << ";\n";
      } else {
        os << rest << " % P.i[" << k << "];\n    " << rest << " /= P.i[" << k << "];\n";
      }
    }
    // Not every kernel reads every index (a broadcast); the casts keep NVRTC quiet.
    os << "    (void)" << rest << ";";
    for (int k = 0; k < p_.rank; ++k) os << " (void)" << index(k) << ";";
    os << "\n";
  }

  // Which nodes emit_nodes writes: the loads (first, for every sub-point, so that they are all in
  // flight together), then the rest.
  enum class Phase { loads, compute };

  // The nodes of `phase` at sub-point sub_, as `const T vN_u = ...;` lines.
  void emit_nodes(std::ostringstream& os, Phase phase) {
    std::size_t li = 0, ii = 0;
    for (std::size_t id = 0; id < p_.nodes.size(); ++id) {
      const Node& n = p_.nodes[id];
      const std::string v = var(static_cast<int>(id));
      if ((n.kind == Node::load) != (phase == Phase::loads)) {
        li += n.kind == Node::load;
        ii += n.kind == Node::iota;
        continue;
      }
      switch (n.kind) {
        case Node::load: {
          const int base = load_param(li++);
          std::string at = "P.i[" + std::to_string(base + p_.rank) + "]";
          for (int k = 0; k < p_.rank; ++k)
            at += " + P.i[" + std::to_string(base + k) + "] * " + index(k);
          const std::string ref = "((const " + std::string(memory_type(n.dtype)) + "*)P.buf[" +
                                  std::to_string(n.input) + "])[" + at + "]";
          os << "    const " << c_type(n.dtype) << " " << v << " = "
             << (n.dtype == DType::bool_ ? "(" + ref + " != 0)" : ref) << ";\n";
          break;
        }
        case Node::literal:
          os << "    const " << c_type(n.dtype) << " " << v << " = c" << n.slot << ";\n";
          break;
        case Node::iota: {
          const int at = iota_param(ii++);
          const int it = n.map[0].iter;
          os << "    const " << c_type(n.dtype) << " " << v << " = (" << c_type(n.dtype) << ")(P.i["
             << at + 1 << "]";
          if (it >= 0) os << " + P.i[" << at << "] * " << index(it);
          os << ");\n";
          break;
        }
        case Node::part:
          os << "    const " << c_type(n.dtype) << " " << v << " = " << var(n.args[0]) << "_"
             << n.result << ";\n";
          break;
        case Node::op:
          emit_op(os, n, v);
          break;
        case Node::reduced:
          // Row kernels come from the fusion pass's row groups, which the CUDA generator does
          // not ask for (FuseOptions); a plan holding one is a bug.
          throw CompileError("cuda kernel source: a row kernel's reduced value");
      }
    }
  }

  std::string arg(const Node& n, std::size_t k) const { return var(n.args.at(k)); }
  DType arg_dtype(const Node& n) const {
    return p_.nodes[static_cast<std::size_t>(n.args.at(0))].dtype;
  }

  // A fresh temporary holding `expr`, for the ops written as several statements.
  std::string temp(std::ostringstream& os, DType d, const std::string& expr) {
    const std::string t = "t" + std::to_string(temps_++);
    os << "    const " << c_type(d) << " " << t << " = " << expr << ";\n";
    return t;
  }

  void emit_op(std::ostringstream& os, const Node& n, const std::string& v) {
    using ir::Prim;
    const DType d = n.dtype, from = n.args.empty() ? d : arg_dtype(n);
    if (n.prim == Prim::threefry2x32) {
      // The 20 rounds written once (ir/threefry.hpp), here as one statement per step.
      struct Ops {
        KernelSource& src;
        std::ostringstream& os;
        std::string add(const std::string& a, const std::string& b) {
          return src.temp(os, DType::u32, a + " + " + b);
        }
        std::string xor_(const std::string& a, const std::string& b) {
          return src.temp(os, DType::u32, a + " ^ " + b);
        }
        std::string rotl(const std::string& a, int r) {
          return src.temp(os, DType::u32,
                          "__funnelshift_l(" + a + ", " + a + ", " + std::to_string(r) + ")");
        }
        std::string k(std::uint32_t c) { return std::to_string(c) + "u"; }
      } ops{*this, os};
      const auto [y0, y1] = ir::threefry2x32(arg(n, 0), arg(n, 1), arg(n, 2), arg(n, 3), ops);
      os << "    const unsigned " << v << "_0 = " << y0 << ";\n";
      os << "    const unsigned " << v << "_1 = " << y1 << ";\n";
      return;
    }
    if (n.prim == Prim::integer_pow) {
      // XLA's multiply order (ir/integer_pow.hpp), each product its own statement so that no
      // multiply-add is contracted across them.
      const auto y = n.eqn->params.get<std::int64_t>("y");
      const std::string r = ir::integer_pow_by_squaring(
          arg(n, 0), y,
          [&](const std::string& a, const std::string& b) {
            return temp(os, d,
                        is_float(d) ? "__fmul_rn(" + a + ", " + b + ")"
                                    : "fj_wrap_mul(" + a + ", " + b + ")");
          },
          [&](const std::string& a, const std::string& b) {
            if (!is_float(d))
              throw CompileError("fj cuda backend: integer_pow of an integer to a negative power");
            return temp(os, d, "__fdiv_rn(" + a + ", " + b + ")");
          },
          [&] { return std::string("(") + c_type(d) + ")1"; });
      os << "    const " << c_type(d) << " " << v << " = " << r << ";\n";
      return;
    }
    os << "    const " << c_type(d) << " " << v << " = " << expression(n, from) << ";\n";
  }

  // One C expression per primitive; the semantics match the LLVM lowerings (emit_ops.hpp) and
  // the reference's. Helpers named fj_* are in the prelude (kernel_prelude.hpp).
  std::string expression(const Node& n, DType from) const {
    using ir::Prim;
    const std::string a = n.args.size() > 0 ? arg(n, 0) : "",
                      b = n.args.size() > 1 ? arg(n, 1) : "";
    auto call = [&](const char* f) { return std::string(f) + "(" + a + ")"; };
    auto call2 = [&](const char* f) { return std::string(f) + "(" + a + ", " + b + ")"; };
    switch (n.prim) {
      case Prim::neg:
        return is_float(from) ? "-" + a : call("fj_wrap_neg");
      case Prim::exp:
        return call("fj_exp");
      case Prim::log:
        return call("fj_log");
      case Prim::log1p:
        return call("fj_log1p");
      case Prim::expm1:
        return call("fj_expm1");
      case Prim::sin:
        return call("fj_sin");
      case Prim::cos:
        return call("fj_cos");
      case Prim::tan:
        return call("fj_tan");
      case Prim::tanh:
        return call("fj_tanh");
      case Prim::sqrt:
        return call("fj_sqrt");
      case Prim::rsqrt:
        return call("fj_rsqrt");
      case Prim::logistic:
        return call("fj_logistic");
      case Prim::erf:
        return call("fj_erf");
      case Prim::erf_inv:
        return call("fj_erf_inv");
      case Prim::asin:
      case Prim::acos:
      case Prim::atan:
      case Prim::sinh:
      case Prim::cosh:
      case Prim::asinh:
      case Prim::acosh:
      case Prim::atanh:
      case Prim::cbrt:
      case Prim::exp2:
      case Prim::erfc:
      case Prim::lgamma:
      case Prim::digamma:
      case Prim::bessel_i0e:
      case Prim::bessel_i1e:
      case Prim::is_finite:
      case Prim::population_count:
      case Prim::clz:
        return call(("fj_" + std::string(ir::name(n.prim))).c_str());
      case Prim::square:
        return is_float(from) ? a + " * " + a : "fj_wrap_mul(" + a + ", " + a + ")";
      case Prim::atan2:
        return call2("fj_atan2");
      case Prim::nextafter:
        return call2("fj_nextafter");
      case Prim::polygamma:
        return call2("fj_polygamma");
      case Prim::zeta:
        return call2("fj_zeta");
      case Prim::igamma:
        return call2("fj_igamma");
      case Prim::igammac:
        return call2("fj_igammac");
      case Prim::igamma_grad_a:
        return call2("fj_igamma_grad_a");
      case Prim::random_gamma_grad:
        return call2("fj_random_gamma_grad");
      case Prim::abs:
        return call("fj_abs");
      case Prim::sign:
        return call("fj_sign");
      case Prim::floor:
        return call("fj_floor");
      case Prim::ceil:
        return call("fj_ceil");
      case Prim::round: {
        const auto* m = n.eqn->params.find("rounding_method");
        const bool to_even = m && std::get<std::int64_t>(*m) == 1;
        return call(to_even ? "fj_round_even" : "fj_round_away");
      }
      case Prim::stop_gradient:
      case Prim::copy:
      case Prim::checkpoint_name:
        return a;
      case Prim::add:
      case Prim::add_any:
        return is_float(from) ? a + " + " + b : call2("fj_wrap_add");
      case Prim::sub:
        return is_float(from) ? a + " - " + b : call2("fj_wrap_sub");
      case Prim::mul:
        return is_float(from) ? a + " * " + b : call2("fj_wrap_mul");
      case Prim::div:
        return is_float(from) ? a + " / " + b : call2("fj_idiv");
      case Prim::rem:
        return is_float(from) ? call2("fj_fmod") : call2("fj_irem");
      case Prim::pow:
        return call2("fj_pow");
      case Prim::max:
        return call2("fj_max");
      case Prim::min:
        return call2("fj_min");
      case Prim::shift_left:
        return call2("fj_shift_left");
      case Prim::shift_right_arithmetic:
        return call2("fj_shift_right_arithmetic");
      case Prim::shift_right_logical:
        return call2("fj_shift_right_logical");
      case Prim::lt:
        return a + " < " + b;
      case Prim::le:
        return a + " <= " + b;
      case Prim::gt:
        return a + " > " + b;
      case Prim::ge:
        return a + " >= " + b;
      case Prim::eq:
        return a + " == " + b;
      case Prim::ne:
        return a + " != " + b;  // true for NaN, as FCMP_UNE
      case Prim::and_:
        return from == DType::bool_ ? a + " && " + b : a + " & " + b;
      case Prim::or_:
        return from == DType::bool_ ? a + " || " + b : a + " | " + b;
      case Prim::xor_:
        return from == DType::bool_ ? a + " != " + b : a + " ^ " + b;
      case Prim::not_:
        return from == DType::bool_ ? "!" + a : "~" + a;
      case Prim::select_n:
        return a + " ? " + arg(n, 2) + " : " + b;
      case Prim::clamp:
        return "fj_min(fj_max(" + b + ", " + a + "), " + arg(n, 2) + ")";
      case Prim::convert_element_type:
        return "fj_convert<" + std::string(c_type(n.dtype)) + ">(" + a + ")";
      case Prim::bitcast_convert_type:
        return "fj_bitcast<" + std::string(c_type(n.dtype)) + ">(" + a + ")";
      default:
        break;
    }
    throw CompileError("fj cuda backend: " + std::string(ir::name(n.prim)) +
                       " reached kernel code generation");
  }

  // Sub-point u of a trip is point t + u * step, clamped to `last` so that every load stays in
  // bounds; the caller guards what a clamped sub-point would write. Emits its indices, then
  // every sub-point's loads, then every sub-point's other nodes.
  void emit_trip(std::ostringstream& os, const std::string& point, const std::string& step,
                 const std::string& last) {
    for (sub_ = 0; sub_ < kPointsPerTrip; ++sub_) {
      const std::string at = point + " + " + std::to_string(sub_) + " * " + step;
      emit_indices(os,
                   sub_ == 0 ? point : "(" + at + " < " + last + " ? " + at + " : " + last + ")");
    }
    for (sub_ = 0; sub_ < kPointsPerTrip; ++sub_) emit_nodes(os, Phase::loads);
    for (sub_ = 0; sub_ < kPointsPerTrip; ++sub_) emit_nodes(os, Phase::compute);
  }

  void emit_elementwise(std::ostringstream& os) {
    os << "  const long long stride = (long long)gridDim.x * blockDim.x;\n";
    os << "  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < P.n; t += "
       << kPointsPerTrip << " * stride) {\n";
    emit_trip(os, "t", "stride", "P.n - 1");
    for (sub_ = 0; sub_ < kPointsPerTrip; ++sub_) {
      const std::string at = "t + " + std::to_string(sub_) + " * stride";
      if (sub_ > 0) os << "    if (" << at << " < P.n) {\n";
      for (std::size_t o = 0; o < p_.outputs.size(); ++o) {
        const DType d = p_.output_dtypes[o];
        os << "    ((" << memory_type(d) << "*)P.buf[" << p_.num_inputs + static_cast<int>(o)
           << "])[" << at << "] = (" << memory_type(d) << ")" << var(p_.outputs[o]) << ";\n";
      }
      if (sub_ > 0) os << "    }\n";
    }
    os << "  }\n";
  }

  // The combine step of the reduction, and its identity.
  std::string combine(const std::string& acc, const std::string& x) const {
    using ir::Prim;
    const DType d = p_.output_dtypes[0];
    switch (p_.reduce) {
      case Prim::reduce_sum:
        return is_float(d) ? acc + " + " + x : "fj_wrap_add(" + acc + ", " + x + ")";
      case Prim::reduce_prod:
        return is_float(d) ? acc + " * " + x : "fj_wrap_mul(" + acc + ", " + x + ")";
      case Prim::reduce_max:
        return "fj_max(" + acc + ", " + x + ")";
      case Prim::reduce_min:
        return "fj_min(" + acc + ", " + x + ")";
      case Prim::reduce_and:
        return d == DType::bool_ ? acc + " && " + x : acc + " & " + x;
      case Prim::reduce_or:
        return d == DType::bool_ ? acc + " || " + x : acc + " | " + x;
      default:
        break;
    }
    throw CompileError("fj cuda backend: unknown reduction " + std::string(ir::name(p_.reduce)));
  }
  std::string identity() const {
    const std::string t = c_type(p_.output_dtypes[0]);
    switch (p_.reduce) {
      case ir::Prim::reduce_sum:
      case ir::Prim::reduce_or:
        return "(" + t + ")0";
      case ir::Prim::reduce_prod:
        return "(" + t + ")1";
      case ir::Prim::reduce_max:
        return "fj_lowest<" + t + ">()";
      case ir::Prim::reduce_min:
        return "fj_highest<" + t + ">()";
      default:
        return "(" + t + ")~0ull";  // reduce_and: all bits set (true for bool)
    }
  }

  // Block b reduces work item b (output b / nblocks, points [lo, hi) of it): each thread folds
  // its strided share in order, then a shared-memory tree of fixed shape combines the threads.
  // The partials go to buf[inputs + 1], and the combine kernel folds them in block order: no
  // atomics, the same result on every run.
  void emit_reduction(std::ostringstream& os) {
    const DType d = p_.output_dtypes[0];
    const std::string t = c_type(d);
    const int r = reduction_param();
    os << "  __shared__ " << t << " lane[" << kThreadsPerBlock << "];\n";
    os << "  const long long red_size = P.i[" << r << "], nblocks = P.i[" << r + 1
       << "], block = P.i[" << r + 2 << "];\n";
    os << "  for (long long w = blockIdx.x; w < P.n; w += gridDim.x) {\n";
    os << "  const long long out = w / nblocks, lo = (w % nblocks) * block;\n";
    os << "  const long long hi = lo + block < red_size ? lo + block : red_size;\n";
    os << "  " << t << " acc = " << identity() << ";\n";
    // Each thread folds points q, q + 256, q + 512, ... in that order, kPointsPerTrip a trip.
    os << "  for (long long q = lo + threadIdx.x; q < hi; q += " << kPointsPerTrip << " * "
       << kThreadsPerBlock << ") {\n";
    const std::string step = std::to_string(kThreadsPerBlock);
    emit_trip(os, "out * red_size + q", step, "out * red_size + hi - 1");
    for (sub_ = 0; sub_ < kPointsPerTrip; ++sub_) {
      const std::string folded = combine("acc", var(p_.outputs[0]));
      if (sub_ == 0)
        os << "    acc = " << folded << ";\n";
      else
        os << "    if (q + " << sub_ * kThreadsPerBlock << " < hi) acc = " << folded << ";\n";
    }
    os << "  }\n";
    emit_block_tree(os, "acc",
                    "((" + std::string(memory_type(d)) + "*)P.buf[" +
                        std::to_string(p_.num_inputs + 1) + "])[w]");
    os << "  }\n";
  }

  // Combines the block's 256 values of `acc` and has thread 0 store the result to `dest`, by a
  // tree of fixed shape: at each step thread i < half takes lane i (+) lane i + half. Steps of
  // 128, 64 and 32 go through shared memory, the last five through warp shuffles, which pair
  // the same lanes (so the arithmetic is the same as a shared-memory tree all the way down).
  void emit_block_tree(std::ostringstream& os, const std::string& acc,
                       const std::string& dest) const {
    const std::string m = memory_type(p_.output_dtypes[0]);
    os << "  lane[threadIdx.x] = " << acc << ";\n  __syncthreads();\n";
    os << "  for (int half = " << kThreadsPerBlock / 2 << "; half >= 32; half >>= 1) {\n";
    os << "    if (threadIdx.x < half) lane[threadIdx.x] = "
       << combine("lane[threadIdx.x]", "lane[threadIdx.x + half]") << ";\n";
    os << "    __syncthreads();\n  }\n";
    os << "  if (threadIdx.x < 32) {\n";
    os << "    " << c_type(p_.output_dtypes[0]) << " warp = lane[threadIdx.x];\n";
    os << "    for (int half = 16; half > 0; half >>= 1) warp = "
       << combine("warp", "fj_shfl_down(warp, half)") << ";\n";
    os << "    if (threadIdx.x == 0) " << dest << " = (" << m << ")warp;\n  }\n";
    os << "  __syncthreads();\n";
  }

  // <name>_combine: output o = the fold of its nblocks partials, by one CUDA block per output:
  // each thread folds partials tid, tid + 256, ... in order, then the same fixed tree as above
  // combines the threads. The shape of the fold depends on nblocks alone, never on the launch.
  void emit_combine(std::ostringstream& os) const {
    const DType d = p_.output_dtypes[0];
    const std::string t = c_type(d), m = memory_type(d);
    const int r = reduction_param();
    os << "\nextern \"C\" __global__ void __launch_bounds__(" << kThreadsPerBlock << ") " << name_
       << "_combine(const " << name_ << "_params P) {\n";
    os << "  __shared__ " << t << " lane[" << kThreadsPerBlock << "];\n";
    os << "  const long long nblocks = P.i[" << r + 1 << "], outputs = P.n / nblocks;\n";
    os << "  const " << m << "* partial = (const " << m << "*)P.buf[" << p_.num_inputs + 1
       << "];\n";
    os << "  for (long long o = blockIdx.x; o < outputs; o += gridDim.x) {\n";
    os << "    " << t << " acc = " << identity() << ";\n";
    os << "    for (long long k = threadIdx.x; k < nblocks; k += " << kThreadsPerBlock
       << ") acc = " << combine("acc", "(" + t + ")partial[o * nblocks + k]") << ";\n";
    emit_block_tree(os, "acc", "((" + m + "*)P.buf[" + std::to_string(p_.num_inputs) + "])[o]");
    os << "  }\n}\n";
  }

  const Plan& p_;
  std::string name_;
  int temps_ = 0;
  int sub_ = 0;  // the sub-point of the loop trip being emitted
};

/// The CUDA C++ of one fused kernel named `name` (a C identifier), without the prelude.
inline std::string kernel_source(const Plan& plan, const std::string& name) {
  return KernelSource(plan, name).build();
}

/// One NVRTC compilation unit: the prelude once, the transcendentals the kernels call, then the
/// kernels.
inline std::string module_source(const std::vector<std::string>& kernels) {
  std::string body;
  for (const std::string& k : kernels) body += "\n" + k;
  return kernel_prelude() + kernel_math(body) + body;
}

}  // namespace fj::backend::cuda
