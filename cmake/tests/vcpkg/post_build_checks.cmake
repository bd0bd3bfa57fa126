# vcpkg's post-build rules that apply to fusejit's port, checked on a package directory (vcpkg's packages/<port>_<triplet>).
#
# As a module: include() it and call vcpkg_post_build_checks(<out var> ...), which sets <out var>
# to the list of broken rules (empty when the tree passes). As a script (the negative test):
#   cmake -DPACKAGE_DIR=... -DPORT=fusejit -DLINKAGE=static|dynamic [-DBUILD_TYPE=release]
#         [-DFORBIDDEN=path1|path2] -P post_build_checks.cmake    (exit status 1 on a broken rule)
#
# The rules, as vcpkg words them: a copyright file and (ports that have one) usage in
# share/<port>; no debug/include nor debug/share; no lib/cmake or debug/lib/cmake (CMake
# files merged into share/<port>); static linkage leaves no shared objects and no bin/; dynamic
# linkage installs its shared objects; both configurations' libraries unless release-only; no
# empty directories; no absolute path of the build (the package, buildtrees, sources) in any
# installed text file.

cmake_minimum_required(VERSION 3.21)

# vcpkg_post_build_checks(<out var> PACKAGE_DIR <dir> PORT <name> LINKAGE <static|dynamic>
#                         [BUILD_TYPE release] [FORBIDDEN <path>...])
function(vcpkg_post_build_checks out)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PACKAGE_DIR;PORT;LINKAGE;BUILD_TYPE" "FORBIDDEN")
  set(_pkg "${arg_PACKAGE_DIR}")
  set(_problems "")

  foreach(_file copyright usage)
    if(NOT EXISTS "${_pkg}/share/${arg_PORT}/${_file}")
      list(APPEND _problems "missing share/${arg_PORT}/${_file}")
    else()
      file(SIZE "${_pkg}/share/${arg_PORT}/${_file}" _size)
      if(_size EQUAL 0)
        list(APPEND _problems "share/${arg_PORT}/${_file} is empty")
      endif()
    endif()
  endforeach()

  foreach(_dir debug/include debug/share lib/cmake debug/lib/cmake)
    if(EXISTS "${_pkg}/${_dir}")
      list(APPEND _problems "${_dir} must not exist")
    endif()
  endforeach()

  set(_configs lib)
  if(NOT arg_BUILD_TYPE STREQUAL "release")
    list(APPEND _configs debug/lib)
  elseif(EXISTS "${_pkg}/debug")
    list(APPEND _problems "a release-only build has a debug/ directory")
  endif()
  foreach(_lib IN LISTS _configs)
    file(GLOB _static "${_pkg}/${_lib}/*.a")
    file(GLOB _shared "${_pkg}/${_lib}/*.so" "${_pkg}/${_lib}/*.so.*")
    if(arg_LINKAGE STREQUAL "static")
      if(_shared)
        list(APPEND _problems "static linkage, but shared objects in ${_lib}: ${_shared}")
      endif()
      if(NOT _static)
        list(APPEND _problems "static linkage, but no static library in ${_lib}")
      endif()
    elseif(NOT _shared)
      list(APPEND _problems "dynamic linkage, but no shared object in ${_lib}")
    endif()
  endforeach()
  if(arg_LINKAGE STREQUAL "static" AND (EXISTS "${_pkg}/bin" OR EXISTS "${_pkg}/debug/bin"))
    list(APPEND _problems "static linkage, but a bin/ directory")
  endif()

  file(GLOB_RECURSE _entries LIST_DIRECTORIES true "${_pkg}/*")
  foreach(_e IN LISTS _entries)
    if(IS_DIRECTORY "${_e}")
      file(GLOB _children "${_e}/*")
      if(NOT _children)
        file(RELATIVE_PATH _rel "${_pkg}" "${_e}")
        list(APPEND _problems "empty directory ${_rel}")
      endif()
    endif()
  endforeach()

  # Libraries are binary; every other file is read as text.
  file(GLOB_RECURSE _files "${_pkg}/*")
  list(FILTER _files EXCLUDE REGEX "\\.(a|so)(\\.[0-9.]+)?$")
  foreach(_f IN LISTS _files)
    file(READ "${_f}" _text)
    foreach(_path IN LISTS arg_FORBIDDEN)
      string(FIND "${_text}" "${_path}" _pos)
      if(NOT _pos EQUAL -1)
        file(RELATIVE_PATH _rel "${_pkg}" "${_f}")
        list(APPEND _problems "${_rel} contains the absolute path ${_path}")
      endif()
    endforeach()
  endforeach()

  set(${out} "${_problems}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  string(REPLACE "|" ";" _forbidden "${FORBIDDEN}")
  vcpkg_post_build_checks(_problems PACKAGE_DIR "${PACKAGE_DIR}" PORT "${PORT}"
    LINKAGE "${LINKAGE}" BUILD_TYPE "${BUILD_TYPE}" FORBIDDEN ${_forbidden})
  if(_problems)
    list(JOIN _problems "\n  " _text)
    message(FATAL_ERROR "vcpkg post-build checks failed:\n  ${_text}")
  endif()
  message("vcpkg post-build checks passed")
endif()
