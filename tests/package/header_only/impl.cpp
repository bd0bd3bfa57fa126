// The one translation unit of this program that compiles fusejit's implementation in.
#define FUSEJIT_IMPLEMENTATION
#include <fusejit/fusejit.hpp>
