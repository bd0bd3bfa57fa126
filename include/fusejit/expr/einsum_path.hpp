// The order of jnp.einsum's pairwise contractions: opt_einsum's path search, as optimize="auto".
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace fj::detail {

/// The contraction path jnp.einsum takes by default (opt_einsum 3.4's `contract_path` with
/// optimize="auto"): for up to four operands "optimal", for five and six "branch-all", for seven
/// and eight "branch-2", up to fourteen "branch-1", then "greedy". `inputs` are each operand's
/// letters, `output` the result's, `size` each letter's extent (a broadcast 1 gives way). Each
/// step is a pair of positions (smaller first) in the list of operands still to contract, whose
/// result is appended to the end of the list (opt_einsum's linear path).
std::vector<std::pair<int, int>> einsum_contraction_path(const std::vector<std::string>& inputs,
                                                         const std::string& output,
                                                         const std::map<char, std::int64_t>& size);

}  // namespace fj::detail
