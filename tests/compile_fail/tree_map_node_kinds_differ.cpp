// expect: the trees must have the first tree's structure
// tree_map over trees whose node types differ (a list against a dict) is a compile error.
#include <fusejit/fusejit.hpp>
#include <map>
#include <string>
#include <vector>
int main() {
  const std::vector<int> a{1, 2};
  const std::map<std::string, int> b{{"x", 1}, {"y", 2}};
  return static_cast<int>(fj::tree_map([](int p, int q) { return p + q; }, a, b).size());
}
