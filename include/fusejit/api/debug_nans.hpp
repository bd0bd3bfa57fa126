// fj::set_debug_nans (jax_debug_nans): a compiled call whose outputs hold a NaN raises
// fj::FloatingPointError naming the first primitive that produced one.
#pragma once
#include <atomic>
#include <span>

#include "fusejit/backend/backend.hpp"

namespace fj {

namespace detail {
struct Compiled;
// -1 until first read (then FUSEJIT_DEBUG_NANS decides), else 0 or 1. A plain global, not a
// function-local static: the call path reads it with one relaxed load and no guard.
extern constinit std::atomic<int> debug_nans_state;
bool debug_nans_from_env();  // the first read
}  // namespace detail

/// Turns the NaN check on or off. When on, after every compiled call (fj::jit, grad and vmap
/// called outside a trace, lax loops called outside a trace, eager expressions) the floating
/// outputs are checked for NaN; on one, the call is re-run equation by equation on the
/// reference interpreter and fj::FloatingPointError names the first primitive whose result holds
/// a NaN and its line in the jaxpr. Off by default; FUSEJIT_DEBUG_NANS=1 turns it on at start.
void set_debug_nans(bool on);

/// Whether the NaN check is on. Costs one relaxed atomic load, which is what a compiled call
/// pays when the check is off.
inline bool debug_nans() {
  const int s = detail::debug_nans_state.load(std::memory_order_relaxed);
  if (s == 0) [[likely]]
    return false;
  return s > 0 || detail::debug_nans_from_env();
}

namespace detail {

/// Whether a FUSEJIT_DEBUG_NANS value turns the check on: JAX's true spellings (1, true, t,
/// yes, y, on; any case). Anything else, or no value, leaves it off.
bool parse_debug_nans(const char* value);

/// Whether a floating value holds a NaN (bit tests: right under -ffast-math too).
bool holds_nan(const backend::Value& v);

/// After `c` ran on `args` (its dynamic inputs; c's constants precede them) and gave `outs`:
/// raises fj::FloatingPointError if a floating output holds a NaN.
void check_nans(const Compiled& c, std::span<const backend::Value> args,
                std::span<const backend::Value> outs);

}  // namespace detail

}  // namespace fj
