// dot_general's dimension numbers: reading them from params, writing them as JAX prints them,
// and the output shape they imply (batch dims, then lhs free dims, then rhs free dims).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

struct DotDims {
  std::vector<std::int64_t> lhs_contract, rhs_contract, lhs_batch, rhs_batch;

  static DotDims from(const Params& p) {
    return {p.get<std::vector<std::int64_t>>("lhs_contracting_dimensions"),
            p.get<std::vector<std::int64_t>>("rhs_contracting_dimensions"),
            p.get<std::vector<std::int64_t>>("lhs_batch_dimensions"),
            p.get<std::vector<std::int64_t>>("rhs_batch_dimensions")};
  }
  /// `(([1], [0]), ([], []))`, as JAX prints dimension_numbers.
  std::string str() const {
    auto list = [](const std::vector<std::int64_t>& v) {
      std::string s = "[";
      for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
      return s + "]";
    };
    return "((" + list(lhs_contract) + ", " + list(rhs_contract) + "), (" + list(lhs_batch) + ", " +
           list(rhs_batch) + "))";
  }
  /// The printed dimension_numbers plus the machine-readable lists (hidden when printing).
  void add_to(Params& p) const {
    p.items.push_back({"dimension_numbers", str(), true});
    p.items.push_back({"lhs_contracting_dimensions", lhs_contract, false});
    p.items.push_back({"rhs_contracting_dimensions", rhs_contract, false});
    p.items.push_back({"lhs_batch_dimensions", lhs_batch, false});
    p.items.push_back({"rhs_batch_dimensions", rhs_batch, false});
  }
  /// The dims of an operand of rank `rank` that are neither batch nor contracting, in order.
  static std::vector<std::int64_t> free_dims(int rank, const std::vector<std::int64_t>& batch,
                                             const std::vector<std::int64_t>& contract) {
    std::vector<std::int64_t> f;
    for (std::int64_t d = 0; d < rank; ++d)
      if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
          std::find(contract.begin(), contract.end(), d) == contract.end())
        f.push_back(d);
    return f;
  }
};

}  // namespace fj::ir
