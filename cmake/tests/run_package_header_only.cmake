# package.header_only: fusejit compiled into the user's program (FUSEJIT_IMPLEMENTATION in one of two TUs); it must link and run.
#
# -DIMPLEMENTATION_IN_BOTH=ON turns it into the negative check: the implementation in both
# translation units must fail to link (multiple definitions), which this driver then expects.
include(${CMAKE_CURRENT_LIST_DIR}/package_common.cmake)

if(NOT LLVM_DIR)
  pkg_fail("header-only use needs LLVM; this build has none (FUSEJIT_WITH_LLVM=OFF)")
endif()
set(_bin "${PKG_WORK}/build")
pkg_configure("${SOURCE_DIR}/tests/package/header_only" "${_bin}"
  "-DFUSEJIT_INCLUDE_DIR=${SOURCE_DIR}/include" "-DLLVM_DIR=${LLVM_DIR}" "-DLLVM_REQUEST=${LLVM_REQUEST}"
  "-DIMPLEMENTATION_IN_BOTH=${IMPLEMENTATION_IN_BOTH}")
if(IMPLEMENTATION_IN_BOTH)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${_bin}" --parallel 2
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(_rc EQUAL 0 OR NOT _out MATCHES "multiple definition")
    pkg_fail("the implementation in both TUs should not link (multiple definition); got (${_rc}):\n${_out}")
  endif()
  string(REGEX MATCH "[^\n]*multiple definition[^\n]*" _first "${_out}")
  message(STATUS "[${CASE}] OK: the implementation in both TUs does not link:\n${_first}")
  return()
endif()
pkg_build("${_bin}")
pkg_exe(_exe "${_bin}" header_only_consumer)
pkg_run(run "${_exe}")
message(STATUS "[${CASE}] OK: header-only fusejit linked from two TUs and ran")
