# Conan python_requires "fusejit-system-headers": the base of the recipes that wrap a header-only
# library installed by Debian (eigen, xsimd, xxhash), for fusejit's offline package test.
import os
import re

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration


class SystemHeaders:
    """A header-only library as the system installed it; nothing is built or copied.

    A recipe sets: include_dir (absolute), version_header (relative to it), version_macro (a
    format string with {key}), version_keys (major, minor, patch macro parts), debian_package,
    cmake_file_name and cmake_target_name (the names the library's own CMake package uses).
    """

    package_type = "header-library"

    def set_version(self):
        header = os.path.join(self.include_dir, self.version_header)
        if not os.path.isfile(header):
            raise ConanInvalidConfiguration(
                f"{header} not found: apt-get install {self.debian_package}")
        with open(header, encoding="utf-8") as f:
            text = f.read()
        parts = [re.search(rf"#define {self.version_macro.format(key=key)}\s+(\d+)", text).group(1)
                 for key in self.version_keys]
        self.version = ".".join(parts)

    def package_id(self):
        # The package holds no files: one id whatever the consumer's settings.
        self.info.clear()

    def package_info(self):
        # Absolute paths: Conan keeps them as they are instead of joining them to package_folder
        # (/usr/include is the compiler's own search path; CMake drops it from compile lines).
        self.cpp_info.includedirs = [self.include_dir]
        self.cpp_info.libdirs = []
        self.cpp_info.bindirs = []
        self.cpp_info.set_property("cmake_file_name", self.cmake_file_name)
        self.cpp_info.set_property("cmake_target_name", self.cmake_target_name)


class SystemHeadersBase(ConanFile):
    name = "fusejit-system-headers"
    version = "1.0"
    package_type = "python-require"
