// fj::debug::print and fj::debug::callback: runtime values of traced arrays, seen on every call
// of the compiled function (jax.debug.print, jax.debug.callback), not only while tracing.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include "fusejit/api/host_call.hpp"

namespace fj::debug {

/// Where fj::debug::print's lines go: each formatted line, without its newline.
using PrintHandler = std::function<void(std::string_view line)>;
/// Sends printed lines to `handler` from now on (nullptr: back to stdout, the default) and
/// returns the previous handler. Lines from concurrent calls never interleave.
PrintHandler set_print_handler(PrintHandler handler);

}  // namespace fj::debug

namespace fj::detail {
/// Stages (or, outside a trace, runs) the debug_print equation of fj::debug::print.
void debug_print(std::string_view fmt, CallbackArgs args);
/// How JAX prints debug_callback's `callback` param: its internal wrapper, whatever the function.
inline const char* const kDebugCallbackRepr =
    "<function debug_callback.<locals>._debug_callback.<locals>._flat_callback at 0xXXXXXXXXXXXX>";
}  // namespace fj::detail

namespace fj::debug {

/// Prints `fmt` with its `{}` placeholders (or `{0}`, `{1}`: argument numbers; `{{` and `}}`
/// are braces) replaced by the arguments' values as operator<< prints them, each time the
/// compiled function runs, in program order (also inside lax loops: once per iteration; under
/// vmap: once per example). Arguments are arrays, expressions, C++ scalars or pytrees of them.
/// A bad format is an fj::ValueError when the call is traced.
template <class... Args>
void print(std::string_view fmt, const Args&... args) {
  detail::debug_print(fmt, detail::CallbackArgs(args...));
}

/// Calls `fn` with the arguments' concrete values (fj::Array leaves, in the arguments'
/// structures) each time the compiled function runs, in program order; its result is ignored.
/// An exception from fn surfaces as fj::CallbackError from the call that ran it.
template <class F, class... Args>
void callback(F fn, const Args&... args) {
  detail::CallbackArgs a(args...);
  auto flat = [fn = std::move(fn), trees = a.trees](const std::vector<Array>& leaves) {
    detail::call_on_leaves<Args...>(fn, trees, leaves);
    return std::vector<Array>{};
  };
  ir::Params p;
  p.items.push_back({"effect", std::string("Debug")});
  p.items.push_back({"partitioned", false});
  (void)detail::call_host(ir::Prim::debug_callback,
                          detail::function_callback(std::move(flat), detail::type_name(typeid(F)),
                                                    {}, detail::kDebugCallbackRepr),
                          a.leaves, std::move(p), /*print_callback=*/true);
}

}  // namespace fj::debug
