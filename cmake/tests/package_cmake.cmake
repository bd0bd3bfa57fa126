# ctest entries (label "package") for fusejit's CMake package: install, build tree, relocation, add_subdirectory, header-only, an exported consumer.
# Each driver is a cmake -P script beside this file; each consumer project is a folder of tests/package/.
include(${CMAKE_CURRENT_LIST_DIR}/package_test.cmake)

# These reuse this build's library (installed or in place) and only compile their consumers.
# Measured (2-vCPU AMD EPYC, beside the other full-tier entries): 10.9, 6.7, 2.8 and 12.6 s.
fusejit_add_package_test(find_package run_package_find.cmake TIMEOUT 120)
fusejit_add_package_test(build_tree run_package_build_tree.cmake TIMEOUT 120)
fusejit_add_package_test(relocated run_package_relocated.cmake TIMEOUT 120)
fusejit_add_package_test(exported_consumer run_package_exported.cmake TIMEOUT 120)
# These compile the library again (at -O0): in a nested build, and into the user's own TU. Each
# is mostly one long single-threaded compile, so ctest -j2 may well run the two side by side.
# Measured: 172 s and 131 s. COST (the same seconds) starts them early in a run with no timing
# history yet (a fresh clone), so that the long entries do not end the run one by one.
fusejit_add_package_test(add_subdirectory run_package_add_subdirectory.cmake TIMEOUT 600)
set_tests_properties(package.add_subdirectory PROPERTIES COST 172)
if(FUSEJIT_WITH_LLVM)
  fusejit_add_package_test(header_only run_package_header_only.cmake TIMEOUT 600)
  set_tests_properties(package.header_only PROPERTIES COST 131)
endif()
