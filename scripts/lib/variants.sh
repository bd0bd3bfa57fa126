# shellcheck shell=bash
# The other toolchains fusejit supports, for ./scripts/test --clang and --llvm22 (sourced after
# setup.sh): each is a build directory of its own next to build/.

FUSEJIT_DEBIAN_PACKAGES+=("${FUSEJIT_TEST_PACKAGES[@]}" clang-19 llvm-22-dev)

# fusejit_variant_run NAME DIR "CMAKE ARGS" [ctest args...]: configures and builds DIR with the
# arguments given, then runs ctest there.
fusejit_variant_run() {
  local name="$1" dir="$2" cmake_args="$3"
  shift 3
  fusejit_log "$name build in $dir"
  local started=$SECONDS build_dir="$FUSEJIT_BUILD_DIR"
  FUSEJIT_BUILD_DIR="$dir" FUSEJIT_CMAKE_ARGS="$cmake_args" fusejit_configure_and_build
  FUSEJIT_BUILD_DIR="$build_dir"
  local built=$SECONDS
  ctest --test-dir "$dir" --output-on-failure -j"$FUSEJIT_JOBS" "$@"
  fusejit_log "$name: build $((built - started)) s, tests $((SECONDS - built)) s"
}

# clang 19 with libstdc++: the whole library, tests, examples and benchmarks are built; the suite
# runs minus what only repeats the default run's checks on the same kernels (the JIT-compiled
# code does not depend on the host compiler): the fuzzer's 2 000 programs, the width and
# exhaustive entries, the GEMM ISA reruns and the package tests (which build the library again).
fusejit_clang_run() {
  fusejit_variant_run "clang 19" build-clang \
    "-DCMAKE_CXX_COMPILER=clang++-19 -DFUSEJIT_BUILD_BENCH=ON -DFUSEJIT_BUILD_EXAMPLES=ON \
-DFUSEJIT_WERROR=ON" \
    -LE 'cpu_width|exhaustive|gemm_isa|package|self_contained' -E 'fuzz: random programs' "$@"
}

# LLVM 22 instead of 19: the library and the tests of the LLVM backend (code generation, math,
# widths, native loops, disk cache, the seeds' library ops).
fusejit_llvm22_run() {
  fusejit_variant_run "LLVM 22" build-llvm22 \
    "-DFUSEJIT_LLVM_VERSION=22.1 -DFUSEJIT_BUILD_BENCH=OFF -DFUSEJIT_BUILD_EXAMPLES=OFF \
-DFUSEJIT_INSTALL=OFF \
-DFUSEJIT_TEST_FILTER=test_(llvm_backend|llvm_math|cpu_widths|lax_native_loops|disk_cache|library_ops|jax_numerics)\.cpp" \
    -LE 'exhaustive|gemm_isa|self_contained' "$@"
}
