// The processes a program runs on: one by default, or every rank of an MPI world once
// fj::distributed::initialize() has run. Collectives move data between processes through it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fusejit/core/dtype.hpp"
#include "fusejit/ir/primitive.hpp"

namespace fj::distributed::detail {

/// One point-to-point message of a collective, to or from `process`, matched by `tag`.
template <class Bytes>
struct Message {
  int process;
  int tag;
  Bytes data;
};
using Send = Message<const std::byte*>;
using Receive = Message<std::byte*>;

/// How the processes exchange data. The one-process group exchanges nothing.
class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  /// Leaves the world (MPI_Finalize if joining it started MPI).
  virtual void finalize() {}
  /// Every process's `local` blocks of `bytes` each (the same count on every process), ordered
  /// process by process; blocks from other processes are stored in `storage`. `who` names the
  /// collective in errors.
  virtual std::vector<const std::byte*> gather(const std::vector<const std::byte*>& local,
                                               std::size_t bytes, std::vector<std::byte>& storage,
                                               const std::string& who) {
    (void)bytes, (void)storage, (void)who;
    return local;
  }
  /// Combines `count` elements of `d` at `buf`, in place, with the same buffer of every process,
  /// as `op` (psum, pmax or pmin) does, in process order: every process gets the same bits.
  virtual void allreduce(ir::Prim op, DType d, std::byte* buf, std::int64_t count,
                         const std::string& who) {
    (void)op, (void)d, (void)buf, (void)count, (void)who;
  }
  /// Posts every receive and send (`bytes` each) at once and waits for all: one process has no
  /// other process to send to.
  virtual void send_recv(const std::vector<Send>& sends, const std::vector<Receive>& receives,
                         std::size_t bytes, const std::string& who) {
    (void)sends, (void)receives, (void)bytes, (void)who;
  }
  /// Block p of `send` (`bytes` each, one per process) goes to process p, which stores it as
  /// block rank() of its `recv`.
  virtual void all_to_all(const std::byte* send, std::byte* recv, std::size_t bytes,
                          const std::string& who) {
    (void)who;
    std::memcpy(recv, send, bytes);
  }
};

/// MPI's world, joined (MPI_Init_thread unless the program started MPI itself); nullptr in a
/// build without MPI. Errors name `who`.
std::unique_ptr<ProcessGroup> join_mpi_world(const char* who);
/// Whether this process is one of several that mpirun/mpiexec started (their environment says
/// so), which makes a pmap before fj::distributed::initialize() an error.
bool started_by_mpirun();

/// The current group: MPI's world after initialize(), else the one-process group.
ProcessGroup& process_group();
/// Installs `g` as the current group (nullptr: back to one process); initialize() and
/// shutdown() call it.
void set_process_group(std::unique_ptr<ProcessGroup> g);

}  // namespace fj::distributed::detail
