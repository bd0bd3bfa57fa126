// FunctionRef: a non-owning reference to a callable. Templates hand a user's function to compiled
// library code through it, so the library's tracing and caching code is compiled once, in the
// library, instead of once per callable type in every user translation unit.
#pragma once
#include <memory>
#include <type_traits>
#include <utility>

namespace fj::detail {

template <class Signature>
class FunctionRef;

/// Refers to a callable that outlives it (a lambda in the calling frame); copying copies the
/// reference. Calling it costs one indirect call.
template <class R, class... A>
class FunctionRef<R(A...)> {
 public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
           std::is_invocable_r_v<R, F&, A...>) FunctionRef(F&& f)
  noexcept  // NOLINT: implicit, as a lambda argument converts to it
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_(&invoke<std::remove_reference_t<F>>) {}

  R operator()(A... a) const { return call_(object_, std::forward<A>(a)...); }

 private:
  template <class F>
  static R invoke(void* object, A... a) {
    return (*static_cast<F*>(object))(std::forward<A>(a)...);
  }
  void* object_;
  R (*call_)(void*, A...);
};

}  // namespace fj::detail
