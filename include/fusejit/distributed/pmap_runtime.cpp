// Definitions of pmap_runtime.hpp (implementation unit only).
#include "fusejit/distributed/pmap_runtime.hpp"

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "fusejit/distributed/blocks.hpp"
#include "fusejit/distributed/collective_runtime.hpp"
#include "fusejit/distributed/process_group.hpp"
#include "fusejit/runtime/thread_pool.hpp"

namespace fj::distributed::detail {

namespace {

const std::byte* host_bytes(const Array& x, const char* who) {
  if (!x.buffer()) throw TypeError(std::string("fj::pmap: ") + who + " is an empty array");
  if (x.buffer()->device >= 0)
    throw DeviceError(std::string("fj::pmap: ") + who +
                      " is on a GPU; pmap maps over the CPU devices (fj::local_devices())");
  return static_cast<const std::byte*>(x.buffer()->data);
}

// Persistent threads for devices 1..n-1 (the caller runs device 0): a pmap call costs two
// hand-offs per device rather than a thread's start.
class DeviceThreads {
 public:
  ~DeviceThreads() {
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void run(int n, const std::function<void(int)>& job) {
    std::lock_guard call(call_mu_);  // one pmap at a time holds the devices
    {
      std::lock_guard lock(m_);
      while (static_cast<int>(threads_.size()) < n - 1) {
        const int d = static_cast<int>(threads_.size()) + 1;
        threads_.emplace_back([this, d] { loop(d); });
      }
      job_ = &job;
      active_ = n;
      pending_ = n - 1;
      ++generation_;
    }
    cv_.notify_all();
    job(0);
    std::unique_lock lock(m_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
  }

 private:
  void loop(int d) {
    std::uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* job = nullptr;
      {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (d >= active_) continue;
        job = job_;
      }
      (*job)(d);
      {
        std::lock_guard lock(m_);
        --pending_;
      }
      done_.notify_one();
    }
  }
  std::mutex call_mu_, m_;
  std::condition_variable cv_, done_;
  std::vector<std::thread> threads_;
  const std::function<void(int)>* job_ = nullptr;
  int active_ = 0, pending_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};

DeviceThreads& device_threads() {
  static DeviceThreads t;
  return t;
}

}  // namespace

Array shard(const Array& x, int axis, std::int64_t index) {
  const std::byte* src = host_bytes(x, "a mapped argument");
  std::vector<std::int64_t> s = x.shape().to_vector();
  const std::int64_t n = s[static_cast<std::size_t>(axis)];
  s.erase(s.begin() + axis);
  const Shape part(s);
  const Blocks b = Blocks::around(part, axis, x.dtype());
  const ir::Aval aval{x.dtype(), part, x.weak_type()};
  // Along the leading axis a share is one block: a view of x's buffer (x stays alive with it)
  // where it keeps the buffers' 64-byte alignment, so a call copies nothing.
  const std::size_t offset = static_cast<std::size_t>(index) * b.inner;
  if (b.outer == 1 && offset % runtime::kAlignment == 0)
    return Array::from_buffer(
        runtime::wrap(const_cast<std::byte*>(src) + offset, b.inner, x.buffer()), aval);
  auto buf = runtime::allocate(static_cast<std::size_t>(part.size()) * size_of(x.dtype()));
  take_part(src, b, n, index, static_cast<std::byte*>(buf->data));
  return Array::from_buffer(std::move(buf), aval);
}

Array unshard(const std::vector<Array>& parts, int axis) {
  const Array& p0 = parts.at(0);
  const auto n = static_cast<std::int64_t>(parts.size());
  std::vector<std::int64_t> s = p0.shape().to_vector();
  s.insert(s.begin() + axis, n);
  std::vector<const std::byte*> srcs;
  for (const Array& p : parts) srcs.push_back(host_bytes(p, "a result"));
  auto buf = runtime::allocate(static_cast<std::size_t>(Shape(s).size()) * size_of(p0.dtype()));
  interleave(srcs, Blocks::around(p0.shape(), axis, p0.dtype()),
             static_cast<std::byte*>(buf->data));
  return Array::from_buffer(std::move(buf), ir::Aval{p0.dtype(), Shape(s), p0.weak_type()});
}

void run_on_devices(int n, const std::string& axis, const std::function<void(int)>& body) {
  Rendezvous rendezvous(n);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
  std::atomic<int> first{-1};
  const int share = std::max(1, runtime::num_threads() / n);
  const ProcessGroup& group = process_group();
  device_threads().run(n, [&](int d) {
    DeviceContext ctx{axis, d, n, group.rank(), group.size(), &rendezvous};
    try {
      const DeviceScope bound(ctx);
      const runtime::ThreadShare threads(share);
      body(d);
    } catch (const PeerFailure&) {
      errors[static_cast<std::size_t>(d)] = std::current_exception();  // another's failure
    } catch (...) {
      errors[static_cast<std::size_t>(d)] = std::current_exception();
      int none = -1;
      if (first.compare_exchange_strong(none, d)) {
        std::string what = "an exception";
        try {
          throw;
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        rendezvous.fail("device " + std::to_string(ctx.global()) + " of axis '" + axis +
                        "' failed: " + what);
      }
    }
  });
  if (const int f = first.load(); f >= 0)
    std::rethrow_exception(errors[static_cast<std::size_t>(f)]);
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace fj::distributed::detail
