// fusejit with its Eigen interop (fj::view, fj::to_eigen): opt-in, so that <fusejit/fusejit.hpp>
// alone does not pull in <Eigen/Core>.
#pragma once
#include "fusejit/api/eigen.hpp"
#include "fusejit/fusejit.hpp"
