// Writes the GPU's transcendentals (backend/cuda/kernel_math.def and kernel_math/*.def) from the
// LLVM backend's math emitters, into the folder given: scripts/generate-gpu-math runs it.
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fusejit/backend/llvm/gpu_math_source.hpp>

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " include/fusejit/backend/cuda\n";
    return 2;
  }
  const fs::path dir = argv[1];
  // Files of functions that are gone would still be in the folder, though no longer included.
  if (fs::exists(dir / "kernel_math"))
    for (const fs::directory_entry& e : fs::directory_iterator(dir / "kernel_math"))
      if (e.path().extension() == ".def") fs::remove(e.path());
  fs::create_directories(dir / "kernel_math");
  for (const auto& [path, text] : fj::backend::llvm_kernel::gpu_math_files()) {
    std::ofstream out(dir / path, std::ios::binary);
    out << text;
    if (!out.good()) {
      std::cerr << "cannot write " << (dir / path) << "\n";
      return 1;
    }
  }
  return 0;
}
