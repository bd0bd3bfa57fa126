# ctest entries (label "package") for the Conan 2 recipe (conanfile.py, test_package/): setup, then one conan create per variant.
#
# package.conan.setup (a fixture) makes a venv with Conan from PyPI under the build directory
# (reused by later runs) and a CONAN_HOME there without remotes; the create entries then build
# the library static, shared and headers-only against recipes wrapping Debian's packages
# (packaging/conan/system/), each running test_package. They share one CONAN_HOME, whose cache
# is not safe for concurrent use: RESOURCE_LOCK keeps them one at a time under ctest -j.
# Each variant builds the library once (2-3 min cold on 2 cores); a slower CI can keep fewer.
set(FUSEJIT_CONAN_TEST_VARIANTS "static;shared;header_only" CACHE STRING
    "Which conan create runs ctest registers (package.conan.<variant>): static, shared, header_only")
find_package(Python3 COMPONENTS Interpreter QUIET)
find_program(FUSEJIT_CCACHE ccache DOC "ccache for the Conan package builds (empty: none)")
mark_as_advanced(FUSEJIT_CCACHE)

set(_fj_conan_work "${PROJECT_BINARY_DIR}/conan")
set(_fj_conan_script "${PROJECT_SOURCE_DIR}/cmake/tests/run_package_conan.cmake")

if(NOT Python3_Interpreter_FOUND)
  message(STATUS "fusejit: no python3, so no package.conan tests")
  return()
endif()

add_test(NAME package.conan.setup
  COMMAND ${CMAKE_COMMAND}
    -DSTEP=setup
    "-DWORK_DIR=${_fj_conan_work}"
    "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
    "-DPYTHON=${Python3_EXECUTABLE}"
    "-DCXX=${CMAKE_CXX_COMPILER}"
    "-DCXX_ID=${CMAKE_CXX_COMPILER_ID}"
    "-DCXX_VERSION=${CMAKE_CXX_COMPILER_VERSION}"
    "-DARCH=${CMAKE_SYSTEM_PROCESSOR}"
    "-DCCACHE=${FUSEJIT_CCACHE}"
    "-DGENERATOR=${CMAKE_GENERATOR}"
    "-DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
    -P ${_fj_conan_script})
set_tests_properties(package.conan.setup PROPERTIES
  LABELS "package;full" FIXTURES_SETUP fusejit_conan RESOURCE_LOCK fusejit_conan_home TIMEOUT 300
  COST 1000)  # measured: 13.5 s (Conan installed from PyPI); first, so the variants start early

foreach(_variant IN LISTS FUSEJIT_CONAN_TEST_VARIANTS)
  add_test(NAME package.conan.${_variant}
    COMMAND ${CMAKE_COMMAND}
      -DSTEP=create
      -DVARIANT=${_variant}
      "-DWORK_DIR=${_fj_conan_work}"
      "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
      -P ${_fj_conan_script})
  # PROCESSORS 2: each builds with 2 jobs (the profile's tools.build:jobs), which ctest -j counts.
  # Measured: static 90 s, shared 10 s (from ccache), header_only 150 s (one translation unit).
  set_tests_properties(package.conan.${_variant} PROPERTIES
    LABELS "package;full" FIXTURES_REQUIRED fusejit_conan RESOURCE_LOCK fusejit_conan_home
    PROCESSORS 2 TIMEOUT 600 COST 300)
endforeach()
