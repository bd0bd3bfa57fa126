// jax.scipy.stats in fusejit: every distribution under fj::scipy::stats::<distribution>::
// (norm.logpdf, poisson.pmf, multivariate_normal.logpdf, ...) and sem, composed as JAX composes
// them; one include for all of api/stats/.
#pragma once
#include "fusejit/api/stats/common.hpp"
#include "fusejit/api/stats/continuous.hpp"
#include "fusejit/api/stats/continuous_more.hpp"
#include "fusejit/api/stats/discrete.hpp"
#include "fusejit/api/stats/multivariate.hpp"
#include "fusejit/api/stats/sample.hpp"
