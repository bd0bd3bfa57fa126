// The run-time half of the collectives: each pmap device thread is bound to its device
// (DeviceScope), and a collective equation meets the process's other devices at the pmap call's
// Rendezvous, where the last to arrive gathers every operand and each device then computes its
// share.
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

namespace fj::distributed::detail {

/// What a device raises at a collective when another device of the call failed first: the
/// pmap rethrows the first device's own error instead.
class PeerFailure : public Error {
  using Error::Error;
};

/// What one collective's devices share once all have arrived: every device's operand on the
/// axis (ordered process by process; those of other processes stored in `remote`) and, for the
/// reductions, the reduced value.
struct Exchange {
  std::vector<const std::byte*> all;
  std::vector<std::byte> remote;
  std::vector<std::byte> reduced;
};

/// Where one pmap call's local devices meet for each collective, in program order (every device
/// runs the same compiled program, so the k-th meeting is the same equation on each).
class Rendezvous {
 public:
  explicit Rendezvous(int local_devices);
  /// The last device to arrive fills the exchange from every local operand (and the other
  /// processes'), under the lock.
  using Prepare = std::function<void(const std::vector<const backend::Value*>& in, Exchange& x)>;
  /// Run by every device at once: its share of the work (`part`), then, once all have done
  /// theirs, what it reads back for itself (`finish`).
  using Work = std::function<void(Exchange& x)>;
  /// Raises PeerFailure naming `who` if another device failed first (fail()).
  void meet(int local, const backend::Value* in, const Prepare& prepare, const Work& part,
            const Work& finish, const std::string& who);
  /// Wakes every waiting device with an error: `why` names the device that failed.
  void fail(const std::string& why);

 private:
  // Blocks until `count` reaches n_ (the last one bumps `generation`); false if a device failed.
  bool barrier(std::unique_lock<std::mutex>& lock, int& count, std::uint64_t& generation);
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
