// Counts heap allocations on jit's warm path (issue 20): a warm call must make none.
//
// This file replaces the global operator new and delete, every variant, for the whole
// fusejit_tests binary: each forwards to malloc / aligned_alloc and free, and counts only while
// the calling thread has opened a `CountAllocations` scope (a thread_local flag), so the rest of
// the suite pays one TLS load per allocation. The output buffers of a warm call come from the
// runtime's size-class pool, which hands out a released block without calling operator new; a
// call that had to allocate one would count here.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fusejit/fusejit.hpp>
#include <new>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

namespace {

constinit thread_local bool t_counting = false;
constinit thread_local long t_count = 0;

void* counted_alloc(std::size_t n) {
  if (t_counting) ++t_count;
  return std::malloc(n ? n : 1);
}
void* counted_aligned_alloc(std::size_t n, std::align_val_t al) {
  if (t_counting) ++t_count;
  const auto a = static_cast<std::size_t>(al);
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(a, (n + a - 1) / a * a + (n == 0 ? a : 0));
}
void* or_throw(void* p) {
  if (!p) throw std::bad_alloc();
  return p;
}

/// Counts this thread's operator new calls while alive.
class CountAllocations {
 public:
  CountAllocations() : start_(t_count) { t_counting = true; }
  ~CountAllocations() { t_counting = false; }
  CountAllocations(const CountAllocations&) = delete;
  CountAllocations& operator=(const CountAllocations&) = delete;
  long count() const { return t_count - start_; }

 private:
  long start_;
};

}  // namespace

// The replaceable global allocation functions ([new.delete]), all forwarding to the C heap.
// GCC inlines them into callers and then sees `free` of what `operator new` returned; the pair
// is matched here by construction.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) { return or_throw(counted_alloc(n)); }
void* operator new[](std::size_t n) { return or_throw(counted_alloc(n)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  return or_throw(counted_aligned_alloc(n, a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return or_throw(counted_aligned_alloc(n, a));
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_aligned_alloc(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_aligned_alloc(n, a);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

using fj::Tracer;

constexpr int kWarmCalls = 100;

// The JIT backend is the one with an allocation-free warm path; the reference interpreter
// (FUSEJIT_BACKEND=reference, or a build without LLVM) allocates its environment per call.
bool llvm_backend() { return fj::backend::default_backend().name() == "llvm"; }

// Allocations over kWarmCalls calls of `call`, after warming it up (the first calls trace,
// compile and fill the pool's size classes).
template <class Call>
long warm_allocations(Call&& call) {
  for (int i = 0; i < 3; ++i) call();
  CountAllocations counter;
  for (int i = 0; i < kWarmCalls; ++i) call();
  return counter.count();
}

}  // namespace

TEST_CASE("dispatch allocations: the counting operator new sees an allocation") {
  // Without this, a counter that never counts would pass every case below.
  CountAllocations counter;
  std::vector<int>* v = new std::vector<int>(3);
  delete v;
  CHECK(counter.count() == 2);  // the vector object and its three ints
}

TEST_CASE("dispatch allocations: a warm jitted x + 1 on f32[1] allocates nothing") {
  if (!llvm_backend()) return;
  auto f = fj::jit([](Tracer x) { return x + 1; }, "add_one");
  const fj::Array x = fj::array(std::vector<float>{0.5f}, fj::Shape{1});
  fj::Array y;
  CHECK(warm_allocations([&] { y = f(x); }) == 0);
  CHECK(y.to_vector<float>() == std::vector<float>{1.5f});
  CHECK(f.trace_count() == 1);
}

TEST_CASE("dispatch allocations: two arguments and a tuple of outputs allocate nothing") {
  if (!llvm_backend()) return;
  auto f = fj::jit([](Tracer a, Tracer b) { return std::make_tuple(a + b, a * b, fj::exp(a)); });
  const fj::Array a = fj::array({1.0f, 2.0f, 3.0f});
  const fj::Array b = fj::array({4.0f, 5.0f, 6.0f});
  std::tuple<fj::Array, fj::Array, fj::Array> r;
  CHECK(warm_allocations([&] { r = f(a, b); }) == 0);
  CHECK(std::get<0>(r).to_vector<float>() == std::vector<float>{5.0f, 7.0f, 9.0f});
  CHECK(std::get<1>(r).to_vector<float>() == std::vector<float>{4.0f, 10.0f, 18.0f});
}

TEST_CASE("dispatch allocations: a pytree argument allocates nothing") {
  if (!llvm_backend()) return;
  auto f = fj::jit([](const std::pair<Tracer, Tracer>& p) { return p.first - p.second; });
  const std::pair<fj::Array, fj::Array> p{fj::array({3.0f}), fj::array({1.0f})};
  fj::Array y;
  CHECK(warm_allocations([&] { y = f(p); }) == 0);
  CHECK(y.to_vector<float>() == std::vector<float>{2.0f});
}

TEST_CASE("dispatch allocations: a static argument allocates nothing") {
  if (!llvm_backend()) return;
  auto f = fj::jit([](Tracer x, int n) { return x * n; }, fj::static_argnums<1>, "scale");
  const fj::Array x = fj::array({1.0f, 2.0f});
  fj::Array y;
  CHECK(warm_allocations([&] { y = f(x, 3); }) == 0);
  CHECK(y.to_vector<float>() == std::vector<float>{3.0f, 6.0f});
  CHECK(warm_allocations([&] { y = f(x, 4); }) == 0);  // a second entry of the same cache
  CHECK(y.to_vector<float>() == std::vector<float>{4.0f, 8.0f});
  CHECK(f.trace_count() == 2);
}

TEST_CASE("dispatch allocations: a captured constant allocates nothing") {
  if (!llvm_backend()) return;
  const fj::Array c = fj::array({10.0f, 20.0f});
  auto f = fj::jit([&c](Tracer x) { return x + c; });
  const fj::Array x = fj::array({1.0f, 2.0f});
  fj::Array y;
  CHECK(warm_allocations([&] { y = f(x); }) == 0);
  CHECK(y.to_vector<float>() == std::vector<float>{11.0f, 22.0f});
}

TEST_CASE("dispatch allocations: the pool reuses a released block, 64-byte aligned") {
  void* first = nullptr;
  {
    fj::runtime::BufferPtr b = fj::runtime::allocate(4);
    first = b->data;
    CHECK(reinterpret_cast<std::uintptr_t>(first) % fj::runtime::kAlignment == 0);
  }
  CountAllocations counter;
  for (std::size_t bytes : {std::size_t{1}, std::size_t{4}, std::size_t{16}}) {
    fj::runtime::BufferPtr b = fj::runtime::allocate(bytes);  // the same class: the same block
    CHECK(b->data == first);
  }
  CHECK(counter.count() == 0);
  // Larger data (past the pool's largest class) and views come out aligned and usable.
  for (std::size_t bytes : {std::size_t{1} << 15, std::size_t{1} << 16, std::size_t{1} << 20}) {
    fj::runtime::BufferPtr b = fj::runtime::allocate(bytes);
    CHECK(reinterpret_cast<std::uintptr_t>(b->data) % fj::runtime::kAlignment == 0);
    static_cast<char*>(b->data)[bytes - 1] = 1;
  }
  fj::runtime::host_trim();
  CHECK(fj::runtime::host_cached_bytes() == 0);
}

TEST_CASE("dispatch allocations: a size class keeps as many blocks as were in use at once") {
  // jit(grad) of a deep network keeps every layer's residuals: hundreds of blocks of one class
  // live at once. The next call must find them all in the pool (a fixed 1 MiB per class gave
  // 128 blocks of 8 KiB back to malloc, and the call then faulted their pages in again).
  fj::runtime::host_trim();
  constexpr std::size_t kBlocks = 400, kBytes = 8000;  // 3.2 MB of the 8 KiB class
  std::vector<fj::runtime::BufferPtr> live;
  for (std::size_t i = 0; i < kBlocks; ++i) live.push_back(fj::runtime::allocate(kBytes));
  live.clear();
  CHECK(fj::runtime::host_cached_bytes() >= kBlocks * kBytes);
  live.reserve(kBlocks);
  {
    CountAllocations counter;
    for (std::size_t i = 0; i < kBlocks; ++i) live.push_back(fj::runtime::allocate(kBytes));
    CHECK(counter.count() == 0);
  }
  live.clear();
  // Bounded: at most 64 MiB of one class waits, whatever was once in use.
  for (std::size_t i = 0; i < 10000; ++i) live.push_back(fj::runtime::allocate(kBytes));
  live.clear();
  CHECK(fj::runtime::host_cached_bytes() <= (std::size_t{64} << 20));
  fj::runtime::host_trim();
  CHECK(fj::runtime::host_cached_bytes() == 0);
}

TEST_CASE("dispatch allocations: threads sharing the pool never share a live block") {
  // Each thread fills its buffers with its own byte and checks it before releasing them: a block
  // handed to two owners at once would show the other thread's byte.
  std::vector<std::thread> threads;
  std::vector<int> bad(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &bad] {
      std::vector<fj::runtime::BufferPtr> held;
      for (int i = 0; i < 20000; ++i) {
        const std::size_t bytes = std::size_t{1} << (i % 12);
        auto b = fj::runtime::allocate(bytes);
        std::memset(b->data, t + 1, bytes);
        held.push_back(std::move(b));
        if (held.size() == 8) {
          for (auto& h : held)
            for (std::size_t k = 0; k < h->bytes; ++k)
              bad[static_cast<std::size_t>(t)] += static_cast<unsigned char*>(h->data)[k] != t + 1;
          held.clear();
        }
      }
    });
  for (auto& th : threads) th.join();
  CHECK(bad == std::vector<int>(4, 0));
}
