# package.find_package: install this build into a fresh prefix; a consumer finds it there with find_package and runs.
include(${CMAKE_CURRENT_LIST_DIR}/package_common.cmake)

set(_prefix "${PKG_WORK}/prefix")
pkg_install("${_prefix}")
pkg_consume("${PKG_WORK}/consumer" "${_prefix}" "-DCMAKE_PREFIX_PATH=${_prefix}")
pkg_expect_under("the linked library" "${PKG_LINKED_LIBRARY}" "${_prefix}")
message(STATUS "[${CASE}] OK: the installed fusejit was found, linked and ran")
