// fj::pmap: a function mapped over an axis split one slice per device, each device running the
// body compiled once, with fj::lax's collectives combining across devices (and across MPI
// processes). Spelled like fj::vmap, with JAX's pmap semantics (jax/_src/pmap.py).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "fusejit/api/jit.hpp"
#include "fusejit/api/transforms.hpp"
#include "fusejit/distributed/axis_env.hpp"
#include "fusejit/distributed/devices.hpp"
#include "fusejit/distributed/pmap_runtime.hpp"
#include "fusejit/distributed/shard_map_staging.hpp"

namespace fj {

/// pmap's size of the mapped axis when it runs on fewer devices than fj::local_device_count().
struct axis_size {
  std::int64_t n;  ///< the number of slices, at most the devices there are
};
/// pmap's devices (JAX's devices=): CPU devices of this process; the mapped axis has one slice
/// per device, in this order.
struct devices_arg {
  std::vector<Device> v;  ///< the devices, one per slice
  /// The devices as a vector or a braced list: fj::devices_arg{fj::local_devices()}.
  ///@{
  devices_arg(std::vector<Device> d) : v(std::move(d)) {}
  devices_arg(std::initializer_list<Device> d) : v(d) {}
  ///@}
};

namespace detail {

/// pmap's options, in whatever order the call gives them.
struct PmapOptions {
  // Unnamed: JAX's internal name, which it prints; fj::lax's collectives cannot name it.
  std::string axis = "_internal_pmap_axis_name";
  std::vector<AxisSpec> in{AxisSpec(0)};
  std::vector<std::optional<int>> out{0};
  std::optional<std::int64_t> size;
  std::optional<std::vector<Device>> devices;
  void set(const axis_name& n) { axis = n.name; }
  template <std::size_t N>
  void set(const in_axes<N>& a) {
    in.assign(a.v.begin(), a.v.end());
  }
  template <std::size_t N>
  void set(const out_axes<N>& a) {
    out.assign(a.v.begin(), a.v.end());
  }
  void set(const axis_size& s) { size = s.n; }
  void set(const devices_arg& d) { devices = d.v; }
  template <std::size_t... I>
  void set(const static_argnums_t<I...>&) {}
};

/// The static_argnums among pmap's options (none by default).
template <class... Opt>
struct statics_in {
  using type = static_argnums_t<>;
};
template <class O, class... Rest>
struct statics_in<O, Rest...> : statics_in<Rest...> {};
template <std::size_t... I, class... Rest>
struct statics_in<static_argnums_t<I...>, Rest...> {
  using type = static_argnums_t<I...>;
};

/// How many local devices a call runs on: checks the mapped size against the devices (or
/// axis_size) and raises fj::ValueError naming both numbers when they differ.
int pmap_device_count(const PmapOptions& o, std::int64_t mapped);
/// The out_axes of each result leaf (given one device's result ranks), normalized against rank
/// + 1 (none: unmapped); out_axes has one entry for all or one per leaf, else fj::ValueError
/// naming `who`, as is an axis out of range.
std::vector<std::optional<int>> pmap_out_axes(const std::vector<int>& ranks,
                                              const std::vector<std::optional<int>>& out,
                                              const char* who);
/// Each dynamic leaf's in_axes entry normalized against its rank; out of range is fj::ValueError.
std::vector<std::optional<int>> pmap_in_axes(const std::vector<Array>& leaves,
                                             const std::vector<std::optional<int>>& axes);
/// The mapped size of the dynamic leaves (each with its normalized in_axes entry), checked to
/// agree.
std::int64_t pmap_mapped_size(const std::vector<Array>& leaves,
                              const std::vector<std::optional<int>>& axes);

/// The dynamic arguments' leaves and structures, and where each argument's leaves start.
template <class Statics, class... A>
FlatArgs flatten_dynamic(const A&... a) {
  FlatArgs r;
  r.trees = arg_trees<Statics>(a...);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          r.first.push_back(r.leaves.size());
          if constexpr (!Statics::contains(I)) flatten_arrays(a, r.leaves);
        }(),
        ...);
  }
  (std::index_sequence_for<A...>{});
  r.first.push_back(r.leaves.size());
  return r;
}

template <class F, class Statics>
class PmapFn {
 public:
  PmapFn(F f, PmapOptions opt, std::source_location loc)
      : f_(std::move(f)), opt_(std::move(opt)), loc_(loc), st_(std::make_shared<State>()) {}

  template <class... A>
  auto operator()(const A&... a) const {
    const FlatArgs fa = flatten_dynamic<Statics>(a...);
    const auto axes = pmap_in_axes(fa.leaves, expand_in_axes(opt_.in, fa.trees, "fj::pmap"));
    if (current_trace()) return staged(fa, axes, a...);
    const std::int64_t mapped = pmap_mapped_size(fa.leaves, axes);
    const int n = pmap_device_count(opt_, mapped);
    const auto& body = jitted(n * process_count());
    // Each device's leaves: its slice of the mapped ones, the others whole.
    std::vector<std::vector<Array>> leaves(static_cast<std::size_t>(n));
    for (int d = 0; d < n; ++d)
      for (std::size_t k = 0; k < fa.leaves.size(); ++k)
        leaves[static_cast<std::size_t>(d)].push_back(
            axes[k] ? distributed::detail::shard(fa.leaves[k], *axes[k], d) : fa.leaves[k]);
    using R = decltype(call_traced<Statics>(body, leaves[0], fa.trees, a...));
    std::vector<std::optional<R>> results(static_cast<std::size_t>(n));
    distributed::detail::run_on_devices(n, opt_.axis, [&](int d) {
      results[static_cast<std::size_t>(d)].emplace(
          call_traced<Statics>(body, leaves[static_cast<std::size_t>(d)], fa.trees, a...));
    });
    std::vector<std::vector<Array>> outs;
    for (auto& r : results) outs.push_back(flatten_arrays(*r));
    std::vector<Array> joined = join_outputs(outs);
    return unflatten_result<R>(tree_structure(*results[0]), std::move(joined));
  }

 private:
  // The per-device body: f traced with the axis bound to its global size.
  struct Body {
    F f;
    std::string axis;
    std::int64_t size;
    template <class... A>
    auto operator()(const A&... a) const {
      const distributed::detail::AxisScope bound(axis, size);
      return f(a...);
    }
  };
  using BodyJit = Jitted<Body, Statics>;
  struct State {
    std::mutex mu;
    std::map<std::int64_t, std::unique_ptr<BodyJit>> by_size;  // compiled once per axis size
  };

  const BodyJit& jitted(std::int64_t size) const {
    std::lock_guard lock(st_->mu);
    auto& slot = st_->by_size[size];
    if (!slot)
      slot = std::make_unique<BodyJit>(Body{f_, opt_.axis, size}, "pmap", loc_, "fj::pmap");
    return *slot;
  }

  // Output leaf k of every device, stacked along its out_axes (none: device 0's).
  std::vector<Array> join_outputs(const std::vector<std::vector<Array>>& outs) const {
    std::vector<int> ranks;
    for (const Array& o : outs[0]) ranks.push_back(o.ndim());
    const auto axes = pmap_out_axes(ranks, opt_.out, "fj::pmap");
    std::vector<Array> r;
    for (std::size_t k = 0; k < axes.size(); ++k) {
      if (!axes[k]) {
        r.push_back(outs[0][k]);
        continue;
      }
      std::vector<Array> parts;
      for (const auto& o : outs) parts.push_back(o[k]);
      r.push_back(distributed::detail::unshard(parts, *axes[k]));
    }
    return r;
  }

  // Inside a trace (a pmap under jit, grad or make_jaxpr): JAX's jit[name=_fun] around a
  // shard_map, which runs as a vmap with the axis name.
  template <class... A>
  auto staged(const FlatArgs& fa, const std::vector<std::optional<int>>& axes,
              const A&... a) const {
    using R = decltype(call_traced<Statics>(f_, fa.leaves, fa.trees, a...));
    PyTreeDef out_tree;
    std::vector<Array> outs = stage_shard_map(
        {"pmap", "fj::pmap", loc_}, opt_.axis, fa.leaves, axes, opt_.out,
        [&](std::vector<Array>& t, PyTreeDef& tree) {
          auto r = call_traced<Statics>(f_, t, fa.trees, a...);
          tree = tree_structure(r);
          return flatten_arrays(r);
        },
        out_tree);
    return unflatten_result<R>(out_tree, std::move(outs));
  }

  F f_;
  PmapOptions opt_;
  std::source_location loc_;
  std::shared_ptr<State> st_;
};

}  // namespace detail

/// JAX's pmap: f over the mapped axis of its arguments (in_axes, as vmap's), one slice per
/// device, each device running f compiled once, at the same time. Options, in any order:
/// fj::axis_name{"i"} (the name fj::lax's collectives use), fj::in_axes{...}, fj::out_axes{...}
/// (fj::none: device 0's value), fj::static_argnums<...>, fj::devices_arg{...} and
/// fj::axis_size{n}. The mapped size must equal the device count (fj::local_device_count(), or
/// the devices or axis_size given). Inside a trace, pmap stages as JAX's shard_map (printed as
/// JAX 0.10.2 prints it), which runs as a vmap with the axis name.
template <class F, class... Opt>
auto pmap(F f, const Opt&... opt) {
  detail::PmapOptions o;
  (o.set(opt), ...);
  return detail::PmapFn<F, typename detail::statics_in<Opt...>::type>(
      std::move(f), std::move(o), std::source_location::current());
}

}  // namespace fj
