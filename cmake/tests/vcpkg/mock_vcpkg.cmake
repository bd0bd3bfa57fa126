# Stand-ins for the vcpkg helpers that ports/fusejit/portfile.cmake calls, so that a cmake -P script can run the portfile.
#
# vcpkg itself cannot be installed here; these do what vcpkg's vcpkg-cmake and vcpkg-cmake-config
# ports and its built-in vcpkg_install_copyright do for a Linux triplet, as far as the port's
# result depends on it: two builds (Release into the package directory, Debug into its debug/),
# the options vcpkg passes to CMake, `install`, and the config fixup. Not mimicked: vcpkg's
# toolchain file and its compiler flags; the test builds compile at -O0 (see package_common.cmake).
#
# The including driver sets PORT, VERSION, TARGET_TRIPLET, VCPKG_LIBRARY_LINKAGE, VCPKG_BUILD_TYPE
# (empty or "release"), CURRENT_PACKAGES_DIR, CURRENT_BUILDTREES_DIR and the package_common.cmake
# variables, then includes the portfile.
include_guard(GLOBAL)
set(_vcpkg_mock_dir "${CMAKE_CURRENT_LIST_DIR}")

# The configurations vcpkg builds: both, unless the triplet says VCPKG_BUILD_TYPE release.
set(_vcpkg_configs release)
if(NOT VCPKG_BUILD_TYPE STREQUAL "release")
  list(APPEND _vcpkg_configs debug)
endif()

function(vcpkg_cmake_configure)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "SOURCE_PATH" "OPTIONS;OPTIONS_RELEASE;OPTIONS_DEBUG;MAYBE_UNUSED_VARIABLES")
  if(VCPKG_LIBRARY_LINKAGE STREQUAL "dynamic")
    set(_shared ON)
  else()
    set(_shared OFF)
  endif()
  foreach(_cfg IN LISTS _vcpkg_configs)
    if(_cfg STREQUAL "release")
      set(_dir "${CURRENT_BUILDTREES_DIR}/${TARGET_TRIPLET}-rel")
      set(_prefix "${CURRENT_PACKAGES_DIR}")
      set(CONFIG Release)
      set(_extra ${arg_OPTIONS_RELEASE})
    else()
      set(_dir "${CURRENT_BUILDTREES_DIR}/${TARGET_TRIPLET}-dbg")
      set(_prefix "${CURRENT_PACKAGES_DIR}/debug")
      set(CONFIG Debug)
      set(_extra ${arg_OPTIONS_DEBUG})
    endif()
    # What vcpkg_cmake_configure passes on every port's command line (Linux, Ninja).
    pkg_configure("${arg_SOURCE_PATH}" "${_dir}"
      "-DCMAKE_INSTALL_PREFIX=${_prefix}"
      "-DBUILD_SHARED_LIBS=${_shared}"
      "-DVCPKG_TARGET_TRIPLET=${TARGET_TRIPLET}"
      -DCMAKE_INSTALL_LIBDIR:STRING=lib
      -DCMAKE_INSTALL_BINDIR:STRING=bin
      -DCMAKE_INSTALL_SYSTEM_RUNTIME_LIBS_SKIP=TRUE
      -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON
      -DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON
      -DFETCHCONTENT_FULLY_DISCONNECTED=ON
      # Test plumbing, not vcpkg's: see nested_build_hook.cmake.
      "-DCMAKE_PROJECT_${PORT}_INCLUDE=${_vcpkg_mock_dir}/nested_build_hook.cmake"
      ${arg_OPTIONS} ${_extra})
    # vcpkg reports the port's options that the project never read (a misspelt option does
    # nothing otherwise); here that fails the test.
    string(REGEX MATCH "Manually-specified variables were not used by the project:\n\n([^\n]+\n)+"
      _unused "${PKG_LAST_OUTPUT}")
    foreach(_opt IN LISTS arg_OPTIONS _extra)
      if(_opt MATCHES "^-D([A-Za-z0-9_]+)" AND NOT CMAKE_MATCH_1 IN_LIST arg_MAYBE_UNUSED_VARIABLES)
        if(_unused MATCHES "\n +${CMAKE_MATCH_1}\n")
          message(FATAL_ERROR "vcpkg_cmake_configure: the project did not use the port's option ${_opt}")
        endif()
      endif()
    endforeach()
    set_property(GLOBAL APPEND PROPERTY _vcpkg_build_dirs "${_dir}|${CONFIG}")
  endforeach()
endfunction()

function(vcpkg_cmake_install)
  get_property(_dirs GLOBAL PROPERTY _vcpkg_build_dirs)
  foreach(_entry IN LISTS _dirs)
    string(REPLACE "|" ";" _entry "${_entry}")
    list(GET _entry 0 _dir)
    list(GET _entry 1 CONFIG)
    pkg_build("${_dir}" --target install)
  endforeach()
endfunction()

# vcpkg_cmake_config_fixup: the package's CMake files end in share/<name>, serving Release and
# Debug: the Debug build's per-configuration targets file is moved beside the Release one with
# its paths pointed into debug/, and _IMPORT_PREFIX / PACKAGE_PREFIX_DIR are recomputed for the
# files' new depth (two directories below the prefix).
function(vcpkg_cmake_config_fixup)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "PACKAGE_NAME;CONFIG_PATH" "")
  if(NOT arg_PACKAGE_NAME)
    set(arg_PACKAGE_NAME "${PORT}")
  endif()
  if(NOT arg_CONFIG_PATH)
    set(arg_CONFIG_PATH "share/${arg_PACKAGE_NAME}")
  endif()
  set(_share "${CURRENT_PACKAGES_DIR}/share/${arg_PACKAGE_NAME}")
  set(_release "${CURRENT_PACKAGES_DIR}/${arg_CONFIG_PATH}")
  set(_debug "${CURRENT_PACKAGES_DIR}/debug/${arg_CONFIG_PATH}")
  if(NOT EXISTS "${_release}")
    message(FATAL_ERROR "vcpkg_cmake_config_fixup: '${_release}' does not exist")
  endif()
  if(NOT _release STREQUAL _share)
    file(GLOB _files "${_release}/*")
    file(COPY ${_files} DESTINATION "${_share}")
    file(REMOVE_RECURSE "${_release}")
  endif()
  if("debug" IN_LIST _vcpkg_configs)
    file(GLOB _debug_files "${_debug}/*-debug.cmake")
    if(NOT _debug_files)
      message(FATAL_ERROR "vcpkg_cmake_config_fixup: no *-debug.cmake in '${_debug}'")
    endif()
    foreach(_f IN LISTS _debug_files)
      file(READ "${_f}" _text)
      string(REPLACE "\${_IMPORT_PREFIX}" "\${_IMPORT_PREFIX}/debug" _text "${_text}")
      get_filename_component(_name "${_f}" NAME)
      file(WRITE "${_share}/${_name}" "${_text}")
    endforeach()
    file(REMOVE_RECURSE "${_debug}")
  endif()
  # A lib/cmake left empty by the moves goes too.
  foreach(_dir "${CURRENT_PACKAGES_DIR}/lib/cmake" "${CURRENT_PACKAGES_DIR}/debug/lib/cmake")
    file(GLOB _left "${_dir}/*")
    if(EXISTS "${_dir}" AND NOT _left)
      file(REMOVE_RECURSE "${_dir}")
    endif()
  endforeach()
  # share/<name>/x.cmake is two levels below the prefix: three dirname steps from the file.
  set(_up "get_filename_component(_IMPORT_PREFIX \"\${_IMPORT_PREFIX}\" PATH)")
  file(GLOB _cmake_files "${_share}/*.cmake")
  foreach(_f IN LISTS _cmake_files)
    file(READ "${_f}" _text)
    string(REGEX REPLACE
      "get_filename_component\\(_IMPORT_PREFIX \"\\\${CMAKE_CURRENT_LIST_FILE}\" PATH\\)(\nget_filename_component\\(_IMPORT_PREFIX \"\\\${_IMPORT_PREFIX}\" PATH\\))*"
      "get_filename_component(_IMPORT_PREFIX \"\${CMAKE_CURRENT_LIST_FILE}\" PATH)\n${_up}\n${_up}"
      _text "${_text}")
    string(REGEX REPLACE "get_filename_component\\(PACKAGE_PREFIX_DIR \"\\\${CMAKE_CURRENT_LIST_DIR}/[./]*\" ABSOLUTE\\)"
      "get_filename_component(PACKAGE_PREFIX_DIR \"\${CMAKE_CURRENT_LIST_DIR}/../../\" ABSOLUTE)"
      _text "${_text}")
    file(WRITE "${_f}" "${_text}")
  endforeach()
endfunction()

# vcpkg_install_copyright: the files, concatenated, as share/<port>/copyright.
function(vcpkg_install_copyright)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "FILE_LIST")
  set(_all "")
  foreach(_f IN LISTS arg_FILE_LIST)
    if(NOT EXISTS "${_f}")
      message(FATAL_ERROR "vcpkg_install_copyright: '${_f}' does not exist")
    endif()
    file(READ "${_f}" _text)
    string(APPEND _all "${_text}")
  endforeach()
  file(WRITE "${CURRENT_PACKAGES_DIR}/share/${PORT}/copyright" "${_all}")
endfunction()
