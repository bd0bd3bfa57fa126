# ctest entries (label "package") for the vcpkg overlay port (ports/fusejit/): none yet.
