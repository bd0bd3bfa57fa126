# ctest entries (label "package") for the Conan 2 recipe (conanfile.py, test_package/): none yet.
