/// \file
/// The library's version, in its one place: CMake, the Conan recipe and the vcpkg port read it.
#pragma once

/// fusejit's version, "major.minor.patch" (jax.__version__). On-disk cache entries record it:
/// code compiled by another version is never loaded.
#define FUSEJIT_VERSION "0.1.0"
