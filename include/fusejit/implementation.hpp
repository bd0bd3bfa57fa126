// The whole implementation in one translation unit, for FUSEJIT_IMPLEMENTATION users without
// CMake. Each file below compiles on its own too; the CMake library builds them in the parts
// marked "part:" (one translation unit per part, CMakeLists.txt reads this list), so an edit
// recompiles one part. Backend headers (xsimd, LLVM, the CUDA loaders) are reachable from here
// only.

// part: core (IR rules and printing, expression lowering, arrays, runtime, backend registry)
#include "fusejit/ir/shape_rules.cpp"
#include "fusejit/ir/printer.cpp"
#include "fusejit/expr/lowering.cpp"
#include "fusejit/expr/lowering_library.cpp"
#include "fusejit/expr/lowering_shape.cpp"
#include "fusejit/expr/lowering_creation.cpp"
#include "fusejit/expr/lowering_math.cpp"
#include "fusejit/expr/lowering_nn.cpp"
#include "fusejit/expr/lowering_stats.cpp"
#include "fusejit/expr/lowering_sort.cpp"
#include "fusejit/expr/einsum_path.cpp"
#include "fusejit/expr/lowering_einsum.cpp"
#include "fusejit/expr/lowering_layout.cpp"
#include "fusejit/expr/lowering_pad.cpp"
#include "fusejit/expr/lowering_linalg.cpp"
#include "fusejit/expr/lowering_solve.cpp"
#include "fusejit/expr/lowering_diagonal.cpp"
#include "fusejit/expr/lowering_lu_solve.cpp"
#include "fusejit/expr/lowering_vectorize_solve.cpp"
#include "fusejit/expr/nested_vmaps.cpp"
#include "fusejit/expr/lowering_nonzero.cpp"
#include "fusejit/expr/lowering_numeric.cpp"
#include "fusejit/expr/lowering_quantile.cpp"
#include "fusejit/expr/lowering_spectral.cpp"
#include "fusejit/expr/lowering_index.cpp"
#include "fusejit/expr/materialize.cpp"
#include "fusejit/api/factories.cpp"
#include "fusejit/api/creation.cpp"
#include "fusejit/api/print.cpp"
#include "fusejit/api/pytree/treedef.cpp"
#include "fusejit/runtime/allocator.cpp"
#include "fusejit/runtime/thread_pool.cpp"
#include "fusejit/api/device.cpp"
#include "fusejit/api/cpu_target.cpp"
#include "fusejit/backend/registry.cpp"
#include "fusejit/backend/host_callback.cpp"
#include "fusejit/backend/row_phases.cpp"

// part: transforms (jit, jvp, vjp, vmap, lax control flow, random)
#include "fusejit/api/trace_function.cpp"
#include "fusejit/api/jit.cpp"
#include "fusejit/api/debug_nans.cpp"
#include "fusejit/api/subtrace.cpp"
#include "fusejit/transforms/emit.cpp"
#include "fusejit/transforms/partials.cpp"
#include "fusejit/transforms/rule_table.cpp"
#include "fusejit/transforms/elementwise_rules.cpp"
#include "fusejit/transforms/structural_rules.cpp"
#include "fusejit/transforms/reduction_rules.cpp"
#include "fusejit/transforms/dot_general_rules.cpp"
#include "fusejit/transforms/jvp.cpp"
#include "fusejit/transforms/vjp.cpp"
#include "fusejit/transforms/linearize_call.cpp"
#include "fusejit/transforms/batch.cpp"
#include "fusejit/transforms/callback_rules.cpp"
#include "fusejit/transforms/sort_rules.cpp"
#include "fusejit/transforms/linalg_rules.cpp"
#include "fusejit/transforms/lu_rules.cpp"
#include "fusejit/transforms/spectral_rules.cpp"
#include "fusejit/transforms/index_rules.cpp"
#include "fusejit/transforms/pad_rules.cpp"
#include "fusejit/transforms/collective_rules.cpp"
#include "fusejit/transforms/control_rules.cpp"
#include "fusejit/transforms/custom_jvp_rules.cpp"
#include "fusejit/transforms/linear_solve_rules.cpp"
#include "fusejit/api/transforms.cpp"
#include "fusejit/api/checking_leaks.cpp"
#include "fusejit/api/lax_control.cpp"
#include "fusejit/api/sorting.cpp"
#include "fusejit/api/repeat.cpp"
#include "fusejit/api/nonzero.cpp"
#include "fusejit/api/numeric.cpp"
#include "fusejit/api/quantile.cpp"
#include "fusejit/api/split.cpp"
#include "fusejit/api/lu.cpp"
#include "fusejit/api/spectral.cpp"
#include "fusejit/api/random.cpp"
#include "fusejit/api/host_call.cpp"
#include "fusejit/api/debug.cpp"

// part: distributed (pmap's devices and threads, the collectives, the process group)
#include "fusejit/distributed/axis_env.cpp"
#include "fusejit/distributed/devices.cpp"
#include "fusejit/distributed/process_group.cpp"
#include "fusejit/distributed/collective_runtime.cpp"
#include "fusejit/distributed/collectives.cpp"
#include "fusejit/distributed/pmap_runtime.cpp"
#include "fusejit/distributed/pmap.cpp"
#include "fusejit/distributed/shard_map_staging.cpp"
#include "fusejit/distributed/initialize.cpp"

// part: reference (the reference backend: the interpreter every result is checked against)
#include "fusejit/backend/reference/reference_backend.cpp"
#include "fusejit/backend/reference/resolve.cpp"

// part: cuda (CUDA C++ generation and NVRTC; the driver is loaded at run time)
#include "fusejit/backend/cuda/cuda_codegen.cpp"
#include "fusejit/backend/cuda/gpu_runtime.cpp"
#include "fusejit/backend/cuda/kernel_cache.cpp"
#include "fusejit/backend/cuda/cuda_executable.cpp"

#ifdef FUSEJIT_WITH_MPI
// part: mpi (the MPI world as the process group: mpi.h is reachable from here only)
#include "fusejit/distributed/mpi_group.cpp"
#endif

#ifdef FUSEJIT_WITH_LLVM
// part: llvm_codegen (LLVM IR for fused kernels, the math library)
#include "fusejit/backend/llvm/codegen.cpp"
#include "fusejit/backend/llvm/gpu_math_source.cpp"

// part: llvm_session (the ORC JIT session, disk cache, targets, launches and native loops)
#include "fusejit/backend/llvm/llvm_backend.cpp"
#include "fusejit/backend/llvm/cpu_target_llvm.cpp"
#endif
