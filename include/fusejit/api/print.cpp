// JAX's array repr, built as NumPy's array2string lays values out (implementation unit only).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>

#include "fusejit/api/print.hpp"
#include "fusejit/api/device_put.hpp"

namespace fj {

namespace {

constexpr std::size_t kLineWidth = 75;  // NumPy's default linewidth
constexpr std::int64_t kThreshold = 1000, kEdgeItems = 3;

template <class T>
std::string to_chars_str(T v, std::chars_format fmt, int precision = -1) {
  char buf[128];
  auto r = precision < 0 ? std::to_chars(buf, buf + sizeof buf, v, fmt)
                         : std::to_chars(buf, buf + sizeof buf, v, fmt, precision);
  return std::string(buf, r.ptr);
}

// NumPy's FloatingFormat: shortest unique digits (at most 8 after the point), "1." for whole
// numbers, scientific for all elements when magnitudes span too widely, points aligned.
template <class T>
std::vector<std::string> format_floats(const std::vector<T>& vals) {
  double max_abs = 0, min_abs = INFINITY;
  for (T v : vals)
    if (std::isfinite(v) && v != 0) {
      max_abs = std::max(max_abs, static_cast<double>(std::fabs(v)));
      min_abs = std::min(min_abs, static_cast<double>(std::fabs(v)));
    }
  const bool sci = max_abs >= 1e8 || (max_abs > 0 && (min_abs < 1e-4 || max_abs / min_abs > 1e3));
  std::vector<std::string> ints(vals.size()), fracs(vals.size()), exps(vals.size());
  std::size_t left = 0, right = 0, exp_digits = 2;
  for (std::size_t k = 0; k < vals.size(); ++k) {
    const T v = vals[k];
    if (!std::isfinite(v)) continue;
    std::string s;
    if (sci) {
      s = to_chars_str(v, std::chars_format::scientific);
      const auto e = s.find('e');
      const int exp = std::stoi(s.substr(e + 1));
      std::string digits = std::to_string(std::abs(exp));
      exps[k] = std::string(exp < 0 ? "-" : "+") + digits;
      exp_digits = std::max(exp_digits, digits.size());
      s = s.substr(0, e);
    } else {
      s = to_chars_str(v, std::chars_format::fixed);
      const auto dot = s.find('.');
      if (dot != std::string::npos && s.size() - dot - 1 > 8) {
        s = to_chars_str(v, std::chars_format::fixed, 8);
        while (s.back() == '0') s.pop_back();
      }
    }
    const auto dot = std::min(s.find('.'), s.size());
    ints[k] = s.substr(0, dot);
    fracs[k] = dot < s.size() ? s.substr(dot + 1) : "";
    left = std::max(left, ints[k].size());
    right = std::max(right, fracs[k].size());
  }
  std::vector<std::string> out;
  for (std::size_t k = 0; k < vals.size(); ++k) {
    const T v = vals[k];
    if (!std::isfinite(v)) {
      std::string sp = std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
      const std::size_t width = left + 1 + right + (sci ? 2 + exp_digits : 0);
      out.push_back(std::string(width > sp.size() ? width - sp.size() : 0, ' ') + sp);
      continue;
    }
    std::string s = std::string(left - ints[k].size(), ' ') + ints[k] + ".";
    if (sci) {
      s += fracs[k] + std::string(right - fracs[k].size(), '0');
      const std::string e = exps[k].substr(1);
      s += "e" + exps[k].substr(0, 1) + std::string(exp_digits - e.size(), '0') + e;
    } else {
      s += fracs[k] + std::string(right - fracs[k].size(), ' ');
    }
    out.push_back(s);
  }
  return out;
}

template <class T>
std::vector<std::string> format_values(const std::vector<T>& vals) {
  if constexpr (std::is_floating_point_v<T>) {
    return format_floats(vals);
  } else {
    std::vector<std::string> out;
    for (T v : vals) {
      if constexpr (std::is_same_v<T, bool>)
        out.push_back(v ? "True" : "False");
      else
        out.push_back(std::to_string(v));
    }
    std::size_t w = 0;
    for (auto& s : out) w = std::max(w, s.size());
    for (auto& s : out) s = std::string(w - s.size(), ' ') + s;
    return out;
  }
}

// NumPy's _formatArray: nested brackets, wrapping the last axis at the line width.
struct Formatter {
  const Shape& shape;
  bool summarize;
  const std::vector<std::string>& words;  // formatted elements, in visiting order
  std::size_t next = 0;

  static void extend_line(std::string& s, std::string& line, const std::string& word,
                          std::size_t width, const std::string& indent) {
    if (line.size() + word.size() > width && line.size() > indent.size()) {
      s += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
      line = indent;
    }
    line += word;
  }

  std::string fmt(int axis, const std::string& indent, std::size_t width) {
    const std::int64_t n = shape[axis];
    const int axes_left = shape.rank() - axis;
    const bool summary = summarize && n > 2 * kEdgeItems;
    const std::int64_t lead = summary ? kEdgeItems : n, trail = summary ? kEdgeItems : 0;
    const std::string next_indent = indent + " ";
    std::string s;
    if (axes_left == 1) {
      const std::size_t elem_width = width - 1;
      std::string line = indent;
      for (std::int64_t i = 0; i < lead + trail; ++i) {
        extend_line(s, line, words[next++], elem_width, indent);
        if (i + 1 < lead + trail) line += ", ";
        if (summary && i + 1 == lead) {
          extend_line(s, line, "...", elem_width, indent);
          line += ", ";
        }
      }
      s += line;
    } else {
      const std::string sep = "," + std::string(static_cast<std::size_t>(axes_left - 1), '\n');
      for (std::int64_t i = 0; i < lead + trail; ++i) {
        s += (i ? next_indent.substr(1) : "") + fmt(axis + 1, next_indent, width - 1);
        if (i + 1 < lead + trail) s += sep;
        if (summary && i + 1 == lead) s += indent + " ..." + sep;
      }
      s = indent + s;
    }
    return "[" + s.substr(indent.size()) + "]";
  }
};

}  // namespace

std::string repr(const Array& a) {
  if (a.is_traced()) return a.tracer_str();
  if (a.is_empty()) return "Array(<empty>)";
  const std::string prefix = "Array(";
  const std::string dtype_str =
      "dtype=" + std::string(long_name(a.dtype())) + (a.weak_type() ? ", weak_type=True" : "");
  std::string body;
  if (a.size() == 0) {
    body = "[], shape=" + a.shape().str();
  } else {
    const bool summarize = a.size() > kThreshold;
    body = visit_dtype(a.dtype(), [&](auto x) {
      using T = decltype(x);
      const Array host = a.device().is_gpu() ? device_put(a, cpu()) : a;
      const T* p = host.data<T>();
      const Shape& s = a.shape();
      const auto strides = row_major_strides(s);
      std::vector<T> vals;  // the shown elements, in the order they print
      std::function<void(int, std::int64_t)> walk = [&](int axis, std::int64_t off) {
        if (axis == s.rank()) return vals.push_back(p[off]);
        const std::int64_t n = s[axis];
        for (std::int64_t i = 0; i < n; ++i) {
          if (summarize && n > 2 * kEdgeItems && i == kEdgeItems) i = n - kEdgeItems;
          walk(axis + 1, off + i * strides[static_cast<std::size_t>(axis)]);
        }
      };
      walk(0, 0);
      const auto words = format_values(vals);
      if (s.rank() == 0) return words[0];
      Formatter f{s, summarize, words};
      // JAX passes suffix=',' to array2string, which takes its length off the line width.
      return f.fmt(0, std::string(prefix.size() + 1, ' '), kLineWidth - 1);
    });
  }
  const std::size_t last_line =
      body.size() - (body.rfind('\n') == std::string::npos ? 0 : body.rfind('\n')) + 1;
  const std::string sep =
      last_line + dtype_str.size() + 2 > kLineWidth ? std::string(prefix.size(), ' ') : " ";
  return prefix + body + "," + sep + dtype_str + ")";
}

}  // namespace fj
