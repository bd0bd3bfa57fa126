// Writes the GPU's transcendentals (backend/cuda/kernel_math.def) from the LLVM backend's math
// emitters, to the path given: scripts/generate-gpu-math runs it.
#include <cstdio>
#include <fstream>
#include <iostream>

#include <fusejit/backend/llvm/gpu_math_source.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " OUTPUT.inc\n";
    return 2;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out << fj::backend::llvm_kernel::gpu_math_source();
  return out.good() ? 0 : 1;
}
