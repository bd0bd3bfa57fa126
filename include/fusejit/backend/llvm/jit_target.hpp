// One CPU target of the ORC session (the host, or one forced by FUSEJIT_CPU / fj::set_cpu_target):
// its LLVM CPU name and features, its vector width, its target machine, and the check that the
// host can run its code.
#pragma once
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/TargetParser/X86TargetParser.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "fusejit/api/cpu_target.hpp"
#include "fusejit/core/error.hpp"

namespace fj::backend::llvm_kernel {

inline std::string llvm_error_text(llvm::Error e) { return llvm::toString(std::move(e)); }

/// A resolved target. Kernels built for it carry `cpu` and `features` as function attributes and
/// are compiled by `machine()`; `key()` names it in every cache key.
struct JitTarget {
  JitTarget(std::string t, llvm::orc::JITTargetMachineBuilder b)
      : triple(std::move(t)), builder(std::move(b)) {}
  CpuTarget info;
  std::string triple;
  llvm::orc::JITTargetMachineBuilder builder;  // the ORC JIT's own builder (host only)
  std::string key() const { return triple + " " + info.cpu + " " + info.features; }

  /// The machine that compiles for this target, created on first use: a process whose kernels
  /// all come from the disk cache never creates one (a few hundred microseconds). Objects are
  /// position independent with the small code model, as the JIT's linker expects of objects it
  /// may place anywhere.
  llvm::TargetMachine& machine() const {
    std::call_once(tm_once_, [this] {
      llvm::InitializeNativeTarget();  // idempotent; the session registered only the MC layer
      llvm::InitializeNativeTargetAsmPrinter();
      llvm::orc::JITTargetMachineBuilder codegen = builder;
      codegen.setRelocationModel(llvm::Reloc::PIC_);
      codegen.setCodeModel(llvm::CodeModel::Small);
      auto tm = codegen.createTargetMachine();
      if (!tm)  // call_once runs the next call again
        throw CompileError("llvm backend: no target machine for " + info.cpu + ": " +
                           llvm::toString(tm.takeError()));
      tm_ = std::move(*tm);
    });
    return *tm_;
  }

 private:
  mutable std::once_flag tm_once_;
  mutable std::unique_ptr<llvm::TargetMachine> tm_;
};

namespace target_detail {

inline bool is_native(std::string_view name) { return name.empty() || name == "native"; }

// The host's features as detected ("+avx2", "-avx512f", ...), by name.
inline llvm::StringMap<bool> feature_map(const llvm::SubtargetFeatures& detected) {
  llvm::StringMap<bool> m;
  for (const std::string& f : detected.getFeatures())
    if (f.size() > 1) m[llvm::StringRef(f).drop_front()] = f[0] == '+';
  return m;
}

// The ISA features `cpu` implies that this host (`host`, as detected) lacks (x86 only). Features
// the host detector does not report at all (x87) are there on every x86-64.
inline std::string missing_features(const std::string& cpu, const llvm::StringMap<bool>& host) {
  llvm::SmallVector<llvm::StringRef, 64> wanted;
  llvm::X86::getFeaturesForCPU(cpu, wanted, /*NeedPlus=*/false);
  std::string missing;
  for (llvm::StringRef f : wanted)
    if (auto it = host.find(f); it != host.end() && !it->second)
      missing += (missing.empty() ? "" : ", ") + f.str();
  return missing;
}

}  // namespace target_detail

/// Resolves `name` ("native" or an LLVM CPU name) on this host. Raises ValueError for a name LLVM
/// does not know and DeviceError for a CPU whose instructions the host lacks; `what` starts the
/// messages ("fj::set_cpu_target(\"x\")").
inline std::unique_ptr<JitTarget> resolve_target(std::string_view name, const std::string& what) {
  auto host = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!host)
    throw CompileError("llvm backend: cannot detect the host: " +
                       llvm_error_text(host.takeError()));
  auto t = std::make_unique<JitTarget>(host->getTargetTriple().str(), *host);
  t->builder.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  // Detected once (host detection is a few hundred CPUID instructions, each a trap to the
  // hypervisor in a virtual machine).
  const llvm::StringMap<bool> host_features = target_detail::feature_map(t->builder.getFeatures());
  if (target_detail::is_native(name)) {
    t->info = {"native", t->builder.getCPU(), t->builder.getFeatures().getString(), 0};
  } else {
    const std::string cpu(name);
    if (!host->getTargetTriple().isX86())
      throw ValueError(what + ": only \"native\" is supported on " + t->triple);
    // Checked here: LLVM itself would only print a warning on stderr and go on with a generic CPU.
    if (llvm::X86::parseArchX86(cpu, /*Only64Bit=*/true) == llvm::X86::CK_None)
      throw ValueError(what + ": \"" + cpu +
                       "\" is not an x86-64 CPU LLVM knows; use native, x86-64-v2, x86-64-v3, "
                       "x86-64-v4 or a CPU name such as haswell or skylake-avx512");
    if (const std::string missing = target_detail::missing_features(cpu, host_features);
        !missing.empty())
      throw DeviceError(what + ": this host (" + t->builder.getCPU() + ") cannot run code for " +
                        cpu + "; it lacks " + missing);
    t->builder.setCPU(cpu);
    t->builder.getFeatures() = llvm::SubtargetFeatures();
    t->info = {cpu, cpu, "", 0};
  }
  // The vector width. The host's detected features name every ISA extension explicitly, so
  // they decide it alone; a named CPU implies its own, which its subtarget info lists (as the
  // target machine would see them, without creating one).
  if (target_detail::is_native(name) && !host_features.empty()) {
    auto has = [&](const char* f) { return host_features.lookup(f); };
    t->info.lanes = has("avx512f") ? 16 : has("avx") ? 8 : 4;
    return t;
  }
  std::string err;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(t->triple, err);
  if (!target) throw CompileError("llvm backend: no LLVM target for " + t->triple + ": " + err);
  const std::unique_ptr<const llvm::MCSubtargetInfo> sti(target->createMCSubtargetInfo(
      t->triple, t->builder.getCPU(), t->builder.getFeatures().getString()));
  if (!sti) throw CompileError("llvm backend: no subtarget for " + t->info.cpu);
  t->info.lanes = sti->checkFeatures("+avx512f") ? 16 : sti->checkFeatures("+avx") ? 8 : 4;
  return t;
}

}  // namespace fj::backend::llvm_kernel
