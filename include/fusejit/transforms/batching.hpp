// What the batching rules (batch.cpp) share with the control-flow rules (control_rules.cpp) and
// the callbacks' rule (batch_callback.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// An unbatched operand broadcast along a new leading axis of size n.
Atom add_batch_axis(Emit& E, Atom x, std::int64_t n);

/// A callback equation (debug_print, debug_callback, pure_callback) with operands batched where
/// `bat` says: its results, each batched along axis 0 (batch_callback.cpp).
std::vector<Atom> batch_callback(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                 const std::vector<bool>& bat, std::int64_t n);

}  // namespace fj::transforms
