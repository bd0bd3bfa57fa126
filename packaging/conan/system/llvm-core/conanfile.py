# Conan recipe "llvm-core" wrapping Debian's llvm-N-dev (libLLVM.so and headers under /usr/lib/llvm-N) for fusejit's package test.
import os
import re
import subprocess

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration


def _prefix(major):
    return f"/usr/lib/llvm-{major}"


class SystemLlvmCoreConan(ConanFile):
    name = "llvm-core"
    description = "LLVM as installed by Debian (libLLVM.so, one shared library); nothing is built or copied"
    license = "Apache-2.0 WITH LLVM-exception"
    package_type = "shared-library"
    settings = "os", "arch"

    def set_version(self):
        # FUSEJIT_CONAN_LLVM_MAJOR picks /usr/lib/llvm-<major> at export time (19 by default);
        # package_info finds the same prefix again from the version.
        major = os.environ.get("FUSEJIT_CONAN_LLVM_MAJOR", "19")
        llvm_config = os.path.join(_prefix(major), "bin", "llvm-config")
        if not os.path.isfile(llvm_config):
            raise ConanInvalidConfiguration(f"{llvm_config} not found: apt-get install llvm-{major}-dev")
        out = subprocess.run([llvm_config, "--version"], check=True, capture_output=True, text=True)
        self.version = out.stdout.strip()

    def _definitions(self, prefix):
        # The definitions LLVM's own CMake package exports in LLVM_DEFINITIONS (-D_GNU_SOURCE ...).
        path = os.path.join(prefix, "lib", "cmake", "llvm", "LLVMConfig.cmake")
        with open(path, encoding="utf-8") as f:
            match = re.search(r'set\(LLVM_DEFINITIONS "([^"]*)"\)', f.read())
        flags = match.group(1).split() if match else []
        return [flag[2:] for flag in flags if flag.startswith("-D")]

    def package_info(self):
        prefix = _prefix(str(self.version).split(".")[0])
        self.cpp_info.includedirs = [os.path.join(prefix, "include")]
        self.cpp_info.libdirs = [os.path.join(prefix, "lib")]
        self.cpp_info.bindirs = [os.path.join(prefix, "bin")]
        self.cpp_info.defines = self._definitions(prefix)
        # One component for the one shared library, as find_package(LLVM) names it: target LLVM
        # (libLLVM.so), the only one fusejit's CMakeLists.txt links. The static LLVMCore, LLVMSupport
        # ... archives Debian also ships are not offered.
        self.cpp_info.set_property("cmake_file_name", "LLVM")
        self.cpp_info.components["LLVM"].set_property("cmake_target_name", "LLVM")
        self.cpp_info.components["LLVM"].libs = ["LLVM"]
        self.cpp_info.components["LLVM"].includedirs = self.cpp_info.includedirs
        self.cpp_info.components["LLVM"].libdirs = self.cpp_info.libdirs
        self.cpp_info.components["LLVM"].bindirs = self.cpp_info.bindirs
        self.cpp_info.components["LLVM"].defines = self.cpp_info.defines
