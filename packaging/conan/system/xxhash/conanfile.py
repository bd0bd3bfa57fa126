# Conan recipe "xxhash" wrapping Debian's libxxhash-dev (/usr/include/xxhash.h) for fusejit's offline package test.
from conan import ConanFile


class SystemXxhashConan(ConanFile):
    name = "xxhash"
    description = "xxHash's header as installed by the system (libxxhash-dev); nothing is built or copied"
    license = "BSD-2-Clause"
    python_requires = "fusejit-system-headers/1.0"
    python_requires_extend = "fusejit-system-headers.SystemHeaders"
    # fusejit uses xxHash header-only (XXH_INLINE_ALL): no library is linked.
    include_dir = "/usr/include"
    version_header = "xxhash.h"
    version_macro = "XXH_VERSION_{key}"
    version_keys = ("MAJOR", "MINOR", "RELEASE")
    debian_package = "libxxhash-dev"
    cmake_file_name = "xxHash"
    cmake_target_name = "xxHash::xxhash"
