# package.relocated: install, copy the prefix elsewhere, delete the original; a consumer of the copy still builds and runs.
include(${CMAKE_CURRENT_LIST_DIR}/package_common.cmake)

set(_original "${PKG_WORK}/original")
set(_moved "${PKG_WORK}/prefix")
pkg_install("${_original}")
file(COPY "${_original}/" DESTINATION "${_moved}")
file(REMOVE_RECURSE "${_original}")

# No installed text file may name the original prefix (nor this build or source tree): such a
# path would break the moved tree, and vcpkg rejects packages that hold one.
file(GLOB_RECURSE _files "${_moved}/*.cmake" "${_moved}/*.hpp" "${_moved}/*.cpp" "${_moved}/*.def")
foreach(_f IN LISTS _files)
  file(READ "${_f}" _text)
  foreach(_path IN ITEMS "${_original}" "${BUILD_DIR}" "${SOURCE_DIR}")
    string(FIND "${_text}" "${_path}" _pos)
    if(NOT _pos EQUAL -1)
      pkg_fail("${_f} names the absolute path ${_path}")
    endif()
  endforeach()
endforeach()

pkg_consume("${PKG_WORK}/consumer" "${_moved}" "-DCMAKE_PREFIX_PATH=${_moved}")
pkg_expect_under("the linked library" "${PKG_LINKED_LIBRARY}" "${_moved}")
message(STATUS "[${CASE}] OK: the moved install tree was found, linked and ran")
