// The fusejit include and an empty main: what every translation unit pays.
#include <fusejit/fusejit.hpp>
int main() { return 0; }
