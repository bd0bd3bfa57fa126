# Injected into the vcpkg port test's builds of fusejit (CMAKE_PROJECT_fusejit_INCLUDE): no -Dfusejit_EXPORTS.
#
# CMake defines <target>_EXPORTS when compiling a shared library. fusejit's sources never read it,
# so clearing it changes no object, but it makes the shared build's compiles identical to the
# static build's: ccache then compiles the library once for both linkages.
function(_fusejit_test_clear_define_symbol)
  if(TARGET fusejit)
    set_target_properties(fusejit PROPERTIES DEFINE_SYMBOL "")
  endif()
endfunction()
cmake_language(DEFER CALL _fusejit_test_clear_define_symbol)
