// The bad-input matrix (issue 9): every user-reachable misuse, the fj::Error it raises and a piece
// of its message, one table; docs/errors.md is checked against it.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>
#include <fusejit/fusejit.hpp>
#include "bad_input/rows_math_sort.hpp"
#include "bad_input/rows_ops.hpp"
#include "bad_input/rows_transforms.hpp"
#include "tests_dir.hpp"

namespace {

using bad_input::Row;

/// Every row, in the order docs/errors.md lists them.
std::vector<Row> matrix() {
  std::vector<Row> rows = bad_input::op_rows();
  for (Row& r : bad_input::math_sort_rows()) rows.push_back(std::move(r));
  for (Row& r : bad_input::transform_rows()) rows.push_back(std::move(r));
  return rows;
}

/// The exception's fusejit type name, for failure messages.
std::string type_name(const std::exception& e) {
#define FUSEJIT_MATRIX_TYPE(T) \
  if (typeid(e) == typeid(T)) return #T;
  FUSEJIT_MATRIX_TYPE(fj::ShapeError)
  FUSEJIT_MATRIX_TYPE(fj::DTypeError)
  FUSEJIT_MATRIX_TYPE(fj::ValueError)
  FUSEJIT_MATRIX_TYPE(fj::TypeError)
  FUSEJIT_MATRIX_TYPE(fj::CompileError)
  FUSEJIT_MATRIX_TYPE(fj::DeviceError)
  FUSEJIT_MATRIX_TYPE(fj::ConcretizationError)
  FUSEJIT_MATRIX_TYPE(fj::UnexpectedTracerError)
  FUSEJIT_MATRIX_TYPE(fj::NotImplementedError)
  FUSEJIT_MATRIX_TYPE(fj::NameError)
  FUSEJIT_MATRIX_TYPE(fj::Error)
#undef FUSEJIT_MATRIX_TYPE
  return std::string("a non-fusejit exception (") + typeid(e).name() + ")";
}

/// Runs one row; returns what went wrong, or "" when the row holds.
std::string run_row(const Row& row) {
  try {
    row.run();
  } catch (const std::exception& e) {
    const std::string got = type_name(e), what = e.what();
    if (!row.expect.type) return "expected no exception, got " + got + ": " + what;
    if (typeid(e) != *row.expect.type)
      return std::string("expected ") + row.expect.name + ", got " + got + ": " + what;
    if (what.find(row.contains) == std::string::npos)
      return std::string("the message does not contain \"") + row.contains + "\": " + what;
    if (std::getenv("FUSEJIT_MATRIX_PRINT"))
      MESSAGE(std::string(row.misuse), " -> ", got, ": ", what);
    return "";
  } catch (...) {
    return "a non-std::exception was thrown";
  }
  if (row.expect.type) return std::string("expected ") + row.expect.name + ", nothing was thrown";
  return "";
}

std::string escape_cell(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '|') r += '\\';
    r += c;
  }
  return r;
}

/// The docs/errors.md block: one line per row.
std::string render_table(const std::vector<Row>& rows) {
  std::string s =
      "| misuse | exception | message contains |\n"
      "| --- | --- | --- |\n";
  for (const Row& r : rows) {
    const std::string cell = r.expect.type ? "`" + std::string(r.contains) + "`"
                                           : "no error: " + std::string(r.contains);
    s += "| " + escape_cell(r.misuse) + " | " +
         (r.expect.type ? "`" + std::string(r.expect.name) + "`" : std::string("none")) + " | " +
         escape_cell(cell) + " |\n";
  }
  return s;
}

const char* const kBegin = "<!-- bad-input-matrix:begin -->";
const char* const kEnd = "<!-- bad-input-matrix:end -->";

}  // namespace

TEST_CASE("bad-input matrix: each misuse raises its fj::Error with a clear message") {
  const std::vector<Row> rows = matrix();
  // Doctest runs this body once per subcase, entering one new SUBCASE each time.
  for (const Row& row : rows) {
    SUBCASE(row.misuse) {
      const std::string failure = run_row(row);
      CHECK_MESSAGE(failure.empty(), "row \"", std::string(row.misuse), "\": ", failure);
    }
  }
}

TEST_CASE("bad-input matrix: docs/errors.md shows the matrix") {
  const std::vector<Row> rows = matrix();
  std::set<std::string> names;  // a row's name is its subcase's and its docs line's
  for (const Row& row : rows)
    CHECK_MESSAGE(names.insert(row.misuse).second, "two rows are named: ", std::string(row.misuse));
  const std::string path = fusejit_test::tests_dir() + "/../docs/errors.md";
  std::string doc;
  {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in, "cannot read ", path);
    std::stringstream ss;
    ss << in.rdbuf();
    doc = ss.str();
  }
  const auto begin = doc.find(kBegin), end = doc.find(kEnd);
  REQUIRE_MESSAGE((begin != std::string::npos && end != std::string::npos && begin < end),
                  "docs/errors.md needs the markers ", kBegin, " and ", kEnd);
  const std::size_t body = begin + std::string(kBegin).size() + 1;  // after the marker's newline
  const std::string want = render_table(rows), have = doc.substr(body, end - body);
  if (have != want && std::getenv("FUSEJIT_UPDATE_DOCS")) {
    std::ofstream(path) << doc.substr(0, body) << want << doc.substr(end);
    MESSAGE("rewrote the bad-input matrix in ", path);
  } else {
    CHECK_MESSAGE(have == want,
                  "docs/errors.md's bad-input matrix differs from tests/test_bad_input_matrix.cpp; "
                  "run the test with FUSEJIT_UPDATE_DOCS=1 to rewrite it");
  }

  // The summary table above the matrix and the rows name the same exception types, except
  // fj::CompileError: a backend failing on a well-typed graph is a library bug, not bad input
  // (the shape rules reject a malformed graph first), so no row can raise it.
  const auto section = doc.find("# Errors");
  REQUIRE(section < begin);
  const std::string summary = doc.substr(section, begin - section);
  std::set<std::string> named, raised;
  for (auto at = summary.find("`fj::"); at != std::string::npos; at = summary.find("`fj::", at)) {
    const auto close = summary.find('`', at + 1);
    const std::string name = summary.substr(at + 1, close - at - 1);
    if (name.ends_with("Error") && name != "fj::Error") named.insert(name);  // not the base
    at = close;
  }
  for (const Row& r : rows)
    if (r.expect.type) raised.insert(r.expect.name);
  for (const std::string& t : named)
    CHECK_MESSAGE((raised.count(t) || t == "fj::CompileError"), "docs/errors.md's table names ", t,
                  " but no row of the bad-input matrix raises it");
  for (const std::string& t : raised)
    CHECK_MESSAGE(named.count(t), "a row raises ", t,
                  " but docs/errors.md's table does not name it");

  // The misuses that are compile errors instead are listed too, one per tests/compile_fail file.
  for (const auto& f :
       std::filesystem::directory_iterator(fusejit_test::tests_dir() + "/compile_fail")) {
    if (f.path().extension() != ".cpp") continue;
    const std::string name = "tests/compile_fail/" + f.path().filename().string();
    CHECK_MESSAGE(summary.find(name) != std::string::npos, "docs/errors.md does not list ", name);
  }
}
