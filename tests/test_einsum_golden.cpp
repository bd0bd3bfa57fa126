// fj::einsum against JAX 0.10.2 (tests/golden/einsum_goldens.txt, printed by
// tests/golden/einsum_goldens.py): jaxpr text byte for byte, values and gradients in f64 (JAX's
// and central differences), an attention block, and subscripts that do not fit the operands.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "fusejit/expr/einsum_path.hpp"
#include "golden_file.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::as_doubles;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"einsum_goldens.txt"};
constexpr auto numbers = fusejit_test::golden_numbers;

struct Case {
  std::string spec;
  std::vector<fj::Shape> shapes;
};

// A chain of fifteen matrices, "ab,bc,...,op->ap", of sizes 2 to 4 (einsum_goldens.py's chain15).
Case chain15() {
  Case c;
  for (int k = 0; k < 15; ++k) {
    c.spec += std::string(k ? "," : "") + static_cast<char>('a' + k) + static_cast<char>('b' + k);
    c.shapes.push_back({2 + k % 3, 2 + (k + 1) % 3});
  }
  c.spec += "->ap";
  return c;
}

// The cases of einsum_goldens.py, in its words.
const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> m = {
      {"batched_matmul", {"bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}}},
      {"matmul_transposed_rhs", {"ij,kj->ik", {{3, 4}, {5, 4}}}},
      {"implicit_matmul", {"ij,jk", {{3, 4}, {4, 2}}}},
      {"diagonal", {"ii->i", {{3, 3}}}},
      {"trace", {"ii", {{3, 3}}}},
      {"transpose", {"ij->ji", {{2, 3}}}},
      {"sum_all", {"ij->", {{3, 4}}}},
      {"dot", {"i,i->", {{5}, {5}}}},
      {"outer", {"i,j->ij", {{3}, {4}}}},
      {"matvec", {"ij,j->i", {{3, 4}, {4}}}},
      {"elementwise", {"ij,ij->ij", {{2, 3}, {2, 3}}}},
      {"attention_scores", {"bhqd,bhkd->bhqk", {{2, 2, 3, 4}, {2, 2, 5, 4}}}},
      {"attention_values", {"bhqk,bhkd->bhqd", {{2, 2, 3, 5}, {2, 2, 5, 4}}}},
      {"ellipsis", {"...ij,...jk->...ik", {{2, 3, 4}, {2, 4, 2}}}},
      {"permute3", {"ijk->kij", {{2, 3, 4}}}},
      {"repeated_kept", {"iij->ij", {{3, 3, 2}}}},
      {"sum_one_side", {"ij,jk->k", {{3, 4}, {4, 2}}}},
      {"broadcast_one", {"ij,jk->ik", {{1, 4}, {4, 3}}}},
      {"three_operands", {"ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 5}}}},
      // opt_einsum's optimal order, not left to right (right first here; outer products).
      {"three_right_first", {"ij,jk,kl->il", {{10, 8}, {8, 6}, {6, 2}}}},
      {"chain4", {"ab,bc,cd,de->ae", {{2, 9}, {9, 3}, {3, 8}, {8, 2}}}},
      {"bilinear", {"i,ij,j->", {{5}, {5, 6}, {6}}}},
      {"batched3", {"bij,bjk,bkl->bil", {{2, 3, 4}, {2, 4, 5}, {2, 5, 2}}}},
      {"outer3", {"i,j,k->kji", {{3}, {4}, {2}}}},
      {"shared_letter3", {"ij,ik,il->jkl", {{4, 2}, {4, 3}, {4, 5}}}},
      // Five and more: opt_einsum's branch-and-bound searches, then greedy from fifteen.
      {"chain5", {"ab,bc,cd,de,ef->af", {{2, 9}, {9, 3}, {3, 8}, {8, 2}, {2, 7}}}},
      {"ring6", {"ij,jk,kl,lm,mn,ni->", {{3, 4}, {4, 2}, {2, 5}, {5, 3}, {3, 2}, {2, 3}}}},
      {"vector_chain7",
       {"a,ab,bc,cd,de,ef,f->", {{4}, {4, 3}, {3, 5}, {5, 2}, {2, 6}, {6, 3}, {3}}}},
      {"star9",
       {"ia,ib,ic,id,ie,if,ig,ih,i->abc",
        {{3, 2}, {3, 4}, {3, 2}, {3, 3}, {3, 2}, {3, 2}, {3, 3}, {3, 2}, {3}}}},
      {"chain15", chain15()},
      {"hadamard16",
       {"ab,ab,bc,cd,cd,de,ef,fg,gh,hi,ij,jk,kl,lm,mn,no->ao",
        {{2, 3},
         {2, 3},
         {3, 2},
         {2, 2},
         {2, 2},
         {2, 3},
         {3, 2},
         {2, 2},
         {2, 3},
         {3, 2},
         {2, 2},
         {2, 3},
         {3, 2},
         {2, 2},
         {2, 3},
         {3, 2}}}},
  };
  return m;
}

Array operand(const fj::Shape& s, int k, fj::DType d = fj::f64) {
  std::vector<double> v(static_cast<std::size_t>(s.size()));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = std::sin(0.37 * static_cast<double>(i) + 1.3 * k + 0.1);
  return fj::array(v, s).astype(d);
}

std::vector<Array> operands(const Case& c) {
  std::vector<Array> xs;
  for (std::size_t k = 0; k < c.shapes.size(); ++k)
    xs.push_back(operand(c.shapes[k], static_cast<int>(k)));
  return xs;
}

// The einsum of a case over its operands.
Array einsum_of(const std::string& spec, const std::vector<Array>& xs) {
  return fj::einsum(spec, xs);
}

// |a - b| within (n + 2) f64 epsilons of the sum of the magnitudes of up to n = 64 products:
// the contraction order (Eigen's GEMM panels, the reference's loops) differs from XLA's.
bool close(double got, double want, double scale) {
  return std::fabs(got - want) <= 66 * 0x1p-52 * std::max(1.0, scale);
}

}  // namespace

TEST_CASE("einsum golden: values as JAX's, f64") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, c] : cases()) {
      CAPTURE(backend);
      CAPTURE(name);
      const std::vector<Array> xs = operands(c);
      const auto [got, want] =
          fusejit_test::golden_values(einsum_of(c.spec, xs), kGolden.lines("values " + name));
      for (std::size_t i = 0; i < got.size(); ++i) CHECK(close(got[i], want[i], 8));
    }
  }
}

TEST_CASE("einsum golden: gradients as JAX's and central differences, f64") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, c] : cases()) {
      CAPTURE(backend);
      CAPTURE(name);
      const std::vector<Array> xs = operands(c);
      const Array out = einsum_of(c.spec, xs);
      std::vector<double> wv(static_cast<std::size_t>(out.size()));
      for (std::size_t i = 0; i < wv.size(); ++i) wv[i] = 1.0 + static_cast<double>(i);
      const Array w = fj::array(wv, out.shape());
      for (std::size_t k = 0; k < xs.size(); ++k) {
        CAPTURE(k);
        // The loss as a function of operand k alone, the others fixed.
        auto loss = [&, k](const Array& v) {
          std::vector<Array> args = xs;
          args[k] = v;
          return Array(fj::sum(w * einsum_of(c.spec, args)));
        };
        const auto g = as_doubles(fj::grad([&](Tracer v) { return loss(v); })(xs[k]));
        const auto want = numbers(kGolden.lines("grad " + name + " " + std::to_string(k))[0]);
        REQUIRE(g.size() == want.size());
        const auto x0 = as_doubles(xs[k]);
        for (std::size_t i = 0; i < g.size(); ++i) {
          CAPTURE(i);
          CHECK(close(g[i], want[i], 400));
          // einsum is linear in each operand: central differences are exact up to rounding
          // (h = 1e-3, the loss below 1e3: about 1e-10 of error).
          auto at = [&](double d) {
            std::vector<double> v = x0;
            v[i] += d;
            return loss(fj::array(v, xs[k].shape())).item<double>();
          };
          CHECK(std::fabs((at(1e-3) - at(-1e-3)) / 2e-3 - g[i]) <= 1e-8 * std::max(1.0, g[i]));
        }
      }
    }
  }
}

TEST_CASE("einsum golden: jaxpr text") {
  for (const auto& [name, c] : cases()) {
    CAPTURE(name);
    std::vector<Array> xs;
    for (const fj::Shape& s : c.shapes) xs.push_back(fj::ones(s));
    const std::string text =
        fj::make_jaxpr([&](const std::vector<Tracer>& v) {
          return Array(fj::einsum(c.spec, std::vector<Array>(v.begin(), v.end())));
        })(xs)
            .str();
    const auto it = kGolden.all().find("jaxpr " + name);
    REQUIRE(it != kGolden.all().end());
    CHECK(text == it->second);
  }
}

// The realistic program: one attention head block, softmax(q k^T / sqrt(d)) v, through
// two einsums, against the same computed with fj::matmul (bit for bit: both are the same
// dot_generals on the LLVM backend's GEMM) and its gradient against central differences.
TEST_CASE("einsum golden: an attention block") {
  const Array q = operand({2, 4, 8}, 0), k = operand({2, 6, 8}, 1), v = operand({2, 6, 8}, 2);
  auto attention = [](Tracer qq, Tracer kk, Tracer vv) {
    const Array s = fj::einsum("bqd,bkd->bqk", qq, kk) / std::sqrt(8.0);
    const Array e = fj::exp(s - fj::max(s, {2}, true));
    const Array p = e / fj::sum(e, {2}, true);
    return Array(fj::einsum("bqk,bkd->bqd", p, vv));
  };
  auto with_matmul = [](Tracer qq, Tracer kk, Tracer vv) {
    const Array s = fj::matmul(qq, fj::transpose(kk, {0, 2, 1})) / std::sqrt(8.0);
    const Array e = fj::exp(s - fj::max(s, {2}, true));
    const Array p = e / fj::sum(e, {2}, true);
    return Array(fj::matmul(p, vv));
  };
  const auto a = as_doubles(fj::jit(attention)(q, k, v));
  const auto m = as_doubles(fj::jit(with_matmul)(q, k, v));
  REQUIRE(a.size() == m.size());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(close(a[i], m[i], 1));
  auto loss = [&](Tracer qq) { return fj::sum(fj::integer_pow(attention(qq, k, v), 2)); };
  const auto g = as_doubles(fj::jit(fj::grad(loss))(q));
  const auto x0 = as_doubles(q);
  for (std::size_t i = 0; i < g.size(); i += 7) {
    auto at = [&](double d) {
      std::vector<double> x = x0;
      x[i] += d;
      return fj::jit(loss)(fj::array(x, q.shape())).item<double>();
    };
    CHECK(std::fabs((at(1e-6) - at(-1e-6)) / 2e-6 - g[i]) <= 1e-7 * std::max(1.0, std::fabs(g[i])));
  }
}

// The order of contractions decides the jaxpr's equations and the size of every intermediate:
// fusejit's search against opt_einsum's contract_path (optimize="auto") on 300 random subscripts
// of 3 to 17 operands, which cover its optimal, branch-all, branch-2, branch-1 and greedy paths,
// scalar operands, repeated letters and extents of 1.
TEST_CASE("einsum golden: contraction paths as opt_einsum's") {
  int checked = 0;
  for (const auto& [name, text] : kGolden.all()) {
    if (name.rfind("path ", 0) != 0) continue;
    CAPTURE(name);
    const std::vector<std::string> lines = kGolden.lines(name);
    REQUIRE(lines.size() >= 2);
    const std::string& spec = lines[0];
    CAPTURE(spec);
    const std::size_t arrow = spec.find("->");
    std::vector<std::string> inputs{""};
    for (char ch : spec.substr(0, arrow)) {
      if (ch == ',')
        inputs.emplace_back();
      else
        inputs.back() += ch;
    }
    std::map<char, std::int64_t> size;
    std::istringstream sizes(lines[1]);
    for (std::string item; sizes >> item;) size[item[0]] = std::stoll(item.substr(2));
    std::vector<std::pair<int, int>> want;
    std::istringstream pairs(lines.size() > 2 ? lines[2] : "");
    for (int i, j; pairs >> i >> j;) want.emplace_back(i, j);
    CHECK(fj::detail::einsum_contraction_path(inputs, spec.substr(arrow + 2), size) == want);
    ++checked;
  }
  CHECK(checked == 300);
}

TEST_CASE("einsum golden: subscripts that do not fit the operands") {
  const Array a = fj::ones({2, 3}), b = fj::ones({4, 5});
  CHECK_THROWS_WITH_AS(Array(fj::einsum("ij,jk->ik", a, b)),
                       doctest::Contains("fj::einsum: subscript 'j' is 3 in operand 0 but 4 in "
                                         "operand 1 (shapes (2, 3), (4, 5))"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::einsum("ij,jk->ik", a)),
                       doctest::Contains("name 2 operand(s) but 1 were given, of shapes (2, 3)"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::einsum("ijk->i", a)),
                       doctest::Contains("operand 0 has shape (2, 3) but its subscripts 'ijk'"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::einsum("ij->ik", a)), doctest::Contains("'k'"), fj::ValueError);
  CHECK_THROWS_WITH_AS(Array(fj::einsum("i1->i", a)), doctest::Contains("letters"), fj::ValueError);
}
