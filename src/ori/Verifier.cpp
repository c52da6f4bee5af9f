#include "optxas/ori/Verifier.h"

#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>

namespace optxas::ori {
namespace {

class Verifier {
public:
  Verifier(const Function &f, DiagEngine &diags) : f_(f), diags_(diags), blocks_(f.blocks().begin(), f.blocks().end()) {}

  bool run() {
    for (BasicBlock *bb : f_.blocks()) {
      if (bb->parent() != &f_) problem(bb, nullptr, "block belongs to another function");
      const Instr *prev = nullptr;
      size_t count = 0;
      for (Instr *i : *bb) {
        ++count;
        if (i->parent() != bb || i->function() != &f_) problem(bb, i, "instruction has a wrong parent");
        if (i->prev() != prev) problem(bb, i, "broken instruction list links");
        if (i->isTerminator() && i->next()) problem(bb, i, "terminator is not the last instruction of its block");
        checkInstr(bb, i);
        prev = i;
      }
      if (bb->back() != prev || count != bb->size()) problem(bb, nullptr, "block list tail or size is wrong");
      if (problems_ > kMaxProblems) break;
    }
    return problems_ == 0;
  }

private:
  static constexpr unsigned kMaxProblems = 20;

  void problem(const BasicBlock *bb, const Instr *i, std::string_view what) {
    if (++problems_ > kMaxProblems) return;
    std::string where = fmt::format("function '{}'", f_.name());
    if (bb) where += fmt::format(", bb{}", bb->id());
    if (i) where += fmt::format(", instruction [{}] {}", i->id(), isa::opcodeName(i->opcode()));
    diags_.error(i ? i->loc() : SourceLoc{}, "ori verifier: {}: {}", where, what);
  }

  void checkReg(const BasicBlock *bb, const Instr *i, const Operand &o) {
    if (o.reg >= f_.numVRegs()) return problem(bb, i, fmt::format("register {} does not exist", o.reg));
    const VReg &v = f_.vreg(o.reg);
    if (v.cls != o.cls) problem(bb, i, fmt::format("operand class {} does not match register {} of class {}",
                                                   regClassName(o.cls), o.reg, regClassName(v.cls)));
    if (o.subWidth && o.subOff + o.subWidth > v.width)
      problem(bb, i, fmt::format("sub-range [{}:{}] exceeds the width {} of register {}", o.subOff,
                                 o.subWidth, v.width, o.reg));
    if (f_.isAllocated()) {
      static constexpr int kLimit[] = {255, 7, 63, 7};   // R, P, UR, UP (last is the zero/true reg)
      if (v.phys < 0) problem(bb, i, fmt::format("register {} has no physical register after allocation", o.reg));
      else if (v.phys + v.width > kLimit[static_cast<int>(v.cls)])
        problem(bb, i, fmt::format("register {} is assigned past the end of the {} file", o.reg, regClassName(v.cls)));
      else if (v.align > 1 && v.phys % v.align)
        problem(bb, i, fmt::format("register {} is misaligned ({} is not a multiple of {})", o.reg, v.phys, v.align));
    }
  }

  void checkOperand(const BasicBlock *bb, const Instr *i, const Operand &o, bool isDef) {
    switch (o.kind) {
    case OperandKind::None: return problem(bb, i, "operand is missing");
    case OperandKind::Reg: return checkReg(bb, i, o);
    case OperandKind::Zero:
      if (o.cls != RegClass::R && o.cls != RegClass::UR) problem(bb, i, "RZ/URZ with a predicate class");
      return;
    case OperandKind::True:
      if (o.cls != RegClass::P && o.cls != RegClass::UP) problem(bb, i, "PT/UPT with a general class");
      return;
    default: break;
    }
    if (isDef) return problem(bb, i, "a definition must be a register, RZ or PT");
    switch (o.kind) {
    case OperandKind::Addr:
    case OperandKind::CBank:
      if (o.reg != kNoVReg) checkReg(bb, i, o);
      break;
    case OperandKind::Label:
      if (!o.block || !blocks_.count(o.block))
        problem(bb, i, "branch target is not a block of this function");
      break;
    case OperandKind::Symbol:
      if (!f_.parent() || static_cast<size_t>(o.value) >= f_.parent()->symbols().size())
        problem(bb, i, "symbol operand refers to no module symbol");
      break;
    case OperandKind::SReg:
      if (o.value < 0 || o.value >= static_cast<int64_t>(SpecialReg::NumSpecialRegs))
        problem(bb, i, "unknown special register");
      break;
    default: break;
    }
  }

  void checkInstr(const BasicBlock *bb, const Instr *i) {
    if (static_cast<unsigned>(i->opcode()) >= static_cast<unsigned>(isa::Opcode::NumOpcodes))
      return problem(bb, i, "opcode out of range");
    for (unsigned d = 0; d < i->numDefs(); ++d) checkOperand(bb, i, i->def(d), true);
    for (unsigned u = 0; u < i->numUses(); ++u) checkOperand(bb, i, i->use(u), false);
    const Operand &g = i->guard();
    if (g.kind != OperandKind::None) {
      if (g.kind != OperandKind::Reg || !isPredicateClass(g.cls)) problem(bb, i, "guard is not a predicate register");
      else checkReg(bb, i, g);
    }
    if (i->opcode() == isa::Opcode::PSEUDO_MACRO &&
        static_cast<unsigned>(i->macro()) >= static_cast<unsigned>(MacroKind::NumMacroKinds))
      problem(bb, i, "unknown macro kind");
    auto countKind = [&](OperandKind k) {
      return std::count_if(i->uses().begin(), i->uses().end(), [&](const Operand &o) { return o.kind == k; });
    };
    using isa::Opcode;
    if ((i->opcode() == Opcode::BRA || i->opcode() == Opcode::JMP) && countKind(OperandKind::Label) != 1)
      problem(bb, i, "a direct branch needs exactly one target block");
  }

  const Function &f_;
  DiagEngine &diags_;
  std::unordered_set<const BasicBlock *> blocks_;
  unsigned problems_ = 0;
};

} // namespace

bool verifyFunction(const Function &f, DiagEngine &diags) { return Verifier(f, diags).run(); }

bool verifyModule(const Module &m, DiagEngine &diags) {
  bool ok = true;
  for (const auto &f : m.functions()) ok &= verifyFunction(*f, diags);
  return ok;
}

} // namespace optxas::ori
