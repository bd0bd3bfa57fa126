// A Wadler/Lindig document layout engine that lays text out as JAX's pretty printer does.
#include <memory>
#include <string>
#include <vector>

namespace fj::ir::pp {

// Groups are laid out flat or broken as JAX's printer decides (see fits()).
struct Node;
using Doc = std::shared_ptr<const Node>;
struct Node {
  enum Kind { text, concat, brk, nest, group } kind;
  std::string s;  // text, or a break's flat text
  std::vector<Doc> kids;
  int n = 0;
};

inline Doc text(std::string s) {
  return std::make_shared<Node>(Node{Node::text, std::move(s), {}, 0});
}
inline Doc concat(std::vector<Doc> k) {
  return std::make_shared<Node>(Node{Node::concat, {}, std::move(k), 0});
}
inline Doc brk(std::string s = " ") {
  return std::make_shared<Node>(Node{Node::brk, std::move(s), {}, 0});
}
inline Doc nest(int n, Doc d) {
  return std::make_shared<Node>(Node{Node::nest, {}, {std::move(d)}, n});
}
inline Doc group(Doc d) { return std::make_shared<Node>(Node{Node::group, {}, {std::move(d)}, 0}); }
inline Doc nil() { return concat({}); }
inline Doc join(const Doc& sep, const std::vector<Doc>& docs) {
  std::vector<Doc> xs;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    if (i) xs.push_back(sep);
    xs.push_back(docs[i]);
  }
  return xs.size() == 1 ? xs[0] : concat(std::move(xs));
}

struct Item {
  int indent;
  bool flat;
  const Node* node;
};

// A group is laid out flat when its own flat text fits in the rest of the line; what follows
// the group is not measured. This is JAX's rule (its printer notes that Lindig's measuring of
// the remainder is not what it wants): an equation's params group that ends at column 80 stays
// flat although " a" follows it, and "sort[...] a c" runs to column 81 because the break
// before "c" is a group of its own that fits. A jaxpr's closing " }" is inside its group
// (see Printer::skeleton), which is why a jaxpr of 81 columns breaks.
inline bool fits(const Doc& d, long budget) {
  std::vector<const Node*> stack{d.get()};
  long w = 0;
  while (!stack.empty() && w <= budget) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n->kind == Node::text || n->kind == Node::brk) w += static_cast<long>(n->s.size());
    for (auto it = n->kids.rbegin(); it != n->kids.rend(); ++it) stack.push_back(it->get());
  }
  return w <= budget;
}

/// Where one node of a document lands in format()'s text: offsets [begin, end).
struct Span {
  const Node* node = nullptr;
  bool found = false;
  std::size_t begin = 0, end = 0;
};

/// The document laid out in `width` columns; `span`, if given, is filled in for its node.
inline std::string format(const Doc& doc, long width = 80, Span* span = nullptr) {
  // Marks where the spanned node's text ends. An empty text: fits() reads through it, so the
  // layout is the one without a span.
  static const Node span_end{Node::text, {}, {}, 0};
  std::vector<Item> agenda{{0, false, doc.get()}};
  std::string out;
  long col = 0;
  while (!agenda.empty()) {
    Item it = agenda.back();
    agenda.pop_back();
    const Node* n = it.node;
    if (span && n == span->node) {
      span->found = true, span->begin = out.size();
      agenda.push_back({it.indent, it.flat, &span_end});
    } else if (span && n == &span_end) {
      span->end = out.size();
      continue;
    }
    switch (n->kind) {
      case Node::text:
        out += n->s, col += static_cast<long>(n->s.size());
        break;
      case Node::concat:
        for (auto k = n->kids.rbegin(); k != n->kids.rend(); ++k)
          agenda.push_back({it.indent, it.flat, k->get()});
        break;
      case Node::brk:
        if (it.flat) {
          out += n->s, col += static_cast<long>(n->s.size());
        } else {
          out += "\n" + std::string(static_cast<std::size_t>(it.indent), ' ');
          col = it.indent;
        }
        break;
      case Node::nest:
        agenda.push_back({it.indent + n->n, it.flat, n->kids[0].get()});
        break;
      case Node::group:
        agenda.push_back({it.indent, it.flat || fits(n->kids[0], width - col), n->kids[0].get()});
        break;
    }
  }
  return out;
}

}  // namespace fj::ir::pp
