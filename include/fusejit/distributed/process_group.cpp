// Definitions of process_group.hpp (implementation unit only).
#include "fusejit/distributed/process_group.hpp"

#include <cstdlib>
#include <mutex>

namespace fj::distributed::detail {

namespace {
std::mutex g_mu;
std::unique_ptr<ProcessGroup> g_group;
}  // namespace

ProcessGroup& process_group() {
  static ProcessGroup one;
  std::lock_guard lock(g_mu);
  return g_group ? *g_group : one;
}

void set_process_group(std::unique_ptr<ProcessGroup> g) {
  std::lock_guard lock(g_mu);
  g_group = std::move(g);
}

bool started_by_mpirun() {
  // Read once: pmap asks on every call, and the launcher's environment does not change.
  static const bool several = [] {
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
      if (const char* v = std::getenv(var); v && std::atoi(v) > 1) return true;
    return false;
  }();
  return several;
}

#ifndef FUSEJIT_WITH_MPI
std::unique_ptr<ProcessGroup> join_mpi_world(const char*) { return nullptr; }
#endif

}  // namespace fj::distributed::detail
