// Definitions of collective_runtime.hpp: the rendezvous, what each collective moves between
// processes, and each device's result from the operands it needs (implementation unit only).
#include "fusejit/distributed/collective_runtime.hpp"

#include <algorithm>
#include <cstring>

#include "fusejit/core/error.hpp"
#include "fusejit/distributed/blocks.hpp"
#include "fusejit/distributed/combine.hpp"
#include "fusejit/distributed/process_group.hpp"
#include "fusejit/ir/collective_params.hpp"

namespace fj::distributed::detail {

Rendezvous::Rendezvous(int local_devices)
    : n_(local_devices), in_(static_cast<std::size_t>(local_devices)) {}

bool Rendezvous::barrier(std::unique_lock<std::mutex>& lock, int& count, std::uint64_t& generation,
                         int local, const std::function<void()>& last) {
  const std::uint64_t mine = generation;
  if (count + 1 == n_) {
    if (last) run_for_all(local, last);
    count = 0;
    ++generation;
    cv_.notify_all();
    return true;
  }
  ++count;
  cv_.wait(lock, [&] { return generation != mine || failed_; });
  return generation != mine;
}

void Rendezvous::run_for_all(int local, const std::function<void()>& step) {
  try {
    step();
  } catch (const Error& err) {
    failed_ = true;
    why_ = std::string("failed on device ") + std::to_string(local) + ": " + err.what();
    cv_.notify_all();
    throw;
  }
}

void Rendezvous::meet(int local, const backend::Value* in, const Steps& steps,
                      const std::string& who) {
  std::unique_lock lock(m_);
  if (failed_) throw PeerFailure(who + ": " + why_);
  in_[static_cast<std::size_t>(local)] = in;
  if (!barrier(lock, arrived_, arrivals_, local, [&] { steps.prepare(in_, exchange_); }))
    throw PeerFailure(who + ": " + why_);
  // Every device's share at once; nobody leaves before all are done, so every operand stays
  // alive while others read it. Then each reads back its own result.
  lock.unlock();
  steps.part(exchange_);
  lock.lock();
  const std::function<void()> combine =
      steps.combine ? std::function<void()>([&] { steps.combine(exchange_); }) : nullptr;
  if (!barrier(lock, finished_, finishes_, local, combine)) throw PeerFailure(who + ": " + why_);
  lock.unlock();
  steps.finish(exchange_);
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

// Elementwise combine of the given devices' operands, in device order (so every device gets the
// same bits).
template <class T>
void reduce_range(ir::Prim p, const ByteSpan& ins, std::int64_t lo, std::int64_t hi, T* out) {
  std::memcpy(out + lo, reinterpret_cast<const T*>(ins[0]) + lo,
              static_cast<std::size_t>(hi - lo) * sizeof(T));
  for (std::size_t d = 1; d < ins.size(); ++d)
    combine_range(p, out + lo, reinterpret_cast<const T*>(ins[d]) + lo, out + lo, hi - lo);
}

// Elements [lo, hi) of the reduction of the operands `ins`, into `out`.
void reduce_part(ir::Prim p, const ir::Aval& a, const ByteSpan& ins, std::int64_t lo,
                 std::int64_t hi, void* out) {
  visit_dtype(a.dtype, [&](auto t) {
    using T = decltype(t);
    reduce_range<T>(p, ins, lo, hi, static_cast<T*>(out));
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

// Device g's result of e, from the operands of the devices on the axis that it needs (`ins`,
// indexed by device) or the reduced value.
void result_for(const ir::Eqn& e, const ir::Aval& in, const ir::Aval& out, const ByteSpan& ins,
                const runtime::BufferPtr& sum, const DeviceContext& dev, std::byte* dst) {
  const int g = dev.global();
  switch (e.prim) {
    case ir::Prim::psum:
    case ir::Prim::pmax:
    case ir::Prim::pmin:
      std::memcpy(dst, sum->data, sum->bytes);
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
      take_part(static_cast<const std::byte*>(sum->data), Blocks::around(out.shape, k, out.dtype),
                dev.global_count(), g, dst);
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

bool is_reduction(ir::Prim p) {
  return p == ir::Prim::psum || p == ir::Prim::pmax || p == ir::Prim::pmin ||
         p == ir::Prim::reduce_scatter;
}

// The operands indexed by device on the axis: this process's in place, the others' nullptr.
ByteSpan own_operands(const DeviceContext& dev, const ByteSpan& local) {
  ByteSpan all(static_cast<std::size_t>(dev.global_count()), nullptr);
  std::copy(local.begin(), local.end(), all.begin() + dev.process * dev.local_count);
  return all;
}

// ppermute across processes: only the pairs of the permutation that cross processes move, point
// to point, tagged by the destination device (each receives once at most, into its slot of
// x.remote); pairs within this process are read in memory.
ByteSpan permuted(const ir::Eqn& e, std::size_t bytes, const DeviceContext& dev,
                  const ByteSpan& local, Exchange& x, const std::string& who) {
  const std::int64_t n = dev.local_count;
  ByteSpan all = own_operands(dev, local);
  x.remote.resize(local.size() * bytes);
  std::vector<Send> sends;
  std::vector<Receive> receives;
  for (const auto& [src, to] : ir::collective::perm_of(e.params)) {
    const int from = static_cast<int>(src / n), into = static_cast<int>(to / n);
    if (from == into) continue;
    if (from == dev.process) {
      sends.push_back({into, static_cast<int>(to), local[static_cast<std::size_t>(src % n)]});
    } else if (into == dev.process) {
      std::byte* slot = x.remote.data() + static_cast<std::size_t>(to % n) * bytes;
      receives.push_back({from, static_cast<int>(to), slot});
      all[static_cast<std::size_t>(src)] = slot;
    }
  }
  process_group().send_recv(sends, receives, bytes, who);
  return all;
}

// all_to_all across processes: one MPI_Alltoall carries from each device to each process p the
// share of its operand that p's devices take (their chunks along split_axis, which lie together).
// Each share received is put in place in a full-size operand of its device (in x.remote), which
// all_to_all_into then reads like a local one.
ByteSpan chunks_exchanged(const ir::Eqn& e, const ir::Aval& in, const DeviceContext& dev,
                          const ByteSpan& local, Exchange& x, const std::string& who) {
  const int split = static_cast<int>(e.params.get<std::int64_t>("split_axis"));
  const std::int64_t procs = dev.process_count, n = dev.local_count;
  std::vector<std::int64_t> share_shape = in.shape.to_vector();
  share_shape[static_cast<std::size_t>(split)] /= procs;
  const Blocks b = Blocks::around(Shape(share_shape), split, in.dtype);
  const std::size_t bytes = bytes_of(in), share = bytes / static_cast<std::size_t>(procs);
  // Ordered [process][device]: MPI's block p goes to process p.
  std::vector<std::byte> send(local.size() * bytes), recv(local.size() * bytes);
  for (std::int64_t p = 0; p < procs; ++p)
    for (std::int64_t d = 0; d < n; ++d)
      take_part(local[static_cast<std::size_t>(d)], b, procs, p,
                send.data() + static_cast<std::size_t>(p * n + d) * share);
  process_group().all_to_all(send.data(), recv.data(), static_cast<std::size_t>(n) * share, who);
  ByteSpan all = own_operands(dev, local);
  x.remote.resize(static_cast<std::size_t>((procs - 1) * n) * bytes);
  for (std::int64_t q = 0; q < procs; ++q) {
    if (q == dev.process) continue;
    for (std::int64_t d = 0; d < n; ++d) {
      const std::int64_t g = q * n + d, slot = q < dev.process ? g : g - n;
      std::byte* full = x.remote.data() + static_cast<std::size_t>(slot) * bytes;
      put_part(recv.data() + static_cast<std::size_t>(g) * share, b, procs, dev.process, full);
      all[static_cast<std::size_t>(g)] = full;
    }
  }
  return all;
}

// The operands e's results read, indexed by device: in one process the local ones are all; a
// reduction reads the local ones and combines across processes afterwards (run_collective's
// combine step); the others receive what they read from the other processes.
ByteSpan operands_for(const ir::Eqn& e, const ir::Aval& in, const DeviceContext& dev,
                      const ByteSpan& local, Exchange& x, const std::string& who) {
  if (dev.process_count == 1 || is_reduction(e.prim)) return local;
  switch (e.prim) {
    case ir::Prim::all_gather:
      return process_group().gather(local, bytes_of(in), x.remote, who);
    case ir::Prim::ppermute:
      return permuted(e, bytes_of(in), dev, local, x, who);
    case ir::Prim::all_to_all:
      return chunks_exchanged(e, in, dev, local, x, who);
    default:
      return local;
  }
}

// A reduction's share of one device: a slice of the elements, reduced over the operands in x.all
// in device order for every element.
void reduce_share(ir::Prim op, const ir::Aval& a, const DeviceContext& dev, Exchange& x) {
  const std::int64_t n = a.shape.size(), k = dev.local_count;
  const std::int64_t step = (n + k - 1) / k;
  const std::int64_t lo = std::min(n, dev.local * step), hi = std::min(n, lo + step);
  if (lo < hi) reduce_part(op, a, x.all, lo, hi, x.reduced->data);
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
  const bool reduction = is_reduction(e.prim);
  const ir::Prim op = e.prim == ir::Prim::reduce_scatter ? ir::Prim::psum : e.prim;
  auto* dst = static_cast<std::byte*>(out[0].buf->data);
  Rendezvous::Steps steps;
  steps.prepare = [&](const std::vector<const backend::Value*>& ins, Exchange& x) {
    ByteSpan local;
    for (const backend::Value* v : ins)
      local.push_back(static_cast<const std::byte*>(v->buf->data));
    x.all = operands_for(e, in_aval, *dev, local, x, who);
    x.reduced = reduction ? runtime::allocate(bytes_of(in_aval)) : nullptr;
  };
  steps.part = [&](Exchange& x) {
    if (reduction)
      reduce_share(op, in_aval, *dev, x);
    else  // each device builds its own result from the operands it reads
      result_for(e, in_aval, out_aval, x.all, x.reduced, *dev, dst);
  };
  steps.finish = [&](Exchange& x) {
    if (reduction) result_for(e, in_aval, out_aval, x.all, x.reduced, *dev, dst);
  };
  // Across processes a reduction combines this process's reduced value with the others', once.
  if (reduction && dev->process_count > 1)
    steps.combine = [&](Exchange& x) {
      process_group().allreduce(op, in_aval.dtype, static_cast<std::byte*>(x.reduced->data),
                                in_aval.shape.size(), who);
    };
  dev->rendezvous->meet(dev->local, &in[0], steps, who);
}

}  // namespace fj::distributed::detail
