// The processes a program runs on: one by default, or every rank of an MPI world once
// fj::distributed::initialize() has run. Collectives exchange their operands through it.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace fj::distributed::detail {

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
