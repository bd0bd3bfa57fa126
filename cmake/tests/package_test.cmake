# fusejit_add_package_test(): registers one package-test driver (cmake -P) under ctest's "package" label.
#
# Every driver gets what it needs to configure nested CMake projects the way this build is
# configured (generator, compiler, configuration, the LLVM found here) and a compiler launcher:
# this build's own, else ccache when it is on PATH, so that the library compiles that several
# nested builds share (static and shared, Release and Debug) are done once.
include_guard(GLOBAL)

set(_fj_pkg_launcher "${CMAKE_CXX_COMPILER_LAUNCHER}")
if(NOT _fj_pkg_launcher)
  find_program(FUSEJIT_CCACHE ccache DOC "ccache for the package tests' nested builds")
  if(FUSEJIT_CCACHE)
    set(_fj_pkg_launcher "${FUSEJIT_CCACHE}")
  endif()
endif()

# fusejit_add_package_test(<name> <driver.cmake> [TIMEOUT s] [ARGS -Dk=v...])
function(fusejit_add_package_test name driver)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "TIMEOUT" "ARGS")
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  add_test(NAME package.${name}
    COMMAND ${CMAKE_COMMAND}
      "-DCASE=${name}"
      "-DBUILD_DIR=${PROJECT_BINARY_DIR}"
      "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
      "-DCONFIG=$<CONFIG>"
      "-DGENERATOR=${CMAKE_GENERATOR}"
      "-DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
      "-DCXX=${CMAKE_CXX_COMPILER}"
      "-DLAUNCHER=${_fj_pkg_launcher}"
      "-DLLVM_DIR=${LLVM_DIR}"
      "-DLLVM_REQUEST=${FUSEJIT_LLVM_VERSION}"
      ${ARG_ARGS}
      -P ${PROJECT_SOURCE_DIR}/cmake/tests/${driver})
  set_tests_properties(package.${name} PROPERTIES
    LABELS "package;full" TIMEOUT ${ARG_TIMEOUT})
endfunction()
