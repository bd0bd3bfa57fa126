// eigh, eigvalsh, qr, svd and the matrix norms 2, -2, nuc against JAX 0.10.2
// (tests/golden/spectral_goldens.txt, printed by tests/golden/spectral_goldens.py): jaxpr text byte
// for byte, values and gradients in f64 (JAX's and central differences), vmap, NaNs, and bad input,
// on both backends.
//
// Eigenvectors are defined up to their signs (LAPACK's syevd, which JAX calls, and Eigen's
// solver may pick different ones): each column is compared after flipping it to the sign of
// JAX's column (the sign of their dot product), and the gradients are of functions that do not
// depend on the signs (eigenvalues, squared eigenvectors, v diag(exp(w)) v^T).
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "weighted_grad.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"spectral_goldens.txt"};
constexpr auto numbers = fusejit_test::golden_numbers;
using fusejit_test::as_doubles;

Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// The inputs are symmetric (or symmetrized) matrices with entries below 2 and eigenvalue gaps
// above 0.26 (the script's matrices; numpy says so). Both solvers are backward stable: each
// eigenvalue within n eps ||A|| (4 * 2.2e-16 * 4 = 3.5e-15) of the exact one, each eigenvector
// within that divided by the gap (1.4e-14); 1e-12 bounds both with room.
constexpr double kTol = 1e-12;

// Elementwise within kTol, NaN where JAX has NaN; the worst element is reported.
void check_close(const std::vector<double>& got, const std::vector<double>& want,
                 double tol = kTol) {
  REQUIRE(got.size() == want.size());
  double worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double err =
        std::isnan(want[i]) ? (std::isnan(got[i]) ? 0.0 : INFINITY) : std::fabs(got[i] - want[i]);
    if (!(err <= worst)) worst = err, at = i;
  }
  CAPTURE(at);
  CHECK(worst <= tol);
}

// Eigenvectors (..., n, n), column j of each matrix flipped to the sign of JAX's before the
// comparison.
void check_eigenvectors(const Array& v, const std::vector<double>& want) {
  std::vector<double> got = as_doubles(v);
  REQUIRE(got.size() == want.size());
  const auto n = static_cast<std::size_t>(v.shape()[v.shape().rank() - 1]);
  for (std::size_t m = 0; m < got.size(); m += n * n)
    for (std::size_t j = 0; j < n; ++j) {
      double dot = 0;
      for (std::size_t i = 0; i < n; ++i) dot += got[m + i * n + j] * want[m + i * n + j];
      if (dot < 0)
        for (std::size_t i = 0; i < n; ++i) got[m + i * n + j] = -got[m + i * n + j];
    }
  check_close(got, want);
}

void check_eigh(const std::string& name, const std::array<Array, 2>& wv) {
  CAPTURE(name);
  const auto w = kGolden.lines("values " + name + " w"), v = kGolden.lines("values " + name + " v");
  auto [gw, ww] = fusejit_test::golden_values(wv[0], w);
  check_close(gw, ww);
  (void)fusejit_test::golden_values(wv[1], v);
  check_eigenvectors(wv[1], numbers(v[1]));
}

Array tri(const Array& a, bool lower) {
  std::vector<double> t = as_doubles(a);
  const std::size_t n = static_cast<std::size_t>(a.shape()[1]);
  for (std::size_t i = 0; i < t.size(); ++i)
    if (lower ? i % n > i / n : i % n < i / n) t[i] = 0;
  return fj::array(t, a.shape());
}

}  // namespace

TEST_CASE("spectral golden: eigh values against JAX, sign-invariantly") {
  const Array s4 = input("s4"), sb = input("sb"), g4 = input("g4");
  using T = Tracer;
  auto eigh = [](const Array& a, bool lower = true, bool sym = true) {
    return fj::jit([lower, sym](T x) {
      auto [w, v] = fj::linalg::eigh(x, lower, sym);
      return std::tuple{w, v};
    })(a);
  };
  auto pair = [](auto t) { return std::array<Array, 2>{std::get<0>(t), std::get<1>(t)}; };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    check_eigh("eigh", pair(eigh(s4)));
    check_eigh("eigh_batched", pair(eigh(sb)));
    check_eigh("eigh_nonsymmetric", pair(eigh(g4)));
    check_eigh("eigh_upper_nosym", pair(eigh(tri(g4, false), false, false)));
    check_eigh("eigh_lower_nosym", pair(eigh(tri(g4, true), true, false)));
    check_eigh("eigh", fj::linalg::eigh(s4));  // eagerly, outside a trace
    const auto lax_vw = fj::jit([](T x) {
      auto [v, w] = fj::lax::linalg::eigh(x);
      return std::tuple{w, v};
    })(s4);
    check_eigh("eigh", pair(lax_vw));
    const auto vm = fj::vmap([](T x) {
      auto [w, v] = fj::linalg::eigh(x);
      return std::tuple{w, v};
    })(sb);
    check_eigh("vmap_eigh", pair(vm));
    check_close(as_doubles(fj::jit([](T x) { return fj::linalg::eigvalsh(x); })(g4)),
                numbers(kGolden.lines("values eigvalsh")[0]));
    // NaNs in, NaNs out (a whole matrix, not an exception in the middle of a batch).
    const Array with_nan =
        fj::array(std::vector<double>{1, std::nan(""), std::nan(""), 2}, fj::Shape{2, 2});
    check_close(as_doubles(fj::jit([](T x) { return fj::linalg::eigvalsh(x); })(with_nan)),
                numbers(kGolden.lines("values eigh_nan w")[0]));
  }
}

// QR: Householder reflections with LAPACK's sign choice on both sides (Eigen's makeHouseholder
// and LAPACK's dlarfg both give the diagonal -sign(a_kk) * norm), so q and r are compared as
// they are, signs included. The inputs' condition numbers are below 52 (numpy says so; the
// wide matrix's leading 3x3 block for its q) and their entries below 3: forward errors within
// cond * n * eps * ||A|| = 52 * 4 * 2.2e-16 * 3 = 1.4e-13; 1e-12 with room.
TEST_CASE("spectral golden: qr values against JAX, LAPACK's signs") {
  const Array a43 = input("a43"), a34 = input("a34"), ab = input("ab"), g4 = input("g4");
  using T = Tracer;
  auto qr = [](const Array& a, const std::string& mode) {
    return fj::jit([mode](T x) {
      auto [q, r] = fj::linalg::qr(x, mode);
      return std::tuple{q, r};
    })(a);
  };
  auto check = [](const std::string& name, const auto& qr_pair) {
    CAPTURE(name);
    for (const auto& [part, out] :
         {std::pair{"q", std::get<0>(qr_pair)}, std::pair{"r", std::get<1>(qr_pair)}}) {
      CAPTURE(part);
      auto [got, want] =
          fusejit_test::golden_values(out, kGolden.lines("values " + name + " " + part));
      check_close(got, want);
    }
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    check("qr", qr(a43, "reduced"));
    check("qr_complete", qr(a43, "complete"));
    check("qr_wide", qr(a34, "reduced"));
    check("qr_wide_complete", qr(a34, "complete"));
    check("qr_batched", qr(ab, "reduced"));
    check("qr_square", qr(g4, "reduced"));
    const auto eager = fj::linalg::qr(a43);  // outside a trace
    check("qr", std::tuple{eager[0], eager[1]});
    const auto lax_qr = fj::jit([](T x) {
      auto [q, r] = fj::lax::linalg::qr(x);
      return std::tuple{q, r};
    })(a43);
    check("lax_qr", lax_qr);
    check("vmap_qr", fj::vmap([](T x) {
            auto [q, r] = fj::linalg::qr(x);
            return std::tuple{q, r};
          })(ab));
    auto [got, want] = fusejit_test::golden_values(
        fj::jit([](T x) { return fj::linalg::qr_r(x); })(a43), kGolden.lines("values qr_r r"));
    check_close(got, want);
  }
}

// SVD: Jacobi (Eigen) against divide and conquer (LAPACK's gesdd): singular values within
// eps ||A|| of the exact ones; singular vectors within that over the gap between singular values
// (above 0.29 for these inputs, numpy says so, and the smallest is 0.10 away from 0): 1e-12 as
// above. Each pair (u_j, v_j) is compared after flipping both to the sign of JAX's u_j; the
// columns of a full u (or rows of a full v^T) beyond k = min(m, n) are any orthonormal basis of
// the rest, so only their orthonormality is checked (u^T u = I).
void check_orthonormal_columns(const std::vector<double>& u, std::size_t rows, std::size_t cols) {
  std::vector<double> gram, eye;
  for (std::size_t m = 0; m < u.size(); m += rows * cols)
    for (std::size_t i = 0; i < cols; ++i)
      for (std::size_t j = 0; j < cols; ++j) {
        double dot = 0;
        for (std::size_t r = 0; r < rows; ++r) dot += u[m + r * cols + i] * u[m + r * cols + j];
        gram.push_back(dot);
        eye.push_back(i == j ? 1.0 : 0.0);
      }
  check_close(gram, eye);
}

void check_svd(const std::string& name, const std::vector<Array>& usv) {
  CAPTURE(name);
  REQUIRE(usv.size() == 3);
  auto [s, s_want] = fusejit_test::golden_values(usv[1], kGolden.lines("values " + name + " s"));
  check_close(s, s_want);
  auto [u, u_want] = fusejit_test::golden_values(usv[0], kGolden.lines("values " + name + " u"));
  auto [vh, vh_want] = fusejit_test::golden_values(usv[2], kGolden.lines("values " + name + " vh"));
  const int r = usv[0].shape().rank();
  const auto m = static_cast<std::size_t>(usv[0].shape()[r - 2]),
             uc = static_cast<std::size_t>(usv[0].shape()[r - 1]),
             vr = static_cast<std::size_t>(usv[2].shape()[r - 2]),
             n = static_cast<std::size_t>(usv[2].shape()[r - 1]);
  const std::size_t k = std::min(m, n);
  std::vector<double> u_k, u_k_want, v_k, v_k_want;
  for (std::size_t b = 0; b * m * uc < u.size(); ++b)
    for (std::size_t j = 0; j < k; ++j) {
      double dot = 0;
      for (std::size_t i = 0; i < m; ++i)
        dot += u[b * m * uc + i * uc + j] * u_want[b * m * uc + i * uc + j];
      const double sign = dot < 0 ? -1 : 1;
      for (std::size_t i = 0; i < m; ++i) {
        u_k.push_back(sign * u[b * m * uc + i * uc + j]);
        u_k_want.push_back(u_want[b * m * uc + i * uc + j]);
      }
      for (std::size_t i = 0; i < n; ++i) {
        v_k.push_back(sign * vh[b * vr * n + j * n + i]);
        v_k_want.push_back(vh_want[b * vr * n + j * n + i]);
      }
    }
  check_close(u_k, u_k_want);
  check_close(v_k, v_k_want);
  check_orthonormal_columns(u, m, uc);
  std::vector<double> v(vh.size());  // v = vh^T, for its columns
  for (std::size_t b = 0; b * vr * n < vh.size(); ++b)
    for (std::size_t i = 0; i < vr; ++i)
      for (std::size_t j = 0; j < n; ++j) v[b * vr * n + j * vr + i] = vh[b * vr * n + i * n + j];
  check_orthonormal_columns(v, n, vr);
}

TEST_CASE("spectral golden: svd and the matrix norms 2, -2, nuc against JAX") {
  const Array a43 = input("a43"), a34 = input("a34"), ab = input("ab");
  using T = Tracer;
  auto svd = [](const Array& a, bool full) {
    const auto t = fj::jit([full](T x) {
      auto usv = fj::linalg::svd(x, full);
      return std::tuple{usv[0], usv[1], usv[2]};
    })(a);
    return std::vector<Array>{std::get<0>(t), std::get<1>(t), std::get<2>(t)};
  };
  const Array ab_t = fj::jit([](T x) { return Array(fj::transpose(x, {0, 2, 1})); })(ab);
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    check_svd("svd_full", svd(a43, true));
    check_svd("svd_full", fj::linalg::svd(a43));  // eagerly
    check_svd("svd_thin_wide", svd(a34, false));
    const auto lax_usv = fj::jit([](T x) {
      auto usv = fj::lax::linalg::svd(x);
      return std::tuple{usv[0], usv[1], usv[2]};
    })(a43);
    check_svd("svd_full", {std::get<0>(lax_usv), std::get<1>(lax_usv), std::get<2>(lax_usv)});
    check_svd("svd_full_wide_batched", svd(ab_t, true));
    auto [s, s_want] = fusejit_test::golden_values(
        fj::jit([](T x) { return fj::linalg::svd(x, true, false)[0]; })(ab),
        kGolden.lines("values svd_s_batched s"));
    check_close(s, s_want);
    const std::map<std::string, std::function<Array()>> norms = {
        {"norm_2", [&] { return fj::jit([](T x) { return fj::linalg::norm(x, 2); })(a43); }},
        {"norm_minus_2", [&] { return fj::jit([](T x) { return fj::linalg::norm(x, -2); })(a34); }},
        {"norm_nuc", [&] { return fj::jit([](T x) { return fj::linalg::norm(x, "nuc"); })(a43); }},
        {"norm_nuc_axes_02",
         [&] { return fj::jit([](T x) {
                 return fj::linalg::norm(x, "nuc", {0, 2});
               })(ab); }},
        {"norm_2_axes_21_keepdims",
         [&] { return fj::jit([](T x) {
                 return fj::linalg::norm(x, 2, {2, 1}, true);
               })(ab); }},
    };
    for (const auto& [name, f] : norms) {
      CAPTURE(name);
      check_close(as_doubles(f()), numbers(kGolden.lines("values " + name)[0]));
    }
    // NaNs in, NaNs out.
    const Array with_nan = fj::array(std::vector<double>{1, std::nan(""), 0, 2}, fj::Shape{2, 2});
    for (const Array& part : fj::linalg::svd(with_nan))
      for (double x : as_doubles(part)) CHECK(std::isnan(x));
  }
}

// float32: the same routines instantiated for f32, against JAX's f64 numbers with float32's
// eps (1.2e-7) in the bounds above: eigenvalues and singular values within n eps ||A|| = 2e-6
// (1e-5), q and r within cond n eps ||A|| = 7.5e-5 (1e-4).
TEST_CASE("spectral golden: float32 eigh, qr and svd") {
  using T = Tracer;
  auto f32 = [](const Array& a) { return a.astype(fj::DType::f32); };
  const Array g4 = f32(input("g4")), a43 = f32(input("a43")), ab = f32(input("ab"));
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const Array w = fj::jit([](T x) { return fj::linalg::eigvalsh(x); })(g4);
    CHECK(w.dtype() == fj::DType::f32);
    check_close(as_doubles(w), numbers(kGolden.lines("values eigvalsh")[0]), 1e-5);
    const auto qr = fj::jit([](T x) {
      auto [q, r] = fj::linalg::qr(x);
      return std::tuple{q, r};
    })(a43);
    check_close(as_doubles(std::get<0>(qr)), numbers(kGolden.lines("values qr q")[1]), 1e-4);
    check_close(as_doubles(std::get<1>(qr)), numbers(kGolden.lines("values qr r")[1]), 1e-4);
    const Array s = fj::jit([](T x) { return fj::linalg::svd(x, true, false)[0]; })(ab);
    CHECK(s.dtype() == fj::DType::f32);
    check_close(as_doubles(s), numbers(kGolden.lines("values svd_s_batched s")[1]), 1e-5);
  }
}

// d/dx sum(w * f(x)) (tests/weighted_grad.hpp): JAX's gradient to 1e-10 relative (eigh's rule
// divides by eigenvalue gaps above 0.26; qr's solves by r, whose condition number is the input's,
// below 52; svd's divides by singular value gaps and singular values, above 0.26; each sums a
// few products of O(1) terms) and central differences in f64. eigh symmetrizes its input, so
// each entry may be perturbed alone; the svd functions do not depend on the vectors' signs.
TEST_CASE("spectral golden: eigh, qr, svd and norm gradients as JAX's and central differences") {
  const Array s4 = input("s4"), sb = input("sb"), g4 = input("g4");
  using F = std::function<Array(Tracer)>;
  const F thin_tanh = [](Tracer a) {  // u diag(tanh(s)) vh: each pair's sign cancels
    const auto usv = fj::linalg::svd(a, false);
    return Array(fj::matmul(usv[0] * fj::tanh(usv[1]), usv[2]));
  };
  const std::map<std::string, std::pair<F, Array>> cases = {
      {"eigh_w", {[](Tracer a) { return fj::linalg::eigh(a)[0]; }, g4}},
      {"eigh_v_squared",
       {[](Tracer a) {
          const Array v = fj::linalg::eigh(a)[1];
          return Array(v * v);
        },
        g4}},
      {"eigh_expm",
       {[](Tracer a) {
          auto [w, v] = fj::linalg::eigh(a);
          return Array(fj::matmul(v * fj::exp(w), fj::transpose(v)));
        },
        s4}},
      {"eigvalsh_batched", {[](Tracer a) { return fj::linalg::eigvalsh(a); }, sb}},
      {"qr_q", {[](Tracer a) { return fj::linalg::qr(a)[0]; }, input("a43")}},
      {"qr_r", {[](Tracer a) { return fj::linalg::qr(a)[1]; }, input("a43")}},
      {"qr_square_both",
       {[](Tracer a) {
          auto [q, r] = fj::linalg::qr(a);
          return Array(fj::matmul(q, fj::tanh(r)));
        },
        g4}},
      {"qr_batched_r", {[](Tracer a) { return fj::linalg::qr_r(a); }, input("ab")}},
      {"svd_s", {[](Tracer a) { return fj::linalg::svd(a, true, false)[0]; }, input("a43")}},
      {"svd_thin_tanh", {thin_tanh, input("a43")}},
      {"svd_thin_wide_tanh", {thin_tanh, input("a34")}},
      {"svd_u_squared",
       {[](Tracer a) {
          const Array u = fj::linalg::svd(a, false)[0];
          return Array(u * u);
        },
        input("a43")}},
      {"svd_vh_squared",
       {[](Tracer a) {
          const Array vh = fj::linalg::svd(a, false)[2];
          return Array(vh * vh);
        },
        input("a34")}},
      {"svd_square_full_u_squared",
       {[](Tracer a) {
          const Array u = fj::linalg::svd(a)[0];
          return Array(u * u);
        },
        g4}},
      {"norm_2", {[](Tracer a) { return Array(fj::linalg::norm(a, 2)); }, input("a43")}},
      {"norm_minus_2", {[](Tracer a) { return Array(fj::linalg::norm(a, -2)); }, input("a34")}},
      {"norm_nuc_batched",
       {[](Tracer a) {
          return Array(fj::linalg::norm(a, "nuc", {1, 2}));
        },
        input("ab")}},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, c] : cases) {
      CAPTURE(backend);
      CAPTURE(name);
      fusejit_test::check_weighted_grad(c.first, c.second,
                                        numbers(kGolden.lines("grad " + name)[0]), {}, 1e-10);
    }
  }
}

TEST_CASE("spectral golden: eigh, qr, svd and norm jaxpr text") {
  const Array o = fj::ones({3, 3}), ob = fj::ones({2, 3, 3}), oi = fj::ones({3, 3}, fj::DType::i32);
  using T = Tracer;
  auto text = [](auto f, const Array& a) { return fj::make_jaxpr(f)(a).str(); };
  auto wv = [](T a) {
    auto [w, v] = fj::linalg::eigh(a);
    return std::tuple{w, v};
  };
  fusejit_test::check_jaxpr_texts(
      kGolden,
      {
          {"eigh", [&] { return text(wv, o); }},
          {"eigh_batched", [&] { return text(wv, ob); }},
          {"eigh_upper_nosym_int",
           [&] {
             return text(
                 [](T a) {
                   auto [w, v] = fj::linalg::eigh(a, false, false);
                   return std::tuple{w, v};
                 },
                 oi);
           }},
          {"eigvalsh", [&] { return text([](T a) { return fj::linalg::eigvalsh(a); }, o); }},
          {"qr",
           [&] {
             return text(
                 [](T a) {
                   auto [q, r] = fj::linalg::qr(a);
                   return std::tuple{q, r};
                 },
                 o);
           }},
          {"qr_complete_batched",
           [&] {
             return text(
                 [](T a) {
                   auto [q, r] = fj::linalg::qr(a, "complete");
                   return std::tuple{q, r};
                 },
                 fj::ones({2, 4, 3}));
           }},
          {"qr_r_int",
           [&] {
             return text([](T a) { return fj::linalg::qr_r(a); }, fj::ones({3, 2}, fj::DType::i32));
           }},
          {"svd",
           [&] {
             return text(
                 [](T a) {
                   auto usv = fj::linalg::svd(a);
                   return std::tuple{usv[0], usv[1], usv[2]};
                 },
                 fj::ones({3, 2}));
           }},
          {"svd_thin_batched",
           [&] {
             return text(
                 [](T a) {
                   auto usv = fj::linalg::svd(a, false);
                   return std::tuple{usv[0], usv[1], usv[2]};
                 },
                 fj::ones({2, 3, 4}));
           }},
          {"svd_s_int",
           [&] {
             return text([](T a) { return fj::linalg::svd(a, true, false)[0]; },
                         fj::ones({3, 2}, fj::DType::i32));
           }},
          {"norm_2",
           [&] {
             return text([](T a) { return Array(fj::linalg::norm(a, 2)); }, fj::ones({3, 2}));
           }},
          {"norm_minus_2",
           [&] {
             return text([](T a) { return Array(fj::linalg::norm(a, -2)); }, fj::ones({3, 2}));
           }},
          {"norm_nuc_axes_02_keepdims",
           [&] {
             return text(
                 [](T a) {
                   return Array(fj::linalg::norm(a, "nuc", {0, 2}, true));
                 },
                 fj::ones({3, 2, 4}));
           }},
          {"lax_svd",
           [&] {
             return text(
                 [](T a) {
                   auto usv = fj::lax::linalg::svd(a);
                   return std::tuple{usv[0], usv[1], usv[2]};
                 },
                 fj::ones({3, 2}));
           }},
          {"lax_svd_s",
           [&] {
             return text([](T a) { return fj::lax::linalg::svd(a, false, false)[0]; },
                         fj::ones({3, 2}));
           }},
          {"lax_qr",
           [&] {
             return text(
                 [](T a) {
                   auto [q, r] = fj::lax::linalg::qr(a);
                   return std::tuple{q, r};
                 },
                 fj::ones({4, 3}));
           }},
          {"lax_eigh",
           [&] {
             return text(
                 [](T a) {
                   auto [v, w] = fj::lax::linalg::eigh(a);
                   return std::tuple{v, w};
                 },
                 o);
           }},
      });
}

TEST_CASE("spectral golden: bad input names the function, the argument and the shapes") {
  using T = Tracer;
  CHECK_THROWS_WITH_AS(fj::jit([](T a) { return fj::linalg::eigh(a)[0]; })(fj::ones({2, 3})),
                       doctest::Contains("fj::linalg::eigh: argument a must be a (batch of) "
                                         "square matrices (rank >= 2), got an array of shape "
                                         "(2, 3)"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::jit([](T a) { return fj::linalg::eigvalsh(a); })(fj::ones({3})),
                       doctest::Contains("fj::linalg::eigvalsh: argument a"), fj::ShapeError);
  CHECK_THROWS_WITH_AS(
      fj::jit([](T a) { return fj::lax::linalg::eigh(a)[1]; })(fj::ones({3, 3}, fj::DType::i32)),
      doctest::Contains("fj::lax::linalg::eigh: eigh: argument a must be float32 or float64, got "
                        "i32[3,3]"),
      fj::DTypeError);
  CHECK_THROWS_WITH_AS(fj::jit([](T a) { return fj::linalg::qr(a)[0]; })(fj::ones({3})),
                       doctest::Contains("fj::linalg::qr: argument a must be a (batch of) "
                                         "matrices (rank >= 2), got an array of shape (3,)"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::linalg::qr(fj::ones({3, 3}), "full"),
                       doctest::Contains("fj::linalg::qr: unsupported mode 'full'"),
                       fj::ValueError);
  CHECK_THROWS_AS(fj::linalg::qr(fj::ones({3, 3}), "raw"), fj::NotImplementedError);
  CHECK_THROWS_WITH_AS(fj::jit([](T a) { return fj::linalg::svd(a)[0]; })(fj::ones({3})),
                       doctest::Contains("fj::linalg::svd: argument a must be a (batch of) "
                                         "matrices (rank >= 2), got an array of shape (3,)"),
                       fj::ShapeError);
  // As JAX's, the derivative of full u and v^T is defined for square matrices only.
  CHECK_THROWS_WITH_AS(
      fj::grad([](T a) { return fj::sum(fj::linalg::svd(a)[0]); })(fj::ones({3, 2})),
      doctest::Contains("the derivative of svd with full_matrices=True is defined for square "
                        "matrices only"),
      fj::NotImplementedError);
  // JAX's qr derivative covers m >= n only.
  CHECK_THROWS_WITH_AS(
      fj::grad([](T a) { return fj::sum(fj::linalg::qr(a)[1]); })(fj::ones({2, 3})),
      doctest::Contains("the derivative of qr is defined for (m, n) matrices with m >= n"),
      fj::NotImplementedError);
}
