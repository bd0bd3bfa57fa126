# Turns every ```cpp block of README.md and docs/**/*.md into one C++ test (ctest docs.snippets).
"""Extracts the documentation's C++ examples into one translation unit, so that they cannot rot.

Usage: doc_snippets.py --root REPO --output FILE.cpp

Every fenced block whose info string is exactly `cpp` is a snippet; blocks fenced as anything
else (`sh`, `cmake`, `text`, none) are prose. Each snippet becomes `namespace snippet_<file>_<n>`
(n counts the file's `cpp` blocks from 1):

- its `#include` lines are hoisted to the top of the file (once each);
- a block that defines `int main(` keeps it (a `main` inside a namespace is an ordinary
  function), and `return 0;` is added before its closing brace, since only the global `main`
  returns 0 by falling off its end;
- any other block becomes the body of `int main() { ... return 0; }` in its namespace.

`#line` directives point the compiler's diagnostics at the Markdown file and line. The generated
`main()` runs every snippet in document order (README.md, then docs/ in path order), prints
each one's place before running it, catches exceptions, and returns 1 if any snippet threw or
returned non-zero, naming each failure's file and line. Before the first snippet it splits the
host into 4 CPU devices (unless FUSEJIT_CPU_DEVICES is set), as the pmap examples ask with
`fj::set_cpu_device_count(4)`: the count is fixed at the first use of devices, so an earlier
snippet would otherwise fix it at 1.

Opt-out: a block fenced as ```cpp-no-run is shown as C++ but not compiled. Keep those rare: each
is counted in NO_RUN below, with its reason, and a page with more of them than listed there
stops the build.
"""
import argparse
import os
import re
import sys

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")
INCLUDE = re.compile(r"^\s*#\s*include\b")
MAIN = re.compile(r"\bint\s+main\s*\(")

# The ```cpp-no-run blocks each page may have, and why they cannot run.
NO_RUN = {
    # `#define FUSEJIT_IMPLEMENTATION` compiles the whole library into the translation unit,
    # which the test already links: every symbol would be defined twice.
    "docs/packaging-cmake-vcpkg.md": 1,
    # A traced `if`, shown for its compile error (tests/compile_fail/traced_if.cpp checks it).
    "docs/guide/errors.md": 1,
}


# What the generated file needs itself, and its main().
DRIVER_INCLUDES = ["#include <fusejit/fusejit.hpp>", "#include <csignal>", "#include <cstdio>",
                   "#include <cstdlib>", "#include <exception>", "#include <iostream>"]
DRIVER = r"""
#line 1 "doc_snippets_main.cpp"
namespace doc_snippets {
struct Snippet {
  int (*run)(int, char**);
  const char* where;
};
int call(int (*f)(), int, char**) { return f(); }
int call(int (*f)(int, char**), int argc, char** argv) { return f(argc, argv); }
// The snippet running now, for a crash: the signal handler names it.
const char* volatile current = nullptr;
extern "C" void on_signal(int sig) {
  const char* where = current;
  std::fprintf(stderr, "docs.snippets: FAILED %s: signal %d\n", where ? where : "?", sig);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
const Snippet snippets[] = {
@ENTRIES@
};
}  // namespace doc_snippets

int main(int argc, char** argv) {
  using namespace doc_snippets;
  std::signal(SIGSEGV, on_signal);
  std::signal(SIGABRT, on_signal);
  std::signal(SIGFPE, on_signal);
  // The pmap examples ask for 4 CPU devices; the count is fixed at the first use of devices.
  if (!std::getenv("FUSEJIT_CPU_DEVICES")) fj::set_cpu_device_count(4);
  int failures = 0;
  for (const Snippet& s : snippets) {
    current = s.where;
    std::cout << "\n--- " << s.where << std::endl;
    try {
      const int rc = s.run(argc, argv);
      std::cout << std::flush;
      if (rc != 0) {
        std::cerr << "docs.snippets: FAILED " << s.where << ": returned " << rc << "\n";
        ++failures;
      }
    } catch (const std::exception& e) {
      std::cout << std::flush;
      std::cerr << "docs.snippets: FAILED " << s.where << ": exception: " << e.what() << "\n";
      ++failures;
    } catch (...) {
      std::cout << std::flush;
      std::cerr << "docs.snippets: FAILED " << s.where << ": unknown exception\n";
      ++failures;
    }
  }
  std::cout << "\ndocs.snippets: " << @COUNT@ - failures
            << " of @COUNT@ snippets passed (@SKIPPED@ marked cpp-no-run)\n";
  return failures == 0 ? 0 : 1;
}
"""


def markdown_files(root):
    """README.md, then every docs/**/*.md, as paths relative to root, in a fixed order."""
    files = []
    if os.path.isfile(os.path.join(root, "README.md")):
        files.append("README.md")
    docs = []
    for folder, subfolders, names in os.walk(os.path.join(root, "docs")):
        subfolders.sort()
        for name in names:
            if name.endswith(".md"):
                docs.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return files + sorted(docs)


def blocks(path, text):
    """(info, first body line number (1-based), body lines) of each fenced block of `text`."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m.group("indent")), m.group("fence"), m.group("info")
        start = i + 1
        body = []
        i += 1
        while i < len(lines):
            close = FENCE.match(lines[i])
            if (close and close.group("fence")[0] == fence[0]
                    and len(close.group("fence")) >= len(fence) and not close.group("info")):
                break
            line = lines[i]
            # A fence indented inside a list item: its lines lose that indentation.
            strip = len(line) - len(line.lstrip(" \t"))
            body.append(line[min(indent, strip):])
            i += 1
        else:
            sys.exit(f"{path}:{start}: the fenced block opened here is never closed")
        i += 1
        yield info, start + 1, body


def main_close_line(body):
    """Index of the line holding the closing brace of the `int main(` that `body` defines.

    A small lexer skips comments, string and character literals (raw strings included)."""
    text = "\n".join(body)
    m = MAIN.search(text)
    pos, depth, opened = m.end(), 0, False
    n = len(text)
    while pos < n:
        c = text[pos]
        if text.startswith("//", pos):
            pos = text.find("\n", pos)
            if pos < 0:
                break
            continue
        if text.startswith("/*", pos):
            pos = text.find("*/", pos + 2) + 2
            continue
        raw = re.match(r'R"([^(\s]*)\(', text[pos:pos + 20])
        if raw and (pos == 0 or not (text[pos - 1].isalnum() or text[pos - 1] == "_")):
            pos = text.find(")" + raw.group(1) + '"', pos) + len(raw.group(1)) + 2
            continue
        if c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and pos > 0 and text[pos - 1].isalnum():
                pos += 1
                continue
            pos += 1
            while pos < n and text[pos] != c:
                pos += 2 if text[pos] == "\\" else 1
            pos += 1
            continue
        if c == "{":
            depth += 1
            opened = True
        elif c == "}":
            depth -= 1
            if opened and depth == 0:
                return text.count("\n", 0, pos), pos - (text.rfind("\n", 0, pos) + 1)
        elif c == ";" and not opened:
            return None  # a declaration, not a definition
        pos += 1
    return None


def identifier(path):
    return re.sub(r"[^0-9A-Za-z]", "_", path)


def generate(root):
    includes = []
    units = []  # (namespace, file, line)
    parts = []
    skipped = 0
    for path in markdown_files(root):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        n = no_run = 0
        for info, line, body in blocks(path, text):
            if info == "cpp-no-run":
                skipped += 1
                no_run += 1
                if no_run > NO_RUN.get(path, 0):
                    sys.exit(f"{path}:{line - 1}: a ```cpp-no-run block that tests/doc_snippets.py "
                             "does not list in NO_RUN: make it run, or list it there with why")
                continue
            if info != "cpp":
                continue
            n += 1
            ns = f"snippet_{identifier(path)}_{n}"
            lines = []
            for b in body:
                if INCLUDE.match(b):
                    inc = b.strip()
                    if inc not in includes:
                        includes.append(inc)
                    lines.append("")  # keeps the line numbers of the #line directive
                else:
                    lines.append(b)
            directive = f'#line {line} "{path}"'
            if MAIN.search("\n".join(lines)):
                close = main_close_line(lines)
                if close is None:
                    sys.exit(f"{path}:{line}: this script finds no body for the snippet's "
                             "`int main(`")
                row, col = close
                lines[row] = lines[row][:col] + "return 0; " + lines[row][col:]
                parts.append(f"namespace {ns} {{\n{directive}\n" + "\n".join(lines) +
                             f"\n}}  // namespace {ns}\n")
            else:
                parts.append(f"namespace {ns} {{\nint main() {{\n{directive}\n" +
                             "\n".join(lines) + f"\nreturn 0;\n}}\n}}  // namespace {ns}\n")
            units.append((ns, path, line))
    header = [
        "// Generated by tests/doc_snippets.py from README.md and docs/**/*.md: do not edit.",
        "// Every ```cpp block of the documentation, each in a namespace of its own; main() runs",
        "// them in order (ctest docs.snippets).",
    ]
    for inc in DRIVER_INCLUDES:
        if inc not in includes:
            includes.append(inc)
    entries = "\n".join(
        f'    {{[](int c, char** v) {{ return call(&{ns}::main, c, v); }}, "{path}:{line}"}},'
        for ns, path, line in units)
    driver = (DRIVER.replace("@ENTRIES@", entries).replace("@COUNT@", str(len(units)))
              .replace("@SKIPPED@", str(skipped)))
    return "\n".join(header + includes + [""] + parts) + driver


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, help="the repository root")
    parser.add_argument("--output", required=True, help="the C++ file to write")
    args = parser.parse_args()
    text = generate(args.root)
    # Only a changed file is rewritten, so an edit to prose alone recompiles nothing.
    try:
        with open(args.output, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
