// fusejit's jax.lax functions (api/lax_functions.hpp) against JAX 0.10.2
// (tests/golden/lax_table_goldens.txt, printed by tests/golden/lax_table_goldens.py): one row per
// call, its dtype, shape and values bit for bit on every backend and under jit, and for the rows
// that stage one primitive, JAX's make_jaxpr text; then bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <fusejit/api/lax_functions.hpp>
#include <fusejit/fusejit.hpp>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "golden_values.hpp"
#include "throws_with.hpp"

using fj::Array;

namespace {

constexpr fusejit_test::Golden kGolden{"lax_table_goldens.txt"};

// The golden inputs in their JAX dtypes (the file holds them as f64, which each is exactly).
Array in(char name) {
  const Array a = fusejit_test::golden_input(kGolden, std::string(1, name));
  if (std::string("ijs").find(name) != std::string::npos) return Array(a.astype(fj::i32));
  if (name == 'b') return Array(a.astype(fj::bool_));
  return Array(a.astype(fj::f32));
}

// A row: the golden section, the inputs it takes (by name), the fusejit call on them, and
// whether make_jaxpr's text is checked (the rows that are one lax primitive, as JAX stages
// them). Every value is compared bit for bit: each op is exact or rounds once, as XLA's does
// (the inputs are small binary fractions, so batch_matmul's sums are exact in any order).
struct Row {
  const char* name;
  const char* args;
  std::function<Array(const std::vector<Array>&)> call;
  bool text = true;
};

using V = const std::vector<Array>&;
namespace lax = fj::lax;

std::vector<Row> rows() {
  return {
      {"sub", "xy", [](V a) { return Array(lax::sub(a[0], a[1])); }},
      {"mul", "xy", [](V a) { return Array(lax::mul(a[0], a[1])); }},
      {"div", "xy", [](V a) { return Array(lax::div(a[0], a[1])); }},
      {"div_int", "ij", [](V a) { return Array(lax::div(a[0], a[1])); }},
      {"max", "xy", [](V a) { return Array(lax::max(a[0], a[1])); }},
      {"min", "xy", [](V a) { return Array(lax::min(a[0], a[1])); }},
      {"eq", "xy", [](V a) { return Array(lax::eq(a[0], a[1])); }},
      {"ne", "xy", [](V a) { return Array(lax::ne(a[0], a[1])); }},
      {"lt", "xy", [](V a) { return Array(lax::lt(a[0], a[1])); }},
      {"le", "ij", [](V a) { return Array(lax::le(a[0], a[1])); }},
      {"gt", "ij", [](V a) { return Array(lax::gt(a[0], a[1])); }},
      {"ge", "xy", [](V a) { return Array(lax::ge(a[0], a[1])); }},
      {"shift_left", "is", [](V a) { return Array(lax::shift_left(a[0], a[1])); }},
      {"shift_right_arithmetic", "is",
       [](V a) { return Array(lax::shift_right_arithmetic(a[0], a[1])); }},
      {"shift_right_logical", "is",
       [](V a) { return Array(lax::shift_right_logical(a[0], a[1])); }},
      {"neg", "x", [](V a) { return Array(lax::neg(a[0])); }},
      {"neg_int", "i", [](V a) { return Array(lax::neg(a[0])); }},
      {"round", "x", [](V a) { return lax::round(a[0]); }},
      {"round_even", "x",
       [](V a) { return lax::round(a[0], lax::RoundingMethod::to_nearest_even); }},
      {"select", "bxy", [](V a) { return lax::select(a[0], a[1], a[2]); }},
      {"select_n", "bxy",
       [](V a) {
         return lax::select_n(a[0], {a[1], a[2]});
       }},
      {"reduce_sum", "c",
       [](V a) {
         return lax::reduce_sum(a[0], {0, 2});
       }},
      {"reduce_prod", "c", [](V a) { return lax::reduce_prod(a[0], {1}); }},
      {"reduce_max", "x", [](V a) { return lax::reduce_max(a[0], {1}); }},
      {"reduce_min", "x",
       [](V a) {
         return lax::reduce_min(a[0], {0, 1});
       }},
      {"reduce_and", "b", [](V a) { return lax::reduce_and(a[0], {1}); }},
      {"reduce_or", "b", [](V a) { return lax::reduce_or(a[0], {0}); }},
      {"rev", "c",
       [](V a) {
         return lax::rev(a[0], {0, 2});
       }},
      {"broadcast_in_dim", "v",
       [](V a) {
         return lax::broadcast_in_dim(a[0], {2, 5, 3}, {1});
       }},
      {"broadcast", "v",
       [](V a) {
         return lax::broadcast(a[0], {2, 1});
       }},
      {"broadcast_to_rank", "v", [](V a) { return lax::broadcast_to_rank(a[0], 3); }},
      {"broadcasted_iota", "",
       [](V) {
         return lax::broadcasted_iota(fj::i32, {2, 3}, 1);
       }},
      {"collapse", "c", [](V a) { return lax::collapse(a[0], 1, 3); }},
      {"collapse_to_end", "c", [](V a) { return lax::collapse(a[0], 0); }},
      {"convert_element_type", "v", [](V a) { return lax::convert_element_type(a[0], fj::i32); }},
      {"slice_in_dim", "c", [](V a) { return lax::slice_in_dim(a[0], 1, std::nullopt, 2, 2); }},
      {"slice_in_dim_negative", "c", [](V a) { return lax::slice_in_dim(a[0], -3, -1, 1, 1); }},
      {"index_in_dim", "c", [](V a) { return lax::index_in_dim(a[0], -1, 1); }, false},
      {"index_in_dim_squeezed", "c", [](V a) { return lax::index_in_dim(a[0], 1, 2, false); },
       false},
      {"dynamic_slice_in_dim", "c", [](V a) { return lax::dynamic_slice_in_dim(a[0], 2, 2, 2); },
       false},
      {"dynamic_slice_in_dim_clamped", "c",
       [](V a) { return lax::dynamic_slice_in_dim(a[0], 3, 3, 2); }, false},
      {"dynamic_index_in_dim", "c",
       [](V a) { return lax::dynamic_index_in_dim(a[0], 1, 1, false); }, false},
      {"dynamic_update_slice_in_dim", "xy",
       [](V a) {
         return lax::dynamic_update_slice_in_dim(a[0], lax::slice_in_dim(a[1], 0, 2, 1, 1), 1, 1);
       },
       false},
      {"dynamic_update_index_in_dim", "xy",
       [](V a) {
         return lax::dynamic_update_index_in_dim(a[0], lax::index_in_dim(a[1], 0, 0, false), 2, 0);
       },
       false},
      {"full", "",
       [](V) {
         return lax::full({2, 3}, 1.5);
       },
       false},
      {"full_int", "", [](V) { return lax::full({3}, 7); }, false},
      {"full_like", "v", [](V a) { return lax::full_like(a[0], 2); }, false},
      {"full_like_dtype", "v",
       [](V a) {
         return lax::full_like(a[0], 2, fj::i32, fj::Shape{2, 2});
       },
       false},
      {"sort_key_val_keys", "xy", [](V a) { return lax::sort_key_val(a[0], a[1])[0]; }, false},
      {"sort_key_val_values", "xy", [](V a) { return lax::sort_key_val(a[0], a[1], 0)[1]; }, false},
      {"unstack_1", "c", [](V a) { return lax::unstack(a[0], 1)[1]; }, false},
      {"batch_matmul", "aw", [](V a) { return lax::batch_matmul(a[0], a[1]); }},
  };
}

std::vector<Array> inputs_of(const Row& row) {
  std::vector<Array> v;
  for (const char* p = row.args; *p; ++p) v.push_back(in(*p));
  return v;
}

// The result against the golden "values" section: dtype, then "shape : values", bit for bit
// (NaN matching NaN, and the sign of a zero).
void check_row(const Row& row, const Array& got) {
  CAPTURE(std::string(row.name));
  const auto lines = kGolden.lines(std::string("values ") + row.name);
  CHECK(std::string(fj::long_name(got.dtype())) == lines.at(0));
  const std::string& line = lines.at(1);
  fusejit_test::check_to_largest(fusejit_test::golden_values(line, got), 0, true);
}

}  // namespace

TEST_CASE("lax table golden: every row gives JAX's dtype and values, every backend") {
  fusejit_test::on_each_backend([&] {
    for (const Row& row : rows()) check_row(row, row.call(inputs_of(row)));
  });
}

TEST_CASE("lax table golden: the same rows under jit") {
  for (const Row& row : rows()) {
    const std::vector<Array> args = inputs_of(row);
    check_row(row, fj::jit([&](const std::vector<Array>& a) { return row.call(a); })(args));
  }
}

TEST_CASE("lax table golden: the one-primitive rows stage JAX's jaxpr text") {
  using T = fj::Tracer;
  std::map<std::string, std::function<std::string()>> texts;
  for (const Row& row : rows()) {
    if (!row.text) continue;
    const std::vector<Array> a = inputs_of(row);
    texts[row.name] = [row, a]() -> std::string {
      switch (a.size()) {
        case 0:
          return fj::make_jaxpr([&] { return row.call({}); })().str();
        case 1:
          return fj::make_jaxpr([&](T p) { return row.call({p}); })(a[0]).str();
        case 2:
          return fj::make_jaxpr([&](T p, T q) { return row.call({p, q}); })(a[0], a[1]).str();
        default:
          return fj::make_jaxpr([&](T p, T q, T r) {
                   return row.call({p, q, r});
                 })(a[0], a[1], a[2])
              .str();
      }
    };
  }
  fusejit_test::check_jaxpr_texts(kGolden, texts);
}

TEST_CASE("lax table golden: bad input names the function, the argument and the shape") {
  using fusejit_test::check_throws_with;
  const Array m = fj::ones({3, 4}), v = fj::ones({5});
  check_throws_with<fj::DTypeError>([&] { (void)lax::round(fj::ones({2}, fj::i32)); },
                                    {"fj::lax::round", "float", "i32[2]"});
  check_throws_with<fj::DTypeError>([&] { (void)lax::select(m, m, m); },
                                    {"fj::lax::select", "pred", "bool", "f32[3,4]"});
  check_throws_with<fj::TypeError>(
      [&] { (void)lax::select(Array(m > 0), m, Array(m.astype(fj::i32))); },
      {"fj::lax::select_n", "one shape and dtype", "f32[3,4]", "i32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)lax::select(Array(v > 0), m, m); },
                                    {"fj::lax::select_n", "bool[5]", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)lax::reduce_sum(m, {2}); },
                                    {"fj::lax::reduce_sum", "axes (2,)", "f32[3,4]"});
  check_throws_with<fj::DTypeError>([&] { (void)lax::reduce_and(m, {0}); },
                                    {"fj::lax::reduce_and", "bool", "f32[3,4]"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)lax::rev(m, {1, 1});
      },
      {"fj::lax::rev", "dimensions (1, 1)", "f32[3,4]"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)lax::broadcast_in_dim(v, {5, 3}, {1});
      },
      {"fj::lax::broadcast_in_dim", "f32[5]", "(5, 3)", "(1,)"});
  check_throws_with<fj::ShapeError>([&] { (void)lax::broadcast_to_rank(m, 1); },
                                    {"fj::lax::broadcast_to_rank", "rank 1", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)lax::collapse(m, 1, 0); },
                                    {"fj::lax::collapse", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)lax::slice_in_dim(m, 2, 7, 1, 1); },
                                    {"fj::lax::slice_in_dim", "limit 7", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)lax::index_in_dim(m, 3, 0); },
                                    {"fj::lax::index_in_dim", "index 3", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)lax::unstack(m, 2); },
                                    {"fj::lax::unstack", "axis 2", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)lax::batch_matmul(m, v); },
                                    {"fj::lax::batch_matmul", "f32[3,4]", "f32[5]"});
}
