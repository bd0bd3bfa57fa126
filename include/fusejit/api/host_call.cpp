// Staging a callback equation or calling it at once, and the host callback that runs a C++
// function of arrays (implementation unit only).
#include "fusejit/api/host_call.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>

#include "fusejit/api/subtrace.hpp"

namespace fj::detail {

namespace {

/// A copy of v that owns its data, for a C++ function that may keep it.
Array owned_array(const backend::Value& v) {
  const std::size_t bytes = static_cast<std::size_t>(v.aval.shape.size()) * size_of(v.aval.dtype);
  runtime::BufferPtr buf = runtime::allocate(bytes);
  if (bytes) std::memcpy(buf->data, v.buf->data, bytes);
  return Array::from_buffer(std::move(buf), v.aval);
}

class FunctionCallback final : public backend::HostCallback {
 public:
  FunctionCallback(FlatFunction fn, std::string name, std::vector<ir::Aval> res, std::string repr)
      : fn_(std::move(fn)), name_(std::move(name)), repr_(std::move(repr)) {
    results = std::move(res);
  }
  std::string repr() const override { return repr_; }
  std::string name() const override { return name_; }

  void call(std::span<const backend::Value> in, std::span<backend::Value> out) const override {
    std::vector<Array> args;
    args.reserve(in.size());
    for (const backend::Value& v : in) args.push_back(owned_array(v));
    const std::vector<Array> r = fn_(args);
    if (r.size() != out.size())
      throw TypeError("the function returned " + std::to_string(r.size()) +
                      " arrays where result_shape_dtypes declares " + std::to_string(out.size()));
    for (std::size_t k = 0; k < r.size(); ++k) {
      const ir::Aval& want = out[k].aval;
      if (r[k].is_traced() || r[k].is_empty())
        throw TypeError("result " + std::to_string(k) + " is not a concrete array");
      if (!(r[k].shape() == want.shape) || r[k].dtype() != want.dtype)
        throw ShapeError("result " + std::to_string(k) + " is " + r[k].aval().str() +
                         " where result_shape_dtypes declares " + want.str());
      const std::size_t bytes = static_cast<std::size_t>(want.shape.size()) * size_of(want.dtype);
      if (bytes) std::memcpy(out[k].buf->data, r[k].buffer()->data, bytes);
    }
  }

 private:
  FlatFunction fn_;
  std::string name_;
  std::string repr_;
};

}  // namespace

std::shared_ptr<const backend::HostCallback> function_callback(FlatFunction fn, std::string name,
                                                               std::vector<ir::Aval> results,
                                                               std::string repr) {
  return std::make_shared<const FunctionCallback>(std::move(fn), std::move(name),
                                                  std::move(results), std::move(repr));
}

std::string type_name(const std::type_info& t) {
  int status = 0;
  char* s = abi::__cxa_demangle(t.name(), nullptr, nullptr, &status);
  std::string r = status == 0 && s ? s : t.name();
  std::free(s);
  return r;
}

std::string CallbackArgs::in_tree() const {
  PyTreeDef args{PyTreeDef::Kind::tuple, trees, {}, {}, -1};
  PyTreeDef kwargs{PyTreeDef::Kind::dict, {}, {}, {}, -1};
  return PyTreeDef{PyTreeDef::Kind::tuple, {args, kwargs}, {}, {}, -1}.str();
}

std::vector<Array> call_host(ir::Prim prim, std::shared_ptr<const backend::HostCallback> cb,
                             const std::vector<Array>& leaves, ir::Params params,
                             bool print_callback) {
  params.items.insert(params.items.begin(),
                      ir::Param{"callback", ir::CallbackPtr(cb), print_callback});
  if (TraceState* ts = current_trace()) {
    std::vector<ir::Atom> in;
    in.reserve(leaves.size());
    for (const Array& a : leaves) in.push_back(lower_arg(a));
    std::vector<Array> out;
    for (const ir::Atom& r : ts->builder.emit(prim, std::move(in), std::move(params)))
      out.push_back(atom_array(r));
    return out;
  }
  // Outside a trace the leaves are concrete: the same routine the backends run, at once.
  ir::Eqn e{prim, std::vector<ir::Atom>(leaves.size()), std::vector<ir::VarId>(cb->results.size()),
            std::move(params)};
  std::vector<backend::Value> in, out;
  for (const Array& a : leaves) in.push_back({a.buffer(), a.aval()});
  for (const ir::Aval& av : cb->results)
    out.push_back(
        {runtime::allocate(static_cast<std::size_t>(av.shape.size()) * size_of(av.dtype)), av});
  backend::run_callback(e, in.data(), out.data());
  std::vector<Array> r;
  for (auto& v : out) r.push_back(Array::from_buffer(std::move(v.buf), v.aval));
  return r;
}

}  // namespace fj::detail

namespace fj::detail {

ir::Params pure_callback_params(const std::vector<ir::Aval>& results) {
  std::string avals = "(";
  for (const ir::Aval& a : results)
    avals += "ShapedArray(" + std::string(long_name(a.dtype)) + "[" + a.shape.csv() + "]), ";
  if (results.size() > 1)
    avals.resize(avals.size() - 2);
  else if (results.size() == 1)
    avals.resize(avals.size() - 1);  // Python's (x,)
  avals += ")";
  ir::Params p;
  p.items.push_back({"result_avals", avals});
  p.items.push_back({"sharding", std::string("None")});
  // JAX's default (None) refuses vmap; fusejit runs the examples one by one, as "sequential".
  p.items.push_back({"vmap_method", std::string("sequential")});
  return p;
}

}  // namespace fj::detail
