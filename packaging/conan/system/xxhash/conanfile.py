# Conan recipe "xxhash" wrapping Debian's libxxhash-dev (/usr/include/xxhash.h) for fusejit's offline package test.
import os
import re

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration

INCLUDE_DIR = "/usr/include"


class SystemXxhashConan(ConanFile):
    name = "xxhash"
    description = "xxHash's header as installed by the system (libxxhash-dev); nothing is built or copied"
    license = "BSD-2-Clause"
    package_type = "header-library"

    def set_version(self):
        header = os.path.join(INCLUDE_DIR, "xxhash.h")
        if not os.path.isfile(header):
            raise ConanInvalidConfiguration(f"{header} not found: apt-get install libxxhash-dev")
        with open(header, encoding="utf-8") as f:
            text = f.read()
        parts = [re.search(rf"#define XXH_VERSION_{key}\s+(\d+)", text).group(1)
                 for key in ("MAJOR", "MINOR", "RELEASE")]
        self.version = ".".join(parts)

    def package_id(self):
        self.info.clear()

    def package_info(self):
        # fusejit uses xxHash header-only (XXH_INLINE_ALL): no library is linked.
        self.cpp_info.includedirs = [INCLUDE_DIR]
        self.cpp_info.libdirs = []
        self.cpp_info.bindirs = []
        self.cpp_info.set_property("cmake_file_name", "xxHash")
        self.cpp_info.set_property("cmake_target_name", "xxHash::xxhash")
