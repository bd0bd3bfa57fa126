# Conan recipe "eigen" wrapping Debian's libeigen3-dev (/usr/include/eigen3) for fusejit's offline package test.
from conan import ConanFile


class SystemEigenConan(ConanFile):
    name = "eigen"
    description = "Eigen as installed by the system (libeigen3-dev); nothing is built or copied"
    license = "MPL-2.0"
    python_requires = "fusejit-system-headers/1.0"
    python_requires_extend = "fusejit-system-headers.SystemHeaders"
    include_dir = "/usr/include/eigen3"
    version_header = "Eigen/src/Core/util/Macros.h"
    version_macro = "EIGEN_{key}_VERSION"
    version_keys = ("WORLD", "MAJOR", "MINOR")
    debian_package = "libeigen3-dev"
    # The names Eigen's own CMake package uses: find_package(Eigen3 3.4 CONFIG) -> Eigen3::Eigen.
    cmake_file_name = "Eigen3"
    cmake_target_name = "Eigen3::Eigen"
