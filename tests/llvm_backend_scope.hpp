// Selects the "llvm" backend for one test case and restores the previous default afterwards;
// where this build has no LLVM backend the case says so and skips.
#pragma once
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include <string>

namespace fusejit_test {

class LlvmBackend {
 public:
  LlvmBackend() : prev_(fj::backend::default_backend().name()) {
    try {
      fj::set_default_backend("llvm");
      ok_ = true;
    } catch (const fj::ValueError&) {
      MESSAGE("skipped: the \"llvm\" backend is not registered in this build");
    }
  }
  ~LlvmBackend() { fj::set_default_backend(prev_); }
  LlvmBackend(const LlvmBackend&) = delete;
  LlvmBackend& operator=(const LlvmBackend&) = delete;
  bool ok() const { return ok_; }

 private:
  std::string prev_;
  bool ok_ = false;
};

}  // namespace fusejit_test
