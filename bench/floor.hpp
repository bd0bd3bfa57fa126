// The bandwidth floor of bench_fused_elementwise and bench_workloads (bench/floor.cpp, compiled
// -O3 -march=native): n floats read with vector loads and written with non-temporal stores.
#pragma once
#include <cstddef>

namespace fjbench {

// The thread count of the "all threads" floor: std::thread::hardware_concurrency() (at least 1),
// which is what fusejit's pool uses when FUSEJIT_NUM_THREADS is unset.
int floor_all_threads();

// Copies x[0, n) to y[0, n): the widest vector loads the host has (AVX-512, else AVX2, else what
// the compiler makes of a plain loop) and non-temporal stores (then a store fence), split into
// `threads` even contiguous parts (on 64-byte boundaries). The calling thread copies the first
// part; the others run on a pool of threads - 1 persistent workers made on the first call with
// that count, so that no thread is started inside a timed loop. threads <= 1: the calling thread
// alone. Returns once every part is written.
void floor_nt(const float* x, float* y, std::size_t n, int threads);

// The ISA of floor_nt's loop: "AVX-512", "AVX2" or "scalar".
const char* floor_isa();

}  // namespace fjbench
