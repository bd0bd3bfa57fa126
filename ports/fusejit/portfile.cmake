# vcpkg portfile for fusejit: builds the checkout this overlay port lives in (ports/fusejit/ of the fusejit repository).
#
# An overlay port of a project's own repository builds that checkout, as overlay ports of local
# sources do; a port for vcpkg's registry would fetch a release with vcpkg_from_github instead.
get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT EXISTS "${SOURCE_PATH}/include/fusejit/version.hpp")
  message(FATAL_ERROR "fusejit: the port expects the fusejit sources two levels above it, in ${SOURCE_PATH}")
endif()

# LLVM comes from outside vcpkg (its llvm port is 18; fusejit needs 19.1 or 22.1 with libLLVM.so).
# Found on the system by default (/usr/lib/llvm-<major>); a triplet can name another one:
#   set(FUSEJIT_LLVM_DIR /opt/llvm-19/lib/cmake/llvm)   and/or   set(FUSEJIT_LLVM_VERSION 22.1)
set(llvm_options "")
if(DEFINED FUSEJIT_LLVM_DIR)
  list(APPEND llvm_options "-DLLVM_DIR=${FUSEJIT_LLVM_DIR}")
endif()
if(DEFINED FUSEJIT_LLVM_VERSION)
  list(APPEND llvm_options "-DFUSEJIT_LLVM_VERSION=${FUSEJIT_LLVM_VERSION}")
endif()

# The "cuda" feature needs no option: the CUDA backend is compiled in either way and reaches
# the driver and NVRTC through dlopen; the feature only brings vcpkg's cuda port (the toolkit).
# BUILD_SHARED_LIBS follows the triplet's VCPKG_LIBRARY_LINKAGE (vcpkg_cmake_configure sets it).
vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    -DFUSEJIT_BUILD_TESTS=OFF
    -DFUSEJIT_BUILD_EXAMPLES=OFF
    -DFUSEJIT_BUILD_BENCH=OFF
    # The port declares no MPI dependency: its pmap runs within one process.
    -DFUSEJIT_WITH_MPI=OFF
    -DFUSEJIT_INSTALL_CMAKEDIR=share/fusejit
    ${llvm_options}
)
vcpkg_cmake_install()
# Merges the Debug build's fusejit-targets-debug.cmake into share/fusejit (its paths into debug/).
vcpkg_cmake_config_fixup(PACKAGE_NAME fusejit CONFIG_PATH share/fusejit)

# Headers and the CMake package are the Release build's; the Debug build keeps only debug/lib.
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug/include" "${CURRENT_PACKAGES_DIR}/debug/share")

file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE" "${SOURCE_PATH}/NOTICE")
