# Conan recipe "xsimd" wrapping Debian's libxsimd-dev (/usr/include/xsimd) for fusejit's offline package test.
from conan import ConanFile


class SystemXsimdConan(ConanFile):
    name = "xsimd"
    description = "xsimd as installed by the system (libxsimd-dev); nothing is built or copied"
    license = "BSD-3-Clause"
    python_requires = "fusejit-system-headers/1.0"
    python_requires_extend = "fusejit-system-headers.SystemHeaders"
    include_dir = "/usr/include"
    version_header = "xsimd/config/xsimd_config.hpp"
    version_macro = "XSIMD_VERSION_{key}"
    version_keys = ("MAJOR", "MINOR", "PATCH")
    debian_package = "libxsimd-dev"
    # xsimd's own names: find_package(xsimd CONFIG) -> target xsimd (no namespace).
    cmake_file_name = "xsimd"
    cmake_target_name = "xsimd"
