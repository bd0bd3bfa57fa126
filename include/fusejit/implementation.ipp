// Every out-of-line definition, compiled once: included by the FUSEJIT_IMPLEMENTATION unit.
// Backend headers (xsimd now; LLVM and NVRTC later) are reachable from here only.
#include "fusejit/ir/shape_rules.ipp"
#include "fusejit/ir/printer.ipp"
#include "fusejit/expr/lowering.ipp"
#include "fusejit/expr/materialize.ipp"
#include "fusejit/api/factories.ipp"
#include "fusejit/api/print.ipp"
#include "fusejit/api/jit.ipp"
#include "fusejit/backend/reference/reference_backend.ipp"
#include "fusejit/backend/registry.ipp"
