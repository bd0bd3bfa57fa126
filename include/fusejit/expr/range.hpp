// fj::range, one axis of a NumPy-style index x(fj::range(1, 4), 2): Python's start:stop:step;
// fj::newaxis and fj::ellipsis, Python's None and `...` in an index.
#pragma once
#include <cstdint>
#include <optional>

#include "fusejit/core/error.hpp"

namespace fj {

/// Python's `None` for a bound of fj::range: `fj::range(2, fj::none)` is `2:`.
inline constexpr std::nullopt_t none = std::nullopt;
/// NumPy's np.newaxis (Python's None) in an index: x(fj::newaxis, fj::range()) inserts an axis of
/// size 1 there. The same value as fj::none, so x(fj::none) reads as Python's x[None].
inline constexpr std::nullopt_t newaxis = std::nullopt;
/// The type of fj::ellipsis.
struct Ellipsis {};
/// Python's `...` in an index: x(fj::ellipsis, 0) takes every axis whole but the last, as many
/// as the other indices leave; at most one per index.
inline constexpr Ellipsis ellipsis{};

/// start:stop:step along one axis. A missing bound is Python's None (the whole axis in the
/// step's direction); negative bounds count from the end, and bounds beyond the axis clamp to
/// it, as Python slices do (x[1:100] of 5 elements is x[1:5]).
struct Range {
  /// The bounds (empty: None) and the step.
  ///@{
  std::optional<std::int64_t> start, stop;
  std::int64_t step = 1;
  ///@}
};

/// `:`, all of an axis.
inline Range range() { return {}; }
/// start:stop:step; a step of 0 raises fj::ValueError, as Python's does.
inline Range range(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                   std::int64_t step = 1) {
  if (step == 0) throw ValueError("fj::range: slice step cannot be zero");
  return Range{start, stop, step};
}

}  // namespace fj
