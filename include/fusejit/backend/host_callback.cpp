// run_callback: the one place a backend calls a callback equation's function.
#include "fusejit/backend/host_callback.hpp"

#include <string>

namespace fj::backend {

namespace {

// The API function that staged the equation, for messages.
const char* api_name(ir::Prim p) {
  switch (p) {
    case ir::Prim::debug_print:
      return "fj::debug::print";
    case ir::Prim::debug_callback:
      return "fj::debug::callback";
    default:
      return "fj::pure_callback";
  }
}

}  // namespace

void run_callback(const ir::Eqn& e, const Value* in, Value* out) {
  const auto* cb =
      dynamic_cast<const HostCallback*>(e.params.get<ir::CallbackPtr>("callback").get());
  if (!cb)
    throw ValueError(std::string(ir::name(e.prim)) + ": its callback param is not a host function");
  try {
    cb->call(std::span<const Value>(in, e.in.size()), std::span<Value>(out, e.out.size()));
  } catch (const std::exception& ex) {
    throw CallbackError(std::string(api_name(e.prim)) + ": the callback " + cb->name() +
                        " raised: " + ex.what());
  } catch (...) {
    throw CallbackError(std::string(api_name(e.prim)) + ": the callback " + cb->name() +
                        " raised a non-standard exception");
  }
}

}  // namespace fj::backend
