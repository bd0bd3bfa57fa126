// Every out-of-line definition, compiled once: included by the FUSEJIT_IMPLEMENTATION unit.
// Backend headers (xsimd, LLVM; NVRTC later) are reachable from here only.
#include "fusejit/ir/shape_rules.ipp"
#include "fusejit/ir/printer.ipp"
#include "fusejit/expr/lowering.ipp"
#include "fusejit/expr/lowering_library.ipp"
#include "fusejit/expr/lowering_shape.ipp"
#include "fusejit/expr/lowering_creation.ipp"
#include "fusejit/expr/materialize.ipp"
#include "fusejit/api/factories.ipp"
#include "fusejit/api/creation.ipp"
#include "fusejit/api/print.ipp"
#include "fusejit/api/jit.ipp"
#include "fusejit/api/subtrace.ipp"
#include "fusejit/api/lax_control.ipp"
#include "fusejit/runtime/allocator.ipp"
#include "fusejit/runtime/thread_pool.ipp"
#include "fusejit/backend/reference/reference_backend.ipp"
#ifdef FUSEJIT_WITH_LLVM
#include "fusejit/backend/llvm/llvm_backend.ipp"
#endif
#include "fusejit/backend/registry.ipp"
