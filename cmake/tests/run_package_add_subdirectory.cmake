# package.add_subdirectory: a consumer project add_subdirectory()s fusejit's source tree, builds the library and runs.
include(${CMAKE_CURRENT_LIST_DIR}/package_common.cmake)

set(_bin "${PKG_WORK}/build")
pkg_configure("${SOURCE_DIR}/tests/package/add_subdirectory" "${_bin}"
  "-DFUSEJIT_SOURCE_DIR=${SOURCE_DIR}")
# Only the consumer and what it needs (the fusejit library): nothing else of fusejit is built.
pkg_build("${_bin}" --target add_subdirectory_consumer)
pkg_exe(_exe "${_bin}" add_subdirectory_consumer)
pkg_run(run "${_exe}")
message(STATUS "[${CASE}] OK: fusejit built through add_subdirectory, linked and ran")
