// x.at(...) and x(...) with static integers, fj::range (any step) and integer arrays mixed
// against JAX 0.10.2 (the tup_* sections of tests/golden/index_goldens.txt, printed by
// tests/golden/index_goldens.py): values bit for bit on both backends (the updates add, move
// or compare small multiples of 1/2), out-of-range array entries dropped or clamped, vmap,
// gradients (JAX's and central differences, f64) and jaxpr text.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "index_golden_inputs.hpp"
#include "weighted_grad.hpp"

using fj::range;
using Mode = fj::lax::GatherScatterMode;
using namespace index_golden;

namespace {

Array x3() { return steps(60, 0.5, -7.0, {4, 5, 3}); }
Array perm() { return ivec({2, -3, 1}, {3}); }  // distinct after normalization
Array scal() { return ivec({-2}, {}); }         // a rank-0 index array

const auto all = range();
const auto every2 = range(fj::none, fj::none, 2);
const auto back2 = range(fj::none, fj::none, -2);

const std::map<std::string, Case>& cases() {
  using fj::in_axes;
  static const std::map<std::string, Case> c = {
      {"tup_get_range", {[](Tracer v, Tracer) { return v.at(range(1, 4)).get(); }, x, k}},
      {"tup_set_range", {[](Tracer v, Tracer) { return v.at(range(1, 4)).set(10.0); }, x, k}},
      {"tup_add_int_step", {[](Tracer v, Tracer) { return v.at(2, every2).add(10.0); }, x, k}},
      {"tup_get_arr_range", {[](Tracer v, Tracer t) { return v.at(t, range(0, 2)).get(); }, x, i}},
      {"tup_mul_range_arr",
       {[](Tracer v, Tracer t) { return v.at(range(1, 3), t).mul(-2.0); }, x, k}},
      {"tup_set_neg_step",
       {[](Tracer v, Tracer) { return v.at(back2).set(u()(range(0, 3))); }, x, k}},
      {"tup_get_neg_step_arr",
       {[](Tracer v, Tracer t) { return v.at(range(4, 0, -2), t).get(); }, x, k}},
      {"tup_add_full", {[](Tracer v, Tracer) { return v.at(all, all).add(u()); }, x, k}},
      {"tup_min_full_col", {[](Tracer v, Tracer) { return v.at(all, 1).min(0.0); }, x, k}},
      {"tup_max_range_arr",
       {[](Tracer v, Tracer t) { return v.at(range(1, fj::none), t).max(3.0); }, x, k}},
      {"tup_add_oob", {[](Tracer v, Tracer t) { return v.at(range(1, 3), t).add(1.0); }, x, oob}},
      {"tup_add_oob_clip",
       {[](Tracer v, Tracer t) { return v.at(range(1, 3), t).add(1.0, Mode::clip); }, x, oob}},
      {"tup_get_scalar", {[](Tracer v, Tracer t) { return v.at(t, range(1, 3)).get(); }, x, scal}},
      {"tup_set_scalar",
       {[](Tracer v, Tracer t) { return v.at(t, range(fj::none, fj::none, -1)).set(u()(0)); }, x,
        scal}},
      {"tup_index_mixed", {[](Tracer v, Tracer t) { return Array(v(range(1, 4), t)); }, x, k}},
      {"tup_nonadj_add",
       {[](Tracer v, Tracer t) { return v.at(t, range(1, 3), t).add(1.0); }, x3, k}},
      {"tup_nonadj_get", {[](Tracer v, Tracer t) { return v.at(t, all, t).get(); }, x3, k}},
      {"tup_int_arr_sep_get",
       {[](Tracer v, Tracer t) { return v.at(1, range(2, 4), t).get(); }, x3, k}},
      {"tup_int_set", {[](Tracer v, Tracer t) { return v.at(t, range(1, 3)).set(-5); }, ints, i}},
      {"tup_int_max_step", {[](Tracer v, Tracer) { return v.at(every2, 2).max(4); }, ints, k}},
      {"tup_int_add_neg",
       {[](Tracer v, Tracer t) { return v.at(range(3, fj::none, -1), t).add(3); }, ints, k}},
      {"tup_set_empty", {[](Tracer v, Tracer t) { return v.at(range(3, 1), t).set(1.0); }, x, k}},
      {"tup_vmap_add",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return a.at(range(1, 3), b).add(1.0); },
                          in_axes<2>{fj::none, 0})(v, t);
        },
        x, along}},
      {"tup_vmap_get",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return a.at(b, every2).get(); },
                          in_axes<2>{fj::none, 0})(v, t);
        },
        x, along}},
  };
  return c;
}

}  // namespace

TEST_CASE("index tuple golden: x.at(...) with integers, ranges and arrays mixed as JAX's") {
  check_value_cases(cases());
}

// Outside jit the same calls evaluate eagerly (their scalars are graph inputs, not literals).
TEST_CASE("index tuple golden: eager x.at(...) and x(...) as JAX's") {
  for (const char* name : {"tup_mul_range_arr", "tup_set_neg_step", "tup_int_arr_sep_get",
                           "tup_set_scalar", "tup_get_scalar", "tup_index_mixed", "tup_add_full"}) {
    CAPTURE(name);
    const Case& c = cases().at(name);
    const auto [got, want] = fusejit_test::golden_values(
        c.f(c.input(), c.index()), kGolden.lines("values " + std::string(name)));
    CHECK(got == want);
  }
}

// d/dx sum(w * f(x)) through gathers and scatters whose indices mix slices (a negative step
// too) with arrays: sums and products of small integers, exact; central differences agree.
TEST_CASE("index tuple golden: gradients as JAX's and central differences") {
  const GradCases fns = {
      {"tup_set",
       {[](Tracer v) {
          const Array r = v(range(3, 5));
          return v.at(range(1, 3), perm()).set(Array(r * r));
        },
        x()}},
      {"tup_add",
       {[](Tracer v) { return v.at(back2, 1).add(Array(v(range(1, 4), 2) * v(range(1, 4), 0))); },
        x()}},
      {"tup_get", {[](Tracer v) { return v.at(k(), range(0, 2)).get(); }, x()}},
      {"tup_updates",
       {[](Tracer w) { return x().at(range(1, 3), perm()).add(w); },
        Array(u()(range(0, 2)) * 0.25 + 1.0)}},
      {"tup_set_updates",
       {[](Tracer w) { return x().at(every2, range(1, fj::none)).set(w); },
        Array(u()(range(0, 3), range(0, 2)) * 0.5 - 1.0)}},
  };
  check_grad_cases(fns);
}

TEST_CASE("index tuple golden: jaxpr text") {
  auto o = [] { return fj::ones({5, 3}); };
  auto o3 = [] { return fj::ones({4, 5, 3}); };
  const TextCases fns = {
      {"tup_get_range", {[](Tracer v, Tracer) { return v.at(range(1, 4)).get(); }, o(), k()}},
      {"tup_set_range", {[](Tracer v, Tracer) { return v.at(range(1, 4)).set(2.0); }, o(), k()}},
      {"tup_add_int_step", {[](Tracer v, Tracer) { return v.at(2, every2).add(1.0); }, o(), k()}},
      {"tup_get_arr_range",
       {[](Tracer v, Tracer t) { return v.at(t, range(0, 2)).get(); }, o(), k()}},
      {"tup_mul_range_arr",
       {[](Tracer v, Tracer t) { return v.at(range(1, 3), t).mul(2.0); }, o(), k()}},
      {"tup_set_neg", {[](Tracer v, Tracer) { return v.at(back2).set(0.0); }, o(), k()}},
      {"tup_get_neg_arr",
       {[](Tracer v, Tracer t) { return v.at(range(4, 0, -2), t).get(); }, o(), k()}},
      {"tup_set_full_col", {[](Tracer v, Tracer) { return v.at(all, 1).set(0.0); }, o(), k()}},
      {"tup_add_int2", {[](Tracer v, Tracer) { return v.at(2, 1).add(1.0); }, o(), k()}},
      {"tup_min_range_clip",
       {[](Tracer v, Tracer t) { return v.at(range(1, fj::none), t).min(2.0, Mode::clip); }, o(),
        k()}},
      {"tup_index_mixed", {[](Tracer v, Tracer t) { return Array(v(range(1, 4), t)); }, o(), k()}},
      {"tup_get_scalar",
       {[](Tracer v, Tracer t) { return v.at(t, range(1, 3)).get(); }, o(), scal()}},
      {"tup_get_scalar_rev",
       {[](Tracer v, Tracer t) { return v.at(t, range(fj::none, fj::none, -1)).get(); }, o(),
        scal()}},
      {"tup_set_scalar",
       {[](Tracer v, Tracer t) { return v.at(t, range(1, 3)).set(1.0); }, o(), scal()}},
      {"tup_nonadj_add",
       {[](Tracer v, Tracer t) { return v.at(t, range(1, 3), t).add(1.0); }, o3(), k()}},
      {"tup_nonadj_get", {[](Tracer v, Tracer t) { return v.at(t, all, t).get(); }, o3(), k()}},
      {"tup_set_empty", {[](Tracer v, Tracer) { return v.at(range(3, 1)).set(1.0); }, o(), k()}},
      {"tup_int_arr_sep",
       {[](Tracer v, Tracer t) { return v.at(1, range(2, 4), t).get(); }, o3(), k()}},
  };
  check_text_cases(fns);
}
