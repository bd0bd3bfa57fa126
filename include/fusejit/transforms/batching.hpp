// What the batching rules (batch.cpp) share with the control-flow rules (control_rules.cpp).
#pragma once
#include <cstdint>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// An unbatched operand broadcast along a new leading axis of size n.
Atom add_batch_axis(Emit& E, Atom x, std::int64_t n);

}  // namespace fj::transforms
