// The CUDA backend at run time (issue 24): the allocator's bookkeeping and the placement rules,
// which run everywhere, and arrays, launches, cuBLAS, transforms and loops on a real GPU, which
// skip with the reason where there is none. Every GPU result is checked against the reference
// backend on the CPU.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>
#include <fusejit/backend/cuda/caching_allocator.hpp>
#include <fusejit/backend/cuda/cublas.hpp>
#include <fusejit/backend/cuda/driver.hpp>
#include <fusejit/backend/cuda/gemm_plan.hpp>
#include <fusejit/backend/cuda/gpu_runtime.hpp>
#include <fusejit/backend/cuda/kernel_cache.hpp>
#include <fusejit/fusejit.hpp>
#include "backend_compare.hpp"
#include "throws_with.hpp"

namespace cuda = fj::backend::cuda;
using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;
using fusejit_test::check_close;
using fusejit_test::check_throws_with;
using fusejit_test::random_array;

namespace {

// Host memory with a budget, behind the allocator's RawMemory interface: a test of the
// allocator's logic (classes, reuse, the retry after exhaustion), not a stand-in for a GPU.
class BudgetMemory final : public cuda::RawMemory {
 public:
  explicit BudgetMemory(std::size_t budget) : budget_(budget) {}
  std::uintptr_t allocate(std::size_t bytes) override {
    if (used_ + bytes > budget_) return 0;
    used_ += bytes;
    return reinterpret_cast<std::uintptr_t>(std::malloc(bytes));
  }
  void release(std::uintptr_t p, std::size_t bytes) noexcept override {
    used_ -= bytes;
    std::free(reinterpret_cast<void*>(p));
  }
  std::size_t used() const { return used_; }

 private:
  std::size_t budget_, used_ = 0;
};

// What cublas<t>gemmStridedBatched computes with `c`'s arguments (column-major, op 0 = N, 1 = T):
// the host model the GEMM plan's arguments are checked against.
std::vector<double> cublas_model(const cuda::GemmCall& c, const std::vector<double>& first,
                                 const std::vector<double>& second) {
  std::vector<double> out(static_cast<std::size_t>(c.stride_c) * static_cast<std::size_t>(c.batch));
  for (int p = 0; p < c.batch; ++p) {
    const double* f = first.data() + p * c.stride_first;
    const double* s = second.data() + p * c.stride_second;
    double* o = out.data() + p * c.stride_c;
    for (int j = 0; j < c.n; ++j)
      for (int i = 0; i < c.m; ++i) {
        double acc = 0;
        for (int l = 0; l < c.k; ++l)
          acc += (c.op_first ? f[l + i * c.ld_first] : f[i + l * c.ld_first]) *
                 (c.op_second ? s[j + l * c.ld_second] : s[l + j * c.ld_second]);
        o[i + j * c.ldc] = acc;
      }
  }
  return out;
}

// A dot_general equation with these dimension numbers.
fj::ir::Eqn dot_eqn(std::vector<std::int64_t> lc, std::vector<std::int64_t> rc,
                    std::vector<std::int64_t> lb = {}, std::vector<std::int64_t> rb = {}) {
  fj::ir::Eqn e;
  e.prim = fj::ir::Prim::dot_general;
  fj::ir::DotDims{std::move(lc), std::move(rc), std::move(lb), std::move(rb)}.add_to(e.params);
  return e;
}

bool has_gpu() {
  for (const fj::Device& d : fj::devices())
    if (d.is_gpu()) return true;
  try {
    fj::gpu(0);
  } catch (const fj::DeviceError& e) {
    MESSAGE("skipped: no CUDA GPU (" << std::string(e.what()) << ")");
  }
  return false;
}

Array to_gpu(const Array& x) { return fj::device_put(x, fj::gpu(0)); }
Array to_cpu(const Array& x) { return fj::device_put(x, fj::cpu()); }

// f on the reference backend with CPU arrays, and on GPU 0 with the same arrays moved there.
template <class F, class... A>
std::pair<Array, Array> gpu_and_reference(F f, const A&... args) {
  Array want;
  {
    BackendScope s("reference");
    want = fj::jit(f)(args...);
  }
  Array got = fj::jit(f)(to_gpu(args)...);
  CHECK(got.device() == fj::gpu(0));
  return {to_cpu(got), want};
}

}  // namespace

TEST_CASE("cuda loaders: every driver entry point's name exists, cuBLAS loads or says why") {
  // The toolkit's stub libcuda.so exports the driver's whole API (and fails every call): it
  // checks the names the loader asks for, the _v2 ones included, without a driver.
  std::vector<std::string> stubs;
  for (const std::string& d : cuda::toolkit_library_dirs())
    stubs.push_back(d + "/stubs/libcuda.so");
  const cuda::DynamicLibrary stub(stubs, {});
  if (!stub.loaded()) {
    MESSAGE("skipped: no CUDA toolkit stub library (" << stub.error() << ")");
  } else {
    cuda::Driver names;
    int checked = 0;
    cuda::for_each_entry(names, [&](auto& fn, const char* name) {
      CAPTURE(name);
      const bool found = stub.symbol<std::remove_reference_t<decltype(fn)>>(name) != nullptr;
      CHECK(found);
      ++checked;
    });
    CHECK(checked == 26);
  }
  const cuda::Cublas& cb = cuda::cublas();
  if (cb.missing.empty()) {
    const bool both = cb.sgemm_strided_batched && cb.dgemm_strided_batched;
    CHECK(both);
  } else {
    CHECK(cb.missing.find("cuBLAS") != std::string::npos);  // not found: the error says so
  }
}

TEST_CASE("cuda allocator: sizes round to classes, released blocks are reused, none is lost") {
  BudgetMemory mem(std::size_t{64} << 20);
  {
    cuda::CachingAllocator a(mem, "test");
    CHECK(cuda::CachingAllocator::size_class(1) == 512);
    CHECK(cuda::CachingAllocator::size_class(513) == 1024);
    CHECK(cuda::CachingAllocator::size_class((std::size_t{1} << 20) + 1) == std::size_t{2} << 20);
    CHECK(cuda::CachingAllocator::size_class(std::size_t{256} << 20) == std::size_t{256} << 20);
    const std::uintptr_t p = a.allocate(1000), q = a.allocate(4000);
    CHECK(a.stats().raw_allocations == 2);
    a.release(p, 1000);
    // Same class (1024): the released block again, no new raw allocation.
    CHECK(a.allocate(700) == p);
    CHECK(a.stats().raw_allocations == 2);
    CHECK(a.stats().reuses == 1);
    // Another class: a new block.
    const std::uintptr_t r = a.allocate(100);
    CHECK(r != p);
    CHECK(a.stats().raw_allocations == 3);
    a.release(p, 700), a.release(q, 4000), a.release(r, 100);
    CHECK(a.stats().in_use_bytes == 0);
    CHECK(a.stats().cached_bytes == 1024 + 4096 + 512);
    CHECK(a.trim() == 1024 + 4096 + 512);
    CHECK(mem.used() == 0);
  }
  CHECK(mem.used() == 0);
}

TEST_CASE("cuda allocator: exhaustion frees the cache and retries once, then names the sizes") {
  BudgetMemory mem(std::size_t{10} << 20);
  cuda::CachingAllocator a(mem, "CudaDevice(id=7)");
  const std::size_t six = std::size_t{6} << 20;
  a.release(a.allocate(six), six);  // 6 MiB cached, 4 MiB left to the raw memory
  CHECK(a.stats().cached_bytes == six);
  // 8 MiB is another class: the raw allocation fails, the cache is freed, the retry succeeds.
  const std::size_t eight = std::size_t{8} << 20;
  const std::uintptr_t p = a.allocate(eight);
  CHECK(p != 0);
  CHECK(a.stats().oom_retries == 1);
  CHECK(a.stats().cached_bytes == 0);
  // Nothing cached to free this time: a DeviceError with the request and what is held.
  check_throws_with<fj::DeviceError>(
      [&] { a.allocate(eight); },
      {"out of GPU memory on CudaDevice(id=7)", "allocating 8388608 bytes", "holds 8388608 bytes"});
  a.release(p, eight);
}

TEST_CASE("cuda gemm plan: every supported layout gives dot_general's row-major product") {
  struct Case {
    const char* what;  // the product, as einsum subscripts
    fj::Shape lhs, rhs, out;
    std::vector<std::int64_t> lc, rc, lb, rb;
  };
  const std::vector<Case> cases = {
      {"ik,kj->ij", {3, 5}, {5, 4}, {3, 4}, {1}, {0}, {}, {}},
      {"ki,kj->ij", {5, 3}, {5, 4}, {3, 4}, {0}, {0}, {}, {}},
      {"ik,jk->ij", {3, 5}, {4, 5}, {3, 4}, {1}, {1}, {}, {}},
      {"ki,jk->ij", {5, 3}, {4, 5}, {3, 4}, {0}, {1}, {}, {}},
      {"bik,bkj->bij", {2, 3, 5}, {2, 5, 4}, {2, 3, 4}, {2}, {1}, {0}, {0}},
      {"bki,bjk->bij", {2, 5, 3}, {2, 4, 5}, {2, 3, 4}, {1}, {2}, {0}, {0}},
      {"ik,k->i", {3, 5}, {5}, {3}, {1}, {0}, {}, {}},
      {"k,kj->j", {5}, {5, 4}, {4}, {0}, {0}, {}, {}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const fj::ir::Aval lhs{fj::DType::f64, c.lhs, false}, rhs{fj::DType::f64, c.rhs, false},
        out{fj::DType::f64, c.out, false};
    std::string why;
    const auto plan = cuda::GemmPlan::from(dot_eqn(c.lc, c.rc, c.lb, c.rb), lhs, rhs, out, why);
    REQUIRE(plan);
    // Small integers: every product and sum is exact, so the comparison is exact.
    std::vector<double> a(static_cast<std::size_t>(c.lhs.size())),
        b(static_cast<std::size_t>(c.rhs.size()));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>((i * 7) % 11) - 5;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<double>((i * 5) % 13) - 6;
    const std::vector<double> got = cublas_model(plan->call(), b, a);
    // The reference: dot_general's definition on the row-major operands.
    fj::Array want;
    {
      BackendScope s("reference");
      const fj::Array x = fj::array(a, c.lhs), y = fj::array(b, c.rhs);
      want = fj::einsum(c.what, x, y);
    }
    CHECK(got == want.to_vector<double>());
  }
  std::string why;
  const fj::ir::Aval i32{fj::DType::i32, {3, 5}, false};
  CHECK(!cuda::GemmPlan::from(dot_eqn({1}, {0}), i32, i32, i32, why));
  CHECK(why.find("f32 or f64") != std::string::npos);
  const fj::ir::Aval l3{fj::DType::f32, {3, 2, 5}, false}, r3{fj::DType::f32, {5, 2, 4}, false},
      o3{fj::DType::f32, {2, 3, 4}, false};
  CHECK(!cuda::GemmPlan::from(dot_eqn({2}, {0}, {1}, {1}), l3, r3, o3, why));
  CHECK(why.find("batch dims must lead") != std::string::npos);
}

TEST_CASE("cuda placement: arrays on two devices are an error naming both, scalars follow") {
  // The rule reads buffers' devices only, so a buffer marked as on GPU 0 checks it without one.
  auto host = fj::runtime::allocate(12);
  auto marked = fj::runtime::allocate(12);
  marked->device = 0;
  const fj::ir::Aval v3{fj::DType::f32, fj::Shape{3}, false}, scalar{fj::DType::f32, {}, false};
  const std::vector<fj::backend::Value> mixed = {{host, v3}, {marked, v3}};
  check_throws_with<fj::DeviceError>(
      [&] { fj::detail::common_device(mixed, "fj::jit", "f"); },
      {"fj::jit(f): arguments on different devices: argument 0 (f32[3]) is on "
       "CpuDevice(id=0), argument 1 (f32[3]) on CudaDevice(id=0). Move them to one device "
       "with fj::device_put(x, device)"});
  const std::vector<fj::backend::Value> with_scalar = {{host, scalar}, {marked, v3}};
  CHECK(fj::detail::common_device(with_scalar, "fj::jit", "f") == fj::Device::of_buffer_device(0));
  CHECK_THROWS_AS(fj::detail::check_on_device(with_scalar, fj::cpu(), "fj::CompiledFunction"),
                  fj::DeviceError);
  marked->device = -1;  // it is host memory: returned to the host allocator as such
}

TEST_CASE("cuda placement: without a GPU, device_put to one raises DeviceError") {
  if (has_gpu()) return;
  CHECK_THROWS_AS(fj::device_put(fj::array({1.0f, 2.0f}), fj::gpu(0)), fj::DeviceError);
  CHECK(fj::array({1.0f}).device() == fj::cpu());
}

TEST_CASE("cuda runtime: device_put, device(), copies back, printing, block_until_ready") {
  if (!has_gpu()) return;
  const Array x = fj::array(std::vector<float>{1.5f, -2.0f, 3.25f, 0.0f}, fj::Shape{2, 2});
  const Array g = to_gpu(x);
  CHECK(g.device() == fj::gpu(0));
  CHECK(g.shape() == x.shape());
  CHECK(g.to_vector<float>() == x.to_vector<float>());
  CHECK(to_gpu(fj::array(7)).item<int>() == 7);
  CHECK(fj::repr(g) == fj::repr(x));
  CHECK_THROWS_AS(g.data<float>(), fj::DeviceError);
  g.block_until_ready();
  const Array back = to_cpu(g);
  CHECK(back.device() == fj::cpu());
  CHECK(back.to_vector<float>() == x.to_vector<float>());
  // Computation follows data: eager expressions too.
  const Array y = g * 2.0f + 1.0f;
  CHECK(y.device() == fj::gpu(0));
  CHECK(y.to_vector<float>() == std::vector<float>{4.0f, -3.0f, 7.5f, 1.0f});
}

TEST_CASE("cuda runtime: the elementwise op table against the reference backend") {
  if (!has_gpu()) return;
  const Array a = random_array(fj::f32, {1000}, -4, 4, 1),
              b = random_array(fj::f32, {1000}, 0.1, 3, 2);
  const Array ad = random_array(fj::f64, {1000}, -4, 4, 3);
  const Array i = random_array(fj::i32, {1000}, -100, 100, 4),
              j = random_array(fj::i32, {1000}, -7, 7, 5);
  // Exactly rounded ops (IEEE add, mul, div, sqrt; integer ops; selects) must agree bit for bit.
  auto exact = [&](auto f, const char* what, const auto&... args) {
    auto [got, want] = gpu_and_reference(f, args...);
    check_close(got, want, 0, what);
  };
  exact([](Tracer x, Tracer y) { return x + y * x - y / x; }, "f32 + * - /", a, b);
  exact([](Tracer x, Tracer y) { return fj::sqrt(y) + fj::abs(x) + fj::floor(x); },
        "sqrt abs floor", a, b);
  exact([](Tracer x, Tracer y) { return fj::where(x > y, x, y) + fj::maximum(x, y); }, "where max",
        a, b);
  exact([](Tracer x, Tracer y) { return x / y + x % y + (x << 2) - (x >> 1); }, "i32 / % << >>", i,
        j);
  exact([](Tracer x) { return (x * 3.0).astype(fj::i32); }, "f64 convert", ad);
  // Transcendentals: the CPU backend's polynomials (kernel_math.hpp; docs/MATH.md: exp 1.5, log
  // 1, sin and cos 2, tanh 1.5 ulp) against the reference's host math (within 1-2 ulp). Their sum
  // bounds the difference: 4 ulp (f32 and f64). tests/test_gpu_math.cpp checks them against the
  // CPU's bits.
  auto close = [&](auto f, const char* what, const auto&... args) {
    auto [got, want] = gpu_and_reference(f, args...);
    check_close(got, want, 4, what);
  };
  close([](Tracer x) { return fj::exp(x); }, "exp", a);
  close([](Tracer x) { return fj::log(x); }, "log", b);
  close([](Tracer x) { return fj::sin(x); }, "sin", a);
  close([](Tracer x) { return fj::cos(x); }, "cos", a);
  close([](Tracer x) { return fj::tanh(x); }, "tanh", a);
  close([](Tracer x) { return fj::exp(x); }, "exp f64", ad);
  close([](Tracer x) { return fj::sin(x); }, "sin f64", ad);
}

TEST_CASE("cuda runtime: reductions over every axis choice against the reference") {
  if (!has_gpu()) return;
  const Array x = random_array(fj::f32, {37, 3, 5000}, -1, 1, 7);
  const Array n = random_array(fj::i32, {37, 3, 5000}, -50, 50, 8);
  // Each axis choice: the innermost (rows), the outermost (columns), both ends, all.
  auto reduce = [](int which, auto op) {
    return [which, op](Tracer t) -> Array {
      switch (which) {
        case 0:
          return op(t, std::initializer_list<int>{2});
        case 1:
          return op(t, std::initializer_list<int>{0});
        case 2:
          return op(t, std::initializer_list<int>{0, 2});
        default:
          return op(t, std::initializer_list<int>{0, 1, 2});
      }
    };
  };
  auto max_op = [](Tracer t, std::initializer_list<int> a) { return Array(fj::max(t, a)); };
  auto sum_op = [](Tracer t, std::initializer_list<int> a) { return Array(fj::sum(t, a)); };
  for (int which = 0; which < 4; ++which) {
    CAPTURE(which);
    auto [mx, mxw] = gpu_and_reference(reduce(which, max_op), x);
    check_close(mx, mxw, 0, "max");
    auto [si, siw] = gpu_and_reference(reduce(which, sum_op), n);
    check_close(si, siw, 0, "integer sum");
    // f32 sums: the GPU folds each 4096-point block in a 256-thread tree, then the blocks in
    // order; the reference sums pairwise. Both are within n * eps * sum|x| of the exact sum,
    // about 1e-3 here for 185 000 terms of magnitude <= 1.
    auto [s, sw] = gpu_and_reference(reduce(which, sum_op), x);
    fusejit_test::check_abs(s, sw, 2e-3, "f32 sum");
  }
}

TEST_CASE("cuda runtime: the seeds' programs, matmul through cuBLAS, grad and vmap on the GPU") {
  if (!has_gpu()) return;
  const Array x = random_array(fj::f32, {64, 128}, -2, 2, 11);
  const Array w = random_array(fj::f32, {128, 32}, -1, 1, 12);
  const Array bias = random_array(fj::f32, {32}, -1, 1, 13);
  // The seeds' selu (examples/seed_functions.hpp).
  auto selu = [](Tracer t) { return 1.05f * fj::where(t > 0, t, 1.67f * fj::exp(t) - 1.67f); };
  // Near t = 0, 1.67 exp(t) - 1.67 cancels, so ulps of the result mean nothing; the bound is on
  // the terms. exp's 2 ulp on each side (<= 2^-24 each, exp(t) < 1) times 1.67: 4.0e-7; each
  // side's rounding of the product, the difference and the final product (<= 2^-24 each, all
  // below 2 in magnitude): 3.6e-7 after the 1.05 scale. Positive inputs are exact on both.
  auto [s, sw] = gpu_and_reference(selu, x);
  fusejit_test::check_abs(s, sw, 8e-7, "selu");
  auto [sm, smw] = gpu_and_reference([](Tracer t) { return fj::nn::softmax(t); }, x);
  fusejit_test::check_abs(sm, smw, 1e-6, "softmax");
  // GEMM: cuBLAS sums in another order than the reference; |x w| terms are <= 2, 128 of them.
  auto mlp = [](Tracer a, Tracer b, Tracer c) { return fj::nn::relu(fj::matmul(a, b) + c); };
  auto [m, mw] = gpu_and_reference(mlp, x, w, bias);
  fusejit_test::check_abs(m, mw, 1e-3, "relu(x @ w + b)");
  auto [mt, mtw] = gpu_and_reference([](Tracer a, Tracer b) { return fj::matmul(a.T(), b); },
                                     random_array(fj::f32, {128, 64}, -1, 1, 14), w);
  fusejit_test::check_abs(mt, mtw, 1e-3, "x.T @ w");
  const Array xb = random_array(fj::f64, {4, 16, 8}, -1, 1, 15),
              wb = random_array(fj::f64, {4, 8, 5}, -1, 1, 16);
  auto [bm, bmw] = gpu_and_reference([](Tracer a, Tracer b) { return fj::matmul(a, b); }, xb, wb);
  fusejit_test::check_abs(bm, bmw, 1e-12, "batched f64 matmul");
  auto loss = [](Tracer a, Tracer b) { return fj::sum(fj::tanh(fj::matmul(a, b))); };
  auto [g, gw] =
      gpu_and_reference([loss](Tracer a, Tracer b) { return fj::grad(loss)(a, b); }, x, w);
  fusejit_test::check_abs(g, gw, 1e-3, "grad");
  auto [v, vw] = gpu_and_reference(
      [](Tracer a) { return fj::vmap([](Tracer r) { return fj::sum(r * r); })(a); }, x);
  fusejit_test::check_abs(v, vw, 1e-3, "vmap");
}

TEST_CASE("cuda runtime: lax loops and cond on GPU arrays") {
  if (!has_gpu()) return;
  namespace lax = fj::lax;
  const Array x = random_array(fj::f32, {256}, -1, 1, 21);
  auto [f, fw] = gpu_and_reference(
      [](Tracer t) {
        return lax::fori_loop(
            0, 10, [](Tracer i, Tracer c) { return c * 0.5f + i.astype(fj::f32); }, t);
      },
      x);
  check_close(f, fw, 0, "fori_loop");
  auto [w, ww] = gpu_and_reference(
      [](Tracer t) {
        return lax::while_loop([](Tracer c) { return fj::sum(c) < 1000.0f; },
                               [](Tracer c) { return c * 2.0f + 1.0f; }, t);
      },
      x);
  check_close(w, ww, 0, "while_loop");
  const Array xs = random_array(fj::f32, {12, 8}, -1, 1, 22);
  auto [sc, scw] = gpu_and_reference(
      [](Tracer t) {
        auto [total, ys] = lax::scan(
            [](Tracer c, Tracer r) {
              Tracer s = c + r;
              return std::make_pair(s, s * 2.0f);
            },
            fj::zeros({8}, fj::f32), t);
        return ys + total;
      },
      xs);
  check_close(sc, scw, 0, "scan");
  auto [c, cw] = gpu_and_reference(
      [](Tracer t) {
        return lax::cond(
            fj::sum(t) > 0.0f, [](Tracer u) { return u + 1.0f; }, [](Tracer u) { return u - 1.0f; },
            t);
      },
      x);
  check_close(c, cw, 0, "cond");
}

TEST_CASE("cuda runtime: random bits, uniform and normal are bit-exact with the CPU and JAX") {
  if (!has_gpu()) return;
  const Array key = fj::random::key(42);
  auto draw = [](Tracer k) { return fj::random::bits(k, {1000}); };
  auto [b, bw] = gpu_and_reference(draw, key);
  check_close(b, bw, 0, "bits");
  auto [u, uw] = gpu_and_reference([](Tracer k) { return fj::random::uniform(k, {1000}); }, key);
  check_close(u, uw, 0, "uniform");
  // normal goes through erf_inv: the GPU's is the CPU's polynomial (kernel_math.hpp), and the
  // reference's f32 normal is JAX's bits (tests/test_random.cpp), so this is JAX's bits too.
  auto [nm, nmw] = gpu_and_reference([](Tracer k) { return fj::random::normal(k, {1000}); }, key);
  check_close(nm, nmw, 0, "normal f32");
}

TEST_CASE("cuda runtime: per-device caches, allocator reuse, mixed devices, unsupported ops") {
  if (!has_gpu()) return;
  auto f = fj::jit([](Tracer a, Tracer b) { return fj::exp(a) * b + 1.0f; });
  const Array a = random_array(fj::f32, {4096}, -1, 1, 31),
              b = random_array(fj::f32, {4096}, -1, 1, 32);
  const Array cpu_out = f(a, b);
  const Array ga = to_gpu(a), gb = to_gpu(b);
  Array gpu_out = f(ga, gb);
  CHECK(f.cache_size() == 2);  // one entry per device
  CHECK(gpu_out.device() == fj::gpu(0));
  // exp(a) b cancels against 1 near exp(a) b = -1, so the bound is on the terms: exp's 2 ulp on
  // each side (exp(a) < 2.72: <= 2^-22 each) times |b| <= 1: 9.5e-7; each side's rounding of the
  // product and the sum (<= 2^-23 each, magnitudes below 4): 4.8e-7.
  fusejit_test::check_abs(to_cpu(gpu_out), cpu_out, 1.5e-6, "exp(a) * b + 1");
  // Warm: the second call's outputs come from blocks the allocator already holds.
  gpu_out = Array();
  f(ga, gb).block_until_ready();
  const auto before = cuda::gpu_runtime(0).allocator().stats();
  f(ga, gb).block_until_ready();
  CHECK(cuda::gpu_runtime(0).allocator().stats().raw_allocations == before.raw_allocations);
  CHECK(f.cache_size() == 2);
  check_throws_with<fj::DeviceError>(
      [&] { f(ga, b); }, {"arguments on different devices", "CudaDevice(id=0)", "CpuDevice(id=0)"});
  check_throws_with<fj::NotImplementedError>(
      [&] { fj::jit([](Tracer t) { return fj::sort(t); })(ga); },
      {"sort has no GPU implementation", "CudaDevice(id=0)"});
}

TEST_CASE("cuda runtime: out of GPU memory frees the cache, retries, then raises with sizes") {
  if (!has_gpu()) return;
  cuda::Gpu& gpu = cuda::gpu_runtime(0);
  std::size_t free_bytes = 0, total = 0;
  gpu.make_current();
  REQUIRE(cuda::driver().mem_get_info(&free_bytes, &total) == 0);
  // 60% of the free memory, released into the cache; then 70% in another class: only a
  // retry after freeing the cache can succeed.
  const std::size_t big = free_bytes / 10 * 6, bigger = free_bytes / 10 * 7;
  auto& alloc = gpu.allocator();
  alloc.release(alloc.allocate(big), big);
  const auto retries = alloc.stats().oom_retries;
  const std::uintptr_t p = alloc.allocate(bigger);
  CHECK(alloc.stats().oom_retries == retries + 1);
  alloc.release(p, bigger);
  alloc.trim();
  check_throws_with<fj::DeviceError>([&] { alloc.allocate(total * 2); },
                                     {"out of GPU memory on CudaDevice(id=0)"});
}
