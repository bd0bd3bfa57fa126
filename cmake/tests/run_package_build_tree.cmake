# package.build_tree: a consumer finds fusejit in this build directory itself (fusejit_DIR=<build dir>, no install).
include(${CMAKE_CURRENT_LIST_DIR}/package_common.cmake)

pkg_consume("${PKG_WORK}/consumer" "${BUILD_DIR}" "-Dfusejit_DIR=${BUILD_DIR}")
# The library of this build, not some installed copy of it.
pkg_expect_under("the linked library" "${PKG_LINKED_LIBRARY}" "${BUILD_DIR}")
string(FIND "${PKG_LINKED_LIBRARY}" "${BUILD_DIR}/pkg/" _in_pkg)
if(NOT _in_pkg EQUAL -1)
  pkg_fail("the linked library ${PKG_LINKED_LIBRARY} is a test's copy, not the build tree's")
endif()
message(STATUS "[${CASE}] OK: fusejit was found in the build tree, linked and ran")
