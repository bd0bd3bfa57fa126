// Definitions of initialize.hpp (implementation unit only).
#include "fusejit/distributed/initialize.hpp"

#include <mutex>
#include <string>

#include "fusejit/core/error.hpp"
#include "fusejit/distributed/process_group.hpp"

namespace fj::distributed {

namespace {
std::mutex g_mu;
bool g_initialized = false;
}  // namespace

void initialize(int process_id, int num_processes) {
  std::lock_guard lock(g_mu);
  if (g_initialized)
    throw Error("fj::distributed::initialize: already initialized; call it once per process");
  std::unique_ptr<detail::ProcessGroup> world;
  if (detail::started_by_mpirun() || num_processes > 1) {
    world = detail::join_mpi_world("fj::distributed::initialize");
    if (!world)
      throw Error("fj::distributed::initialize: " +
                  (num_processes > 1 ? "a world of " + std::to_string(num_processes) + " processes"
                                     : std::string("running under mpirun")) +
                  " needs MPI, and this fusejit was built without it (FUSEJIT_WITH_MPI)");
  }
  const int rank = world ? world->rank() : 0, size = world ? world->size() : 1;
  if ((process_id >= 0 && process_id != rank) || (num_processes >= 0 && num_processes != size))
    throw ValueError("fj::distributed::initialize(" + std::to_string(process_id) + ", " +
                     std::to_string(num_processes) + "): MPI gives this process index " +
                     std::to_string(rank) + " of " + std::to_string(size));
  if (world) detail::set_process_group(std::move(world));
  g_initialized = true;
}

void initialize() { initialize(-1, -1); }

void shutdown() {
  std::lock_guard lock(g_mu);
  if (!g_initialized)
    throw Error(
        "fj::distributed::shutdown: not initialized (call fj::distributed::initialize "
        "first, and shutdown once)");
  detail::process_group().finalize();
  detail::set_process_group(nullptr);
  g_initialized = false;
}

bool is_initialized() {
  std::lock_guard lock(g_mu);
  return g_initialized;
}

}  // namespace fj::distributed
