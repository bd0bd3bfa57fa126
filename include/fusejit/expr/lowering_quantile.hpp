// jnp.quantile, jnp.percentile, jnp.median and their nan-ignoring forms, staged as JAX 0.10.2's
// `_quantile` (defined in lowering_quantile.cpp).
#pragma once
#include <cstdint>
#include <optional>

#include "fusejit/expr/lowering_nn.hpp"

namespace fj {

/// How jnp.quantile picks between the two order statistics around a quantile's position:
/// `linear` interpolates, `lower` / `higher` take one of them, `midpoint` their mean, `nearest`
/// the closer one (the lower at a tie).
enum class QuantileMethod : std::uint8_t { linear, lower, higher, midpoint, nearest };

}  // namespace fj

namespace fj::detail {

/// What _quantile is given besides a and q.
struct QuantileSpec {
  Axes axes;  // one axis, a tuple of them (`axes.tuple`), or all (`axes.all`)
  QuantileMethod method = QuantileMethod::linear;
  bool keepdims = false;
  bool squash_nans = false;  // nanquantile: NaNs ignored rather than propagated
};

/// jnp.quantile / jnp.nanquantile: `jit[name=quantile]` (`nanquantile`) of a and q (a scalar or
/// a 1-d float array of quantiles in [0, 1]); a's axes checked by the caller.
Atom lower_quantile(GraphBuilder& b, Atom a, Atom q, const QuantileSpec& s);
/// jnp.percentile / jnp.nanpercentile: `jit[name=percentile]` (`nanpercentile`), q promoted to
/// a float and divided by 100, then the quantile.
Atom lower_percentile(GraphBuilder& b, Atom a, Atom q, const QuantileSpec& s);
/// jnp.median / jnp.nanmedian: `jit[name=median]` (`nanmedian`) of a, the quantile at a weak
/// 0.5 with the midpoint method.
Atom lower_median(GraphBuilder& b, Atom a, const QuantileSpec& s);
/// A Python float passed to these functions: a weak literal of the float type a promotes to
/// (f64 for f64 arrays, as JAX's x64 mode, else f32).
Atom quantile_scalar(GraphBuilder& b, Atom a, double v);

}  // namespace fj::detail
