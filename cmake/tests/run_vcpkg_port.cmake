# package.vcpkg.port_<linkage>: runs ports/fusejit/portfile.cmake as vcpkg would, checks vcpkg's post-build rules, then consumes the package.
#
# -DLINKAGE=static|dynamic (the triplets x64-linux and x64-linux-dynamic), -DBUILD_TYPE=release
# for a release-only triplet. The portfile runs in this script with vcpkg's helpers stood in for
# (vcpkg/mock_vcpkg.cmake); the package directory then passes vcpkg/post_build_checks.cmake and
# tests/package/find_package is built against it in each configuration built, checking that
# Release links lib/ and Debug links debug/lib/.
include(${CMAKE_CURRENT_LIST_DIR}/package_common.cmake)

if(NOT LINKAGE MATCHES "^(static|dynamic)$")
  pkg_fail("-DLINKAGE=static|dynamic is required")
endif()
set(PORT fusejit)
set(TARGET_TRIPLET x64-linux)
if(LINKAGE STREQUAL "dynamic")
  set(TARGET_TRIPLET x64-linux-dynamic)
endif()
set(VCPKG_LIBRARY_LINKAGE ${LINKAGE})
set(VCPKG_BUILD_TYPE "${BUILD_TYPE}")
set(VCPKG_TARGET_IS_LINUX ON)
set(FEATURES core)
set(_port_dir "${SOURCE_DIR}/ports/${PORT}")
file(READ "${_port_dir}/vcpkg.json" _manifest)
string(JSON VERSION GET "${_manifest}" version)
# vcpkg's layout: buildtrees/<port>/<triplet>-rel|-dbg and packages/<port>_<triplet>. The
# buildtree is this case's own directory, which keeps the builds at the depth ccache shares.
set(CURRENT_BUILDTREES_DIR "${PKG_WORK}")
set(CURRENT_PACKAGES_DIR "${PKG_WORK}/packages/${PORT}_${TARGET_TRIPLET}")

include(${CMAKE_CURRENT_LIST_DIR}/vcpkg/mock_vcpkg.cmake)
include(${_port_dir}/portfile.cmake)

include(${CMAKE_CURRENT_LIST_DIR}/vcpkg/post_build_checks.cmake)
vcpkg_post_build_checks(_problems PACKAGE_DIR "${CURRENT_PACKAGES_DIR}" PORT ${PORT}
  LINKAGE ${LINKAGE} BUILD_TYPE "${BUILD_TYPE}" FORBIDDEN "${SOURCE_DIR}" "${BUILD_DIR}")
if(_problems)
  list(JOIN _problems "\n  " _text)
  pkg_fail("vcpkg post-build checks failed:\n  ${_text}")
endif()

set(_configs Release)
if(NOT BUILD_TYPE STREQUAL "release")
  list(APPEND _configs Debug)
endif()
foreach(CONFIG IN LISTS _configs)
  string(TOLOWER "${CONFIG}" _cfg)
  pkg_consume("${PKG_WORK}/consumer-${_cfg}" "${CURRENT_PACKAGES_DIR}/share/${PORT}"
    "-DCMAKE_PREFIX_PATH=${CURRENT_PACKAGES_DIR}")
  set(_lib_dir "${CURRENT_PACKAGES_DIR}/lib")
  if(CONFIG STREQUAL "Debug")
    set(_lib_dir "${CURRENT_PACKAGES_DIR}/debug/lib")
  endif()
  get_filename_component(_linked_dir "${PKG_LINKED_LIBRARY}" DIRECTORY)
  if(NOT _linked_dir STREQUAL _lib_dir)
    pkg_fail("${CONFIG} linked ${PKG_LINKED_LIBRARY}, not the library in ${_lib_dir}")
  endif()
endforeach()
message(STATUS "[${CASE}] OK: the port built, installed, passed the post-build checks and was consumed (${_configs})")
