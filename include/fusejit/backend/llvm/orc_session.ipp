// The process-wide ORC session: created on first use, tuned for the host CPU, thread-safe.
#pragma once
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <memory>
#include <mutex>
#include <string>

#include "fusejit/core/error.hpp"
#include "fusejit/runtime/fault_injection.hpp"

namespace fj::backend::llvm_kernel {

inline std::string llvm_error_text(llvm::Error e) { return llvm::toString(std::move(e)); }

class OrcSession {
 public:
  /// The session, created once per process on first use.
  static OrcSession& get() {
    // Never destroyed: kernels held by static caches and by users' jitted functions unload
    // their code when they go, which may be after static destruction has begun.
    static OrcSession* session = new OrcSession();  // one thread-safe initialization
    return *session;
  }

  /// Code that load() added to the JIT: its own resource tracker, removed (the JIT's memory for
  /// it freed and its symbols forgotten) when the last holder lets go.
  class LoadedCode {
   public:
    explicit LoadedCode(llvm::orc::ResourceTrackerSP rt) : rt_(std::move(rt)) {}
    LoadedCode(const LoadedCode&) = delete;
    LoadedCode& operator=(const LoadedCode&) = delete;
    ~LoadedCode() { OrcSession::get().unload(rt_); }

   private:
    llvm::orc::ResourceTrackerSP rt_;
  };
  struct Loaded {
    void* addr = nullptr;
    std::string ir;  // the optimized IR text
    std::shared_ptr<const LoadedCode> code;
  };

  const std::string& cpu() const { return cpu_; }
  const std::string& features() const { return features_; }
  /// 32-bit lanes in one native vector register: 16 with AVX-512, 8 with AVX, else 4.
  int lanes() const { return lanes_; }
  std::string target() const { return triple_ + " " + cpu_ + " " + features_; }

  // A kernel is one function, already vectorized, with no calls to inline: the per-function
  // clean-up passes are all it needs. The O2 module pipeline gave the same machine code at
  // about three times the cost (4-5 ms against 1-1.5 ms per kernel). instcombine's one-round
  // fixpoint check is off: LLVM 19's textual `instcombine` turns it on, and it aborts the host
  // process when a second round would still change something (a native loop driver did; the
  // fuzzer found a scalar kernel that does: `sign`, `min`, `cos` on f32[], seed 1076).
  static constexpr const char* kPipeline =
      "function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-mssa(licm),gvn,"
      "instcombine<no-verify-fixpoint>,simplifycfg)";
  // A native loop driver (native_loop.ipp): its kernels inlined first, then the same clean-up.
  static constexpr const char* kDriverPipeline =
      "always-inline,function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-mssa("
      "licm),gvn,instcombine<no-verify-fixpoint>,simplifycfg)";

  /// Verifies, optimizes (with `pipeline`) and loads a module; returns the address of `fn`, the
  /// optimized IR text and the handle that keeps the code loaded. Failures raise
  /// fj::CompileError with LLVM's message.
  Loaded load(std::unique_ptr<llvm::Module> m, std::unique_ptr<llvm::LLVMContext> ctx,
              const std::string& fn, const char* pipeline = kPipeline) {
    std::lock_guard lock(mu_);  // compiles are rare; one at a time keeps LLVM's shared state safe
    std::string verify_log;
    llvm::raw_string_ostream vs(verify_log);
    if (llvm::verifyModule(*m, &vs))
      throw CompileError("llvm backend: invalid kernel IR: " + vs.str());
    m->setDataLayout(jit_->getDataLayout());
    m->setTargetTriple(triple_);
    optimize(*m, pipeline);
    std::string text;
    llvm::raw_string_ostream ts(text);
    m->print(ts, nullptr);
    auto rt = jit_->getMainJITDylib().createResourceTracker();
    if (auto err = jit_->addIRModule(rt, llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))))
      throw CompileError("llvm backend: adding the kernel module failed: " +
                         llvm_error_text(std::move(err)));
    auto code = std::make_shared<const LoadedCode>(rt);
    // Injected here, with the module added, so that a test also exercises the clean-up of
    // half-loaded code (`code` unloads it as the exception leaves).
    if (fj::detail::take_injected_fault(fj::detail::Fault::compile))
      throw CompileError("llvm backend: compiling " + fn +
                         " failed: injected by fj::testing::fail_next_compiles");
    auto sym = jit_->lookup(fn);
    if (!sym) {
      std::string why = llvm_error_text(sym.takeError());
      if (!session_errors_.empty()) why += " (" + session_errors_ + ")";
      session_errors_.clear();
      throw CompileError("llvm backend: kernel symbol lookup failed: " + why);
    }
    return {sym->toPtr<void*>(), ts.str(), std::move(code)};
  }

  /// Removes code added by load() (LoadedCode's destructor).
  void unload(const llvm::orc::ResourceTrackerSP& rt) {
    std::lock_guard lock(mu_);
    if (auto err = rt->remove()) llvm::consumeError(std::move(err));  // nothing left to free
  }

 private:
  OrcSession() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb)
      throw CompileError("llvm backend: cannot detect the host: " +
                         llvm_error_text(jtmb.takeError()));
    jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    cpu_ = jtmb->getCPU();
    features_ = jtmb->getFeatures().getString();
    triple_ = jtmb->getTargetTriple().str();
    lanes_ = features_.find("+avx512f") != std::string::npos ? 16
             : features_.find("+avx") != std::string::npos   ? 8
                                                             : 4;
    auto tm = jtmb->createTargetMachine();
    if (!tm)
      throw CompileError("llvm backend: no target machine: " + llvm_error_text(tm.takeError()));
    tm_ = std::move(*tm);
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
    if (!jit)
      throw CompileError("llvm backend: cannot create the ORC JIT: " +
                         llvm_error_text(jit.takeError()));
    jit_ = std::move(*jit);
    // ORC reports errors it cannot return (a failed materialization: out of JIT memory) by
    // printing them; a library must not print. They are kept and added to the CompileError of
    // the lookup that failed with them.
    jit_->getExecutionSession().setErrorReporter([this](llvm::Error err) {
      std::lock_guard lock(mu_);
      if (session_errors_.size() < 4096)
        session_errors_ += (session_errors_.empty() ? "" : "; ") + llvm_error_text(std::move(err));
    });
    // Kernels may call libm (fmod for float remainders) from the host process.
    auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        jit_->getDataLayout().getGlobalPrefix());
    if (!gen) throw CompileError("llvm backend: " + llvm_error_text(gen.takeError()));
    jit_->getMainJITDylib().addGenerator(std::move(*gen));
  }

  void optimize(llvm::Module& m, const char* pipeline) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm_.get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    if (auto err = pb.parsePassPipeline(mpm, pipeline))
      throw CompileError("llvm backend: bad pass pipeline: " + llvm_error_text(std::move(err)));
    mpm.run(m, mam);
  }

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::unique_ptr<llvm::TargetMachine> tm_;
  std::string cpu_, features_, triple_;
  int lanes_ = 4;
  std::string session_errors_;  // reported by ORC since the last failed lookup
  std::recursive_mutex mu_;     // recursive: a failed load() unloads its own code while holding it
};

}  // namespace fj::backend::llvm_kernel
