// The rest of jax.tree_util (tree_util_more.hpp) against JAX 0.10.2 for the same trees: key paths,
// keystr, reductions, tree_all, tree_broadcast, tree_transpose, flatten_one_level, treedef_*.
#include <doctest/doctest.h>

#include <fusejit/api/pytree/tree_util_more.hpp>
#include <fusejit/fusejit.hpp>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "throws_with.hpp"

namespace tu_more {
/// Mirrors the Python test class `@dataclass class Pt: x: float; y: list`, registered with
/// register_dataclass(Pt, data_fields=['x', 'y'], meta_fields=[]).
struct Pt {
  double x = 0;
  std::vector<double> y;
};
FUSEJIT_PYTREE(Pt, x, y)
/// Mirrors `@dataclass class P2: x: float; y: float`, registered the same way.
struct P2 {
  double x = 0, y = 0;
};
FUSEJIT_PYTREE(P2, x, y)
}  // namespace tu_more

namespace {

using fusejit_test::check_throws_with;
using tu_more::P2;
using tu_more::Pt;
using Str = std::map<std::string, double>;
/// JAX: t = ([1.0, 2.0], {'a': 3.0, 'b': 4.0}, Pt(5.0, [6.0, 7.0]))
using T = std::tuple<std::vector<double>, Str, Pt>;
T sample() { return T{{1, 2}, {{"a", 3}, {"b", 4}}, Pt{5, {6, 7}}}; }

// Python's str(float) for the small whole numbers used here ("2.0").
std::string py_float(double v) { return std::to_string(static_cast<long>(v)) + ".0"; }

TEST_CASE("tree_leaves_with_path and keystr print JAX's key paths") {
  const auto pl = fj::tree_leaves_with_path(sample());
  // [tu.keystr(p) for p, _ in tu.tree_leaves_with_path(t)]
  const std::vector<std::string> jax = {"[0][0]", "[0][1]",   "[1]['a']", "[1]['b']",
                                        "[2].x",  "[2].y[0]", "[2].y[1]"};
  // [tu.keystr(p, simple=True, separator='/') for p, _ in tu.tree_leaves_with_path(t)]
  const std::vector<std::string> jax_simple = {"0/0", "0/1", "1/a", "1/b", "2/x", "2/y/0", "2/y/1"};
  REQUIRE(pl.size() == jax.size());
  for (std::size_t i = 0; i < pl.size(); ++i) {
    CHECK(fj::keystr(pl[i].first) == jax[i]);
    CHECK(fj::keystr(pl[i].first, true, "/") == jax_simple[i]);
    CHECK(pl[i].second == static_cast<double>(i + 1));
  }
  // [str(k) for k in tu.tree_leaves_with_path(t)[6][0]] == ['[2]', '.y', '[1]'], and its repr
  // is (SequenceKey(idx=2), GetAttrKey(name='y'), SequenceKey(idx=1)).
  const fj::KeyPath want = {fj::SequenceKey{2}, fj::GetAttrKey{"y"}, fj::SequenceKey{1}};
  CHECK(pl[6].first == want);
  CHECK(fj::keystr(pl[6].first[1]) == ".y");
  // tu.keystr((tu.DictKey("it's"),)) == '["it\'s"]' (Python's repr picks double quotes).
  CHECK(fj::keystr(fj::KeyPath{fj::DictKey{"it's"}}) == "[\"it's\"]");
  CHECK(fj::keystr(fj::KeyPath{}) == "");  // tu.keystr(()) == ''
  // tu.keystr((tu.SequenceKey(0), tu.FlattenedIndexKey(3))) == '[0][<flat index 3>]', and with
  // simple=True, separator='/': '0/3'
  const fj::KeyPath flat = {fj::SequenceKey{0}, fj::FlattenedIndexKey{3}};
  CHECK(fj::keystr(flat) == "[0][<flat index 3>]");
  CHECK(fj::keystr(flat, true, "/") == "0/3");
  // tu.tree_leaves_with_path(None) == [], tu.tree_leaves_with_path(1.0) == [((), 1.0)]
  CHECK(fj::tree_leaves_with_path(std::monostate{}).empty());
  const auto one = fj::tree_leaves_with_path(1.0);
  REQUIRE(one.size() == 1);
  CHECK(one[0].first.empty());
  // std::pair and std::array give SequenceKey; a std::variant adds no key of its own.
  using V = std::variant<double, std::array<double, 2>>;
  const std::pair<V, std::map<std::string, V>> pv{V{std::array<double, 2>{1, 2}}, {{"k", V{3.0}}}};
  std::vector<std::string> got;
  for (const auto& [p, l] : fj::tree_leaves_with_path(pv)) got.push_back(fj::keystr(p));
  CHECK(got == std::vector<std::string>{"[0][0]", "[0][1]", "[1]['k']"});
  // tu.tree_flatten_with_path(t)[1]
  const auto [leaves, def] = fj::tree_flatten_with_path(sample());
  CHECK(leaves.size() == 7);
  CHECK(def.str() == "PyTreeDef(([*, *], {'a': *, 'b': *}, CustomNode(Pt[()], [*, [*, *]])))");
}

TEST_CASE("tree_map_with_path passes each leaf's path, as JAX does") {
  const T t = sample();
  // tu.tree_map_with_path(lambda p, x, y: tu.keystr(p) + '=' + str(x + y), t, t)
  const auto r =
      fj::tree_map_with_path([](const fj::KeyPath& p, double x,
                                double y) { return fj::keystr(p) + "=" + py_float(x + y); },
                             t, t);
  const std::vector<std::string> jax = {"[0][0]=2.0",   "[0][1]=4.0", "[1]['a']=6.0",
                                        "[1]['b']=8.0", "[2].x=10.0", "[2].y[0]=12.0",
                                        "[2].y[1]=14.0"};
  CHECK(fj::tree_leaves(r) == jax);
  CHECK(fj::tree_structure(r) == fj::tree_structure(t));
  const std::tuple<std::vector<double>, Str, Pt> other{{1, 2, 3}, {}, Pt{}};
  check_throws_with<fj::ValueError>(
      [&] {
        (void)fj::tree_map_with_path([](const auto&, double, double) { return 0; }, t, other);
      },
      {"fj::tree_map_with_path", "PyTreeDef(([*, *, *], {}, CustomNode(Pt[()], [*, []])))",
       "PyTreeDef(([*, *], {'a': *, 'b': *}, CustomNode(Pt[()], [*, [*, *]])))"});
}

TEST_CASE("tree_reduce and tree_reduce_associative fold as JAX folds") {
  const auto digits = [](double a, double b) { return a * 10 + b; };
  // tu.tree_reduce(lambda a, b: a * 10 + b, t, 0.0) == tu.tree_reduce(..., t) == 1234567.0
  CHECK(fj::tree_reduce(digits, sample(), 0.0) == 1234567.0);
  CHECK(fj::tree_reduce(digits, sample()) == 1234567.0);
  // tu.tree_reduce(lambda a, b: f"({a}-{b})", [1, 2, 3, 4, 5], "") == '(((((-1)-2)-3)-4)-5)'
  const std::vector<int> five = {1, 2, 3, 4, 5};
  CHECK(
      fj::tree_reduce([](std::string a, int b) { return "(" + a + "-" + std::to_string(b) + ")"; },
                      five, std::string()) == "(((((-1)-2)-3)-4)-5)");
  const auto plus = [](const std::string& a, const std::string& b) {
    return "(" + a + "+" + b + ")";
  };
  // tu.tree_reduce_associative(lambda a, b: f"({a}+{b})", [1, 2, 3, 4, 5])
  CHECK(fj::tree_reduce_associative(plus, std::vector<std::string>{"1", "2", "3", "4", "5"}) ==
        "((1+2)+(3+(4+5)))");
  // ... and over [1, 2, 3, 4, 5, 6, 7]
  CHECK(fj::tree_reduce_associative(plus,
                                    std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7"}) ==
        "((1+(2+3))+((4+5)+(6+7)))");
  CHECK(fj::tree_reduce_associative(plus, std::vector<std::string>{}, "id") == "id");
  // tu.tree_reduce(operator.add, []): TypeError reduce() of empty iterable with no initial value
  check_throws_with<fj::TypeError>(
      [] {
        (void)fj::tree_reduce([](double a, double b) { return a + b; }, std::vector<double>{});
      },
      {"fj::tree_reduce", "reduce() of empty iterable with no initial value", "PyTreeDef([])"});
  // tu.tree_reduce_associative(operator.add, []): TypeError Must specify identity for parallel
  // reduction of empty sequence.
  check_throws_with<fj::TypeError>(
      [] {
        (void)fj::tree_reduce_associative([](double a, double b) { return a + b; },
                                          std::vector<double>{});
      },
      {"fj::tree_reduce_associative", "Must specify identity"});
}

TEST_CASE("tree_all is all() over the leaves") {
  // tu.tree_all([True, {'a': 1.0, 'b': (2, True)}]) is True (a tuple stands in for the list).
  const std::pair<bool, std::map<std::string, std::variant<double, std::tuple<int, bool>>>> yes{
      true, {{"a", 1.0}, {"b", std::tuple<int, bool>{2, true}}}};
  CHECK(fj::tree_all(yes));
  // tu.tree_all([True, {'a': 0.0}]) is False; tu.tree_all([]) is True.
  CHECK_FALSE(fj::tree_all(std::pair<bool, Str>{true, {{"a", 0.0}}}));
  CHECK(fj::tree_all(std::vector<double>{}));
  // tu.tree_all([jnp.array(1.0), jnp.array([2.0])]) is True; of [jnp.array([1.0, 2.0])] raises
  // ValueError The truth value of an array with more than one element is ambiguous.
  CHECK(fj::tree_all(std::vector<fj::Array>{fj::array(std::vector<float>{1}, {}),
                                            fj::array(std::vector<float>{2}, {1})}));
  CHECK_FALSE(fj::tree_all(std::vector<fj::Array>{fj::array(std::vector<float>{0}, {})}));
  check_throws_with<fj::ValueError>(
      [] {
        (void)fj::tree_all(std::vector<fj::Array>{fj::array(std::vector<float>{1, 2}, {2})});
      },
      {"fj::tree_all", "truth value of an array with more than one element"});
}

TEST_CASE("tree_broadcast repeats the prefix's leaves over the full tree") {
  // tu.tree_broadcast([1.0, {'a': 2.0, 'b': 3.0}], [(4., 5., 6.), {'a': [7., 8.], 'b': {'c': 9.}}])
  //   == [(1.0, 1.0, 1.0), {'a': [2.0, 2.0], 'b': {'c': 3.0}}]   (std::pair for the lists)
  using Sub = std::variant<std::vector<double>, Str>;
  const std::pair<double, Str> prefix{1.0, {{"a", 2.0}, {"b", 3.0}}};
  const std::pair<std::tuple<double, double, double>, std::map<std::string, Sub>> full{
      {4, 5, 6}, {{"a", Sub{std::vector<double>{7, 8}}}, {"b", Sub{Str{{"c", 9}}}}}};
  const auto r = fj::tree_broadcast(prefix, full);
  CHECK(fj::tree_structure(r) == fj::tree_structure(full));
  CHECK(fj::tree_leaves(r) == std::vector<double>{1, 1, 1, 2, 2, 3});
  // tu.tree_broadcast((1.0, 2.0), (Pt(0., [0., 0.]), [0., 0., 0.]))
  //   == (Pt(x=1.0, y=[1.0, 1.0]), [2.0, 2.0, 2.0])
  const auto s = fj::tree_broadcast(std::pair<double, double>{1, 2},
                                    std::pair<Pt, std::vector<double>>{Pt{0, {0, 0}}, {0, 0, 0}});
  CHECK(s.first.x == 1);
  CHECK(s.first.y == std::vector<double>{1, 1});
  CHECK(s.second == std::vector<double>{2, 2, 2});
  // tu.tree_broadcast([1.0, 2.0], [1.0, 2.0, 3.0]): ValueError pytree structure error:
  // different lengths of list ...
  check_throws_with<fj::ValueError>(
      [] {
        (void)fj::tree_broadcast(std::vector<double>{1, 2}, std::vector<double>{1, 2, 3});
      },
      {"fj::tree_broadcast", "PyTreeDef([*, *])", "PyTreeDef([*, *, *])"});
  // tu.tree_broadcast({'a': 1.0}, {'b': 1.0}): ValueError ... different pytree metadata ...
  check_throws_with<fj::ValueError>(
      [] {
        (void)fj::tree_broadcast(Str{{"a", 1}}, Str{{"b", 1}});
      },
      {"fj::tree_broadcast", "PyTreeDef({'a': *})", "PyTreeDef({'b': *})"});
}

TEST_CASE("tree_transpose swaps the outer and inner structures") {
  const std::vector<std::map<std::string, int>> lod = {
      {{"a", 1}, {"b", 2}}, {{"a", 3}, {"b", 4}}, {{"a", 5}, {"b", 6}}};
  const fj::PyTreeDef outer = fj::tree_structure(std::vector<int>{0, 0, 0});
  const fj::PyTreeDef inner = fj::tree_structure(std::map<std::string, int>{{"a", 0}, {"b", 0}});
  using Dol = std::map<std::string, std::vector<int>>;
  // tu.tree_transpose(tree_structure([0, 0, 0]), tree_structure({'a': 0, 'b': 0}), lod)
  //   == {'a': [1, 3, 5], 'b': [2, 4, 6]}, structure PyTreeDef({'a': [*, *, *], 'b': [*, *, *]})
  const Dol want = {{"a", {1, 3, 5}}, {"b", {2, 4, 6}}};
  const Dol r = fj::tree_transpose<Dol>(outer, inner, lod);
  CHECK(r == want);
  CHECK(fj::tree_structure(r).str() == "PyTreeDef({'a': [*, *, *], 'b': [*, *, *]})");
  // tu.tree_transpose(outer, None, lod): the same
  CHECK(fj::tree_transpose<Dol>(outer, std::nullopt, lod) == want);
  // tu.tree_transpose(tree_structure([0, 0]), tree_structure(P2(0., 0.)), [P2(1., 2.),
  // P2(3., 4.)]) == P2(x=[1.0, 3.0], y=[2.0, 4.0]), CustomNode(P2[()], [[*, *], [*, *]])
  using P2Lists = fj::MappedStruct<P2, std::vector<double>, std::vector<double>>;
  const auto p =
      fj::tree_transpose<P2Lists>(fj::tree_structure(std::vector<int>{0, 0}),
                                  fj::tree_structure(P2{}), std::vector<P2>{P2{1, 2}, P2{3, 4}});
  CHECK(p.get<0>() == std::vector<double>{1, 3});
  CHECK(p.get<1>() == std::vector<double>{2, 4});
  CHECK(fj::tree_structure(p).str() == "PyTreeDef(CustomNode(P2[()], [[*, *], [*, *]]))");
  // tu.tree_transpose(outer, inner, lod[:2]): TypeError Mismatch
  // PyTreeDef([{'a': *, 'b': *}, {'a': *, 'b': *}]) != PyTreeDef([{'a': *, 'b': *}, ... x3])
  const std::vector<std::map<std::string, int>> two(lod.begin(), lod.begin() + 2);
  check_throws_with<fj::TypeError>(
      [&] { (void)fj::tree_transpose<Dol>(outer, inner, two); },
      {"fj::tree_transpose", "Mismatch", "PyTreeDef([{'a': *, 'b': *}, {'a': *, 'b': *}])",
       "PyTreeDef([{'a': *, 'b': *}, {'a': *, 'b': *}, {'a': *, 'b': *}])"});
}

TEST_CASE("flatten_one_level, flatten_one_level_with_keys and is_tree_node") {
  // tu.flatten_one_level({'b': [1, 2], 'a': {'c': 3}}) == (({'c': 3}, [1, 2]), ('a', 'b'))
  using C = std::variant<std::vector<int>, std::map<std::string, int>>;
  const std::map<std::string, C> d = {{"b", C{std::vector<int>{1, 2}}},
                                      {"a", C{std::map<std::string, int>{{"c", 3}}}}};
  const auto [children, def] = fj::flatten_one_level(d);
  REQUIRE(children.size() == 2);
  CHECK(std::get<std::map<std::string, int>>(children[0]) == std::map<std::string, int>{{"c", 3}});
  CHECK(std::get<std::vector<int>>(children[1]) == std::vector<int>{1, 2});
  CHECK(def.keys == std::vector<std::string>{"a", "b"});
  CHECK(def.str() == "PyTreeDef({'a': *, 'b': *})");
  // tu.flatten_one_level_with_keys(...) == ((DictKey(key='a'), {'c': 3}), (DictKey(key='b'),
  // [1, 2])), ('a', 'b'))
  const auto wk = fj::flatten_one_level_with_keys(d).first;
  CHECK(wk[0].first == fj::KeyEntry{fj::DictKey{"a"}});
  CHECK(wk[1].first == fj::KeyEntry{fj::DictKey{"b"}});
  // tu.flatten_one_level((1, [2])) == ((1, [2]), None)
  const auto tl = fj::flatten_one_level(std::tuple<int, std::vector<int>>{1, {2}}).first;
  REQUIRE(tl.size() == 2);
  CHECK(std::get<int>(tl[0]) == 1);
  CHECK(std::get<std::vector<int>>(tl[1]) == std::vector<int>{2});
  // tu.flatten_one_level_with_keys(Pt(1.0, [2.0])) == ([(GetAttrKey(name='x'), 1.0),
  // (GetAttrKey(name='y'), [2.0])], ())
  const auto pk = fj::flatten_one_level_with_keys(Pt{1, {2}}).first;
  REQUIRE(pk.size() == 2);
  CHECK(fj::keystr(pk[0].first) == ".x");
  CHECK(std::get<double>(pk[0].second) == 1.0);
  CHECK(fj::keystr(pk[1].first) == ".y");
  // tu.flatten_one_level_with_keys([5, 6]) == (((SequenceKey(idx=0), 5), (SequenceKey(idx=1),
  // 6)), None)
  const auto sk = fj::flatten_one_level_with_keys(std::vector<int>{5, 6}).first;
  CHECK(sk[1].first == fj::KeyEntry{fj::SequenceKey{1}});
  CHECK(sk[1].second == 6);
  // tu.flatten_one_level(None) == ((), None)
  const auto none = fj::flatten_one_level(std::monostate{});
  CHECK(none.first.empty());
  CHECK(none.second.str() == "PyTreeDef(None)");
  // tu.flatten_one_level(1.0): ValueError can't tree-flatten type: <class 'float'>
  check_throws_with<fj::ValueError>([] { (void)fj::flatten_one_level(1.0); },
                                    {"fj::flatten_one_level", "can't tree-flatten type"});
  check_throws_with<fj::ValueError>(
      [] { (void)fj::flatten_one_level(std::variant<double, std::vector<double>>{1.0}); },
      {"fj::flatten_one_level", "can't tree-flatten type"});
  // tu.is_tree_node(list), (dict), (Pt), (float), (type(None)): True True True False True
  static_assert(fj::is_tree_node<std::vector<double>>());
  static_assert(fj::is_tree_node<Str>());
  static_assert(fj::is_tree_node<Pt>());
  static_assert(!fj::is_tree_node<double>());
  static_assert(fj::is_tree_node<std::monostate>());
  static_assert(!fj::is_tree_node<fj::Array>());
  CHECK(fj::is_tree_node(std::variant<double, Str>{Str{}}));
  CHECK_FALSE(fj::is_tree_node(std::variant<double, Str>{1.0}));
}

TEST_CASE("treedef_children, treedef_is_leaf, treedef_tuple and all_leaves") {
  // tu.treedef_is_leaf(tree_structure(x)) for x = None, 1.0, [1.0], []: True True False True
  CHECK(fj::treedef_is_leaf(fj::tree_structure(std::monostate{})));
  CHECK(fj::treedef_is_leaf(fj::tree_structure(1.0)));
  CHECK_FALSE(fj::treedef_is_leaf(fj::tree_structure(std::vector<double>{1.0})));
  CHECK(fj::treedef_is_leaf(fj::tree_structure(std::vector<double>{})));
  // tu.treedef_children(tree_structure({'b': [1, (2, 3)], 'a': 1.0}))
  //   == [PyTreeDef(*), PyTreeDef([*, (*, *)])]; of tree_structure(1.0): []
  using E = std::variant<double, std::tuple<int, int>>;
  using V = std::variant<double, std::vector<E>>;
  const std::map<std::string, V> d = {
      {"b", V{std::vector<E>{E{1.0}, E{std::tuple<int, int>{2, 3}}}}}, {"a", V{1.0}}};
  std::vector<std::string> kids;
  for (const auto& c : fj::treedef_children(fj::tree_structure(d))) kids.push_back(c.str());
  CHECK(kids == std::vector<std::string>{"PyTreeDef(*)", "PyTreeDef([*, (*, *)])"});
  CHECK(fj::treedef_children(fj::tree_structure(1.0)).empty());
  // tu.treedef_tuple([tree_structure([1, 2]), tree_structure(1.0), tree_structure({'a': None})])
  //   == PyTreeDef(([*, *], *, {'a': None})); of [tree_structure(1.0)]: PyTreeDef((*,));
  //   of []: PyTreeDef(())
  const fj::PyTreeDef tup =
      fj::treedef_tuple({fj::tree_structure(std::vector<int>{1, 2}), fj::tree_structure(1.0),
                         fj::tree_structure(std::map<std::string, std::monostate>{{"a", {}}})});
  CHECK(tup.str() == "PyTreeDef(([*, *], *, {'a': None}))");
  CHECK(fj::treedef_tuple({fj::tree_structure(1.0)}).str() == "PyTreeDef((*,))");
  CHECK(fj::treedef_tuple({}).str() == "PyTreeDef(())");
  CHECK(tup == fj::tree_structure(
                   std::tuple<std::vector<int>, double, std::map<std::string, std::monostate>>{
                       {1, 2}, 1.0, {{"a", {}}}}));
  // tu.all_leaves(x) for x = [1.0, 2.0], [1.0, None], [1.0, [2.0]], []: True False False True
  CHECK(fj::all_leaves(std::vector<double>{1.0, 2.0}));
  CHECK_FALSE(
      fj::all_leaves(std::vector<std::variant<double, std::monostate>>{1.0, std::monostate{}}));
  CHECK_FALSE(fj::all_leaves(
      std::vector<std::variant<double, std::vector<double>>>{1.0, std::vector<double>{2.0}}));
  CHECK(fj::all_leaves(std::vector<double>{}));
}

}  // namespace
