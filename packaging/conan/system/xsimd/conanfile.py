# Conan recipe "xsimd" wrapping Debian's libxsimd-dev (/usr/include/xsimd) for fusejit's offline package test.
import os
import re

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration

INCLUDE_DIR = "/usr/include"


class SystemXsimdConan(ConanFile):
    name = "xsimd"
    description = "xsimd as installed by the system (libxsimd-dev); nothing is built or copied"
    license = "BSD-3-Clause"
    package_type = "header-library"

    def set_version(self):
        config = os.path.join(INCLUDE_DIR, "xsimd", "config", "xsimd_config.hpp")
        if not os.path.isfile(config):
            raise ConanInvalidConfiguration(f"{config} not found: apt-get install libxsimd-dev")
        with open(config, encoding="utf-8") as f:
            text = f.read()
        parts = [re.search(rf"#define XSIMD_VERSION_{key} (\d+)", text).group(1)
                 for key in ("MAJOR", "MINOR", "PATCH")]
        self.version = ".".join(parts)

    def package_id(self):
        self.info.clear()

    def package_info(self):
        # /usr/include is the compiler's own search path; CMake drops it from compile lines.
        self.cpp_info.includedirs = [INCLUDE_DIR]
        self.cpp_info.libdirs = []
        self.cpp_info.bindirs = []
        # xsimd's own names: find_package(xsimd CONFIG) -> target xsimd (no namespace).
        self.cpp_info.set_property("cmake_file_name", "xsimd")
        self.cpp_info.set_property("cmake_target_name", "xsimd")
