// The one include of fusejit. Define FUSEJIT_IMPLEMENTATION in exactly one translation unit
// (the fusejit::fusejit CMake target does) to compile the library's implementation into it.
#pragma once

#include "fusejit/version.hpp"
#include "fusejit/core/dtype.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/core/promotion.hpp"
#include "fusejit/core/shape.hpp"
#include "fusejit/core/warning.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/printer.hpp"
#include "fusejit/runtime/cache_stats.hpp"
#include "fusejit/runtime/thread_pool.hpp"
#include "fusejit/backend/backend.hpp"
#include "fusejit/expr/array.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/shape_ops.hpp"
#include "fusejit/expr/array_methods.hpp"
#include "fusejit/expr/materialize.hpp"
#include "fusejit/api/factories.hpp"
#include "fusejit/api/creation.hpp"
#include "fusejit/api/print.hpp"
#include "fusejit/api/static_argnums.hpp"
#include "fusejit/api/pytree.hpp"
#include "fusejit/api/checking_leaks.hpp"
#include "fusejit/api/jit.hpp"
#include "fusejit/api/subtrace.hpp"
#include "fusejit/api/transforms.hpp"
#include "fusejit/api/lax_control.hpp"
#include "fusejit/api/make_jaxpr.hpp"
#include "fusejit/api/random.hpp"
#include "fusejit/api/device.hpp"
#include "fusejit/api/cpu_target.hpp"

#ifdef FUSEJIT_IMPLEMENTATION
#include "fusejit/implementation.hpp"
#endif
