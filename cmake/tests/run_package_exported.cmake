# package.exported_consumer: a library linking fusejit::fusejit installs and exports itself; a second project finds only it and runs.
include(${CMAKE_CURRENT_LIST_DIR}/package_common.cmake)

set(_fusejit_prefix "${PKG_WORK}/fusejit-prefix")
set(_lib_prefix "${PKG_WORK}/fjpoly-prefix")
pkg_install("${_fusejit_prefix}")

set(_lib_build "${PKG_WORK}/fjpoly-build")
pkg_configure("${SOURCE_DIR}/tests/package/exported_lib" "${_lib_build}"
  "-DCMAKE_PREFIX_PATH=${_fusejit_prefix}")
pkg_build("${_lib_build}")
pkg_run(install "${CMAKE_COMMAND}" --install "${_lib_build}" --config "${CONFIG}" --prefix "${_lib_prefix}")

# Both prefixes are searched, as a user would list them (the environment's list, which needs no
# escaping here); fusejit itself is found through fjpoly's config, the app never asks for it.
set(ENV{CMAKE_PREFIX_PATH} "${_lib_prefix}:${_fusejit_prefix}")
set(_app_build "${PKG_WORK}/app-build")
pkg_configure("${SOURCE_DIR}/tests/package/exported_app" "${_app_build}")
pkg_cache_value(_found "${_app_build}" fusejit_DIR)
pkg_expect_under("fusejit_DIR (found through fjpoly's config)" "${_found}" "${_fusejit_prefix}")
pkg_build("${_app_build}")
pkg_exe(_exe "${_app_build}" fjpoly_app)
pkg_run(run "${_exe}")
message(STATUS "[${CASE}] OK: fjpoly (on fusejit) was installed, found with its dependency and ran")
