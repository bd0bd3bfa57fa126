# The doctest cases' tiers and the timeouts of the slow ones, read by ctest after the cases are
# discovered (CMakeLists.txt appends this file to TEST_INCLUDE_FILES after doctest's own list).
#
# Every doctest case has TIMEOUT 120 (CMakeLists.txt); a case listed here gets its own, at least
# three times its time on a quiet machine, with the measurement beside it. Measured on the 2-vCPU
# AMD EPYC guest (AVX-512), ctest -j2, the on-disk kernel cache empty: the slowest case not listed
# takes 10.5 s ("fuzz: ... seeds 0-499"). `./scripts/test --timings` shows the current figures.
#
# The "full" label puts a case in ./scripts/test --full only: the long ranges, whose short range
# stays in the default tier. set_tests_properties replaces LABELS, and no doctest case has any
# other label. A name that a build does not have (FUSEJIT_TEST_FILTER) is ignored.

# The fuzzer's seeds 0-499 run in the default tier (and again at each vector width); these three
# ranges only in the full one. Measured: 9.7, 9.2 and 6.9 s.
foreach(_seeds 500-999 1000-1499 1500-1999)
  set_tests_properties("fuzz: random programs agree with the reference, seeds ${_seeds}"
    PROPERTIES LABELS full)
endforeach()

# 10 000 kernels through a cache bounded to 100 (the default tier compiles 2 000: 11 s). Measured:
# 55 s.
set_tests_properties([=[cache bounds: 10 000 distinct kernels with capacity 100]=]
  PROPERTIES LABELS full TIMEOUT 300)

# NVRTC compiling the kernels of fuzz programs for sm_90 (about 90 ms a kernel): programs 0-239
# plus each primitive they missed, drawn alone, in the default tier (measured: 39 s); programs
# 240-479 in the full one (35 s).
set_tests_properties(
  [=[cuda codegen: every fusable primitive of the table compiles with NVRTC for sm_90]=]
  PROPERTIES TIMEOUT 300)
set_tests_properties(
  [=[cuda codegen: the kernels of fuzz programs 240-479 compile with NVRTC for sm_90]=]
  PROPERTIES LABELS full TIMEOUT 300)

# A program of 100 000 equations traced, printed, differentiated, batched, compiled and run; the
# 20 000-equation case (3.4 s) stays in the default tier. Measured: 18 s (the fusion pass runs
# at the tests' -O0 there: fuse.hpp is a header this test includes).
set_tests_properties(
  [=[program size: 100 000 equations trace, differentiate, batch, compile and run]=]
  PROPERTIES LABELS full TIMEOUT 300)
