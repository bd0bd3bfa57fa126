// The CPU split into devices for fj::pmap (JAX's jax_num_cpu_devices), and the processes that
// run one program: jax.local_device_count(), jax.process_index() and their kin.
#pragma once
#include <vector>

#include "fusejit/api/device.hpp"

namespace fj {

/// Splits the host into n CPU devices, each running its share on its part of the thread pool.
/// Call it before first use (FUSEJIT_CPU_DEVICES=N says the same); default 1. Changing it after
/// the devices were first listed or used raises fj::ValueError, as JAX refuses once its
/// backends exist.
void set_cpu_device_count(int n);

/// This process's CPU devices: the devices fj::pmap maps over by default.
std::vector<Device> local_devices();
/// The CPU devices of this process, and of every process (jax.local_device_count,
/// jax.device_count).
///@{
int local_device_count();
int device_count();
///@}
/// This process's index and the number of processes (1 without fj::distributed::initialize):
/// jax.process_index, jax.process_count.
///@{
int process_index();
int process_count();
///@}

}  // namespace fj
