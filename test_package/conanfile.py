# Conan test_package for fusejit: builds a consumer against the created package and runs it (a JIT-compiled x*2+1).
import os

from conan import ConanFile
from conan.tools.build import can_run
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout


class FusejitTestPackageConan(ConanFile):
    settings = "os", "arch", "compiler", "build_type"
    generators = "VirtualRunEnv"
    test_type = "explicit"

    def requirements(self):
        self.requires(self.tested_reference_str)

    def layout(self):
        cmake_layout(self)

    def generate(self):
        tc = CMakeToolchain(self)
        # Headers only: this consumer's one translation unit compiles the library in.
        fusejit = self.dependencies[self.tested_reference_str]
        tc.cache_variables["FUSEJIT_TEST_HEADER_ONLY"] = bool(fusejit.options.header_only)
        tc.generate()
        CMakeDeps(self).generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def test(self):
        if can_run(self):
            self.run(os.path.join(self.cpp.build.bindir, "test_package"), env="conanrun")
