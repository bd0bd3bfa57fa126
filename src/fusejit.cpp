// The one translation unit that compiles fusejit's implementation (backends, caches) into the
// library.
#define FUSEJIT_IMPLEMENTATION
#include <fusejit/fusejit.hpp>
