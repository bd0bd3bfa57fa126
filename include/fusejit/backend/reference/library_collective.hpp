// The reference backend's collectives: each calls the distributed runtime, which meets the other
// devices of the pmap (distributed/collective_runtime.hpp). The LLVM backend calls the same.
#pragma once
#include "fusejit/backend/reference/resolve.hpp"
#include "fusejit/distributed/collective_runtime.hpp"

namespace fj::detail::reference::ops {

struct Collective {
  static constexpr bool is_library = true;
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph&, const ir::Eqn&) {
    return &::fj::distributed::detail::run_collective;
  }
};
struct psum : Collective {};
struct pmax : Collective {};
struct pmin : Collective {};
struct all_gather : Collective {};
struct reduce_scatter : Collective {};
struct all_to_all : Collective {};
struct ppermute : Collective {};
struct axis_index : Collective {
  static constexpr int arity = 0;
};

}  // namespace fj::detail::reference::ops
