# ctest entries (label "package") for fusejit's CMake package: installed from this build and found
# with find_package from a consumer project (tests/package).
add_test(NAME package.find_package
  COMMAND ${CMAKE_COMMAND}
    "-DBUILD_DIR=${PROJECT_BINARY_DIR}"
    "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}"
    "-DCONFIG=$<CONFIG>"
    "-DGENERATOR=${CMAKE_GENERATOR}"
    "-DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
    "-DCXX=${CMAKE_CXX_COMPILER}"
    -P ${PROJECT_SOURCE_DIR}/cmake/tests/run_package_find.cmake)
set_tests_properties(package.find_package PROPERTIES LABELS package TIMEOUT 900)
