// The backend registry: one line per backend, and the choice of default (impl. unit only).
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>

#include "fusejit/backend/backend.hpp"
#include "fusejit/backend/reference/reference_backend.hpp"
#ifdef FUSEJIT_WITH_LLVM
#include "fusejit/backend/llvm/llvm_backend.hpp"
#endif

namespace fj::backend {

namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, std::unique_ptr<Backend>, std::less<>> backends;
  Backend* current = nullptr;

  Registry() {
    add(make_reference_backend());  // one line per backend
#ifdef FUSEJIT_WITH_LLVM
    add(make_llvm_backend());
    current = backends.at("llvm").get();  // the compiling CPU backend is the default
#else
    current = backends.at("reference").get();
#endif
    const char* env = std::getenv("FUSEJIT_BACKEND");
    if (env && *env) select(env);
  }
  void add(std::unique_ptr<Backend> b) {
    std::string n(b->name());
    backends.emplace(std::move(n), std::move(b));
  }
  void select(std::string_view name) {
    auto it = backends.find(name);
    if (it == backends.end()) {
      std::string known;
      for (auto& [k, _] : backends) known += (known.empty() ? "" : ", ") + k;
      throw ValueError("fj::set_default_backend: unknown backend '" + std::string(name) +
                       "' (known: " + known + ")");
    }
    current = it->second.get();
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

Backend& default_backend() {
  auto& r = registry();
  std::lock_guard lock(r.mu);
  return *r.current;
}

void set_default_backend(std::string_view name) {
  auto& r = registry();
  std::lock_guard lock(r.mu);
  r.select(name);
}

std::vector<std::string> backend_names() {
  auto& r = registry();
  std::lock_guard lock(r.mu);
  std::vector<std::string> names;
  for (auto& [k, _] : r.backends) names.push_back(k);
  return names;
}

}  // namespace fj::backend

namespace fj {
void set_default_backend(std::string_view name) { backend::set_default_backend(name); }
}  // namespace fj
