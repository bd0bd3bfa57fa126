// The doctest main for fusejit_tests; every other tests/*.cpp only defines test cases.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
