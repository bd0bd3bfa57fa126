// fj::Array, the one array type users hold: concrete (a buffer) outside a trace, symbolic inside.
#pragma once
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "fusejit/api/device.hpp"
#include "fusejit/core/dtype.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/core/shape.hpp"
#include "fusejit/expr/axes.hpp"
#include "fusejit/expr/range.hpp"
#include "fusejit/expr/trace_state.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/runtime/buffer.hpp"

namespace fj {

class Array;

namespace detail {
struct ExprBase {};
template <class T>
concept Expr = std::is_base_of_v<ExprBase, std::remove_cvref_t<T>>;
template <class E>
Array materialize(const E& e);
template <class>
inline constexpr bool always_false = false;
/// A host copy of a GPU buffer's `bytes` (api/device.cpp), for to_vector, item and printing.
runtime::BufferPtr host_copy(const runtime::Buffer& b, std::size_t bytes);
/// Waits for the work queued on a GPU buffer's stream (api/device.cpp).
void wait_for_device(const runtime::Buffer& b);
[[noreturn]] void throw_data_on_gpu(const char* what, const runtime::Buffer& b);
template <class Arrays>
class AtIndex;
/// One static index of x(...): an integer (selects one element, drops the axis), an fj::range,
/// fj::newaxis (or fj::none: a new axis of size 1) or fj::ellipsis.
template <class T>
concept IndexArg =
    (std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, Range> ||
    std::is_same_v<T, std::nullopt_t> || std::is_same_v<T, Ellipsis>;
/// One index of x(...) or x.at(...) that may also be an integer array (an fj::Array, a
/// Tracer or an expression).
template <class T>
concept AtArg = IndexArg<T> || std::is_same_v<T, Array> || Expr<T>;
/// NumPy-style methods shared by fj::Array and every expression (so `fj::matmul(a, b).T()`
/// works); each gives an expression, as the free functions do. Defined in array_methods.hpp,
/// after the expression nodes.
template <class Self>
struct ArrayMethods {
  /// x.T: the axes reversed.
  auto T() const;
  /// x[start:stop:step] along every axis (fj::slice).
  auto slice(std::initializer_list<std::int64_t> start, std::initializer_list<std::int64_t> stop,
             std::initializer_list<std::int64_t> step = {}) const;
  /// The same elements in another shape; one size may be -1 (fj::reshape).
  auto reshape(std::initializer_list<std::int64_t> sizes) const;
  /// Conversion to another dtype (fj::astype).
  auto astype(DType to) const;
  /// Every axis reversed, or the listed ones (fj::flip).
  auto flip() const;
  auto flip(std::initializer_list<int> axes) const;
  /// Every axis of size 1 removed, or the listed ones (fj::squeeze).
  auto squeeze() const;
  auto squeeze(std::initializer_list<int> axes) const;
  /// jax.Array's reductions: x.sum() over every axis, x.sum({0, 1}, keepdims) over the listed
  /// ones, x.sum({.axis = 1, .keepdims = true}) with keyword-style options (fj::sum and its
  /// kin); x.mean(), x.prod(), x.max(), x.min(), x.all(), x.any().
  auto sum() const;
  auto sum(std::initializer_list<int> axes, bool keepdims = false) const;
  auto sum(const ReduceOptions& o) const;
  auto prod() const;
  auto prod(std::initializer_list<int> axes, bool keepdims = false) const;
  auto prod(const ReduceOptions& o) const;
  auto max() const;
  auto max(std::initializer_list<int> axes, bool keepdims = false) const;
  auto max(const ReduceOptions& o) const;
  auto min() const;
  auto min(std::initializer_list<int> axes, bool keepdims = false) const;
  auto min(const ReduceOptions& o) const;
  auto mean() const;
  auto mean(std::initializer_list<int> axes, bool keepdims = false) const;
  auto mean(const ReduceOptions& o) const;
  auto all() const;
  auto all(std::initializer_list<int> axes, bool keepdims = false) const;
  auto all(const ReduceOptions& o) const;
  auto any() const;
  auto any(std::initializer_list<int> axes, bool keepdims = false) const;
  auto any(const ReduceOptions& o) const;
  /// The flat index of the largest (smallest) element, or the indices along `axis`
  /// (fj::argmax, fj::argmin).
  auto argmax() const;
  auto argmax(int axis, bool keepdims = false) const;
  auto argmin() const;
  auto argmin(int axis, bool keepdims = false) const;
  /// Standard deviation and variance (fj::std, fj::var; defined in expr/nn.hpp): every axis
  /// unless `axis` is given, with `ddof` degrees of freedom subtracted.
  auto std(Axes axis = std::nullopt, std::int64_t ddof = 0, bool keepdims = false) const;
  auto var(Axes axis = std::nullopt, std::int64_t ddof = 0, bool keepdims = false) const;
  /// x.std / x.var with keyword-style options: x.var({.axis = 0, .ddof = 1}).
  auto std(const VarOptions& o) const;
  auto var(const VarOptions& o) const;
  /// Cumulative sum and product over the flattened array, or along `axis` (fj::cumsum, cumprod).
  auto cumsum(std::optional<int> axis = std::nullopt) const;
  auto cumprod(std::optional<int> axis = std::nullopt) const;
  /// Sorted values and the indices that sort, along `axis` (last by default; fj::sort, argsort).
  auto sort(std::optional<int> axis = -1) const;
  auto argsort(std::optional<int> axis = -1) const;
  /// jax.Array.diagonal / .trace: the diagonal `offset` over axis1 and axis2, or its sum
  /// (fj::diagonal, fj::trace; defined in expr/diagonal.hpp).
  auto diagonal(std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) const;
  auto trace(std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) const;
  /// x.sort / x.argsort with keyword-style options: x.sort({.descending = true}).
  auto sort(const SortOptions& o) const;
  auto argsort(const SortOptions& o) const;
  /// Elementwise min(max(x, lo), hi) (fj::clip).
  template <class L, class H>
  auto clip(const L& lo, const H& hi) const;
  /// Rounded to the nearest integer, halves to even (fj::round).
  auto round() const;
  /// The elements as one axis, row-major (jax.Array.ravel and .flatten).
  auto ravel() const;
  auto flatten() const;
  /// Axes permuted: the result's axis i is x's perm[i] (fj::transpose; x.T() reverses them).
  auto transpose(std::initializer_list<std::int64_t> perm) const;
  /// jnp.dot(x, y) (fj::dot).
  template <class Y>
  auto dot(const Y& y) const;
  /// NumPy's x[1:4, 2]: x(fj::range(1, 4), 2). An integer selects one element and drops its
  /// axis (negative counts from the end; out of range raises fj::ShapeError); fj::range(...)
  /// slices an axis; fj::newaxis (fj::none) inserts an axis of size 1 and fj::ellipsis takes
  /// as many axes whole as the other indices leave (x[..., None]: x(fj::ellipsis,
  /// fj::newaxis)); axes left over are taken whole.
  template <class... I>
  requires(IndexArg<I>&&...) auto operator()(const I&... index) const;
  /// NumPy's integer-array indexing x[idx], x[i, j] or x[idx, 1:3] (expr/indexing.hpp):
  /// integer arrays index mixed with integers and fj::range; negative entries count from the
  /// end; arrays not adjacent move their axes to the front, as NumPy does.
  template <class... I>
  requires(AtArg<I>&&...) && (!(IndexArg<I> && ...)) auto operator()(const I&... index) const;
  /// JAX's x.at[idx]: any mix of static integers, fj::range and integer arrays; .get() reads,
  /// .set(v) / .add(v) / .mul(v) / .min(v) / .max(v) return x updated there
  /// (expr/indexing.hpp).
  template <class... I>
  requires(AtArg<I>&&...) auto at(const I&... index) const;

 protected:
  const Self& self() const { return static_cast<const Self&>(*this); }
};
/// The base of every expression node: marks it an expression and gives it the array methods,
/// and fj::Array's accessors, which evaluate the expression first (or record it, when tracing):
/// `fj::matmul(a, b)(0, 0).item<float>()` as `fj::Array(fj::matmul(a, b)(0, 0)).item<float>()`.
/// Defined in array_methods.hpp.
template <class Self>
struct ExprNode : ExprBase, ArrayMethods<Self> {
  /// The single element, converted to T (fj::Array::item).
  template <class T>
  T item() const;
  /// The elements in row-major order (fj::Array::to_vector).
  template <class T>
  std::vector<T> to_vector() const;
  /// The result's shape, dtype and rank.
  Shape shape() const;
  DType dtype() const;
  int ndim() const;
};
}  // namespace detail

// Converting an expression to bool cannot be traced; making it a compile error tells the user
// where JAX would raise TracerBoolConversionError at run time.
#define FUSEJIT_NO_BOOL_CONVERSION(dep)                                                   \
  template <class D = void>                                                               \
  explicit operator bool() const {                                                        \
    static_assert(                                                                        \
        detail::always_false<D> && sizeof(dep*),                                          \
        "TracerBoolConversionError: a traced fusejit expression has no value while "      \
        "tracing, so it cannot decide a C++ `if` or loop. Use fj::where(cond, a, b) for " \
        "values, fj::lax::cond / fj::lax::while_loop for control flow, or mark the "      \
        "argument static with fj::static_argnums.");                                      \
    return false;                                                                         \
  }

/// jax.Array: an immutable n-dimensional array, concrete (a buffer on a device) or, inside a
/// trace, a tracer standing for a value of the traced function. Copies share the buffer.
/// Arithmetic and the fj:: functions on arrays give expressions, evaluated as one fused kernel
/// when assigned to an fj::Array. Example: `fj::Array y = fj::exp(x) * 2.f;`.
class Array : public detail::ArrayMethods<Array> {
 public:
  /// An empty array: holds nothing, neither data nor a trace variable.
  Array() = default;

  /// Evaluates an expression as one fused computation, or records it when tracing.
  template <detail::Expr E>
  Array(const E& e) : Array(detail::materialize(e)) {}
  /// Assigns the expression's value (evaluated before *this changes, so `x = x + 1.f` works).
  template <detail::Expr E>
  Array& operator=(const E& e) {
    Array r = detail::materialize(e);  // evaluate first: e may read *this
    return *this = std::move(r);
  }

  /// x.shape: the dimensions (a Shape; its rank() is x.ndim, its size() the element count).
  const Shape& shape() const { return aval_.shape; }
  /// x.dtype.
  DType dtype() const { return aval_.dtype; }
  /// x.ndim: the number of axes.
  int ndim() const { return aval_.shape.rank(); }
  /// x.size: the number of elements.
  std::int64_t size() const { return aval_.shape.size(); }
  /// Whether the dtype is weak (from a C++ scalar), as JAX's weak_type.
  bool weak_type() const { return aval_.weak; }
  /// Shape, dtype and weak type together: JAX's ShapedArray.
  const ir::Aval& aval() const { return aval_; }

  /// True for a default-constructed array, which holds neither data nor a tracer.
  bool is_empty() const { return !buf_ && !trace_; }
  /// True inside a trace, where the array is a tracer without a value.
  bool is_traced() const { return static_cast<bool>(trace_); }

  /// Pointer to the elements; T must be the array's element type.
  template <Element T>
  const T* data() const {
    require_concrete("data");
    require_dtype<T>("data");
    if (buf_->device >= 0) detail::throw_data_on_gpu("data", *buf_);
    return static_cast<const T*>(buf_->data);
  }
  /// The elements in row-major order; an array on a GPU is copied back first.
  template <Element T>
  std::vector<T> to_vector() const {
    require_concrete("to_vector");
    if (on_gpu()) {
      require_dtype<T>("to_vector");
      const auto host = detail::host_copy(*buf_, static_cast<std::size_t>(size()) * sizeof(T));
      const T* p = static_cast<const T*>(host->data);
      return std::vector<T>(p, p + size());
    }
    const T* p = data<T>();
    return std::vector<T>(p, p + size());
  }
  /// Where the array's data lives: fj::cpu() or fj::gpu(i) (JAX's x.device).
  Device device() const {
    require_concrete("device");
    return Device::of_buffer_device(buf_->device);
  }
  /// The single element of a rank-0 or size-1 array, converted to T.
  template <class T>
  T item() const {
    require_concrete("item");
    if (size() != 1)
      throw ShapeError("fj::Array::item: needs an array of size 1, got shape " + shape().str());
    const runtime::BufferPtr host = on_gpu() ? detail::host_copy(*buf_, size_of(dtype())) : buf_;
    return visit_dtype(dtype(), [&](auto x) {
      return static_cast<T>(*static_cast<const decltype(x)*>(host->data));
    });
  }
  // `if (x)` on an array is the same traced-bool mistake as `if (x > 0)`.
  FUSEJIT_NO_BOOL_CONVERSION(Array)

  /// Waits for the work that computes this array: a GPU array's stream is synchronized; the CPU
  /// backends run synchronously, so on the CPU this returns at once.
  void block_until_ready() const {
    require_concrete("block_until_ready");
    if (on_gpu()) detail::wait_for_device(*buf_);
  }

  /// Internal: an array over an existing buffer (for backends and the front end).
  static Array from_buffer(runtime::BufferPtr b, ir::Aval a) {
    Array r;
    r.buf_ = std::move(b);
    r.aval_ = std::move(a);
    return r;
  }
  /// Internal: the tracer of variable `v` in trace `t`.
  static Array from_trace(std::shared_ptr<detail::TraceState> t, ir::VarId v) {
    Array r;
    r.aval_ = t->builder.graph.aval(v);
    r.trace_ = std::move(t);
    r.var_ = v;
    return r;
  }
  /// Internal: the buffer (null for a tracer).
  const runtime::BufferPtr& buffer() const { return buf_; }
  /// Internal: the trace a tracer belongs to (null for a concrete array).
  detail::TraceState* trace_state() const { return trace_.get(); }
  /// Internal: a tracer's variable in its trace's graph.
  ir::VarId var_id() const { return var_; }
  /// The aval as `JitTracer(float32[3])` prints, for errors and printing of tracers.
  std::string tracer_str() const {
    return "JitTracer(" + std::string(aval_.weak ? "~" : "") + std::string(long_name(dtype())) +
           "[" + shape().csv() + "])";
  }

 private:
  void require_concrete(const char* what) const {
    if (trace_)
      throw ConcretizationError(std::string("fj::Array::") + what + ": the array is a tracer " +
                                tracer_str() + " inside the trace of '" + trace_->fn_name +
                                "'; its value is not known until the function runs. Use fj::where, "
                                "fj::lax::cond or fj::static_argnums instead.");
    if (!buf_) throw TypeError(std::string("fj::Array::") + what + ": the array is empty");
  }

  bool on_gpu() const { return buf_->device >= 0; }
  template <Element T>
  void require_dtype(const char* what) const {
    if (dtype_of_v<T> != dtype())
      throw DTypeError(std::string("fj::Array::") + what + "<" +
                       std::string(short_name(dtype_of_v<T>)) + ">: the array's dtype is " +
                       std::string(long_name(dtype())) + ", shape " + shape().str());
  }

  runtime::BufferPtr buf_;
  std::shared_ptr<detail::TraceState> trace_;
  ir::Aval aval_;
  ir::VarId var_ = -1;
};

/// The name used where code is only ever traced; it is the same type as Array.
using Tracer = Array;

}  // namespace fj
