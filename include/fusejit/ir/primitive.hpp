// The primitive enum and its per-primitive facts, generated from primitives.def.
#pragma once
#include <cstdint>
#include <string_view>

namespace fj::ir {

enum class Prim : std::uint16_t {
#define FUSEJIT_PRIMITIVE(id, name, arity, kind, flags) id,
#include "fusejit/ir/primitives.def"
#undef FUSEJIT_PRIMITIVE
};

enum class PrimKind : std::uint8_t {
  unary,
  binary,
  compare,
  logical,
  select,
  convert,
  shape,
  index_map,
  reduce,
  library,
  generator,
  control,
  multi,    // elementwise with several results (threefry2x32)
  callback  // a host function called between kernels: any number of operands and results
};

namespace prim_flags {
inline constexpr unsigned C = 1, D = 2, F = 4, I = 8, E = 16, P = 32;
}

struct PrimInfo {
  std::string_view name;
  int arity;
  PrimKind kind;
  unsigned flags;
};

inline constexpr PrimInfo kPrimInfo[] = {
#define FUSEJIT_PRIMITIVE(id, name, arity, kind, flags) \
  {name, arity, PrimKind::kind, [] {                    \
     using namespace prim_flags;                        \
     return static_cast<unsigned>(flags);               \
   }()},
#include "fusejit/ir/primitives.def"
#undef FUSEJIT_PRIMITIVE
};

inline constexpr int kNumPrims = sizeof(kPrimInfo) / sizeof(kPrimInfo[0]);

constexpr const PrimInfo& info(Prim p) { return kPrimInfo[static_cast<int>(p)]; }
constexpr std::string_view name(Prim p) { return info(p).name; }
constexpr bool is_float_only(Prim p) { return info(p).flags & prim_flags::F; }
constexpr bool is_int_only(Prim p) { return info(p).flags & prim_flags::I; }
/// Whether p is an elementwise predicate (P): its result is bool whatever its operand's dtype.
constexpr bool is_predicate(Prim p) { return info(p).flags & prim_flags::P; }
/// Whether p has a side effect (E): its equations are kept by DCE and run in program order.
constexpr bool is_effectful(Prim p) { return info(p).flags & prim_flags::E; }
/// How many results an equation of p has, where the kind fixes it (-1: control, callbacks and
/// library primitives, whose shape rules say: sort has one per operand, top_k two).
constexpr int num_results(Prim p) {
  const PrimKind k = info(p).kind;
  if (k == PrimKind::control || k == PrimKind::callback || k == PrimKind::library) return -1;
  return k == PrimKind::multi ? 2 : 1;
}

}  // namespace fj::ir
