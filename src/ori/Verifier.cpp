#include "optxas/ori/Verifier.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

#include "optxas/ori/CFG.h"

#include <fmt/format.h>
#include <llvm/ADT/BitVector.h>

namespace optxas::ori {
namespace {

class Verifier {
public:
  Verifier(const Function &f, DiagEngine &diags, const VerifyOptions &opts)
      : f_(f), diags_(diags), opts_(opts), blocks_(f.blocks().begin(), f.blocks().end()) {}

  bool run() {
    checkStructure();
    // The flow checks need a sound instruction list and operands to say anything useful.
    if (problems_ == 0 && opts_.controlFlow) checkControlFlow();
    if (problems_ == 0 && opts_.defsReachUses && !f_.isAllocated()) checkDefsReachUses();
    return problems_ == 0;
  }

private:
  void checkStructure() {
    std::unordered_set<uint32_t> blockIds;
    for (BasicBlock *bb : f_.blocks()) {
      if (bb->parent() != &f_) problem(bb, nullptr, "block belongs to another function");
      if (!blockIds.insert(bb->id()).second) problem(bb, nullptr, "two blocks share this id");
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
  }

  // Successors as the terminators and the layout imply them (the same rule as ori/CFG.cpp).
  void computeFlow() {
    succs_.assign(f_.blockIdLimit(), {});
    for (BasicBlock *bb : f_.blocks()) succs_[bb->id()] = computeSuccessors(f_, bb);
    reachable_.assign(f_.blockIdLimit(), false);
    rpo_.clear();
    BasicBlock *entry = f_.entry();
    if (!entry) return;
    std::vector<std::pair<BasicBlock *, size_t>> stack{{entry, 0}};
    std::vector<BasicBlock *> post;
    reachable_[entry->id()] = true;
    while (!stack.empty()) {
      auto &[bb, next] = stack.back();
      const auto &ss = succs_[bb->id()];
      if (next < ss.size()) {
        BasicBlock *s = ss[next++];
        if (!reachable_[s->id()]) {
          reachable_[s->id()] = true;
          stack.push_back({s, 0});
        }
      } else {
        post.push_back(bb);
        stack.pop_back();
      }
    }
    rpo_.assign(post.rbegin(), post.rend());
  }

  // Block terminators and, when phase 3 has stored an analysis, that it still matches the code.
  void checkControlFlow() {
    computeFlow();
    const auto &blocks = f_.blocks();
    if (blocks.empty()) return problem(nullptr, nullptr, "function has no blocks");
    // Control must not run off the end of the function: the last block, when reachable, ends in
    // an unconditional terminator that does not fall through (EXIT, RET, BRA, ...).
    const BasicBlock *last = blocks.back();
    if (reachable_[last->id()]) {
      const Instr *t = last->terminator();
      if (!t || t->isPredicated())
        problem(last, t, "control falls off the end of the function (the last block has no unconditional terminator)");
    }
    for (BasicBlock *bb : blocks) {
      if (!f_.cfg()) continue;
      // A stored analysis must agree with the code: a phase that changed the flow and kept the
      // old edges would mislead every later phase that reads them.
      auto sorted = [](std::vector<BasicBlock *> v) {
        std::sort(v.begin(), v.end(), [](auto *a, auto *b) { return a->id() < b->id(); });
        return v;
      };
      if (sorted(bb->succs()) != sorted(succs_[bb->id()]))
        problem(bb, nullptr, "stored CFG successors do not match the block's terminator and fall-through");
      std::vector<BasicBlock *> preds;
      for (BasicBlock *p : blocks)
        for (BasicBlock *s : succs_[p->id()])
          if (s == bb) preds.push_back(p);
      if (sorted(bb->preds()) != sorted(preds))
        problem(bb, nullptr, "stored CFG predecessors do not match the branches into the block");
      if (bb->reachable() != static_cast<bool>(reachable_[bb->id()]))
        problem(bb, nullptr, "stored CFG reachability is stale");
      else if (bb->reachable() && bb != f_.entry() && !bb->idom())
        problem(bb, nullptr, "reachable block has no immediate dominator");
    }
  }

  // Every read of a register that the function defines is reached by some definition: a path
  // from the entry to the use passes a definition of the register. The IR is not SSA (a register
  // may have several definitions), and "defined on every path" would reject valid programs: PTX
  // often defines a register under one condition and reads it under a correlated one. Registers
  // the function never defines hold undefined values, which PTX may read (nvcc passes struct
  // padding bytes that way), so they are not reported either. What is left is a read placed
  // where none of the register's definitions can have happened yet: a transformation that moved
  // a use above its definition or a definition below its uses, or rewired a register. Guarded and
  // partial definitions count. Registers precolored before allocation (ABI argument and
  // call-result registers) are written by the call boundary, not by an instruction, and are
  // exempt, as are the sources of copies into them (padding words) and PSEUDO_PHI operands
  // (read on the incoming edges). Unreachable blocks are not checked.
  // A copy into a precolored (ABI argument or result) register passes on whatever the program
  // left in the source: a struct's padding words are copied without ever being written.
  bool isAbiCopy(const Instr &i) const {
    return i.opcode() == isa::Opcode::PSEUDO_COPY && i.numDefs() == 1 && i.def(0).kind == OperandKind::Reg &&
           i.def(0).reg < f_.numVRegs() && f_.vreg(i.def(0).reg).phys >= 0;
  }

  void checkDefsReachUses() {
    if (succs_.empty()) computeFlow();
    const size_t n = f_.numVRegs();
    if (n == 0 || rpo_.empty()) return;
    using Bits = llvm::BitVector;
    std::vector<Bits> out(f_.blockIdLimit(), Bits(n, false));   // "some definition reaches"
    std::vector<std::vector<BasicBlock *>> preds(f_.blockIdLimit());
    for (BasicBlock *bb : rpo_)
      for (BasicBlock *s : succs_[bb->id()]) preds[s->id()].push_back(bb);
    auto entryState = [&](const BasicBlock *bb) {
      Bits in(n, false);
      for (BasicBlock *p : preds[bb->id()]) in |= out[p->id()];
      return in;
    };
    Bits definedSomewhere(n, false);
    for (const BasicBlock *bb : f_.blocks())
      for (const Instr *i : *bb)
        for (const Operand &d : i->defs())
          if (d.kind == OperandKind::Reg && d.reg < n) definedSomewhere.set(d.reg);
    auto defineAll = [&](Bits &state, const Instr *i) {
      for (const Operand &d : i->defs())
        if (d.kind == OperandKind::Reg && d.reg < n) state.set(d.reg);
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (BasicBlock *bb : rpo_) {
        Bits state = entryState(bb);
        for (const Instr *i : *bb) defineAll(state, i);
        if (state != out[bb->id()]) {
          out[bb->id()] = std::move(state);
          changed = true;
        }
      }
    }
    for (BasicBlock *bb : rpo_) {
      Bits state = entryState(bb);
      for (const Instr *i : *bb) {
        if (i->opcode() != isa::Opcode::PSEUDO_PHI && !isAbiCopy(*i)) {
          auto check = [&](const Operand &o) {
            if (!o.refersToVReg() || o.reg >= n || state.test(o.reg) || !definedSomewhere.test(o.reg) ||
                f_.vreg(o.reg).phys >= 0)
              return;
            problem(bb, i, fmt::format("register {} is read but no definition of it reaches this use", o.reg));
            state.set(o.reg);   // one report per register and block
          };
          for (const Operand &u : i->uses()) check(u);
          for (const Operand &d : i->defs())
            if (d.kind != OperandKind::Reg && d.refersToVReg()) check(d);
          if (i->guard().kind == OperandKind::Reg) check(i->guard());
        }
        defineAll(state, i);
        if (problems_ > kMaxProblems) return;
      }
    }
  }

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
    // (@!PT is allowed: padding that never executes, as before sm_8x's ARRIVES.LDGSTSBAR)
    const bool never = g.kind == OperandKind::True && g.hasFlag(OpNot) && g.cls == RegClass::P;
    if (g.kind != OperandKind::None && !never) {
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
  VerifyOptions opts_;
  std::unordered_set<const BasicBlock *> blocks_;
  std::vector<std::vector<BasicBlock *>> succs_;   // by block id
  std::vector<bool> reachable_;                    // by block id
  std::vector<BasicBlock *> rpo_;                  // reachable blocks, reverse post-order
  unsigned problems_ = 0;
};

} // namespace

bool verifyFunction(const Function &f, DiagEngine &diags, const VerifyOptions &opts) {
  return Verifier(f, diags, opts).run();
}

bool verifyModule(const Module &m, DiagEngine &diags) {
  bool ok = true;
  for (const auto &f : m.functions()) ok &= verifyFunction(*f, diags);
  return ok;
}

} // namespace optxas::ori
