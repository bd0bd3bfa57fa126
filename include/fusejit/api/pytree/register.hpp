/// \file
/// FUSEJIT_PYTREE(Type, fields...): registers a user struct as a pytree node (JAX's
/// register_dataclass), and fj::MappedStruct, what tree_map makes of one whose leaves change type.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

/// Gives fj::pytree_tag<T> the global namespace as an associated namespace, so that argument
/// dependent lookup finds a registration written at global scope for a struct in any namespace.
struct fusejit_pytree_adl_base {};

namespace fj {

/// The argument type FUSEJIT_PYTREE's generated function is found by (through ADL: in the
/// struct's namespace, or the global one).
template <class T>
struct pytree_tag : ::fusejit_pytree_adl_base {};

namespace detail {

template <class M>
struct member_of;
template <class S, class T>
struct member_of<T S::*> {
  using type = T;
};

/// What FUSEJIT_PYTREE records of a struct: its name, its fields (member pointers) in order and
/// their names.
template <class S, class... M>
struct PytreeFields {
  std::string_view name;
  std::tuple<M...> members;
  std::string_view field_names;  // "weights, biases", as written in the macro
  static constexpr std::size_t size = sizeof...(M);
  using field_types = std::tuple<typename member_of<M>::type...>;

  std::vector<std::string> names() const {
    std::vector<std::string> r;
    std::string cur;
    for (char c : field_names) {
      if (c == ',') {
        r.push_back(cur);
        cur.clear();
      } else if (c != ' ' && c != '\t' && c != '\n') {
        cur += c;
      }
    }
    r.push_back(cur);
    return r;
  }
};

template <class S, class... M>
constexpr PytreeFields<S, M...> make_pytree_fields(std::string_view name, std::string_view fields,
                                                   M... m) {
  static_assert((std::is_member_object_pointer_v<M> && ...),
                "FUSEJIT_PYTREE: every name after the type must be a data member");
  return {name, std::tuple<M...>(m...), fields};
}

template <class T>
concept RegisteredPytree = requires {
  fusejit_pytree_fields(pytree_tag<std::remove_cvref_t<T>>{});
};

template <class T>
using pytree_fields_t = decltype(fusejit_pytree_fields(pytree_tag<T>{}));

}  // namespace detail

/// What tree_map returns for a registered struct S whose mapped leaves no longer fit its fields
/// (e.g. the shapes of a Layer's arrays): the mapped fields, in order, in a node that has S's
/// structure (it prints and compares as S does).
template <class S, class... T>
struct MappedStruct {
  std::tuple<T...> fields;  ///< the mapped fields, in S's field order
  /// Field I: std::get<I>(fields).
  template <std::size_t I>
  const auto& get() const {
    return std::get<I>(fields);
  }
};

}  // namespace fj

#define FUSEJIT_PT_CAT_(a, b) a##b
#define FUSEJIT_PT_CAT(a, b) FUSEJIT_PT_CAT_(a, b)
#define FUSEJIT_PT_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, \
                          N, ...)                                                                \
  N
#define FUSEJIT_PT_COUNT(...) \
  FUSEJIT_PT_COUNT_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define FUSEJIT_PT_M1(T, a) &T::a
#define FUSEJIT_PT_M2(T, a, ...) &T::a, FUSEJIT_PT_M1(T, __VA_ARGS__)
#define FUSEJIT_PT_M3(T, a, ...) &T::a, FUSEJIT_PT_M2(T, __VA_ARGS__)
#define FUSEJIT_PT_M4(T, a, ...) &T::a, FUSEJIT_PT_M3(T, __VA_ARGS__)
#define FUSEJIT_PT_M5(T, a, ...) &T::a, FUSEJIT_PT_M4(T, __VA_ARGS__)
#define FUSEJIT_PT_M6(T, a, ...) &T::a, FUSEJIT_PT_M5(T, __VA_ARGS__)
#define FUSEJIT_PT_M7(T, a, ...) &T::a, FUSEJIT_PT_M6(T, __VA_ARGS__)
#define FUSEJIT_PT_M8(T, a, ...) &T::a, FUSEJIT_PT_M7(T, __VA_ARGS__)
#define FUSEJIT_PT_M9(T, a, ...) &T::a, FUSEJIT_PT_M8(T, __VA_ARGS__)
#define FUSEJIT_PT_M10(T, a, ...) &T::a, FUSEJIT_PT_M9(T, __VA_ARGS__)
#define FUSEJIT_PT_M11(T, a, ...) &T::a, FUSEJIT_PT_M10(T, __VA_ARGS__)
#define FUSEJIT_PT_M12(T, a, ...) &T::a, FUSEJIT_PT_M11(T, __VA_ARGS__)
#define FUSEJIT_PT_M13(T, a, ...) &T::a, FUSEJIT_PT_M12(T, __VA_ARGS__)
#define FUSEJIT_PT_M14(T, a, ...) &T::a, FUSEJIT_PT_M13(T, __VA_ARGS__)
#define FUSEJIT_PT_M15(T, a, ...) &T::a, FUSEJIT_PT_M14(T, __VA_ARGS__)
#define FUSEJIT_PT_M16(T, a, ...) &T::a, FUSEJIT_PT_M15(T, __VA_ARGS__)

/// Registers struct Type (default-constructible, with the listed data members as its children,
/// in this order) as a pytree node. Write it after the struct, in the struct's namespace or at
/// global scope; up to 16 fields.
#define FUSEJIT_PYTREE(Type, ...)                                                        \
  [[maybe_unused]] inline constexpr auto fusejit_pytree_fields(::fj::pytree_tag<Type>) { \
    return ::fj::detail::make_pytree_fields<Type>(                                       \
        #Type, #__VA_ARGS__,                                                             \
        FUSEJIT_PT_CAT(FUSEJIT_PT_M, FUSEJIT_PT_COUNT(__VA_ARGS__))(Type, __VA_ARGS__)); \
  }
