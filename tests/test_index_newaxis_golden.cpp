// fj::newaxis (Python's None) and fj::ellipsis (`...`) in x(...) and x.at(...) against JAX 0.10.2
// (the nax_* sections of tests/golden/index_goldens.txt, printed by
// tests/golden/index_goldens.py): values bit for bit on both backends, gradients (JAX's and
// central differences, f64), jaxpr text, and the bad-input errors.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <string>
#include <tuple>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "index_golden_inputs.hpp"
#include "throws_with.hpp"
#include "weighted_grad.hpp"

using fj::ellipsis;
using fj::newaxis;
using fj::range;
using namespace index_golden;

namespace {

Array x3() { return steps(60, 0.5, -7.0, {4, 5, 3}); }
Array perm() { return ivec({2, -3, 1}, {3}); }
Array scal() { return ivec({-2}, {}); }

const auto all = range();
const auto back = range(fj::none, fj::none, -1);
const auto back2 = range(fj::none, fj::none, -2);

const std::map<std::string, Case>& cases() {
  using fj::in_axes;
  static const std::map<std::string, Case> c = {
      {"nax_ell_int", {[](Tracer v, Tracer) { return Array(v(ellipsis, 0)); }, x3, k}},
      {"nax_new_mid", {[](Tracer v, Tracer) { return Array(v(all, newaxis)); }, x3, k}},
      {"nax_new_front", {[](Tracer v, Tracer) { return Array(v(fj::none)); }, x, k}},
      {"nax_int_ell", {[](Tracer v, Tracer) { return Array(v(1, ellipsis)); }, x3, k}},
      {"nax_ell_new", {[](Tracer v, Tracer) { return Array(v(ellipsis, newaxis)); }, x3, k}},
      {"nax_ell", {[](Tracer v, Tracer) { return Array(v(ellipsis)); }, x, k}},
      {"nax_new_slice_int",
       {[](Tracer v, Tracer) { return Array(v(newaxis, all, newaxis, 2)); }, x3, k}},
      {"nax_rev_new", {[](Tracer v, Tracer) { return Array(v(back, newaxis)); }, x, k}},
      {"nax_mix_gather",
       {[](Tracer v, Tracer t) { return Array(v(1, newaxis, range(1, 3), ellipsis, t)); }, x3, k}},
      {"nax_arr_new", {[](Tracer v, Tracer t) { return Array(v(t, newaxis)); }, x, k}},
      {"nax_new_arr_arr", {[](Tracer v, Tracer t) { return Array(v(newaxis, t, t)); }, x, k}},
      {"nax_arr_new_arr", {[](Tracer v, Tracer t) { return Array(v(t, newaxis, t)); }, x, k}},
      {"nax_arr_ell_arr", {[](Tracer v, Tracer t) { return Array(v(t, ellipsis, t)); }, x, k}},
      // Adjacent axes, but a new axis or `...` between the arrays: they move to the front.
      {"nax_sep_new", {[](Tracer v, Tracer t) { return Array(v(all, t, newaxis, t)); }, x3, k}},
      {"nax_sep_ell", {[](Tracer v, Tracer t) { return Array(v(all, t, ellipsis, t)); }, x3, k}},
      {"nax_ell_arr", {[](Tracer v, Tracer t) { return Array(v(ellipsis, t)); }, x3, k}},
      {"nax_step_new_arr", {[](Tracer v, Tracer t) { return Array(v(newaxis, back2, t)); }, x3, k}},
      {"nax_scalar_new", {[](Tracer v, Tracer t) { return Array(v(newaxis, t)); }, x, scal}},
      {"nax_at_new_add", {[](Tracer v, Tracer t) { return v.at(newaxis, t).add(1.0); }, x, k}},
      {"nax_at_set_new", {[](Tracer v, Tracer) { return v.at(all, newaxis).set(10.0); }, x, k}},
      {"nax_at_ell_int_set", {[](Tracer v, Tracer) { return v.at(ellipsis, 0).set(7.0); }, x3, k}},
      {"nax_at_ell_arr_mul",
       {[](Tracer v, Tracer t) { return v.at(ellipsis, t).mul(-2.0); }, x3, k}},
      {"nax_at_arr_new_rows",
       {[](Tracer v, Tracer t) {
          return v.at(t, newaxis).add(Array(u()(range(0, 3)).reshape({3, 1, 3})));
        },
        x, k}},
      {"nax_at_rev_new",
       {[](Tracer v, Tracer) {
          return v.at(back, newaxis, 1).add(Array(fj::arange(5.0).reshape({5, 1})));
        },
        x, k}},
      {"nax_at_get", {[](Tracer v, Tracer t) { return v.at(t, newaxis).get(); }, x, k}},
      {"nax_vmap",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return Array(a(newaxis, b)); },
                          in_axes<2>{fj::none, 0})(v, t);
        },
        x, along}},
  };
  return c;
}

}  // namespace

TEST_CASE("index newaxis golden: fj::newaxis and fj::ellipsis in x(...) and x.at(...) as JAX's") {
  check_value_cases(cases());
}

TEST_CASE("index newaxis golden: eager x(...) with new axes and an ellipsis as JAX's") {
  for (const char* name : {"nax_ell_int", "nax_new_slice_int", "nax_mix_gather", "nax_scalar_new",
                           "nax_at_arr_new_rows"}) {
    CAPTURE(name);
    const Case& c = cases().at(name);
    const auto [got, want] = fusejit_test::golden_values(
        c.f(c.input(), c.index()), kGolden.lines("values " + std::string(name)));
    CHECK(got == want);
  }
}

// Sums and products of small multiples of 1/2: exact; central differences agree.
TEST_CASE("index newaxis golden: gradients as JAX's and central differences") {
  const GradCases fns = {
      {"nax_gather", {[](Tracer v) { return Array(v(newaxis, k(), newaxis)); }, x()}},
      {"nax_scatter",
       {[](Tracer v) { return v.at(ellipsis, perm()).add(Array(v(all, newaxis, 0))); }, x()}},
      {"nax_updates",
       {[](Tracer w) { return x().at(newaxis, perm()).add(w); },
        Array(u()(range(0, 3)).reshape({1, 3, 3}) * 0.5)}},
  };
  check_grad_cases(fns);
}

TEST_CASE("index newaxis golden: jaxpr text") {
  auto o = [] { return fj::ones({5, 3}); };
  auto o3 = [] { return fj::ones({4, 5, 3}); };
  const TextCases fns = {
      {"nax_ell_int", {[](Tracer v, Tracer) { return Array(v(ellipsis, 0)); }, o3(), k()}},
      {"nax_new_mid", {[](Tracer v, Tracer) { return Array(v(all, newaxis)); }, o3(), k()}},
      {"nax_ell_new", {[](Tracer v, Tracer) { return Array(v(ellipsis, newaxis)); }, o3(), k()}},
      {"nax_ell", {[](Tracer v, Tracer) { return Array(v(ellipsis)); }, o(), k()}},
      {"nax_new_slice_int",
       {[](Tracer v, Tracer) { return Array(v(newaxis, all, newaxis, 2)); }, o3(), k()}},
      {"nax_mix_gather",
       {[](Tracer v, Tracer t) { return Array(v(1, newaxis, range(1, 3), ellipsis, t)); }, o3(),
        k()}},
      {"nax_new_arr_arr", {[](Tracer v, Tracer t) { return Array(v(newaxis, t, t)); }, o(), k()}},
      {"nax_arr_new_arr", {[](Tracer v, Tracer t) { return Array(v(t, newaxis, t)); }, o(), k()}},
      {"nax_sep_new", {[](Tracer v, Tracer t) { return Array(v(all, t, newaxis, t)); }, o3(), k()}},
      {"nax_ell_arr", {[](Tracer v, Tracer t) { return Array(v(ellipsis, t)); }, o3(), k()}},
      {"nax_step_new_arr",
       {[](Tracer v, Tracer t) { return Array(v(newaxis, back2, t)); }, o3(), k()}},
      {"nax_scalar_new", {[](Tracer v, Tracer t) { return Array(v(newaxis, t)); }, o(), scal()}},
      {"nax_empty",
       {[](Tracer v, Tracer t) { return Array(v(newaxis, range(3, 1), t)); }, o(), k()}},
      {"nax_at_new_add", {[](Tracer v, Tracer t) { return v.at(newaxis, t).add(1.0); }, o(), k()}},
      {"nax_at_ell_int_set",
       {[](Tracer v, Tracer) { return v.at(ellipsis, 0).set(7.0); }, o3(), k()}},
      {"nax_at_rev_new",
       {[](Tracer v, Tracer) { return v.at(back, newaxis, 1).add(Array(v(all, range(0, 1)))); },
        o(), k()}},
      {"nax_at_get", {[](Tracer v, Tracer t) { return v.at(t, newaxis).get(); }, o(), k()}},
  };
  check_text_cases(fns);
}

TEST_CASE("index newaxis: two ellipses, too many indices and too many new axes raise ShapeError") {
  const Array a = fj::ones({2, 3});
  CHECK_THROWS_WITH_AS(Array(a(ellipsis, 0, ellipsis)),
                       doctest::Contains("fj::Array::operator(): an index can only have a single "
                                         "ellipsis, 2 were given for an array of shape (2, 3)"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(a(0, newaxis, 1, 2)),
                       doctest::Contains("fj::Array::operator(): too many indices for an array "
                                         "of shape (2, 3): 3 were given"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(a.at(ellipsis, ivec({0}, {1}), ellipsis).add(1.0),
                       doctest::Contains("fj::Array::at(...).add: an index can only have a single "
                                         "ellipsis"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(a(newaxis, newaxis, newaxis, newaxis, newaxis, newaxis, newaxis)),
                       doctest::Contains("7 new axes for an array of shape (2, 3) exceed rank 8"),
                       fj::ShapeError);
}
