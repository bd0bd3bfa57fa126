// ir::Aval, an abstract value: what a trace knows of an array (dtype, shape, weak type).
#pragma once
#include <string>

#include "fusejit/core/dtype.hpp"
#include "fusejit/core/shape.hpp"

namespace fj::ir {

/// Abstract value: what a trace knows of an array.
struct Aval {
  DType dtype = DType::f32;
  Shape shape;
  bool weak = false;
  friend bool operator==(const Aval&, const Aval&) = default;
  /// "f32[3,4]" as jaxprs print types.
  std::string str() const { return std::string(short_name(dtype)) + "[" + shape.csv() + "]"; }
};

}  // namespace fj::ir
