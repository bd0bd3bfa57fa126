// fj::debug::print's formatting and handler, and its debug_print equation (implementation unit
// only).
#include "fusejit/api/debug.hpp"

#include <iostream>
#include <mutex>

#include "fusejit/api/print.hpp"

namespace fj {

namespace {

std::recursive_mutex& print_mutex() {
  static std::recursive_mutex mu;
  return mu;
}
debug::PrintHandler& print_handler() {
  static debug::PrintHandler handler;
  return handler;
}

void emit_line(std::string_view line) {
  std::lock_guard lock(print_mutex());  // recursive: a handler may print eagerly itself
  if (print_handler())
    print_handler()(line);
  else
    std::cout << line << std::endl;
}

/// A parsed format: literal text before each placeholder, the argument it names, the tail.
struct Format {
  std::vector<std::string> text;  // one more than `arg`
  std::vector<std::size_t> arg;
};

Format parse_format(std::string_view fmt, std::size_t nargs) {
  auto bad = [&](const std::string& why) {
    return ValueError("fj::debug::print: format \"" + std::string(fmt) + "\" " + why);
  };
  Format f;
  f.text.emplace_back();
  std::size_t next_auto = 0;
  bool manual = false, automatic = false;
  for (std::size_t i = 0; i < fmt.size(); ++i) {
    const char c = fmt[i];
    if (c == '}') {
      if (i + 1 < fmt.size() && fmt[i + 1] == '}') {
        f.text.back() += '}', ++i;
        continue;
      }
      throw bad("has a single '}' at offset " + std::to_string(i) + " (write '}}' for a brace)");
    }
    if (c != '{') {
      f.text.back() += c;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      f.text.back() += '{', ++i;
      continue;
    }
    const std::size_t close = fmt.find('}', i);
    if (close == std::string_view::npos) throw bad("has an unclosed '{'");
    const std::string_view field = fmt.substr(i + 1, close - i - 1);
    std::size_t index = 0;
    if (field.empty()) {
      automatic = true;
      index = next_auto++;
    } else {
      manual = true;
      for (char d : field)
        if (d < '0' || d > '9')
          throw bad("has the field {" + std::string(field) +
                    "}; fusejit takes {} or an argument number {0}, {1}, ... (no names or format "
                    "specs)");
      index = static_cast<std::size_t>(std::stoul(std::string(field)));
    }
    if (manual && automatic)
      throw bad("mixes automatic {} and numbered {N} fields, as Python's str.format forbids");
    if (index >= nargs)
      throw bad("refers to argument " + std::to_string(index) + " but " + std::to_string(nargs) +
                (nargs == 1 ? " argument was" : " arguments were") + " given");
    f.arg.push_back(index);
    f.text.emplace_back();
    i = close;
  }
  return f;
}

/// A pytree of arrays as Python's str of the same tuple/list/dict shows it, arrays as their
/// repr (which is how jax.debug.print shows arrays inside containers).
std::string format_tree(const PyTreeDef& d, const std::vector<Array>& leaves, std::size_t& pos) {
  using K = PyTreeDef::Kind;
  auto children = [&](const char* sep_open, const char* close, bool with_keys, bool eq) {
    std::string s = sep_open;
    for (std::size_t k = 0; k < d.children.size(); ++k) {
      if (k) s += ", ";
      if (with_keys) s += eq ? d.keys[k] + "=" : "'" + d.keys[k] + "': ";
      s += format_tree(d.children[k], leaves, pos);
    }
    if (d.kind == K::tuple && d.children.size() == 1) s += ",";
    return s + close;
  };
  switch (d.kind) {
    case K::leaf:
      return repr(leaves.at(pos++));
    case K::none:
      return "None";
    case K::tuple:
      return children("(", ")", false, false);
    case K::list:
      return children("[", "]", false, false);
    case K::dict:
      return children("{", "}", true, false);
    case K::custom:
      return children((d.name + "(").c_str(), ")", true, true);
  }
  return {};
}

class PrintCallback final : public backend::HostCallback {
 public:
  PrintCallback(Format f, std::vector<PyTreeDef> trees)
      : f_(std::move(f)), trees_(std::move(trees)) {}
  std::string repr() const override { return "debug_print"; }
  std::string name() const override { return "print handler"; }

  void call(std::span<const backend::Value> in, std::span<backend::Value>) const override {
    // Views of the operands, for the duration of the call: nothing is copied.
    std::vector<Array> leaves;
    leaves.reserve(in.size());
    for (const backend::Value& v : in) leaves.push_back(Array::from_buffer(v.buf, v.aval));
    std::vector<std::string> args;
    std::size_t pos = 0;
    for (const PyTreeDef& t : trees_) args.push_back(format_tree(t, leaves, pos));
    std::string line = f_.text[0];
    for (std::size_t k = 0; k < f_.arg.size(); ++k) line += args[f_.arg[k]] + f_.text[k + 1];
    emit_line(line);
  }

 private:
  Format f_;
  std::vector<PyTreeDef> trees_;
};

// jax.debug.print's np_printoptions param: NumPy's defaults, which JAX records with each print.
constexpr const char* kNumpyPrintOptions =
    "(('edgeitems', 3), ('threshold', 1000), ('floatmode', 'maxprec'), ('precision', 8), "
    "('suppress', False), ('linewidth', 75), ('nanstr', 'nan'), ('infstr', 'inf'), ('sign', '-'), "
    "('formatter', None), ('legacy', False), ('override_repr', None))";

}  // namespace

debug::PrintHandler debug::set_print_handler(PrintHandler handler) {
  std::lock_guard lock(print_mutex());
  return std::exchange(print_handler(), std::move(handler));
}

void detail::debug_print(std::string_view fmt, CallbackArgs args) {
  Format f = parse_format(fmt, args.trees.size());
  const bool placeholders = !f.arg.empty();
  ir::Params p;
  // JAX 0.10.2's params, in its order (the printer sorts them by name anyway).
  p.items.push_back({"fmt", std::string(fmt)});
  p.items.push_back({"has_placeholders", placeholders});
  p.items.push_back({"in_tree", args.in_tree()});
  p.items.push_back({"logging_record", std::string("None")});
  p.items.push_back({"np_printoptions", std::string(kNumpyPrintOptions)});
  // Prints always run in program order; the param says what JAX records for a plain print.
  p.items.push_back({"ordered", false});
  p.items.push_back({"partitioned", false});
  p.items.push_back({"static_args", std::string("()")});
  auto cb = std::make_shared<const PrintCallback>(std::move(f), args.trees);
  (void)call_host(ir::Prim::debug_print, std::move(cb), args.leaves, std::move(p),
                  /*print_callback=*/false);
}

}  // namespace fj
