# package.vcpkg.post_build_checks_fail: vcpkg/post_build_checks.cmake passes a good small tree and fails each deliberately broken copy of it.
#
# The trees are fake (empty "libraries", a one-line config) and cost no compile: what is tested
# is that each rule can fail, by running the checker as a script on each tree.
include(${CMAKE_CURRENT_LIST_DIR}/package_common.cmake)

set(_checker "${CMAKE_CURRENT_LIST_DIR}/vcpkg/post_build_checks.cmake")

# _good_tree(<dir>): what a static Release+Debug fusejit package holds, in miniature.
function(_good_tree dir)
  file(WRITE "${dir}/include/fusejit/fusejit.hpp" "// header\n")
  file(WRITE "${dir}/lib/libfusejit.a" "")
  file(WRITE "${dir}/debug/lib/libfusejit.a" "")
  file(WRITE "${dir}/share/fusejit/fusejit-config.cmake"
    "get_filename_component(PACKAGE_PREFIX_DIR \"\${CMAKE_CURRENT_LIST_DIR}/../../\" ABSOLUTE)\n")
  file(WRITE "${dir}/share/fusejit/copyright" "notice\n")
  file(WRITE "${dir}/share/fusejit/usage" "find_package(fusejit CONFIG REQUIRED)\n")
endfunction()

# _check(<name> <expected message regex | PASS> [LINKAGE l]): runs the checker on tree <name>.
function(_check name expect)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "LINKAGE" "")
  if(NOT arg_LINKAGE)
    set(arg_LINKAGE static)
  endif()
  set(_dir "${PKG_WORK}/${name}")
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DPACKAGE_DIR=${_dir}" -DPORT=fusejit
      "-DLINKAGE=${arg_LINKAGE}" "-DFORBIDDEN=${PKG_WORK}" -P "${_checker}"
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(expect STREQUAL "PASS")
    if(NOT _rc EQUAL 0)
      pkg_fail("the good tree should pass:\n${_out}")
    endif()
  elseif(_rc EQUAL 0 OR NOT _out MATCHES "${expect}")
    pkg_fail("tree '${name}' should fail with '${expect}'; got (${_rc}):\n${_out}")
  endif()
  message(STATUS "[${CASE}] ${name}: ${expect} (as expected)")
endfunction()

_good_tree("${PKG_WORK}/good")
_check(good PASS)

_good_tree("${PKG_WORK}/no_copyright")
file(REMOVE "${PKG_WORK}/no_copyright/share/fusejit/copyright")
_check(no_copyright "missing share/fusejit/copyright")

_good_tree("${PKG_WORK}/no_usage")
file(REMOVE "${PKG_WORK}/no_usage/share/fusejit/usage")
_check(no_usage "missing share/fusejit/usage")

_good_tree("${PKG_WORK}/debug_include")
file(WRITE "${PKG_WORK}/debug_include/debug/include/fusejit/fusejit.hpp" "// header\n")
_check(debug_include "debug/include must not exist")

_good_tree("${PKG_WORK}/config_not_merged")
file(WRITE "${PKG_WORK}/config_not_merged/debug/lib/cmake/fusejit/fusejit-targets-debug.cmake" "\n")
_check(config_not_merged "debug/lib/cmake must not exist")

_good_tree("${PKG_WORK}/absolute_path")
file(APPEND "${PKG_WORK}/absolute_path/share/fusejit/fusejit-config.cmake"
  "set(_fusejit_prefix \"${PKG_WORK}/absolute_path\")\n")
_check(absolute_path "fusejit-config.cmake contains the absolute path")

_good_tree("${PKG_WORK}/shared_in_static")
file(WRITE "${PKG_WORK}/shared_in_static/lib/libfusejit.so" "")
_check(shared_in_static "static linkage, but shared objects in lib")

_good_tree("${PKG_WORK}/no_debug_lib")
file(REMOVE "${PKG_WORK}/no_debug_lib/debug/lib/libfusejit.a")
_check(no_debug_lib "no static library in debug/lib")

_good_tree("${PKG_WORK}/no_shared")
_check(no_shared "dynamic linkage, but no shared object in lib" LINKAGE dynamic)

_good_tree("${PKG_WORK}/empty_dir")
file(MAKE_DIRECTORY "${PKG_WORK}/empty_dir/include/fusejit/detail")
_check(empty_dir "empty directory include/fusejit/detail")

message(STATUS "[${CASE}] OK: every rule fails on its broken tree and the good tree passes")
