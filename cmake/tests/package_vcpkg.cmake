# ctest entries (label "package") for the vcpkg overlay port (ports/fusejit/): its manifest, the portfile's build run as vcpkg would, vcpkg's post-build rules.
# vcpkg itself cannot be installed here; cmake/tests/vcpkg/ holds the stand-ins and checkers.
include(${CMAKE_CURRENT_LIST_DIR}/package_test.cmake)

# The manifest against vcpkg's schema (a copy kept as data) with Python's jsonschema: the first
# python3 that has it (Debian's python3-jsonschema is in scripts/lib/setup.sh's list); without
# one, the test reports itself skipped rather than passing.
find_package(Python3 COMPONENTS Interpreter QUIET)
set(_fj_schema_python "")
foreach(_py IN ITEMS "${Python3_EXECUTABLE}" /usr/bin/python3)
  if(_py AND EXISTS "${_py}")
    execute_process(COMMAND "${_py}" -c "import jsonschema" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
    if(_rc EQUAL 0)
      set(_fj_schema_python "${_py}")
      break()
    endif()
  endif()
endforeach()
set(_fj_vcpkg_dir ${PROJECT_SOURCE_DIR}/cmake/tests/vcpkg)
if(_fj_schema_python)
  add_test(NAME package.vcpkg.manifest
    COMMAND "${_fj_schema_python}" ${_fj_vcpkg_dir}/validate_manifest.py ${_fj_vcpkg_dir}/vcpkg.schema.json
      ${PROJECT_SOURCE_DIR}/ports/fusejit ${PROJECT_SOURCE_DIR}/include/fusejit/version.hpp
      ${_fj_vcpkg_dir}/bad-manifests)
else()
  add_test(NAME package.vcpkg.manifest
    COMMAND ${CMAKE_COMMAND} -E echo "no python3 with jsonschema (python3-jsonschema): skipped")
  set_tests_properties(package.vcpkg.manifest PROPERTIES DISABLED ON)
endif()
set_tests_properties(package.vcpkg.manifest PROPERTIES LABELS "package;full" TIMEOUT 60)

# The post-build checker on deliberately broken trees (no compile).
fusejit_add_package_test(vcpkg.post_build_checks_fail run_vcpkg_checks_negative.cmake TIMEOUT 120)
# The portfile's configure, build, install and config fixup for both configurations, then the
# post-build checks and a consumer in Release and Debug: static (x64-linux) and shared
# (x64-linux-dynamic). With ccache the library is compiled once for all four builds, and for the
# add_subdirectory build too: DEPENDS runs them one after the other (a test that ran beside
# another would compile the same files at the same time, both missing the cache).
# Measured: 170 s (static, compiling the library) and 15 s (dynamic, from ccache).
fusejit_add_package_test(vcpkg.port_static run_vcpkg_port.cmake TIMEOUT 900 ARGS -DLINKAGE=static)
fusejit_add_package_test(vcpkg.port_dynamic run_vcpkg_port.cmake TIMEOUT 300 ARGS -DLINKAGE=dynamic)
set_tests_properties(package.vcpkg.port_static PROPERTIES DEPENDS package.add_subdirectory)
set_tests_properties(package.vcpkg.port_dynamic PROPERTIES DEPENDS package.vcpkg.port_static)
