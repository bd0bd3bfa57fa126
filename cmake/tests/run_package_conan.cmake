# CTest driver for the package.conan.* tests: a private, offline Conan 2 (STEP=setup), then one `conan create` (STEP=create).
#
# Usage (registered by cmake/tests/package_conan.cmake):
#   cmake -DSTEP=setup -DWORK_DIR=<dir> -DSOURCE_DIR=<repo root> -DPYTHON=<python3>
#         -DCXX=<compiler> -DCXX_ID=<GNU|Clang> -DCXX_VERSION=<x.y.z> -DARCH=<processor>
#         [-DCCACHE=<ccache>] [-DGENERATOR=<name>] [-DMAKE_PROGRAM=<path>] -P run_package_conan.cmake
#   cmake -DSTEP=create -DVARIANT=<static|shared|header_only> -DWORK_DIR=<dir> -DSOURCE_DIR=<repo root>
#         -P run_package_conan.cmake
#
# Everything lives under WORK_DIR: venv/ (Conan from PyPI, made once and reused), home/ (CONAN_HOME:
# no remotes, a profile for the outer build's compiler, the system wrappers of
# packaging/conan/system exported). Nothing is downloaded but Conan itself.

foreach(_var STEP WORK_DIR SOURCE_DIR)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "run_package_conan.cmake: -D${_var}=... is required")
  endif()
endforeach()

set(_venv "${WORK_DIR}/venv")
set(_conan "${_venv}/bin/conan")
set(ENV{CONAN_HOME} "${WORK_DIR}/home")
# CMake and the build tool Conan runs are the outer build's.
get_filename_component(_cmake_dir "${CMAKE_COMMAND}" DIRECTORY)
set(_path "${_cmake_dir}")
if(DEFINED MAKE_PROGRAM AND NOT MAKE_PROGRAM STREQUAL "")
  get_filename_component(_make_dir "${MAKE_PROGRAM}" DIRECTORY)
  string(APPEND _path ":${_make_dir}")
endif()
set(ENV{PATH} "${_path}:$ENV{PATH}")
# ccache rewrites paths under the base directory to relative ones, so that builds in different
# Conan build folders (static, shared, a later run) share cached objects.
if("$ENV{CCACHE_BASEDIR}" STREQUAL "")
  set(ENV{CCACHE_BASEDIR} "${WORK_DIR}")
endif()

function(_run step)
  string(REPLACE ";" " " _cmd_str "${ARGN}")
  message(STATUS "[conan test] ${step}: ${_cmd_str}")
  string(TIMESTAMP _t0 "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  string(TIMESTAMP _t1 "%s")
  math(EXPR _secs "${_t1} - ${_t0}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "[conan test] ${step} failed (${_rc}) after ${_secs} s:\n${_cmd_str}\n${_out}")
  endif()
  message("${_out}")
  message(STATUS "[conan test] ${step}: ${_secs} s")
  set(_run_output "${_out}" PARENT_SCOPE)
endfunction()

if(STEP STREQUAL "setup")
  foreach(_var PYTHON CXX CXX_ID CXX_VERSION ARCH)
    if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
      message(FATAL_ERROR "run_package_conan.cmake: -D${_var}=... is required for STEP=setup")
    endif()
  endforeach()

  # --- Conan from PyPI, in a venv made once (a half-made one is made again). -----------------
  if(NOT EXISTS "${_conan}")
    file(REMOVE_RECURSE "${_venv}")
    _run(venv "${PYTHON}" -m venv "${_venv}")
    _run(pip "${_venv}/bin/python" -m pip install --disable-pip-version-check --quiet "conan>=2.2,<3")
  endif()
  _run(version "${_conan}" --version)

  # --- CONAN_HOME from scratch: no remote (ConanCenter is never asked), one profile. --------
  file(REMOVE_RECURSE "$ENV{CONAN_HOME}")
  # An existing remotes.json keeps Conan from adding ConanCenter on first use.
  file(WRITE "$ENV{CONAN_HOME}/remotes.json" "{\"remotes\": []}\n")
  file(WRITE "$ENV{CONAN_HOME}/global.conf" "core:non_interactive=True\n")

  if(CXX_ID STREQUAL "GNU")
    set(_compiler gcc)
  elseif(CXX_ID MATCHES "Clang")
    set(_compiler clang)
  else()
    message(FATAL_ERROR "[conan test] no Conan profile for the compiler ${CXX_ID} (${CXX})")
  endif()
  string(REGEX MATCH "^[0-9]+" _compiler_major "${CXX_VERSION}")
  if(ARCH MATCHES "^(x86_64|AMD64|amd64)$")
    set(_arch x86_64)
  elseif(ARCH MATCHES "^(aarch64|arm64)$")
    set(_arch armv8)
  else()
    set(_arch "${ARCH}")
  endif()
  # Launcher and make program are known only here; the profile carries them to every build,
  # test_package's included.
  # Release builds compile -O0, as the other package tests' nested builds do (package_common.cmake):
  # they check the package and its usage requirements, not the code's speed, and the library's
  # -O0 compile takes half the time of its -O3 one.
  set(_variables "\"CMAKE_CXX_FLAGS_RELEASE\": \"-O0 -DNDEBUG\"")
  if(DEFINED CCACHE AND NOT CCACHE STREQUAL "")
    string(APPEND _variables ", \"CMAKE_CXX_COMPILER_LAUNCHER\": \"${CCACHE}\"")
  endif()
  set(_extra "tools.cmake.cmaketoolchain:extra_variables={${_variables}}\n")
  if(DEFINED GENERATOR AND GENERATOR STREQUAL "Ninja")
    string(APPEND _extra "tools.cmake.cmaketoolchain:generator=Ninja\n")
  endif()
  file(WRITE "$ENV{CONAN_HOME}/profiles/default"
    "# Written by cmake/tests/run_package_conan.cmake from the outer build's compiler.\n"
    "[settings]\n"
    "os=${CMAKE_HOST_SYSTEM_NAME}\n"
    "arch=${_arch}\n"
    "build_type=Release\n"
    "compiler=${_compiler}\n"
    "compiler.version=${_compiler_major}\n"
    "compiler.libcxx=libstdc++11\n"
    "compiler.cppstd=20\n"
    "[conf]\n"
    "tools.build:compiler_executables={\"cpp\": \"${CXX}\"}\n"
    # CI's machine has 2 cores, shared with the rest of the suite.
    "tools.build:jobs=2\n"
    "${_extra}")
  _run(profile "${_conan}" profile show -pr:a default)

  # --- llvm-core, eigen, xsimd, xxhash: recipes that point at Debian's installed files. -----
  # system-headers first: eigen, xsimd and xxhash extend it (python_requires).
  foreach(_pkg system-headers llvm-core eigen xsimd xxhash)
    _run("export ${_pkg}" "${_conan}" export "${SOURCE_DIR}/packaging/conan/system/${_pkg}")
  endforeach()
  message(STATUS "[conan test] OK: Conan ready in $ENV{CONAN_HOME}")

elseif(STEP STREQUAL "create")
  if(NOT EXISTS "${_conan}" OR NOT EXISTS "$ENV{CONAN_HOME}/profiles/default")
    message(FATAL_ERROR "[conan test] no Conan in ${WORK_DIR}: package.conan.setup has not run")
  endif()
  set(_args)
  if(VARIANT STREQUAL "static")
    list(APPEND _args -o "fusejit/*:shared=False")
  elseif(VARIANT STREQUAL "shared")
    list(APPEND _args -o "fusejit/*:shared=True")
  elseif(VARIANT STREQUAL "header_only")
    # The headers-only package has no build type; test_package, whose one translation unit
    # compiles the whole library, is built -O0 (Debug): it checks the package's usage
    # requirements, not the code's speed, and -O0 halves its compile time.
    list(APPEND _args -o "fusejit/*:header_only=True" -s build_type=Debug)
  else()
    message(FATAL_ERROR "run_package_conan.cmake: VARIANT must be static, shared or header_only")
  endif()
  # No earlier fusejit package may stand in for this one.
  _run(remove "${_conan}" remove "fusejit/*" --confirm)
  # test_package builds inside its own folder: a copy here keeps the source tree clean.
  set(_test_folder "${WORK_DIR}/test_package-${VARIANT}")
  file(REMOVE_RECURSE "${_test_folder}")
  file(COPY "${SOURCE_DIR}/test_package/" DESTINATION "${_test_folder}")
  _run("create ${VARIANT}" "${_conan}" create "${SOURCE_DIR}" -pr:a default --build=missing
       --test-folder "${_test_folder}" ${_args})
  # test_package prints this only after checking every value; a skipped test() would not.
  if(NOT _run_output MATCHES "jit\\(x\\*2\\+1\\) over 37 f32 values OK")
    message(FATAL_ERROR "[conan test] test_package did not report its check")
  endif()
  message(STATUS "[conan test] OK: conan create (${VARIANT}) built fusejit and ran test_package")
else()
  message(FATAL_ERROR "run_package_conan.cmake: STEP must be setup or create")
endif()
