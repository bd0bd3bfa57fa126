// fj::distributed::initialize / shutdown: joining the processes that mpirun (or mpiexec)
// started, as jax.distributed.initialize does, so that pmap's axis spans every process.
#pragma once

namespace fj::distributed {

/// Joins the MPI world mpirun started: this process's index and the process count come from
/// MPI (fj::process_index(), fj::process_count()). Started without mpirun, or built without
/// MPI, the world is this one process. Calling it twice raises fj::Error.
void initialize();
/// The same, checking that MPI gives this process index and process count (JAX's process_id
/// and num_processes); a mismatch, or a world of several processes without MPI, raises.
void initialize(int process_id, int num_processes);
/// Leaves the world (MPI_Finalize when initialize started MPI); fj::Error without initialize.
void shutdown();
/// Whether initialize() has run and shutdown() has not.
bool is_initialized();

}  // namespace fj::distributed
