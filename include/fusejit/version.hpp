// The library's version, as a string macro: CMake's project VERSION (checked at configure time).
#pragma once

// On-disk cache entries record it: code compiled by another version is never loaded.
#define FUSEJIT_VERSION "0.1.0"
