# The API reference's check, shared by the ctest entry docs.reference and ./scripts/docs: runs
# Doxygen with docs/Doxyfile from the source root, writing OUTPUT_DIR/html, and fails when Doxygen
# prints anything (a warning: a public declaration without a doc comment, a broken link in a
# page) or exits nonzero, printing what it said.
#
# Usage: cmake -DSOURCE_DIR=<repository root> -DOUTPUT_DIR=<dir> [-DDOXYGEN=<doxygen>]
#              -P check_docs.cmake
# Without DOXYGEN (or with it NOTFOUND) doxygen is looked up on PATH now; none is a failure, never
# a pass: ./scripts/test and ./scripts/docs install Debian's doxygen.

foreach(_var SOURCE_DIR OUTPUT_DIR)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "check_docs.cmake: -D${_var}=... is required")
  endif()
endforeach()
if(NOT DOXYGEN)
  find_program(_fj_doxygen NAMES doxygen)
  set(DOXYGEN "${_fj_doxygen}")
endif()
if(NOT DOXYGEN)
  message(FATAL_ERROR "check_docs.cmake: doxygen is not installed, so the API reference cannot be "
    "checked. ./scripts/test installs it with the tests' packages; or: apt-get install doxygen")
endif()

# docs/Doxyfile with this run's output directory: Doxygen reads the settings of @INCLUDE first,
# and a later line wins. Its input paths are relative to the source root, where it runs.
file(REMOVE_RECURSE "${OUTPUT_DIR}/html")
file(MAKE_DIRECTORY "${OUTPUT_DIR}")
file(WRITE "${OUTPUT_DIR}/Doxyfile"
  "@INCLUDE = \"${SOURCE_DIR}/docs/Doxyfile\"\nOUTPUT_DIRECTORY = \"${OUTPUT_DIR}\"\n")
execute_process(COMMAND "${DOXYGEN}" "${OUTPUT_DIR}/Doxyfile"
  WORKING_DIRECTORY "${SOURCE_DIR}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)

# QUIET = YES: anything printed is a warning or an error (WARN_AS_ERROR = FAIL_ON_WARNINGS also
# makes doxygen exit nonzero on a warning).
string(STRIP "${_out}${_err}" _said)
if(NOT _rc EQUAL 0 OR NOT _said STREQUAL "")
  string(REGEX MATCHALL "(warning|error): " _warnings "${_said}")
  list(LENGTH _warnings _count)
  # NOTICE prints the lines as they are (FATAL_ERROR would rewrap them).
  message(NOTICE "${_said}")
  message(FATAL_ERROR "check_docs.cmake: doxygen (${DOXYGEN}) exited with ${_rc} and printed "
    "${_count} warning(s), above: give each public declaration it names a `///` comment "
    "(docs/Doxyfile says what is read).")
endif()
message(STATUS "API reference: ${OUTPUT_DIR}/html/index.html (no Doxygen warnings)")
