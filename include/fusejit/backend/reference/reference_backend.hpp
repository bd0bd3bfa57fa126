// The reference backend: an op-by-op interpreter, the test oracle and the un-jitted baseline.
#pragma once
#include <memory>

#include "fusejit/backend/backend.hpp"

namespace fj::backend {

/// A new reference backend. Its executables materialize every intermediate; run() is thread-safe.
/// Defined in reference_backend.cpp, compiled into the one implementation unit.
std::unique_ptr<Backend> make_reference_backend();

}  // namespace fj::backend
