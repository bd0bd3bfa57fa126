// Definitions of collective_runtime.hpp: the rendezvous, and each collective's combine over the
// operands of every device on the axis (implementation unit only).
#include "fusejit/distributed/collective_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "fusejit/backend/reference/wrapping.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/distributed/blocks.hpp"
#include "fusejit/distributed/process_group.hpp"
#include "fusejit/ir/collective_params.hpp"

namespace fj::distributed::detail {

Rendezvous::Rendezvous(int local_devices)
    : n_(local_devices), in_(static_cast<std::size_t>(local_devices)) {}

bool Rendezvous::barrier(std::unique_lock<std::mutex>& lock, int& count,
                         std::uint64_t& generation) {
  const std::uint64_t mine = generation;
  if (++count == n_) {
    count = 0;
    ++generation;
    cv_.notify_all();
    return true;
  }
  cv_.wait(lock, [&] { return generation != mine || failed_; });
  return generation != mine;
}

void Rendezvous::meet(int local, const backend::Value* in, const Prepare& prepare, const Work& part,
                      const Work& finish, const std::string& who) {
  std::unique_lock lock(m_);
  if (failed_) throw PeerFailure(who + ": " + why_);
  in_[static_cast<std::size_t>(local)] = in;
  if (arrived_ + 1 == n_) {
    try {
      prepare(in_, exchange_);
    } catch (const Error& err) {
      failed_ = true;
      why_ = std::string("failed on device ") + std::to_string(local) + ": " + err.what();
      cv_.notify_all();
      throw;
    }
  }
  if (!barrier(lock, arrived_, arrivals_)) throw PeerFailure(who + ": " + why_);
  // Every device's share at once; nobody leaves before all are done, so every operand stays
  // alive while others read it. Then each reads back its own result.
  lock.unlock();
  part(exchange_);
  lock.lock();
  if (!barrier(lock, finished_, finishes_)) throw PeerFailure(who + ": " + why_);
  lock.unlock();
  finish(exchange_);
}

void Rendezvous::fail(const std::string& why) {
  std::lock_guard lock(m_);
  if (failed_) return;
  failed_ = true;
  why_ = why;
  cv_.notify_all();
}

namespace {

thread_local const DeviceContext* t_device = nullptr;

using ByteSpan = std::vector<const std::byte*>;

std::size_t bytes_of(const ir::Aval& a) {
  return static_cast<std::size_t>(a.shape.size()) * size_of(a.dtype);
}

// Elementwise combine of every device's operand, in device order (so every device, and every
// process, gets the same bits).
template <class T>
void reduce_range(ir::Prim p, const ByteSpan& ins, std::int64_t lo, std::int64_t hi, T* out) {
  std::memcpy(out + lo, reinterpret_cast<const T*>(ins[0]) + lo,
              static_cast<std::size_t>(hi - lo) * sizeof(T));
  for (std::size_t d = 1; d < ins.size(); ++d) {
    const T* x = reinterpret_cast<const T*>(ins[d]);
    for (std::int64_t k = lo; k < hi; ++k) {
      if (p == ir::Prim::psum) {
        if constexpr (std::is_same_v<T, bool>)
          out[k] = out[k] || x[k];
        else if constexpr (std::is_integral_v<T>)
          out[k] = fj::detail::reference::wrap_add(out[k], x[k]);
        else
          out[k] = out[k] + x[k];
      } else {
        // lax.max / lax.min: a NaN on any device is the result.
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(out[k]) || std::isnan(x[k])) {
            out[k] = std::numeric_limits<T>::quiet_NaN();
            continue;
          }
        }
        out[k] =
            p == ir::Prim::pmax ? (x[k] > out[k] ? x[k] : out[k]) : (x[k] < out[k] ? x[k] : out[k]);
      }
    }
  }
}

// Elements [lo, hi) of the reduction of every device's operand, into `out`.
void reduce_part(ir::Prim p, const ir::Aval& a, const ByteSpan& ins, std::int64_t lo,
                 std::int64_t hi, std::vector<std::byte>& out) {
  visit_dtype(a.dtype, [&](auto t) {
    using T = decltype(t);
    reduce_range<T>(p, ins, lo, hi, reinterpret_cast<T*>(out.data()));
  });
}

// all_to_all's result on device g: chunk g (along split_axis) of every device's operand, in device
// order along concat_axis.
void all_to_all_into(const ir::Eqn& e, const ir::Aval& in, const ir::Aval& out, const ByteSpan& ins,
                     int g, std::byte* dst) {
  const int split = static_cast<int>(e.params.get<std::int64_t>("split_axis"));
  const int concat = static_cast<int>(e.params.get<std::int64_t>("concat_axis"));
  const int rank = in.shape.rank();
  const std::size_t es = size_of(in.dtype);
  std::vector<std::int64_t> chunk = in.shape.to_vector();
  chunk[static_cast<std::size_t>(split)] /= static_cast<std::int64_t>(ins.size());
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rank), 0), src(idx);
  std::vector<std::int64_t> in_strides(static_cast<std::size_t>(rank), 1);
  for (int i = rank - 2; i >= 0; --i)
    in_strides[static_cast<std::size_t>(i)] =
        in_strides[static_cast<std::size_t>(i) + 1] * in.shape[i + 1];
  const std::int64_t total = out.shape.size();
  for (std::int64_t o = 0; o < total; ++o) {
    src = idx;
    const auto c = static_cast<std::size_t>(concat), s = static_cast<std::size_t>(split);
    const std::int64_t from = src[c] / chunk[c];
    src[c] %= chunk[c];
    src[s] += g * chunk[s];
    std::int64_t off = 0;
    for (std::size_t i = 0; i < src.size(); ++i) off += src[i] * in_strides[i];
    std::memcpy(dst + static_cast<std::size_t>(o) * es,
                ins[static_cast<std::size_t>(from)] + static_cast<std::size_t>(off) * es, es);
    for (int i = rank - 1; i >= 0; --i) {
      if (++idx[static_cast<std::size_t>(i)] < out.shape[i]) break;
      idx[static_cast<std::size_t>(i)] = 0;
    }
  }
}

// Device g's result of e, from the operands of all devices on the axis.
void result_for(const ir::Eqn& e, const ir::Aval& in, const ir::Aval& out, const ByteSpan& ins,
                const std::vector<std::byte>& sum, int g, std::byte* dst) {
  const auto n = static_cast<std::int64_t>(ins.size());
  switch (e.prim) {
    case ir::Prim::psum:
    case ir::Prim::pmax:
    case ir::Prim::pmin:
      std::memcpy(dst, sum.data(), sum.size());
      return;
    case ir::Prim::all_gather: {
      // Both forms lay each device's operand in one block per outer index.
      const int k = static_cast<int>(ir::collective::dimension_of(e.prim, e.params));
      interleave(ins, Blocks::around(in.shape, k, in.dtype), dst);
      return;
    }
    case ir::Prim::reduce_scatter: {
      // The sum is the n results stacked at scatter_dimension: device g takes its own.
      const int k = static_cast<int>(ir::collective::dimension_of(e.prim, e.params));
      take_part(sum.data(), Blocks::around(out.shape, k, out.dtype), n, g, dst);
      return;
    }
    case ir::Prim::all_to_all:
      all_to_all_into(e, in, out, ins, g, dst);
      return;
    case ir::Prim::ppermute: {
      for (const auto& [src, to] : ir::collective::perm_of(e.params))
        if (to == g) {
          std::memcpy(dst, ins[static_cast<std::size_t>(src)], bytes_of(in));
          return;
        }
      std::memset(dst, 0, bytes_of(out));  // no device sends here: zeros, as JAX
      return;
    }
    default:
      throw ValueError(std::string(ir::name(e.prim)) + ": not a collective");
  }
}

}  // namespace

DeviceScope::DeviceScope(const DeviceContext& c) : saved_(t_device) { t_device = &c; }
DeviceScope::~DeviceScope() { t_device = saved_; }

const DeviceContext* current_device() { return t_device; }

void run_collective(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const std::string& axis = ir::collective::axis_of(e.params);
  const std::string who =
      std::string("fj::lax::") + std::string(ir::name(e.prim)) + " over '" + axis + "'";
  const DeviceContext* dev = current_device();
  if (!dev || dev->axis != axis)
    throw NameError(who +
                    ": the axis is not bound here; collectives run inside fj::pmap (or "
                    "are rewritten by fj::vmap) with that axis_name" +
                    (dev ? ", and this device's pmap binds '" + dev->axis + "'" : std::string()));
  if (e.prim == ir::Prim::axis_index) {
    *static_cast<std::int32_t*>(out[0].buf->data) = dev->global();
    return;
  }
  const ir::Aval in_aval = in[0].aval, out_aval = out[0].aval;
  const bool reduction = e.prim == ir::Prim::psum || e.prim == ir::Prim::pmax ||
                         e.prim == ir::Prim::pmin || e.prim == ir::Prim::reduce_scatter;
  const ir::Prim op = e.prim == ir::Prim::reduce_scatter ? ir::Prim::psum : e.prim;
  auto* dst = static_cast<std::byte*>(out[0].buf->data);
  dev->rendezvous->meet(
      dev->local, &in[0],
      [&](const std::vector<const backend::Value*>& ins, Exchange& x) {
        ByteSpan local;
        for (const backend::Value* v : ins)
          local.push_back(static_cast<const std::byte*>(v->buf->data));
        x.all = process_group().gather(local, bytes_of(in_aval), x.remote, who);
        x.reduced.resize(reduction ? bytes_of(in_aval) : 0);
      },
      [&](Exchange& x) {
        if (!reduction) {  // each device builds its own result from every operand
          result_for(e, in_aval, out_aval, x.all, x.reduced, dev->global(), dst);
          return;
        }
        // Each device reduces its slice of the elements, in device order for every element.
        const std::int64_t n = in_aval.shape.size(), k = dev->local_count;
        const std::int64_t step = (n + k - 1) / k;
        const std::int64_t lo = std::min(n, dev->local * step), hi = std::min(n, lo + step);
        if (lo < hi) reduce_part(op, in_aval, x.all, lo, hi, x.reduced);
      },
      [&](Exchange& x) {
        if (reduction) result_for(e, in_aval, out_aval, x.all, x.reduced, dev->global(), dst);
      },
      who);
}

}  // namespace fj::distributed::detail
