// x.at(idx).apply(f), jax.Array.at[idx].apply: defined here, after the loops it may need.
#pragma once
#include <tuple>
#include <type_traits>
#include <utility>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/lax_control.hpp"
#include "fusejit/expr/indexing.hpp"

namespace fj {

template <class Arrays>
template <class F>
Array detail::AtIndex<Arrays>::apply(F&& f, lax::GatherScatterMode mode) const {
  static_assert(std::is_invocable_v<F&, const Array&>,
                "fj::Array::at(...).apply: f must take an fj::Array (and act elementwise)");
  // Static indices name each place once: f of the indexed elements, written back.
  if constexpr (std::tuple_size_v<Arrays> == 0) {
    return set(Array(f(get())), mode);
  } else {
    // Index arrays may repeat a place, which JAX's scatter_apply updates once per entry: count
    // the entries per place, then apply f (elementwise) that many times.
    const Array count = AtIndex(zeros_like(x_).astype(DType::i32), items_, arrays_).add(1, mode);
    const Array rounds = fj::max(count);
    auto more = [&](const std::pair<Array, Array>& c) { return Array(c.first < rounds); };
    auto step = [&](const std::pair<Array, Array>& c) {
      return std::make_pair(Array(c.first + 1),
                            Array(fj::where(c.first < count, Array(f(c.second)), c.second)));
    };
    return lax::while_loop(more, step, std::make_pair(Array(fj::array(0)), x_)).second;
  }
}

}  // namespace fj
