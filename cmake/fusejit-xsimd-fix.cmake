# Makes Debian's xsimd CMake package linkable: used at build time and installed next to the config.
#
# Debian's libxsimd-dev (8.1) exports the imported target `xsimd` with
# INTERFACE_LINK_LIBRARIES "xtl", but its config never does find_dependency(xtl) and the
# package does not depend on libxtl-dev. Without a target named `xtl`, CMake turns the bare
# name into `-lxtl` and every executable that (transitively) links xsimd fails with
# "cannot find -lxtl". xtl is only needed for XSIMD_ENABLE_XTL_COMPLEX, which fusejit does
# not use, so drop the dangling item. A real xtl target, if one exists, is left alone.
if(TARGET xsimd AND NOT TARGET xtl)
  get_target_property(_fusejit_xsimd_libs xsimd INTERFACE_LINK_LIBRARIES)
  if(_fusejit_xsimd_libs)
    list(REMOVE_ITEM _fusejit_xsimd_libs xtl)
    set_target_properties(xsimd PROPERTIES INTERFACE_LINK_LIBRARIES "${_fusejit_xsimd_libs}")
  endif()
  unset(_fusejit_xsimd_libs)
endif()
