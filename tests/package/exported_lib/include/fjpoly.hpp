// fjpoly: evaluates a polynomial on an array with one jitted kernel (the package test's exported library).
#pragma once
#include <fusejit/fusejit.hpp>

#include <vector>

namespace fjpoly {

/// c[0] + c[1] x + c[2] x^2 + ..., elementwise, by Horner's rule.
fj::Array horner(const std::vector<float>& coefficients, const fj::Array& x);

}  // namespace fjpoly
