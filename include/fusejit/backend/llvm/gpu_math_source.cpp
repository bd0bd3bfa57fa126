// Definitions of gpu_math_source.hpp: builds the math functions as scalar LLVM IR with the CPU
// kernels' own emitters, then writes each instruction as one C statement.
#include "fusejit/backend/llvm/gpu_math_source.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "fusejit/backend/llvm/math_bridge.hpp"
#include "fusejit/core/error.hpp"

namespace fj::backend::llvm_kernel {

// A named namespace, not an anonymous one: in a header-only build every implementation file is
// one translation unit, and these names must not reach the rest of llvm_kernel.
namespace gpu_math_detail {

using llvm::Value;

[[noreturn]] void unsupported(const std::string& what, const llvm::Value& v) {
  std::string text;
  llvm::raw_string_ostream os(text);
  v.print(os);
  throw CompileError("gpu_math_source: " + what + " has no C translation: " + os.str());
}

// The C type that holds an LLVM type. Integers are unsigned (LLVM's are signless and wrap); the
// signed instructions cast. Pointers are byte pointers, read and written through memcpy.
std::string c_type(const llvm::Type* t) {
  if (const auto* st = llvm::dyn_cast<llvm::StructType>(t); st && st->getNumElements() == 2)
    return "fjm_pair<" + c_type(st->getElementType(0)) + ", " + c_type(st->getElementType(1)) +
           ">";  // a helper's two results (Fp::outlined_n)
  if (t->isFloatTy()) return "float";
  if (t->isDoubleTy()) return "double";
  if (t->isPointerTy()) return "unsigned char*";
  if (t->isIntegerTy(1)) return "bool";
  if (t->isIntegerTy(32)) return "unsigned";
  if (t->isIntegerTy(64)) return "unsigned long long";
  if (t->isIntegerTy(128)) return "unsigned __int128";
  std::string s;
  llvm::raw_string_ostream os(s);
  t->print(os);
  throw CompileError("gpu_math_source: no C type for " + os.str());
}

std::string signed_type(const llvm::Type* t) {
  if (t->isIntegerTy(32)) return "int";
  if (t->isIntegerTy(64)) return "long long";
  if (t->isIntegerTy(128)) return "__int128";
  return c_type(t);
}

std::string hex_u64(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llxull", static_cast<unsigned long long>(v));
  return buf;
}

// fjm_<name>_<f32|f64>, the generator's name for a function, split into <name> and the format.
std::pair<std::string, std::string> name_and_format(const llvm::Function& f) {
  const std::string n = f.getName().str();
  if (n.rfind("fjm_", 0) != 0 || n.size() < 9) unsupported("function name", f);
  return {n.substr(4, n.size() - 8), n.substr(n.size() - 3)};
}

// Its C name: fj_<name>, overloaded on float and double as the kernels call it.
std::string c_name(const llvm::Function& f) { return "fj_" + name_and_format(f).first; }

class FunctionWriter {
 public:
  FunctionWriter(const llvm::Function& f, const llvm::DataLayout& dl)
      : f_(f), c_name_(c_name(f)), dl_(dl) {}

  std::string write() {
    int n = 0;
    for (const llvm::Argument& a : f_.args()) names_[&a] = "a" + std::to_string(n++);
    order_instructions();
    n = 0;
    for (const llvm::BasicBlock& b : f_) {
      blocks_[&b] = "b" + std::to_string(blocks_.size());
      for (const llvm::Instruction* i : order_.at(&b))
        if (!i->getType()->isVoidTy()) names_[i] = "v" + std::to_string(n++);
    }
    bool one_block = f_.size() == 1;
    for (const llvm::Instruction& i : f_.getEntryBlock())
      one_block &= !llvm::isa<llvm::AllocaInst>(&i);
    std::ostringstream body;
    for (const llvm::BasicBlock& b : f_) {
      if (!one_block) body << blocks_.at(&b) << ":;\n";
      for (const llvm::Instruction* i : order_.at(&b)) statement(body, *i, one_block);
      statement(body, *b.getTerminator(), one_block);
    }
    std::ostringstream os;
    os << "FJM_FN " << c_type(f_.getReturnType()) << " " << c_name_ << "(";
    for (const llvm::Argument& a : f_.args())
      os << (a.getArgNo() ? ", " : "") << c_type(a.getType()) << " " << names_.at(&a);
    os << ") {\n";
    if (!one_block)  // every value declared first, so that no goto jumps over an initialization
      for (const llvm::BasicBlock& b : f_)
        for (const llvm::Instruction* i : order_.at(&b)) {
          if (const auto* al = llvm::dyn_cast<llvm::AllocaInst>(i))
            os << "unsigned long long " << names_.at(i) << "_m["
               << (dl_.getTypeAllocSize(al->getAllocatedType()) + 7) / 8 << "];\n";
          if (!i->getType()->isVoidTy()) os << c_type(i->getType()) << " " << names_.at(i) << ";\n";
        }
    os << body.str() << "}\n";
    return os.str();
  }

 private:
  // The order the statements are written in, independent of the order the emitters created the
  // instructions (which follows the C++ compiler's order of evaluating function arguments: GCC's
  // and clang's differ, and the checked-in file must not). Per block: the phis, then each memory
  // instruction in the IR's order and the terminator's needs (its operands, and the values its
  // successors' phis take from this block), each after the pure instructions it uses, found
  // depth first, operands left to right. A pure instruction used only by a later block goes to
  // the end of its own block when that block's anchors reach it; one nothing reaches is dead.
  void order_instructions() {
    std::set<const llvm::Instruction*> done;
    std::function<void(const Value*)> visit = [&](const Value* v) {
      const auto* i = llvm::dyn_cast<llvm::Instruction>(v);
      if (!i || i->isTerminator() || !done.insert(i).second) return;
      for (const llvm::Use& u : i->operands()) visit(u.get());
      order_[i->getParent()].push_back(i);
    };
    for (const llvm::BasicBlock& b : f_) {
      order_[&b];
      for (const llvm::PHINode& p : b.phis()) {
        done.insert(&p);
        order_[&b].push_back(&p);
      }
    }
    for (const llvm::BasicBlock& b : f_) {
      for (const llvm::Instruction& i : b)
        if (i.mayReadOrWriteMemory() || llvm::isa<llvm::AllocaInst>(&i)) visit(&i);
      const llvm::Instruction* t = b.getTerminator();
      for (const llvm::Use& u : t->operands()) visit(u.get());
      for (unsigned k = 0; k < t->getNumSuccessors(); ++k)
        for (const llvm::PHINode& p : t->getSuccessor(k)->phis())
          visit(p.getIncomingValueForBlock(&b));
    }
  }

  std::string operand(const Value* v) const {
    if (auto it = names_.find(v); it != names_.end()) return it->second;
    if (const auto* g = llvm::dyn_cast<llvm::GlobalVariable>(v))
      return "((unsigned char*)fjm_" + g->getName().str().substr(g->getName().rfind('.') + 1) + ")";
    if (const auto* c = llvm::dyn_cast<llvm::ConstantFP>(v)) return float_literal(*c);
    if (const auto* c = llvm::dyn_cast<llvm::ConstantInt>(v)) return int_literal(*c);
    if (v->getType()->isStructTy() &&
        (llvm::isa<llvm::UndefValue>(v) || llvm::isa<llvm::ConstantAggregateZero>(v)))
      return c_type(v->getType()) + "()";
    if (llvm::isa<llvm::UndefValue>(v) || llvm::isa<llvm::ConstantAggregateZero>(v) ||
        llvm::isa<llvm::ConstantPointerNull>(v))
      return "(" + c_type(v->getType()) + ")0";
    unsupported("operand", *v);
  }

  static std::string float_literal(const llvm::ConstantFP& c) {
    const llvm::APFloat& f = c.getValueAPF();
    const bool single = c.getType()->isFloatTy();
    if (!f.isFinite()) {  // infinities and NaNs by their bits
      const std::uint64_t bits = f.bitcastToAPInt().getZExtValue();
      return single ? "fjm_f32(" + hex_u64(bits) + ")" : "fjm_f64(" + hex_u64(bits) + ")";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a",
                  single ? static_cast<double>(f.convertToFloat()) : f.convertToDouble());
    return std::string(buf[0] == '-' ? "(" : "") + buf + (single ? "f" : "") +
           (buf[0] == '-' ? ")" : "");
  }

  static std::string int_literal(const llvm::ConstantInt& c) {
    const llvm::APInt& v = c.getValue();
    const llvm::Type* t = c.getType();
    if (t->isIntegerTy(1)) return v.isZero() ? "false" : "true";
    if (t->isIntegerTy(128))
      return "(((unsigned __int128)" + hex_u64(v.extractBitsAsZExtValue(64, 64)) + " << 64) | " +
             hex_u64(v.extractBitsAsZExtValue(64, 0)) + ")";
    return "(" + c_type(t) + ")" + hex_u64(v.getZExtValue());
  }

  std::string as_signed(const Value* v) const {
    return "(" + signed_type(v->getType()) + ")" + operand(v);
  }

  // Shift amounts are taken modulo the width: LLVM makes a larger one poison, C undefined.
  std::string shift_amount(const Value* v) const {
    return "(" + operand(v) + " & " + std::to_string(v->getType()->getIntegerBitWidth() - 1) + ")";
  }

  std::string binary(const llvm::BinaryOperator& b) const {
    const Value *x = b.getOperand(0), *y = b.getOperand(1);
    const std::string a = operand(x), c = operand(y), t = c_type(b.getType());
    switch (b.getOpcode()) {
      case llvm::Instruction::FAdd:
        return a + " + " + c;
      case llvm::Instruction::FSub:
        return a + " - " + c;
      case llvm::Instruction::FMul:
        return a + " * " + c;
      case llvm::Instruction::FDiv:
        return a + " / " + c;
      case llvm::Instruction::Add:
        return "(" + t + ")(" + a + " + " + c + ")";
      case llvm::Instruction::Sub:
        return "(" + t + ")(" + a + " - " + c + ")";
      case llvm::Instruction::Mul:
        return "(" + t + ")(" + a + " * " + c + ")";
      case llvm::Instruction::And:
        return "(" + t + ")(" + a + " & " + c + ")";
      case llvm::Instruction::Or:
        return "(" + t + ")(" + a + " | " + c + ")";
      case llvm::Instruction::Xor:
        return "(" + t + ")(" + a + " ^ " + c + ")";
      case llvm::Instruction::Shl:
        return "(" + t + ")(" + a + " << " + shift_amount(y) + ")";
      case llvm::Instruction::LShr:
        return "(" + t + ")(" + a + " >> " + shift_amount(y) + ")";
      case llvm::Instruction::AShr:
        return "(" + t + ")(" + as_signed(x) + " >> " + shift_amount(y) + ")";
      default:
        unsupported("binary operator", b);
    }
  }

  // C's comparisons are false on NaN, which is what the ordered predicates say; an unordered
  // one is the negation of the opposite ordered one.
  std::string fcmp(const llvm::FCmpInst& c) const {
    const std::string a = operand(c.getOperand(0)), b = operand(c.getOperand(1));
    using P = llvm::CmpInst::Predicate;
    switch (c.getPredicate()) {
      case P::FCMP_OEQ:
        return a + " == " + b;
      case P::FCMP_OGT:
        return a + " > " + b;
      case P::FCMP_OGE:
        return a + " >= " + b;
      case P::FCMP_OLT:
        return a + " < " + b;
      case P::FCMP_OLE:
        return a + " <= " + b;
      case P::FCMP_ONE:
        return "(" + a + " < " + b + " || " + a + " > " + b + ")";
      case P::FCMP_ORD:
        return "(" + a + " == " + a + " && " + b + " == " + b + ")";
      case P::FCMP_UEQ:
        return "!(" + a + " < " + b + " || " + a + " > " + b + ")";
      case P::FCMP_UGT:
        return "!(" + a + " <= " + b + ")";
      case P::FCMP_UGE:
        return "!(" + a + " < " + b + ")";
      case P::FCMP_ULT:
        return "!(" + a + " >= " + b + ")";
      case P::FCMP_ULE:
        return "!(" + a + " > " + b + ")";
      case P::FCMP_UNE:
        return a + " != " + b;
      case P::FCMP_UNO:
        return "(" + a + " != " + a + " || " + b + " != " + b + ")";
      case P::FCMP_TRUE:
        return "true";
      case P::FCMP_FALSE:
        return "false";
      default:
        unsupported("fcmp", c);
    }
  }

  std::string icmp(const llvm::ICmpInst& c) const {
    const bool is_signed = c.isSigned();
    const Value *x = c.getOperand(0), *y = c.getOperand(1);
    const std::string a = is_signed ? as_signed(x) : operand(x),
                      b = is_signed ? as_signed(y) : operand(y);
    const char* op = "";
    switch (c.getUnsignedPredicate()) {
      case llvm::CmpInst::ICMP_EQ:
        op = " == ";
        break;
      case llvm::CmpInst::ICMP_NE:
        op = " != ";
        break;
      case llvm::CmpInst::ICMP_UGT:
        op = " > ";
        break;
      case llvm::CmpInst::ICMP_UGE:
        op = " >= ";
        break;
      case llvm::CmpInst::ICMP_ULT:
        op = " < ";
        break;
      case llvm::CmpInst::ICMP_ULE:
        op = " <= ";
        break;
      default:
        unsupported("icmp", c);
    }
    return a + op + b;
  }

  std::string cast(const llvm::CastInst& c) const {
    const Value* x = c.getOperand(0);
    const std::string t = c_type(c.getType()), a = operand(x);
    switch (c.getOpcode()) {
      case llvm::Instruction::ZExt:
      case llvm::Instruction::FPExt:
      case llvm::Instruction::FPTrunc:
      case llvm::Instruction::UIToFP:
        return "(" + t + ")" + a;
      case llvm::Instruction::Trunc:
        return c.getType()->isIntegerTy(1) ? "(" + a + " & 1) != 0" : "(" + t + ")" + a;
      case llvm::Instruction::SExt:
        return "(" + t + ")(" + signed_type(c.getType()) + ")" + as_signed(x);
      case llvm::Instruction::SIToFP:
        return "(" + t + ")" + as_signed(x);
      case llvm::Instruction::BitCast:
        if (c.getType()->isFloatTy()) return "fjm_f32(" + a + ")";
        if (c.getType()->isDoubleTy()) return "fjm_f64(" + a + ")";
        if (x->getType()->isFloatingPointTy()) return "fjm_bits(" + a + ")";
        return a;
      default:
        unsupported("cast", c);
    }
  }

  std::string intrinsic(const llvm::IntrinsicInst& c) const {
    std::vector<std::string> args;
    for (unsigned k = 0; k < c.arg_size(); ++k) args.push_back(operand(c.getArgOperand(k)));
    auto call = [&](const char* f, std::size_t n) {
      std::string s = std::string(f) + "(";
      for (std::size_t k = 0; k < n; ++k) s += (k ? ", " : "") + args[k];
      return s + ")";
    };
    switch (c.getIntrinsicID()) {
      case llvm::Intrinsic::fma:
        return call("fjm_fma", 3);
      case llvm::Intrinsic::fabs:
        return call("fj_abs", 1);  // the prelude's, as the kernels use
      case llvm::Intrinsic::floor:
        return call("fj_floor", 1);
      case llvm::Intrinsic::copysign:
        return call("fjm_copysign", 2);
      case llvm::Intrinsic::sqrt:
        return call("fj_sqrt", 1);
      case llvm::Intrinsic::ctlz:
        if (c.getType()->isIntegerTy(64)) return call("fjm_ctlz64", 1);
        break;
      case llvm::Intrinsic::fshl:
        if (c.getType()->isIntegerTy(64)) return call("fjm_fshl64", 3);
        break;
      case llvm::Intrinsic::smax:
        if (c.getType()->isIntegerTy(64)) return call("fjm_smax64", 2);
        break;
      default:
        break;
    }
    unsupported("intrinsic", c);
  }

  // A call of a helper the math library outlined (Fp::outlined): fj_<name>, the overload of the
  // argument's format.
  std::string helper_call(const llvm::CallInst& c) const {
    const llvm::Function* callee = c.getCalledFunction();
    if (!callee) unsupported("indirect call", c);
    std::string s = c_name(*callee) + "(";
    for (unsigned k = 0; k < c.arg_size(); ++k) s += (k ? ", " : "") + operand(c.getArgOperand(k));
    return s + ")";
  }

  // The byte offset of a getelementptr, from its indices and the data layout.
  std::string gep(const llvm::GetElementPtrInst& g) const {
    std::string s = "(" + operand(g.getPointerOperand());
    for (auto it = llvm::gep_type_begin(g), end = llvm::gep_type_end(g); it != end; ++it) {
      if (it.isStruct()) unsupported("struct getelementptr", g);
      const auto size = dl_.getTypeAllocSize(it.getIndexedType()).getFixedValue();
      s += " + (long long)" + as_signed(it.getOperand()) + " * " + std::to_string(size);
    }
    return s + ")";
  }

  // `phis of target = their incoming values from this block`, through temporaries (a parallel
  // copy: one phi may read another), then the jump.
  void jump(std::ostringstream& os, const llvm::BasicBlock& from, const llvm::BasicBlock& to) {
    os << "{ ";
    int k = 0;
    for (const llvm::PHINode& p : to.phis())
      os << c_type(p.getType()) << " p" << k++ << " = "
         << operand(p.getIncomingValueForBlock(&from)) << "; ";
    k = 0;
    for (const llvm::PHINode& p : to.phis()) os << names_.at(&p) << " = p" << k++ << "; ";
    os << "goto " << blocks_.at(&to) << "; }";
  }

  void statement(std::ostringstream& os, const llvm::Instruction& i, bool one_block) {
    auto assign = [&](const std::string& expr) {
      if (one_block)
        os << "const " << c_type(i.getType()) << " " << names_.at(&i) << " = " << expr << ";\n";
      else
        os << names_.at(&i) << " = " << expr << ";\n";
    };
    if (const auto* b = llvm::dyn_cast<llvm::BinaryOperator>(&i)) return assign(binary(*b));
    if (const auto* c = llvm::dyn_cast<llvm::FCmpInst>(&i)) return assign(fcmp(*c));
    if (const auto* c = llvm::dyn_cast<llvm::ICmpInst>(&i)) return assign(icmp(*c));
    if (const auto* c = llvm::dyn_cast<llvm::CastInst>(&i)) return assign(cast(*c));
    if (const auto* c = llvm::dyn_cast<llvm::IntrinsicInst>(&i)) return assign(intrinsic(*c));
    if (const auto* c = llvm::dyn_cast<llvm::CallInst>(&i)) return assign(helper_call(*c));
    if (const auto* g = llvm::dyn_cast<llvm::GetElementPtrInst>(&i)) return assign(gep(*g));
    if (const auto* s = llvm::dyn_cast<llvm::SelectInst>(&i))
      return assign(operand(s->getCondition()) + " ? " + operand(s->getTrueValue()) + " : " +
                    operand(s->getFalseValue()));
    if (i.getOpcode() == llvm::Instruction::FNeg) return assign("-" + operand(i.getOperand(0)));
    if (const auto* e = llvm::dyn_cast<llvm::ExtractValueInst>(&i))  // a pair's first or second
      return assign(operand(e->getAggregateOperand()) +
                    (e->getIndices()[0] == 0 ? ".first" : ".second"));
    if (const auto* e = llvm::dyn_cast<llvm::InsertValueInst>(&i))
      return assign(std::string(e->getIndices()[0] == 0 ? "fjm_with_first(" : "fjm_with_second(") +
                    operand(e->getAggregateOperand()) + ", " +
                    operand(e->getInsertedValueOperand()) + ")");
    if (llvm::isa<llvm::AllocaInst>(&i)) return assign("(unsigned char*)" + names_.at(&i) + "_m");
    if (const auto* l = llvm::dyn_cast<llvm::LoadInst>(&i))
      return assign("fjm_load<" + c_type(l->getType()) + ">(" + operand(l->getPointerOperand()) +
                    ")");
    if (const auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
      os << "fjm_store(" << operand(s->getPointerOperand()) << ", " << operand(s->getValueOperand())
         << ");\n";
      return;
    }
    if (llvm::isa<llvm::PHINode>(&i)) return;  // assigned by the jumps into its block
    if (const auto* r = llvm::dyn_cast<llvm::ReturnInst>(&i)) {
      os << "return " << operand(r->getReturnValue()) << ";\n";
      return;
    }
    if (const auto* br = llvm::dyn_cast<llvm::BranchInst>(&i)) {
      if (br->isConditional()) {
        os << "if (" << operand(br->getCondition()) << ") ";
        jump(os, *i.getParent(), *br->getSuccessor(0));
        os << " else ";
        jump(os, *i.getParent(), *br->getSuccessor(1));
      } else {
        jump(os, *i.getParent(), *br->getSuccessor(0));
      }
      os << "\n";
      return;
    }
    unsupported("instruction", i);
  }

  const llvm::Function& f_;
  std::string c_name_;  // fj_<name>, overloaded on float and double
  const llvm::DataLayout& dl_;
  std::map<const Value*, std::string> names_;
  std::map<const llvm::BasicBlock*, std::string> blocks_;
  std::map<const llvm::BasicBlock*, std::vector<const llvm::Instruction*>> order_;
};

// The table a global constant holds, as a C array named fjm_<the global's last name part>.
std::string table(const llvm::GlobalVariable& g) {
  const auto* data = llvm::dyn_cast<llvm::ConstantDataArray>(g.getInitializer());
  if (!data || !data->getElementType()->isIntegerTy(64)) unsupported("global", g);
  std::ostringstream os;
  os << "FJM_GLOBAL const unsigned long long fjm_"
     << g.getName().str().substr(g.getName().rfind('.') + 1) << "[" << data->getNumElements()
     << "] = {";
  for (unsigned k = 0; k < data->getNumElements(); ++k)
    os << (k ? ", " : "") << hex_u64(data->getElementAsInteger(k));
  os << "};\n";
  return os.str();
}

using Unary = Value* (*)(llvm::IRBuilderBase&, Value*);
using Binary = Value* (*)(llvm::IRBuilderBase&, Value*, Value*);

}  // namespace gpu_math_detail

std::vector<GpuMathFile> gpu_math_files() {
  using namespace gpu_math_detail;
  namespace m = math;
  const std::vector<std::pair<const char*, Unary>> unary = {{"exp", m::exp},
                                                            {"log", m::log},
                                                            {"log1p", m::log1p},
                                                            {"expm1", m::expm1},
                                                            {"sin", m::sin},
                                                            {"cos", m::cos},
                                                            {"tan", m::tan},
                                                            {"tanh", m::tanh},
                                                            {"erf", m::erf},
                                                            {"erf_inv", m::erf_inv},
                                                            {"logistic", m::logistic},
                                                            {"rsqrt", m::rsqrt},
                                                            {"asin", m::asin},
                                                            {"acos", m::acos},
                                                            {"atan", m::atan},
                                                            {"sinh", m::sinh},
                                                            {"cosh", m::cosh},
                                                            {"asinh", m::asinh},
                                                            {"acosh", m::acosh},
                                                            {"atanh", m::atanh},
                                                            {"cbrt", m::cbrt},
                                                            {"exp2", m::exp2},
                                                            {"erfc", m::erfc},
                                                            {"lgamma", m::lgamma},
                                                            {"digamma", m::digamma},
                                                            {"bessel_i0e", m::bessel_i0e},
                                                            {"bessel_i1e", m::bessel_i1e}};
  const std::vector<std::pair<const char*, Binary>> binary = {
      {"pow", m::pow},
      {"atan2", m::atan2},
      {"polygamma", m::polygamma},
      {"zeta", m::zeta},
      {"igamma", m::igamma},
      {"igammac", m::igammac},
      {"igamma_grad_a", m::igamma_grad_a},
      {"random_gamma_grad", m::random_gamma_grad}};
  const std::string generated =
      "// Generated by fj::backend::llvm_kernel::gpu_math_files() (backend/llvm/"
      "gpu_math_source.cpp)\n// from the LLVM backend's math emitters; do not edit. "
      "Regenerate: scripts/generate-gpu-math.\n";
  llvm::LLVMContext ctx;
  llvm::Module mod("fj_gpu_math", ctx);
  std::vector<GpuMathFile> files(1);  // the index first, filled in last
  std::ostringstream includes;
  std::set<const llvm::Function*> written;
  // One file per function and format, each after the helpers it calls (C needs a function
  // declared before its callers; the index includes the files in this order).
  std::function<void(const llvm::Function&)> write = [&](const llvm::Function& fn) {
    if (!written.insert(&fn).second) return;
    bool uses_table = false;
    for (const llvm::BasicBlock& bb : fn)
      for (const llvm::Instruction& i : bb) {
        if (const auto* c = llvm::dyn_cast<llvm::CallInst>(&i))
          if (const llvm::Function* callee = c->getCalledFunction();
              callee && !callee->isIntrinsic())
            write(*callee);
        for (const llvm::Use& u : i.operands())
          uses_table |= llvm::isa<llvm::GlobalVariable>(u.get());
      }
    const auto [name, format] = name_and_format(fn);
    const std::string file = "kernel_math/" + name + "_" + format + ".def";
    files.push_back({file, "// fj_" + name + " at " + format +
                               ", for backend/cuda/kernel_math.def.\n" + generated + "FJM_ENTRY(" +
                               name + ", " + format + ", " + std::to_string(uses_table) + ",\n" +
                               FunctionWriter(fn, mod.getDataLayout()).write() + ")\n"});
    includes << "#include \"" << file << "\"\n";
  };
  auto entry = [&](const char* name, llvm::Type* t, int arity, auto emit) {
    auto* fty = llvm::FunctionType::get(t, std::vector<llvm::Type*>(arity, t), false);
    const std::string fname = std::string("fjm_") + name + (t->isFloatTy() ? "_f32" : "_f64");
    // A helper of this name would have been built by an earlier function's Fp::outlined; the
    // f64 functions come first so that the f32 ones find theirs, and none is asked for early.
    if (mod.getFunction(fname)) throw CompileError("gpu_math_files: " + fname + " built twice");
    auto* fn = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, fname, mod);
    fn->addFnAttr(llvm_ir::detail::kOutlineHelpers);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
    b.CreateRet(emit(b, fn));
    write(*fn);
  };
  for (llvm::Type* t : {llvm::Type::getDoubleTy(ctx), llvm::Type::getFloatTy(ctx)}) {
    for (const auto& [name, f] : unary)
      entry(name, t, 1,
            [f = f](llvm::IRBuilderBase& b, llvm::Function* fn) { return f(b, fn->getArg(0)); });
    for (const auto& [name, f] : binary)
      entry(name, t, 2, [f = f](llvm::IRBuilderBase& b, llvm::Function* fn) {
        return f(b, fn->getArg(0), fn->getArg(1));
      });
  }
  std::string tables;
  for (const llvm::GlobalVariable& g : mod.globals()) tables += table(g);
  files[0] = {"kernel_math.def",
              "// The GPU's transcendentals: the tables, then one file per function and format.\n" +
                  generated + "FJM_TABLE(\n" + tables + ")\n" + includes.str()};
  return files;
}

}  // namespace fj::backend::llvm_kernel
