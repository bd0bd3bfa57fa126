# Conan recipe "eigen" wrapping Debian's libeigen3-dev (/usr/include/eigen3) for fusejit's offline package test.
import os
import re

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration

INCLUDE_DIR = "/usr/include/eigen3"


class SystemEigenConan(ConanFile):
    name = "eigen"
    description = "Eigen as installed by the system (libeigen3-dev); nothing is built or copied"
    license = "MPL-2.0"
    package_type = "header-library"

    def set_version(self):
        macros = os.path.join(INCLUDE_DIR, "Eigen", "src", "Core", "util", "Macros.h")
        if not os.path.isfile(macros):
            raise ConanInvalidConfiguration(f"{macros} not found: apt-get install libeigen3-dev")
        with open(macros, encoding="utf-8") as f:
            text = f.read()
        parts = [re.search(rf"#define EIGEN_{key}_VERSION (\d+)", text).group(1)
                 for key in ("WORLD", "MAJOR", "MINOR")]
        self.version = ".".join(parts)

    def package_id(self):
        # The package holds no files: one id whatever the consumer's settings.
        self.info.clear()

    def package_info(self):
        # Absolute paths: Conan keeps them as they are instead of joining them to package_folder.
        self.cpp_info.includedirs = [INCLUDE_DIR]
        self.cpp_info.libdirs = []
        self.cpp_info.bindirs = []
        # The names Eigen's own CMake package uses: find_package(Eigen3 3.4 CONFIG) -> Eigen3::Eigen.
        self.cpp_info.set_property("cmake_file_name", "Eigen3")
        self.cpp_info.set_property("cmake_target_name", "Eigen3::Eigen")
