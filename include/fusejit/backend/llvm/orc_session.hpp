// The process-wide ORC session: created on first use, tuned for the host CPU, thread-safe; it
// compiles each module to an object, or loads the object from the on-disk kernel cache.
#pragma once
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/IRCompileLayer.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "fusejit/backend/llvm/llvm_compat.hpp"
#include "fusejit/backend/llvm/disk_cache.hpp"
#include "fusejit/backend/llvm/jit_target.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/runtime/fault_injection.hpp"
#include "fusejit/core/warning.hpp"
#include "fusejit/runtime/cache_stats.hpp"
#include "fusejit/version.hpp"

namespace fj::backend::llvm_kernel {

class OrcSession {
 public:
  /// The session, created once per process on first use.
  static OrcSession& get() {
    // Never destroyed: kernels held by static caches and by users' jitted functions unload
    // their code when they go, which may be after static destruction has begun.
    static OrcSession* session = new OrcSession();  // one thread-safe initialization
    return *session;
  }

  /// Code that load() added to the JIT: its own JITDylib, removed (the JIT's memory for it freed
  /// and its symbols forgotten) when the last holder lets go.
  class LoadedCode {
   public:
    explicit LoadedCode(llvm::orc::JITDylib* jd) : jd_(jd) {}
    LoadedCode(const LoadedCode&) = delete;
    LoadedCode& operator=(const LoadedCode&) = delete;
    ~LoadedCode() { OrcSession::get().unload(*jd_); }

   private:
    llvm::orc::JITDylib* jd_;
  };
  struct Loaded {
    void* addr = nullptr;
    std::string ir;      // the optimized IR text
    std::string symbol;  // fj_k_<content hash>
    bool from_disk = false;
    std::shared_ptr<const LoadedCode> code;
  };

  /// The name a module's entry function has when it is given to load(): load() renames it after
  /// the module's content, so that this name (unlike a counter) keeps the content hash stable.
  static constexpr const char* kEntryName = "fj_fn";

  /// The target new kernels compile for: FUSEJIT_CPU (applied at the first call, which raises
  /// its error if the name is bad), or set_target's, or the host. A compile takes it once and
  /// uses it throughout, so that a concurrent set_target cannot mix two targets in one kernel.
  std::shared_ptr<const JitTarget> target() {
    std::lock_guard lock(mu_);
    if (!env_applied_) {
      const char* env = std::getenv("FUSEJIT_CPU");
      if (env && *env && !target_detail::is_native(env))
        current_ = resolve(env, std::string("FUSEJIT_CPU=") + env);
      env_applied_ = true;
    }
    return current_;
  }
  /// Makes `name` the target of new compiles; returns whether it changed.
  bool set_target(std::string_view name) {
    std::lock_guard lock(mu_);
    auto t = resolve(name, "fj::set_cpu_target(\"" + std::string(name) + "\")");
    env_applied_ = true;  // a valid explicit choice wins over the environment
    const bool changed = t != current_;
    current_ = std::move(t);
    return changed;
  }
  /// Whether the host can run code for `name` (resolves it without making it current).
  bool supports(std::string_view name) {
    std::lock_guard lock(mu_);
    try {
      resolve(name, "fj::cpu_target_supported");
      return true;
    } catch (const Error&) {
      return false;
    }
  }

  // A kernel is one function, already vectorized, with no calls to inline: the per-function
  // clean-up passes are all it needs. The O2 module pipeline gave the same machine code at
  // about three times the cost (4-5 ms against 1-1.5 ms per kernel). instcombine's one-round
  // fixpoint check is off: LLVM 19's textual `instcombine` turns it on, and it aborts the host
  // process when a second round would still change something (a native loop driver did; the
  // fuzzer found a scalar kernel that does: `sign`, `min`, `cos` on f32[], seed 1076).
  static constexpr const char* kPipeline =
      "function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-mssa(licm),gvn,"
      "instcombine<no-verify-fixpoint>,simplifycfg)";
  // A native loop driver (native_loop.hpp): its kernels inlined first, then the same clean-up.
  static constexpr const char* kDriverPipeline =
      "always-inline,function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,loop-mssa("
      "licm),gvn,instcombine<no-verify-fixpoint>,simplifycfg)";

  /// Verifies, optimizes (with `pipeline`), compiles and loads a module whose entry function is
  /// `fn`; returns its address, the optimized IR text and the handle that keeps the code loaded.
  /// With an on-disk cache directory (fj::cache_dir()), a valid entry for the same module is
  /// loaded instead of compiled, and a compiled module is written there. Failures raise
  /// fj::CompileError with LLVM's message; problems of the disk cache never raise (a warning).
  Loaded load(std::unique_ptr<llvm::Module> m, std::unique_ptr<llvm::LLVMContext> ctx,
              const std::string& fn, const JitTarget& target, const char* pipeline = kPipeline) {
    std::lock_guard lock(mu_);  // compiles are rare; one at a time keeps LLVM's shared state safe
    // The module goes before its context, on every path (parameters may be destroyed in any
    // order, after the function's locals).
    struct ModuleFirst {
      std::unique_ptr<llvm::Module>& m;
      std::unique_ptr<llvm::LLVMContext>& ctx;
      ~ModuleFirst() { m.reset(), ctx.reset(); }
    } module_first{m, ctx};
    llvm::Function* f = m->getFunction(fn);
    if (!f) throw CompileError("llvm backend: the module has no function " + fn);
    // Everything that is not code is fixed, so that the module's bitcode is the same in every
    // process for the same kernel: its hash names the kernel's symbol and its disk entry.
    // Bitcode, not IR text: printing the math polynomials' constants in decimal made a disk hit
    // about 15 times slower (12 ms against 0.75 ms per kernel, measured as in the README).
    // The data layout is set after the hash, by the target machine a compile needs (a disk hit
    // needs none); the triple, CPU and features in the key decide it.
    f->setName(kEntryName);
    m->setModuleIdentifier("fusejit");
    m->setSourceFileName("fusejit");
    set_target_triple(*m, target.triple);
    std::string content = key_prefix(pipeline, target);
    {
      llvm::raw_string_ostream bs(content);
      llvm::WriteBitcodeToFile(*m, bs);
    }
    const disk::Meta meta = {FUSEJIT_VERSION, LLVM_VERSION_STRING, target.key(),
                             disk::key_of(content)};
    const std::string symbol = "fj_k_" + disk::hex(meta.key);
    // A native loop driver that holds addresses of this process (its host trampolines, its
    // launches) could only ever match in this process: it is compiled, never written.
    const std::string dir = holds_addresses(*m) ? std::string() : fj::cache_dir();
    const std::string path = dir.empty() ? std::string() : disk::entry_path(dir, meta.key);
    if (!dir.empty())
      if (auto hit = load_entry(path, meta, symbol)) {
        take_injected_fault(fn);
        log_kernel(symbol, "loaded from the disk cache (" + path + ")");
        return std::move(*hit);
      }

    // Verified only before a compile: an entry exists only for a module that was verified.
    std::string verify_log;
    llvm::raw_string_ostream vs(verify_log);
    if (llvm::verifyModule(*m, &vs))
      throw CompileError("llvm backend: invalid kernel IR: " + vs.str());
    llvm::TargetMachine& tm = target.machine();
    m->setDataLayout(tm.createDataLayout());
    f->setName(symbol);
    optimize(*m, pipeline, tm);
    std::string ir;
    llvm::raw_string_ostream is(ir);
    m->print(is, nullptr);
    auto obj = llvm::orc::SimpleCompiler(tm)(*m);
    if (!obj)
      throw CompileError("llvm backend: code generation failed: " +
                         llvm_error_text(obj.takeError()));
    std::string object = dir.empty() ? std::string() : std::string((*obj)->getBuffer());
    Loaded loaded = add_object(std::move(*obj), symbol, is.str());
    take_injected_fault(fn);
    if (!dir.empty()) {
      disk::Entry e{meta, disk::kFormat, std::move(object), loaded.ir};
      const std::string bytes = disk::encode(e);
      if (const std::string err = disk::write_atomic(dir, path, bytes); err.empty()) {
        detail::stat_counters().disk_writes.fetch_add(1, std::memory_order_relaxed);
        disk::account_write(dir, bytes.size(), fj::cache_dir_limit());
        log_kernel(symbol, "compiled, written to " + path);
        return loaded;
      } else if (!detail::turn_off_default_cache_dir(dir)) {
        detail::warn_once(detail::WarningKind::disk_unwritable,
                          "kernel cache directory " + dir + " is not writable (" + err +
                              "); kernels are compiled but not saved");
      }
    }
    log_kernel(symbol, "compiled");
    return loaded;
  }

  /// Removes code added by load() (LoadedCode's destructor).
  void unload(llvm::orc::JITDylib& jd) {
    std::lock_guard lock(mu_);
    auto& es = jit_->getExecutionSession();
    if (auto err = es.removeJITDylib(jd)) llvm::consumeError(std::move(err));  // nothing to free
  }

 private:
  // The JIT's compile layer, never used: load() compiles each module with its target's machine.
  // LLJIT's default would create a target machine (and another one for the data layout) that
  // the session never uses, a few hundred microseconds of every process's first call.
  struct NoIRCompiler : llvm::orc::IRCompileLayer::IRCompiler {
    NoIRCompiler() : IRCompiler(llvm::orc::IRSymbolMapper::ManglingOptions()) {}
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module&) override {
      return llvm::make_error<llvm::StringError>("fusejit adds objects, not IR, to its JIT",
                                                 llvm::inconvertibleErrorCode());
    }
  };

  OrcSession() {
    // Only the MC layer: enough to read the host's subtarget features (the vector width). The
    // code generator is registered by the first compile (JitTarget::machine()).
    LLVM_NATIVE_TARGETINFO();
    LLVM_NATIVE_TARGETMC();
    current_ = resolve("native", "llvm backend");
    native_ = current_;
    // The JIT links objects and looks up symbols; of a data layout it uses only the symbol
    // mangling (no IR goes through it), which the triple's object format decides.
    const llvm::Triple triple(current_->triple);
    const char* mangling = triple.isOSBinFormatMachO() ? "e-m:o"
                           : triple.isOSWindows()
                               ? (triple.isX86() && !triple.isArch64Bit() ? "e-m:x" : "e-m:w")
                               : "e-m:e";
    auto jit =
        llvm::orc::LLJITBuilder()
            .setJITTargetMachineBuilder(current_->builder)
            .setDataLayout(llvm::DataLayout(mangling))
            .setCompileFunctionCreator(
                [](llvm::orc::JITTargetMachineBuilder)
                    -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                  return std::make_unique<NoIRCompiler>();
                })
            .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
            .create();
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

  // Everything besides the module's text that decides the machine code: a change of any of them
  // names other entries.
  static std::string key_prefix(const char* pipeline, const JitTarget& target) {
    return "fusejit disk entry format " + std::to_string(disk::kFormat) + "\nfusejit " +
           FUSEJIT_VERSION + "\nLLVM " + LLVM_VERSION_STRING + "\n" + target.key() +
           "\ncodegen O3 pic small\n" + pipeline + "\n";
  }
  // Targets are resolved once each and kept (a target machine costs a few milliseconds).
  std::shared_ptr<const JitTarget> resolve(std::string_view name, const std::string& what) {
    const std::string key = target_detail::is_native(name) ? "native" : std::string(name);
    if (key == "native" && native_) return native_;
    if (auto it = targets_.find(key); it != targets_.end()) return it->second;
    std::shared_ptr<const JitTarget> t = resolve_target(key, what);
    targets_.emplace(key, t);
    return t;
  }

  // With FUSEJIT_LOG_COMPILES (read on each compile, as the jit's own log is), where each kernel
  // came from: LLVM or the disk cache.
  static void log_kernel(const std::string& symbol, const std::string& how) {
    const char* v = std::getenv("FUSEJIT_LOG_COMPILES");
    if (v && *v && std::string_view(v) != "0")
      std::cerr << "fusejit: kernel " << symbol << ": " << how << "\n";
  }

  // Whether the module converts integers to pointers: addresses of the running process.
  static bool holds_addresses(const llvm::Module& m) {
    auto in_constant = [](auto& self, const llvm::Value* v, int depth) -> bool {
      const auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(v);
      if (!ce || depth > 8) return false;
      if (ce->getOpcode() == llvm::Instruction::IntToPtr) return true;
      for (const llvm::Use& op : ce->operands())
        if (self(self, op.get(), depth + 1)) return true;
      return false;
    };
    for (const llvm::Function& fn : m)
      for (const llvm::BasicBlock& bb : fn)
        for (const llvm::Instruction& i : bb) {
          if (llvm::isa<llvm::IntToPtrInst>(i)) return true;
          for (const llvm::Use& op : i.operands())
            if (in_constant(in_constant, op.get(), 0)) return true;
        }
    return false;
  }

  // Adds an object in a JITDylib of its own and looks up `symbol`. One JITDylib per load: the
  // same kernel (the same content-hashed symbol) may be loaded again while an evicted copy is
  // still held by an executable, and each copy is freed on its own when its last holder goes.
  Loaded add_object(std::unique_ptr<llvm::MemoryBuffer> obj, const std::string& symbol,
                    std::string ir) {
    auto jd = jit_->createJITDylib("fj_" + std::to_string(next_dylib_++));
    if (!jd)
      throw CompileError("llvm backend: cannot create a JITDylib: " +
                         llvm_error_text(jd.takeError()));
    jd->addToLinkOrder(jit_->getMainJITDylib());           // libm (fmod) through its generator
    auto code = std::make_shared<const LoadedCode>(&*jd);  // unloads on every failure below
    if (auto err = jit_->addObjectFile(*jd, std::move(obj)))
      throw CompileError("llvm backend: adding the kernel object failed: " +
                         llvm_error_text(std::move(err)));
    auto sym = jit_->lookup(*jd, symbol);
    if (!sym) {
      std::string why = llvm_error_text(sym.takeError());
      if (!session_errors_.empty()) why += " (" + session_errors_ + ")";
      session_errors_.clear();
      throw CompileError("llvm backend: kernel symbol lookup failed: " + why);
    }
    return {sym->toPtr<void*>(), std::move(ir), symbol, false, std::move(code)};
  }

  // The entry at `path`, loaded, or nothing (missing, rejected, or failing to load: then it is
  // compiled and written again). Never throws for the entry's sake.
  std::optional<Loaded> load_entry(const std::string& path, const disk::Meta& meta,
                                   const std::string& symbol) {
    std::string bytes;
    if (!disk::read_file(path, bytes)) return std::nullopt;  // a miss
    auto& stats = detail::stat_counters();
    disk::Decoded d = disk::decode(bytes, meta);
    if (d.verdict == disk::Verdict::ok) {
      auto obj = llvm::MemoryBuffer::getMemBufferCopy(d.entry.object, symbol);
      try {
        Loaded l = add_object(std::move(obj), symbol, std::move(d.entry.ir));
        l.from_disk = true;
        stats.disk_hits.fetch_add(1, std::memory_order_relaxed);
        disk::touch(path);  // recently used: the last to be trimmed
        return l;
      } catch (const CompileError& e) {  // a checksummed object that still would not load
        d.verdict = disk::Verdict::corrupt;
        d.why = e.what();
      }
    }
    stats.disk_rejects.fetch_add(1, std::memory_order_relaxed);
    if (d.verdict == disk::Verdict::foreign)
      detail::warn_once(detail::WarningKind::disk_foreign,
                        "kernel cache entry " + path + " was written for another version or CPU (" +
                            d.why + "); recompiled");
    else
      detail::warn_once(detail::WarningKind::disk_corrupt,
                        "kernel cache entry " + path + " is corrupt (" + d.why + "); recompiled");
    return std::nullopt;
  }

  // A compile fault injected by tests (fj::testing::fail_next_compiles), taken with the code
  // loaded, compiled or read from the disk cache, so that a test also exercises the clean-up of
  // code that is loaded but not handed out (the Loaded unloads it as the exception leaves).
  static void take_injected_fault(const std::string& fn) {
    if (fj::detail::take_injected_fault(fj::detail::Fault::compile))
      throw CompileError("llvm backend: compiling " + fn +
                         " failed: injected by fj::testing::fail_next_compiles");
  }

  void optimize(llvm::Module& m, const char* pipeline, llvm::TargetMachine& tm) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(&tm);
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
  std::shared_ptr<const JitTarget> current_, native_;
  std::map<std::string, std::shared_ptr<const JitTarget>> targets_;
  bool env_applied_ = false;
  std::uint64_t next_dylib_ = 0;  // JITDylib names: unique, never reused
  std::string session_errors_;    // reported by ORC since the last failed lookup
  std::recursive_mutex mu_;  // recursive: a failed load() unloads its own code while holding it
};

}  // namespace fj::backend::llvm_kernel
