# shellcheck shell=bash
# Sanitized builds and runs for ./scripts/test --sanitize (sourced after setup.sh).
#
# GCC's own sanitizer runtimes (libasan8, libubsan1, libtsan2: Debian 12's g++ 12) instrument
# fusejit, its tests and Eigen. libLLVM.so and the JIT-compiled kernels are not instrumented.
# No suppressions are needed: LLVM's allocations stay reachable (the ORC session is deliberately
# never destroyed, from a static pointer), so the leak checker does not report them, and TSan
# sees LLVM's locks through the pthread calls it intercepts.

FUSEJIT_DEBIAN_PACKAGES+=("${FUSEJIT_TEST_PACKAGES[@]}" libasan8 libubsan1 libtsan2)

# fusejit_sanitized_run SANITIZERS [ctest args...]: configures build-asan or build-tsan, builds
# the tests there, and runs them through ctest.
fusejit_sanitized_run() {
  local sanitize="$1"
  shift
  local dir filter ctest_args=(--output-on-failure -j"$FUSEJIT_JOBS")
  if [[ "$sanitize" == thread ]]; then
    # Only the tests that run threads: the concurrency stress test, the cache bounds (eviction
    # while executables hold kernels) and pmap (device threads meeting at collectives).
    dir=build-tsan
    filter='test_(concurrency|cache_bounds|pmap)\.cpp'
    # The GEMM cases are not in this build; the width and exhaustive-math entries check JIT code.
    # OpenMPI's own locks are reported by TSan (lock-order inversions inside its transports), so
    # the runs under mpiexec stay out; the device threads are checked in process (test_pmap).
    ctest_args+=(-LE 'compile_fail|gemm_isa|cpu_width|exhaustive|self_contained|mpi')
  else
    dir=build-asan
    filter=''
    # The compile-fail and self-contained tests only run the compiler, identically in every build. The width and
    # exhaustive-math entries check JIT-compiled code, which the sanitizers do not instrument;
    # the host code they run is the default run's, already in this build.
    ctest_args+=(-LE 'compile_fail|cpu_width|exhaustive|self_contained')
  fi
  fusejit_log "sanitized build ($sanitize) in $dir"
  local started=$SECONDS
  local build_dir="$FUSEJIT_BUILD_DIR"
  FUSEJIT_BUILD_DIR="$dir"
  FUSEJIT_CMAKE_ARGS="-DFUSEJIT_SANITIZE=$sanitize -DFUSEJIT_TEST_FILTER=$filter \
-DFUSEJIT_BUILD_BENCH=OFF -DFUSEJIT_BUILD_EXAMPLES=OFF -DFUSEJIT_INSTALL=OFF" \
    fusejit_configure_and_build
  FUSEJIT_BUILD_DIR="$build_dir"
  local built=$SECONDS
  # Any report fails its test (a non-zero exit). allocator_may_return_null: an allocation beyond
  # memory must reach fusejit as std::bad_alloc (it raises fj::DeviceError; a test checks that)
  # instead of ASan stopping the process.
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" \
    ctest --test-dir "$dir" "${ctest_args[@]}" "$@"
  fusejit_log "$sanitize: build $((built - started)) s, tests $((SECONDS - built)) s"
}
