# CTest driver for one compile-fail snippet: passes only if it fails to compile with the expected diagnostics.
#
# Usage (see fusejit_add_compile_fail_tests in CMakeLists.txt):
#   cmake -DCXX=<compiler> -DSOURCE=<snippet.cpp> [-DCXX_ID=GNU|Clang]
#         [-DINCLUDE_DIRS=<dir>|<dir>...] [-DDEFINITIONS=<def>|<def>...]
#         [-DEXTRA_FLAGS=<flag>|<flag>...] -P check_compile_fail.cmake
#
# The snippet declares what the compiler must say with lines of the form
#   // expect: <CMake regex>
# Every such regex must match somewhere in the compiler's combined output. The regexes use
# CMake's syntax (string(REGEX)): no \d or \s, and `.` also matches newlines. Lists are
# passed '|'-separated so that ';' survives the trip through add_test.

foreach(_var CXX SOURCE)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "check_compile_fail.cmake: -D${_var}=... is required")
  endif()
endforeach()
if(NOT EXISTS "${SOURCE}")
  message(FATAL_ERROR "check_compile_fail.cmake: no such file: ${SOURCE}")
endif()

# --- Collect the `// expect:` lines. -------------------------------------------------------
# Work on an escaped copy so that ';', '[' and ']' in a regex cannot split or merge the
# CMake list; they are restored one regex at a time below.
file(READ "${SOURCE}" _text)
string(REPLACE "\r" "" _text "${_text}")
string(REPLACE ";" "<FJ_SEMI>" _text "${_text}")
string(REPLACE "[" "<FJ_LBR>" _text "${_text}")
string(REPLACE "]" "<FJ_RBR>" _text "${_text}")
string(REGEX MATCHALL "(^|\n)[ \t]*//[ \t]*expect:[^\n]*" _expect_lines "${_text}")

set(_expects "")
foreach(_line IN LISTS _expect_lines)
  string(REGEX REPLACE "^\n?[ \t]*//[ \t]*expect:[ \t]*" "" _re "${_line}")
  string(REGEX REPLACE "[ \t]+$" "" _re "${_re}")
  if(NOT _re STREQUAL "")
    list(APPEND _expects "${_re}")
  endif()
endforeach()
list(LENGTH _expects _n_expects)
if(_n_expects EQUAL 0)
  message(FATAL_ERROR
    "${SOURCE}: no '// expect: <regex>' line. A compile-fail snippet must say which "
    "diagnostic it expects, or it would pass on any unrelated error.")
endif()

# --- Compile it. ---------------------------------------------------------------------------
# The compiler must not echo source lines, or a regex could match the snippet's own code (e.g.
# a line calling fj::where) instead of a diagnostic. GCC and Clang spell that differently.
if(NOT DEFINED CXX_ID OR CXX_ID STREQUAL "")
  execute_process(COMMAND "${CXX}" --version OUTPUT_VARIABLE _version ERROR_QUIET)
  if(_version MATCHES "clang")
    set(CXX_ID Clang)
  else()
    set(CXX_ID GNU)
  endif()
endif()
set(_args -std=c++20 -fsyntax-only -fdiagnostics-color=never -fmessage-length=0)
if(CXX_ID MATCHES "Clang")
  list(APPEND _args -fno-caret-diagnostics)
else()
  list(APPEND _args -fno-diagnostics-show-caret)
endif()
if(DEFINED EXTRA_FLAGS AND NOT EXTRA_FLAGS STREQUAL "")
  string(REPLACE "|" ";" _flags "${EXTRA_FLAGS}")
  list(APPEND _args ${_flags})
endif()
if(DEFINED DEFINITIONS AND NOT DEFINITIONS STREQUAL "")
  string(REPLACE "|" ";" _defs "${DEFINITIONS}")
  foreach(_d IN LISTS _defs)
    if(NOT _d STREQUAL "")
      list(APPEND _args "-D${_d}")
    endif()
  endforeach()
endif()
if(DEFINED INCLUDE_DIRS AND NOT INCLUDE_DIRS STREQUAL "")
  string(REPLACE "|" ";" _dirs "${INCLUDE_DIRS}")
  list(REMOVE_DUPLICATES _dirs)
  foreach(_d IN LISTS _dirs)
    # -I/usr/include would be ignored by GCC anyway; skip it to keep the command line honest.
    if(NOT _d STREQUAL "" AND NOT _d STREQUAL "/usr/include")
      list(APPEND _args "-I${_d}")
    endif()
  endforeach()
endif()

# ASCII diagnostics: under a UTF-8 locale GCC quotes names with ‘ ’ (3 bytes each), which a
# regex written with ' or . would not match.
set(ENV{LC_ALL} C)
set(ENV{LANG} C)
set(ENV{GCC_COLORS} "")

set(_cmd "${CXX}" ${_args} -x c++ "${SOURCE}")
string(REPLACE ";" " " _cmd_str "${_cmd}")
execute_process(
  COMMAND ${_cmd}
  RESULT_VARIABLE _rc
  OUTPUT_VARIABLE _out
  ERROR_VARIABLE _out)

if(NOT _rc MATCHES "^[0-9]+$")
  # execute_process reports a string (e.g. "No such file or directory") if it could not run.
  message(FATAL_ERROR "could not run the compiler: ${_rc}\ncommand: ${_cmd_str}")
endif()
if(_out MATCHES "unknown argument: |unrecognized command[- ]line option")
  # A rejected flag fails every snippet for the wrong reason; never let that count as a pass.
  message(FATAL_ERROR "the compiler rejected a harness flag:\ncommand: ${_cmd_str}\n${_out}")
endif()
if(_rc EQUAL 0)
  message(FATAL_ERROR
    "${SOURCE} compiled, but it must NOT compile.\n"
    "command: ${_cmd_str}\n"
    "output:\n${_out}")
endif()

set(_missing "")
foreach(_re IN LISTS _expects)
  string(REPLACE "<FJ_SEMI>" ";" _re "${_re}")
  string(REPLACE "<FJ_LBR>" "[" _re "${_re}")
  string(REPLACE "<FJ_RBR>" "]" _re "${_re}")
  if(NOT _out MATCHES "${_re}")
    string(APPEND _missing "  ${_re}\n")
  endif()
endforeach()

if(NOT _missing STREQUAL "")
  message(FATAL_ERROR
    "${SOURCE} failed to compile, but not with the expected diagnostic.\n"
    "expected regex(es) not found in the compiler output:\n${_missing}"
    "command: ${_cmd_str}\n"
    "output:\n${_out}")
endif()

message(STATUS "${SOURCE}: fails to compile as expected (${_n_expects} regex(es) matched)")
