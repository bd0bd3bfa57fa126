# Conan 2 recipe for fusejit: builds the library with its own CMakeLists.txt, or packages the headers only.
import os
import re

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load, rmdir


class FusejitConan(ConanFile):
    name = "fusejit"
    description = "JAX's jit model in C++: traced array programs fused and compiled (LLVM ORC on CPU)"
    topics = ("jit", "array", "llvm", "autodiff")
    license = "Apache-2.0"
    package_type = "library"
    settings = "os", "arch", "compiler", "build_type"
    options = {
        "shared": [True, False],
        "fPIC": [True, False],
        # Headers only: the user defines FUSEJIT_IMPLEMENTATION in exactly one translation unit.
        "header_only": [True, False],
        # The CUDA backend is always compiled in and loads libcuda.so.1 and NVRTC with dlopen at
        # run time (CMakeLists.txt has no CUDA switch), so this option changes no binary, no
        # requirement and no link line; it records the consumer's intent and nothing more.
        "with_cuda": [True, False],
        # fusejit has no MPI code yet: the option only requires MPI (ConanCenter's openmpi) and
        # propagates FUSEJIT_WITH_MPI=1 to consumers, so a graph that will need it says so now.
        "with_mpi": [True, False],
    }
    default_options = {
        "shared": False,
        "fPIC": True,
        "header_only": False,
        "with_cuda": True,
        "with_mpi": False,
    }
    # Only what CMakeLists.txt needs to build and install the library (its tests, examples and
    # benchmarks are switched off in generate()).
    exports_sources = "CMakeLists.txt", "cmake/*", "include/*", "src/*", "LICENSE", "NOTICE"
    # no_copy_source stays False on purpose: each build then compiles its own copy, at the same
    # path relative to its build folder (../../src/...) whatever the recipe revision and build
    # folder, so ccache (with CCACHE_BASEDIR) serves static from shared, and one revision from
    # the last for every unchanged file.

    def set_version(self):
        # The version's one place, as CMakeLists.txt reads it.
        text = load(self, os.path.join(self.recipe_folder, "include", "fusejit", "version.hpp"))
        match = re.search(r'^#define FUSEJIT_VERSION "(\d+\.\d+\.\d+)"', text, re.MULTILINE)
        if not match:
            raise ConanInvalidConfiguration('no #define FUSEJIT_VERSION "X.Y.Z" in include/fusejit/version.hpp')
        self.version = match.group(1)

    def config_options(self):
        if self.settings.os == "Windows":
            del self.options.fPIC

    def configure(self):
        if self.options.header_only:
            self.package_type = "header-library"
            self.options.rm_safe("shared")
            self.options.rm_safe("fPIC")
        elif self.options.shared:
            self.options.rm_safe("fPIC")

    def layout(self):
        cmake_layout(self)

    def requirements(self):
        header_only = bool(self.options.header_only)
        # <fusejit/eigen.hpp> (the opt-in interop) includes Eigen: consumers may, so they see it.
        self.requires("eigen/[>=3.4 <4]", transitive_headers=True)
        # xxhash.h, xsimd and LLVM are used by the implementation only (include/fusejit/**/*.cpp,
        # which FUSEJIT_IMPLEMENTATION compiles in a user's file): consumers compile against them only when headers-only.
        # Otherwise Conan's defaults apply: libLLVM.so is linked by consumers of the static library
        # and not by those of the shared one, which links it privately.
        # The sources build with LLVM 19 and 22; the wrapper recipes offer Debian's 19.
        implementation = {"transitive_headers": True, "transitive_libs": True} if header_only else {}
        self.requires("xxhash/[>=0.8.1 <0.9]", **implementation)
        self.requires("xsimd/[>=8.1 <9]", **implementation)
        self.requires("llvm-core/[>=19.1 <20]", **implementation)
        if self.options.with_mpi:
            self.requires("openmpi/[>=4.1 <6]", transitive_headers=True, transitive_libs=True)

    def validate(self):
        if self.settings.compiler.get_safe("cppstd"):
            check_min_cppstd(self, 20)

    def package_id(self):
        if self.info.options.header_only:
            # Headers only: one package whatever the compiler, build type or link options.
            self.info.clear()
            return
        # Neither changes the binary: CUDA is loaded at run time, and CMakeLists.txt makes the
        # library position-independent whatever fPIC says.
        del self.info.options.with_cuda
        self.info.options.rm_safe("fPIC")

    def generate(self):
        if self.options.header_only:
            return
        tc = CMakeToolchain(self)
        # The library target only: CI builds it three times (static, shared, header-only test).
        tc.cache_variables["FUSEJIT_BUILD_TESTS"] = False
        tc.cache_variables["FUSEJIT_BUILD_EXAMPLES"] = False
        tc.cache_variables["FUSEJIT_BUILD_BENCH"] = False
        tc.cache_variables["FUSEJIT_INSTALL"] = True
        tc.cache_variables["FUSEJIT_WITH_LLVM"] = True
        # The recipe requires no MPI package: its pmap runs within one process.
        tc.cache_variables["FUSEJIT_WITH_MPI"] = False
        # find_package(LLVM <major.minor>) asks for the LLVM this graph resolved.
        llvm = self.dependencies["llvm-core"].ref.version
        tc.cache_variables["FUSEJIT_LLVM_VERSION"] = f"{llvm.major}.{llvm.minor}"
        tc.generate()
        CMakeDeps(self).generate()

    def build(self):
        if self.options.header_only:
            return
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        for name in ("LICENSE", "NOTICE"):  # Conan's place for a package's license files
            copy(self, name, src=self.source_folder,
                 dst=os.path.join(self.package_folder, "licenses"))
        if self.options.header_only:
            copy(self, "*", src=os.path.join(self.source_folder, "include"),
                 dst=os.path.join(self.package_folder, "include"))
            return
        CMake(self).install()
        # Conan's CMakeDeps writes consumers' fusejit-config.cmake from package_info instead.
        rmdir(self, os.path.join(self.package_folder, "lib", "cmake"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "fusejit")
        self.cpp_info.set_property("cmake_target_name", "fusejit::fusejit")
        # The CMake target's public definition. FUSEJIT_IMPLEMENTATION is never propagated: it
        # belongs to the one translation unit that compiles the library (the library's parts, or the
        # user's own when headers-only); anywhere else it would define everything twice.
        self.cpp_info.defines = ["FUSEJIT_WITH_LLVM=1"]
        if self.options.with_mpi:
            self.cpp_info.defines.append("FUSEJIT_WITH_MPI=1")
        if self.options.header_only:
            self.cpp_info.libs = []
            self.cpp_info.libdirs = []
        else:
            self.cpp_info.libs = ["fusejit"]
        self.cpp_info.bindirs = []
        if self.settings.os in ("Linux", "FreeBSD"):
            self.cpp_info.system_libs = ["pthread", "dl"]
