// Definitions of devices.hpp (implementation unit only).
#include "fusejit/distributed/devices.hpp"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "fusejit/core/error.hpp"
#include "fusejit/distributed/process_group.hpp"

namespace fj {

namespace {

std::mutex g_count_mu;
int g_count = 0;  // 0: not yet fixed
bool g_fixed = false;

int env_count() {
  const char* env = std::getenv("FUSEJIT_CPU_DEVICES");
  if (!env || !*env) return 1;
  char* end = nullptr;
  const long n = std::strtol(env, &end, 10);
  if (*end != '\0' || n < 1 || n > 4096)
    throw ValueError(std::string("FUSEJIT_CPU_DEVICES: expected a device count >= 1, got '") + env +
                     "'");
  return static_cast<int>(n);
}

}  // namespace

void set_cpu_device_count(int n) {
  if (n < 1)
    throw ValueError("fj::set_cpu_device_count: n must be at least 1, got " + std::to_string(n));
  std::lock_guard lock(g_count_mu);
  if (g_fixed && g_count != n)
    throw ValueError("fj::set_cpu_device_count(" + std::to_string(n) +
                     "): the CPU devices are already in use as " + std::to_string(g_count) +
                     "; call it before the first use of devices or pmap");
  g_count = n;
}

int local_device_count() {
  std::lock_guard lock(g_count_mu);
  if (!g_fixed) {
    if (g_count == 0) g_count = env_count();
    g_fixed = true;
  }
  return g_count;
}

int device_count() { return local_device_count() * process_count(); }
int process_index() { return distributed::detail::process_group().rank(); }
int process_count() { return distributed::detail::process_group().size(); }

std::vector<Device> local_devices() {
  const int n = local_device_count(), p = process_index();
  std::vector<Device> r;
  for (int i = 0; i < n; ++i) r.push_back(Device::cpu_device(p * n + i, p));
  return r;
}

}  // namespace fj
