// Data-parallel training, as JAX's pmap tutorial: linear regression whose batch is split across
// every device of every process; each device takes the gradient of its shard and pmean averages
// them, so every device applies the same update. Run it alone (FUSEJIT_CPU_DEVICES=4 splits the
// host into 4 devices) or under `mpiexec -n 2` (2 processes). With --check it exits non-zero
// unless the parameters match single-device full-batch training within 1e-6.
#include <cmath>
#include <cstring>
#include <fusejit/fusejit.hpp>
#include <iostream>
#include <tuple>

namespace {

using Params = std::tuple<fj::Array, fj::Array>;  // weight, bias

constexpr int kSamples = 128;
constexpr int kSteps = 1000;
constexpr float kLearningRate = 0.005f;

fj::Array loss_fn(const Params& p, const fj::Array& xs, const fj::Array& ys) {
  const fj::Array pred = std::get<0>(p) * xs + std::get<1>(p);
  const fj::Array d = pred - ys;
  return fj::mean(d * d);
}

// One SGD step from a gradient (tree_map over the parameters).
Params sgd(const Params& p, const Params& g) {
  return fj::tree_map(
      [](const fj::Array& w, const fj::Array& dw) { return w - kLearningRate * dw; }, p, g);
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc > 1 && std::strcmp(argv[1], "--check") == 0;
  try {
    fj::distributed::initialize();  // one process unless mpiexec started several
    const int procs = fj::process_count(), devices = fj::local_device_count();
    const int global = procs * devices;
    if (kSamples % global != 0) throw fj::ValueError("the batch does not split evenly");

    // The tutorial's data, the same on every process: y = 2x - 1 plus noise.
    const fj::Array keys = fj::random::split(fj::random::key(0), 2);
    const fj::Array xs = fj::random::normal(keys(0), {kSamples});
    const fj::Array ys =
        fj::Array(2.0f * xs - 1.0f + 0.5f * fj::random::normal(keys(1), {kSamples}));

    // This process's shards: rows [p * n, (p + 1) * n), one (kSamples / global) row per device.
    const std::int64_t per_device = kSamples / global;
    const std::int64_t lo = fj::process_index() * devices * per_device;
    auto local = [&](const fj::Array& a) {
      return fj::Array(a.slice({lo}, {lo + devices * per_device}).reshape({devices, per_device}));
    };
    const fj::Array local_xs = local(xs), local_ys = local(ys);

    // Parameters are replicated: in_axes none, and device 0's update is every device's.
    auto update = fj::pmap(
        [](const Params& p, const fj::Array& x, const fj::Array& y) {
          auto [loss, grads] = fj::value_and_grad(loss_fn)(p, x, y);
          const Params mean_grads =
              fj::tree_map([](const fj::Array& g) { return fj::lax::pmean(g, "batch"); }, grads);
          return std::make_tuple(sgd(p, mean_grads), fj::lax::pmean(loss, "batch"));
        },
        fj::axis_name{"batch"}, fj::in_axes{fj::none, 0, 0}, fj::out_axes{fj::none});

    Params params{fj::array(0.0f), fj::array(0.0f)};
    for (int step = 0; step < kSteps; ++step) {
      auto [next, loss] = update(params, local_xs, local_ys);
      params = std::move(next);
      if (fj::process_index() == 0 && step % 250 == 0)
        std::cout << "step " << step << ": loss " << loss.item<float>() << "\n";
    }
    const float w = std::get<0>(params).item<float>(), b = std::get<1>(params).item<float>();
    if (fj::process_index() == 0)
      std::cout << procs << " process(es) x " << devices << " device(s): w = " << w << ", b = " << b
                << " (true: 2, -1)\n";

    int status = 0;
    if (check) {
      // The same steps on one device with the whole batch.
      auto full = fj::jit([](const Params& p, const fj::Array& x, const fj::Array& y) {
        return sgd(p, fj::grad(loss_fn)(p, x, y));
      });
      Params ref{fj::array(0.0f), fj::array(0.0f)};
      for (int step = 0; step < kSteps; ++step) ref = full(ref, xs, ys);
      const float dw = std::abs(w - std::get<0>(ref).item<float>());
      const float db = std::abs(b - std::get<1>(ref).item<float>());
      const bool ok = dw <= 1e-6f && db <= 1e-6f;
      std::cout << "rank " << fj::process_index() << ": single-device full batch differs by " << dw
                << " (w), " << db << " (b): " << (ok ? "ok" : "MISMATCH") << "\n";
      status = ok ? 0 : 1;
    }
    fj::distributed::shutdown();
    return status;
  } catch (const fj::Error& e) {
    std::cerr << "fusejit error: " << e.what() << "\n";
    return 1;
  }
}
