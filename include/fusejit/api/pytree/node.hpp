// Which C++ types are pytree nodes, and how each kind visits, rebuilds and maps its children.
#pragma once
#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "fusejit/api/pytree/register.hpp"
#include "fusejit/api/pytree/treedef.hpp"
#include "fusejit/core/error.hpp"

namespace fj::detail::pytree {

using Kind = PyTreeDef::Kind;

/// Node<T> describes a node type: `kind`, `dynamic` (its arity or keys are runtime values),
/// `each(t, v)` (v on each child, in order), `meta(t, def)` (keys, name), `map(f, t, us...)` (a
/// node of f's results on corresponding children of t and the trees us, which have t's kind),
/// `build<T>(def, child)` (T from a structure, each child made by child(type_identity<C>, def))
/// and `same_kind<U>` (whether U is a node of the same kind, for multi-tree maps).
/// Any type without a Node specialization is a leaf.
template <class T>
struct Node {
  static constexpr bool is_node = false;
};

template <class T>
inline constexpr bool is_node_v = Node<std::remove_cvref_t<T>>::is_node;

[[noreturn]] inline void bad_structure(const char* want, const PyTreeDef& got) {
  throw ValueError("fj::tree_unflatten: the structure " + got.str() +
                   " does not fit the C++ type (a " + want + " expected there)");
}
inline void expect(const PyTreeDef& d, Kind k, const char* what) {
  if (d.kind != k) bad_structure(what, d);
}

/// std::tuple, std::pair and std::array share the fixed-arity tuple implementation.
template <class T, Kind K = Kind::tuple>
struct FixedNode {
  static constexpr bool is_node = true;
  static constexpr Kind kind = K;
  static constexpr bool dynamic = false;
  static constexpr std::size_t arity = std::tuple_size_v<T>;
  template <class U>
  static constexpr bool same_kind = [] {
    if constexpr (requires { std::tuple_size<std::remove_cvref_t<U>>::value; })
      return Node<std::remove_cvref_t<U>>::is_node &&
             std::tuple_size_v<std::remove_cvref_t<U>> == arity;
    else
      return false;
  }();
  template <class V>
  static void each(const T& t, V&& v) {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (v(std::get<I>(t)), ...); }
    (std::make_index_sequence<arity>{});
  }
  static void meta(const T&, PyTreeDef&) {}
  template <class B>
  static T build(const PyTreeDef& d, B&& child) {
    expect(d, K, "tuple");
    if (d.children.size() != arity) bad_structure("tuple of another length", d);
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return T{child(std::type_identity<std::tuple_element_t<I, T>>{}, d.children[I])...};
    }
    (std::make_index_sequence<arity>{});
  }
};

template <class... Ts>
struct Node<std::tuple<Ts...>> : FixedNode<std::tuple<Ts...>> {
  template <std::size_t I, class F, class... Us>
  static decltype(auto) map_at(F& f, const std::tuple<Ts...>& t, const Us&... us) {
    return f(std::get<I>(t), std::get<I>(us)...);
  }
  template <class F, class... Us>
  static auto map(F&& f, const std::tuple<Ts...>& t, const Us&... us) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      using R = std::tuple<decltype(map_at<I>(f, t, us...))...>;
      return R{map_at<I>(f, t, us...)...};  // braces: left to right
    }
    (std::index_sequence_for<Ts...>{});
  }
};
template <class A, class B>
struct Node<std::pair<A, B>> : FixedNode<std::pair<A, B>> {
  template <class F, class... Us>
  static auto map(F&& f, const std::pair<A, B>& t, const Us&... us) {
    using R = std::pair<decltype(f(t.first, us.first...)), decltype(f(t.second, us.second...))>;
    return R{f(t.first, us.first...), f(t.second, us.second...)};
  }
};
template <class T, std::size_t N>
struct Node<std::array<T, N>> : FixedNode<std::array<T, N>> {
  template <std::size_t I, class F, class... Us>
  static decltype(auto) map_at(F& f, const std::array<T, N>& t, const Us&... us) {
    return f(t[I], us[I]...);
  }
  template <class F, class... Us>
  static auto map(F&& f, const std::array<T, N>& t, const Us&... us) {
    using E = decltype(f(t[0], us[0]...));
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<E, N>{map_at<I>(f, t, us...)...};
    }
    (std::make_index_sequence<N>{});
  }
  template <class B>
  static std::array<T, N> build(const PyTreeDef& d, B&& child) {
    expect(d, Kind::tuple, "tuple");
    if (d.children.size() != N) bad_structure("tuple of another length", d);
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<T, N>{child(std::type_identity<T>{}, d.children[I])...};
    }
    (std::make_index_sequence<N>{});
  }
};

template <class T, class A>
struct Node<std::vector<T, A>> {
  static constexpr bool is_node = true;
  static constexpr Kind kind = Kind::list;
  static constexpr bool dynamic = true;
  template <class U>
  static constexpr bool same_kind = [] {
    using D = std::remove_cvref_t<U>;
    if constexpr (requires { typename D::value_type; })
      return std::is_same_v<D, std::vector<typename D::value_type, typename D::allocator_type>>;
    else
      return false;
  }();
  template <class V>
  static void each(const std::vector<T, A>& t, V&& v) {
    for (const auto& e : t) v(e);
  }
  static void meta(const std::vector<T, A>&, PyTreeDef&) {}
  template <class F, class... Us>
  static auto map(F&& f, const std::vector<T, A>& t, const Us&... us) {
    using E = decltype(f(t[0], us[0]...));
    std::vector<E> r;
    r.reserve(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) r.push_back(f(t[i], us[i]...));
    return r;
  }
  template <class B>
  static std::vector<T, A> build(const PyTreeDef& d, B&& child) {
    expect(d, Kind::list, "list (std::vector)");
    std::vector<T, A> r;
    r.reserve(d.children.size());
    for (auto& c : d.children) r.push_back(child(std::type_identity<T>{}, c));
    return r;
  }
};

template <class T, class C, class A>
struct Node<std::map<std::string, T, C, A>> {
  using M = std::map<std::string, T, C, A>;
  static constexpr bool is_node = true;
  static constexpr Kind kind = Kind::dict;
  static constexpr bool dynamic = true;
  template <class U>
  static constexpr bool same_kind = [] {
    using D = std::remove_cvref_t<U>;
    if constexpr (requires { typename D::mapped_type; })
      return std::is_same_v<D, std::map<std::string, typename D::mapped_type>>;
    else
      return false;
  }();
  template <class V>
  static void each(const M& t, V&& v) {
    for (const auto& [k, e] : t) v(e);
  }
  static void meta(const M& t, PyTreeDef& d) {
    for (const auto& kv : t) d.keys.push_back(kv.first);
  }
  template <class F, class... Us>
  static auto map(F&& f, const M& t, const Us&... us) {
    using E = decltype(f(t.begin()->second, us.begin()->second...));
    std::map<std::string, E> r;
    // The structures were checked equal, so the other maps hold the same keys.
    for (const auto& [k, e] : t) r.emplace(k, f(e, us.at(k)...));
    return r;
  }
  template <class B>
  static M build(const PyTreeDef& d, B&& child) {
    expect(d, Kind::dict, "dict (std::map)");
    M r;
    for (std::size_t i = 0; i < d.children.size(); ++i)
      r.emplace(d.keys[i], child(std::type_identity<T>{}, d.children[i]));
    return r;
  }
};

/// A std::pair, or a std::tuple (or std::array) of two.
template <class T>
concept FixedPair = is_node_v<T> && requires {
  std::tuple_size<T>::value;
} && std::tuple_size_v<T>
== 2;

/// std::monostate is None: a node with no children.
template <>
struct Node<std::monostate> {
  static constexpr bool is_node = true;
  static constexpr Kind kind = Kind::none;
  static constexpr bool dynamic = false;
  template <class U>
  static constexpr bool same_kind = std::is_same_v<std::remove_cvref_t<U>, std::monostate>;
  template <class V>
  static void each(const std::monostate&, V&&) {}
  static void meta(const std::monostate&, PyTreeDef&) {}
  template <class F, class... Us>
  static std::monostate map(F&&, const std::monostate&, const Us&...) {
    return {};
  }
  template <class B>
  static std::monostate build(const PyTreeDef& d, B&&) {
    expect(d, Kind::none, "None (std::monostate)");
    return {};
  }
};

/// A struct registered with FUSEJIT_PYTREE; MappedStruct<S, ...> has S's structure.
template <class S>
requires RegisteredPytree<S>
struct Node<S> {
  using Fields = pytree_fields_t<S>;
  static constexpr bool is_node = true;
  static constexpr Kind kind = Kind::custom;
  static constexpr bool dynamic = false;
  static constexpr std::size_t arity = Fields::size;
  template <class U>
  static constexpr bool same_kind = [] {
    using D = std::remove_cvref_t<U>;
    if constexpr (std::is_same_v<D, S>)
      return true;
    else if constexpr (requires { typename Node<D>::struct_type; })
      return std::is_same_v<typename Node<D>::struct_type, S>;
    else
      return false;
  }();
  static const Fields& fields() {
    static const Fields f = fusejit_pytree_fields(pytree_tag<S>{});
    return f;
  }
  template <std::size_t I>
  static const auto& field(const S& s) {
    return s.*std::get<I>(fields().members);
  }
  template <class V>
  static void each(const S& s, V&& v) {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (v(field<I>(s)), ...); }
    (std::make_index_sequence<arity>{});
  }
  /// The type's name without namespaces, as JAX prints a class's __name__.
  static std::string name() {
    const std::string_view n = fields().name;
    const auto k = n.rfind("::");
    return std::string(k == std::string_view::npos ? n : n.substr(k + 2));
  }
  static void meta(const S&, PyTreeDef& d) {
    static const std::string n = name();
    static const std::vector<std::string> keys = fields().names();
    d.name = n;
    d.keys = keys;
  }
  template <std::size_t I, class F, class... Us>
  static decltype(auto) map_field(F& f, const S& s, const Us&... us) {
    return f(field<I>(s), Node<Us>::template field<I>(us)...);
  }
  template <class F, class... Us>
  static auto map(F&& f, const S& s, const Us&... us) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      using R = std::tuple<decltype(map_field<I>(f, s, us...))...>;
      constexpr bool fits =
          (std::is_same_v<std::tuple_element_t<I, R>,
                          std::tuple_element_t<I, typename Fields::field_types>> &&
           ...);
      if constexpr (fits) {
        S r{};
        ((r.*std::get<I>(fields().members) = map_field<I>(f, s, us...)), ...);
        return r;
      } else {
        return MappedStruct<S, std::tuple_element_t<I, R>...>{R{map_field<I>(f, s, us...)...}};
      }
    }
    (std::make_index_sequence<arity>{});
  }
  template <class B>
  static S build(const PyTreeDef& d, B&& child) {
    expect(d, Kind::custom, "registered struct");
    if (d.name != name() || d.children.size() != arity) bad_structure(name().c_str(), d);
    S r{};
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((r.*std::get<I>(fields().members) =
            child(std::type_identity<std::tuple_element_t<I, typename Fields::field_types>>{},
                  d.children[I])),
       ...);
    }
    (std::make_index_sequence<arity>{});
    return r;
  }
};

template <class S, class... T>
struct Node<MappedStruct<S, T...>> {
  using M = MappedStruct<S, T...>;
  using struct_type = S;
  static constexpr bool is_node = true;
  static constexpr Kind kind = Kind::custom;
  static constexpr bool dynamic = false;
  static constexpr std::size_t arity = sizeof...(T);
  template <class U>
  static constexpr bool same_kind = Node<S>::template same_kind<U>;
  template <std::size_t I>
  static const auto& field(const M& m) {
    return std::get<I>(m.fields);
  }
  template <class V>
  static void each(const M& m, V&& v) {
    std::apply([&](const auto&... e) { (v(e), ...); }, m.fields);
  }
  static void meta(const M&, PyTreeDef& d) { Node<S>::meta(S{}, d); }
  template <std::size_t I, class F, class... Us>
  static decltype(auto) map_field(F& f, const M& m, const Us&... us) {
    return f(field<I>(m), Node<Us>::template field<I>(us)...);
  }
  template <class F, class... Us>
  static auto map(F&& f, const M& m, const Us&... us) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      using R = std::tuple<decltype(map_field<I>(f, m, us...))...>;
      return MappedStruct<S, std::tuple_element_t<I, R>...>{R{map_field<I>(f, m, us...)...}};
    }
    (std::make_index_sequence<arity>{});
  }
  template <class B>
  static M build(const PyTreeDef& d, B&& child) {
    expect(d, Kind::custom, "registered struct");
    if (d.children.size() != arity) bad_structure("registered struct", d);
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return M{std::tuple<T...>{child(std::type_identity<T>{}, d.children[I])...}};
    }
    (std::index_sequence_for<T...>{});
  }
};

/// std::variant is transparent: the tree is that of the alternative it holds (the structure
/// records which, so it can be rebuilt). This is how one std::map may hold values of different
/// structures, as a Python dict does.
template <class... Ts>
struct Node<std::variant<Ts...>> {
  using V = std::variant<Ts...>;
  static constexpr bool is_node = true;
  static constexpr bool transparent = true;
  static constexpr bool dynamic = true;
  template <class U>
  static constexpr bool same_kind = std::is_same_v<std::remove_cvref_t<U>, V>;
};

}  // namespace fj::detail::pytree
