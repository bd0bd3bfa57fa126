// One row of the bad-input matrix (tests/test_bad_input_matrix.cpp): a misuse, the code doing it,
// the exception it must raise and a piece of its message.
#pragma once

#include <functional>
#include <typeinfo>
#include <vector>
#include <fusejit/fusejit.hpp>

namespace bad_input {

/// What a row expects: an exception of exactly this type, or (`type == nullptr`) none at all.
struct Expect {
  const std::type_info* type;
  const char* name;
};
template <class E>
inline Expect raises(const char* name) {
  return {&typeid(E), name};
}
const Expect no_error{nullptr, "none"};

/// One misuse: what it is, code doing it, the exception and a substring of its message. For a
/// row that must not raise, `contains` states the result (the callable checks it).
struct Row {
  const char* misuse;
  std::function<void()> run;
  Expect expect;
  const char* contains;
};

template <class T>
std::vector<T> values(const fj::Array& a) {
  return a.to_vector<T>();
}

}  // namespace bad_input
