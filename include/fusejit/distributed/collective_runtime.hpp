// The run-time half of the collectives: each pmap device thread is bound to its device
// (DeviceScope), and a collective equation meets the process's other devices at the pmap call's
// Rendezvous, where the last to arrive exchanges what other processes need and each device then
// computes its share.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "fusejit/backend/backend.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/runtime/buffer.hpp"

namespace fj::distributed::detail {

/// What a device raises at a collective when another device of the call failed first: the
/// pmap rethrows the first device's own error instead.
class PeerFailure : public Error {
  using Error::Error;
};

/// What one collective's devices share once all have arrived: the operands it reads (every
/// device's on the axis, ordered process by process, where the collective needs them; those
/// received from other processes stored in `remote`) and, for the reductions, the reduced value
/// (from the runtime's allocator, whose cached blocks are already mapped: a fresh one costs page
/// faults, and makes MPI's allreduce of it several times slower).
struct Exchange {
  std::vector<const std::byte*> all;
  std::vector<std::byte> remote;
  runtime::BufferPtr reduced;
};

/// Where one pmap call's local devices meet for each collective, in program order (every device
/// runs the same compiled program, so the k-th meeting is the same equation on each).
class Rendezvous {
 public:
  explicit Rendezvous(int local_devices);
  /// Fills the exchange from every local operand (and what the other processes send).
  using Prepare = std::function<void(const std::vector<const backend::Value*>& in, Exchange& x)>;
  using Work = std::function<void(Exchange& x)>;
  /// One meeting's steps, in order.
  struct Steps {
    Prepare prepare;  // by the last device to arrive, under the lock
    Work part;        // by every device at once: its share of the work
    Work combine;     // optional: by the last device to finish its part, under the lock
    Work finish;      // by every device once all parts (and combine) are done: its result
  };
  /// Raises PeerFailure naming `who` if another device failed first (fail()).
  void meet(int local, const backend::Value* in, const Steps& steps, const std::string& who);
  /// Wakes every waiting device with an error: `why` names the device that failed.
  void fail(const std::string& why);

 private:
  // Blocks until `count` reaches n_; the last one runs `last` (if any), then bumps `generation`.
  // False if a device failed.
  bool barrier(std::unique_lock<std::mutex>& lock, int& count, std::uint64_t& generation, int local,
               const std::function<void()>& last);
  // Runs `step` for every device; an error in it fails the rendezvous, naming device `local`.
  void run_for_all(int local, const std::function<void()>& step);
  std::mutex m_;
  std::condition_variable cv_;
  int n_;
  int arrived_ = 0, finished_ = 0;
  std::uint64_t arrivals_ = 0, finishes_ = 0;
  std::vector<const backend::Value*> in_;
  Exchange exchange_;
  bool failed_ = false;
  std::string why_;
};

/// What a device thread of a pmap knows about itself.
struct DeviceContext {
  std::string axis;     // the pmap's axis name
  int local = 0;        // index among this process's devices of the call
  int local_count = 1;  // devices of the call in this process
  int process = 0;      // this process, and how many take part
  int process_count = 1;
  Rendezvous* rendezvous = nullptr;
  /// The device's index along the axis: devices are ordered process by process.
  int global() const { return process * local_count + local; }
  int global_count() const { return process_count * local_count; }
};

/// Binds the calling thread to one device of a pmap for the scope's lifetime.
class DeviceScope {
 public:
  explicit DeviceScope(const DeviceContext& c);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  const DeviceContext* saved_;
};

/// The calling thread's device, or nullptr outside a pmap's device threads.
const DeviceContext* current_device();

/// Runs one collective equation on this thread's device (the reference backend's routine for
/// every collective, which the LLVM backend calls too).
void run_collective(const ir::Eqn& e, const backend::Value* in, backend::Value* out);

}  // namespace fj::distributed::detail
