# Helpers for the package-test drivers (cmake -P scripts): run a step, configure/build/run a nested project.
#
# Drivers get -DCASE -DBUILD_DIR -DSOURCE_DIR -DCONFIG -DGENERATOR -DMAKE_PROGRAM -DCXX -DLAUNCHER
# -DLLVM_DIR -DLLVM_REQUEST from fusejit_add_package_test (package_test.cmake). Each case works in
# BUILD_DIR/pkg/<CASE>/, emptied first so that nothing stale can make it pass. Every nested build
# directory sits at the same depth (BUILD_DIR/pkg/<CASE>/<dir>), so that ccache, with paths made
# relative to CCACHE_BASEDIR, sees the same compile in two of them and does it once.
cmake_minimum_required(VERSION 3.21)  # script mode starts with no policies set (IN_LIST needs CMP0057)
include_guard(GLOBAL)

foreach(_var CASE BUILD_DIR SOURCE_DIR)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "package test: -D${_var}=... is required")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()
set(PKG_WORK "${BUILD_DIR}/pkg/${CASE}")
file(REMOVE_RECURSE "${PKG_WORK}")
file(MAKE_DIRECTORY "${PKG_WORK}")

# ccache rewrites absolute paths under its base directory into relative ones; without one set by
# the user, the deepest directory holding both the sources and this build is used.
if(NOT DEFINED ENV{CCACHE_BASEDIR})
  set(_base "${SOURCE_DIR}")
  while(NOT _base STREQUAL "/")
    string(FIND "${BUILD_DIR}/" "${_base}/" _pos)
    if(_pos EQUAL 0)
      break()
    endif()
    get_filename_component(_base "${_base}" DIRECTORY)
  endwhile()
  set(ENV{CCACHE_BASEDIR} "${_base}")
endif()

# pkg_run(<step> <command>...): runs a command, stops the test with its output if it fails;
# the output is left in PKG_LAST_OUTPUT (pkg_configure passes it on too).
function(pkg_run step)
  string(REPLACE ";" " " _cmd "${ARGN}")
  message(STATUS "[${CASE}] ${step}: ${_cmd}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "[${CASE}] ${step} failed (${_rc}):\n${_cmd}\n${_out}")
  endif()
  message("${_out}")
  set(PKG_LAST_OUTPUT "${_out}" PARENT_SCOPE)
endfunction()

# pkg_fail(<message>): stops the test.
function(pkg_fail)
  string(JOIN "" _msg ${ARGN})
  message(FATAL_ERROR "[${CASE}] ${_msg}")
endfunction()

# Nested builds compile at -O0 whatever their configuration: they check packaging, not speed,
# and the library's largest translation unit takes 125 s at -O3 but 59 s at -O0.
set(PKG_FLAGS -DCMAKE_CXX_FLAGS_RELEASE=-O0 -DCMAKE_CXX_FLAGS_DEBUG=-O0
              -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -DCMAKE_CXX_FLAGS_MINSIZEREL=-O0)

# pkg_configure(<source dir> <build dir> [args...]): configures a nested project with this build's
# generator, compiler, launcher and configuration. Package registries are off: only what the
# test points at may satisfy find_package.
function(pkg_configure src bin)
  set(_args "${CMAKE_COMMAND}" -S "${src}" -B "${bin}" "-DCMAKE_BUILD_TYPE=${CONFIG}" ${PKG_FLAGS}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
    -DCMAKE_EXPORT_NO_PACKAGE_REGISTRY=ON)
  if(GENERATOR)
    list(APPEND _args -G "${GENERATOR}")
  endif()
  if(MAKE_PROGRAM)
    list(APPEND _args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
  endif()
  if(CXX)
    list(APPEND _args "-DCMAKE_CXX_COMPILER=${CXX}")
  endif()
  if(LAUNCHER)
    list(APPEND _args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
  endif()
  pkg_run(configure ${_args} ${ARGN})
  set(PKG_LAST_OUTPUT "${PKG_LAST_OUTPUT}" PARENT_SCOPE)
endfunction()

# pkg_build(<build dir> [cmake --build args...]): builds with two jobs (CI's machine has two cores).
function(pkg_build bin)
  pkg_run(build "${CMAKE_COMMAND}" --build "${bin}" --config "${CONFIG}" --parallel 2 ${ARGN})
endfunction()

# pkg_exe(<out var> <build dir> <name>): the executable's path (multi-config generators add <CONFIG>/).
function(pkg_exe out bin name)
  set(_exe "${bin}/${name}")
  if(NOT EXISTS "${_exe}" AND EXISTS "${bin}/${CONFIG}/${name}")
    set(_exe "${bin}/${CONFIG}/${name}")
  endif()
  set(${out} "${_exe}" PARENT_SCOPE)
endfunction()

# pkg_cache_value(<out var> <build dir> <name>): a cache entry of a configured nested build.
function(pkg_cache_value out bin name)
  file(STRINGS "${bin}/CMakeCache.txt" _line REGEX "^${name}:")
  string(REGEX REPLACE "^${name}:[A-Z]+=" "" _value "${_line}")
  set(${out} "${_value}" PARENT_SCOPE)
endfunction()

# pkg_expect_under(<what> <path> <dir>): fails unless <path> lies inside <dir> (symlinks resolved).
function(pkg_expect_under what path dir)
  file(REAL_PATH "${dir}" _dir)
  if(EXISTS "${path}")
    file(REAL_PATH "${path}" path)
  endif()
  string(FIND "${path}/" "${_dir}/" _pos)
  if(NOT _pos EQUAL 0)
    pkg_fail("${what} is '${path}', not inside '${_dir}'")
  endif()
endfunction()

# pkg_install(<prefix>): installs this build (the library the outer build made) into <prefix>.
function(pkg_install prefix)
  pkg_run(install "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --config "${CONFIG}" --prefix "${prefix}")
endfunction()

# pkg_consume(<consumer build dir> <expected package dir> [configure args...]): configures,
# builds and runs tests/package/find_package, checking that find_package(fusejit) took the
# package in <expected package dir> and that the library it links lies in the same tree.
function(pkg_consume bin expected_dir)
  pkg_configure("${SOURCE_DIR}/tests/package/find_package" "${bin}" ${ARGN})
  pkg_cache_value(_found "${bin}" fusejit_DIR)
  pkg_expect_under("fusejit_DIR" "${_found}" "${expected_dir}")
  pkg_build("${bin}")
  pkg_exe(_exe "${bin}" fusejit_consumer)
  pkg_run(run "${_exe}")
  file(READ "${bin}/fusejit-location-${CONFIG}.txt" _lib)
  set(PKG_LINKED_LIBRARY "${_lib}" PARENT_SCOPE)
endfunction()
