# CTest driver for package.find_package: install the build tree, then build and run tests/package against it.
#
# Usage (registered by CMakeLists.txt):
#   cmake -DBUILD_DIR=<fusejit build dir> -DSOURCE_DIR=<repo root> [-DCONFIG=<Release|...>]
#         [-DGENERATOR=<name>] [-DCXX=<compiler>] [-DMAKE_PROGRAM=<path>]
#         -P run_package_find.cmake
#
# Everything it writes stays under BUILD_DIR: package-prefix/ (the install) and
# package-build/ (the consumer), both recreated from scratch on every run so that a stale
# install or cache can never make the test pass.

foreach(_var BUILD_DIR SOURCE_DIR)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "run_package_find.cmake: -D${_var}=... is required")
  endif()
endforeach()
if(NOT DEFINED CONFIG OR CONFIG STREQUAL "")
  set(CONFIG Release)
endif()

set(_prefix "${BUILD_DIR}/package-prefix")
set(_consumer_build "${BUILD_DIR}/package-build")

function(_run step)
  string(REPLACE ";" " " _cmd_str "${ARGN}")
  message(STATUS "[package test] ${step}: ${_cmd_str}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "[package test] ${step} failed (${_rc}):\n${_cmd_str}\n${_out}")
  endif()
  message("${_out}")
endfunction()

file(REMOVE_RECURSE "${_prefix}" "${_consumer_build}")

_run(install "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --config "${CONFIG}" --prefix "${_prefix}")

set(_configure
  "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/package" -B "${_consumer_build}"
  "-DCMAKE_PREFIX_PATH=${_prefix}"
  "-DCMAKE_BUILD_TYPE=${CONFIG}"
  # Only the fresh install may satisfy find_package(fusejit): no user/system package registry.
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
  -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
if(DEFINED GENERATOR AND NOT GENERATOR STREQUAL "")
  list(APPEND _configure -G "${GENERATOR}")
endif()
if(DEFINED MAKE_PROGRAM AND NOT MAKE_PROGRAM STREQUAL "")
  list(APPEND _configure "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(DEFINED CXX AND NOT CXX STREQUAL "")
  list(APPEND _configure "-DCMAKE_CXX_COMPILER=${CXX}")
endif()
_run(configure ${_configure})

# The consumer must have found the package we just installed, not some other copy.
file(STRINGS "${_consumer_build}/CMakeCache.txt" _dir_line REGEX "^fusejit_DIR:")
string(REGEX REPLACE "^fusejit_DIR:[A-Z]+=" "" _found_dir "${_dir_line}")
file(REAL_PATH "${_prefix}" _prefix_real)
if(EXISTS "${_found_dir}")
  file(REAL_PATH "${_found_dir}" _found_dir)
endif()
string(FIND "${_found_dir}" "${_prefix_real}/" _pos)
if(NOT _pos EQUAL 0)
  message(FATAL_ERROR
    "[package test] fusejit was found at '${_found_dir}', not in the test prefix '${_prefix_real}'")
endif()

_run(build "${CMAKE_COMMAND}" --build "${_consumer_build}" --config "${CONFIG}")

# Single-config generators put the binary at the top; multi-config ones in <CONFIG>/.
set(_exe "${_consumer_build}/fusejit_consumer")
if(NOT EXISTS "${_exe}" AND EXISTS "${_consumer_build}/${CONFIG}/fusejit_consumer")
  set(_exe "${_consumer_build}/${CONFIG}/fusejit_consumer")
endif()
_run(run "${_exe}")

message(STATUS "[package test] OK: installed fusejit found via find_package, linked and ran")
