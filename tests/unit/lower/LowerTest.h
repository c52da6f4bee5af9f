// Helpers of the lowering unit tests: PTX text in (a kernel body is wrapped in a module), the
// lowered Ori module out, with structural checks every test gets for free:
//   - the PTX parses and checks clean, lowering succeeds;
//   - ori::verifyModule passes;
//   - no virtual register is read before it is written on some path (live-in of the entry block
//     is empty, precolored registers aside);
//   - the printed IR parses back and prints identically.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "optxas/lower/Lower.h"
#include "optxas/ori/CFG.h"
#include "optxas/ori/Liveness.h"
#include "optxas/ori/Parser.h"
#include "optxas/ori/Printer.h"
#include "optxas/ori/Verifier.h"
#include "optxas/ptx/Checker.h"
#include "optxas/ptx/Parser.h"

namespace optxas::lower::test {

using isa::Opcode;
using ori::OperandKind;

struct Lowered {
  std::vector<std::string> messages;
  DiagEngine diags{[this](Severity, const std::string &line) { messages.push_back(line); }};
  std::unique_ptr<ptx::Module> ptx;
  std::unique_ptr<ori::Module> module;

  // `text` is a whole PTX module.
  // `sm`: the SASS target lowered for (-arch sm_XX).
  explicit Lowered(const std::string &text, bool expectSuccess = true, unsigned sm = 90) {
    uint32_t id = diags.addFile("t.ptx");
    ptx::CheckOptions copts;
    ptx::Checker checker(copts, diags);
    ptx::ParseOptions popts;
    popts.checker = &checker;
    ptx = ptx::parseModule(text, id, diags, popts);
    if (diags.hasErrors()) {
      ADD_FAILURE() << "PTX does not parse:\n" << all();
      return;
    }
    LowerOptions lopts;
    lopts.smVersion = sm;
    module = lowerModule(*ptx, lopts, diags);
    if (!expectSuccess) return;
    if (!module) {
      ADD_FAILURE() << "lowering failed:\n" << all();
      return;
    }
    checkStructure();
  }

  std::string all() const {
    std::string s;
    for (const auto &m : messages) s += m + "\n";
    return s;
  }

  ori::Function &fn(size_t i = 0) const { return *module->functions()[i]; }
  ori::Function *fn(std::string_view name) const { return module->findFunction(name); }
  std::string text() const {
    ori::PrintOptions po;
    po.cfgComments = false;
    return module ? ori::toString(*module, po) : std::string();
  }

  // Every instruction of function f with opcode op, in layout order.
  static std::vector<ori::Instr *> find(const ori::Function &f, Opcode op) {
    std::vector<ori::Instr *> out;
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb)
        if (i->opcode() == op) out.push_back(i);
    return out;
  }
  std::vector<ori::Instr *> find(Opcode op) const { return find(fn(), op); }
  ori::Instr *first(Opcode op) const {
    auto v = find(op);
    return v.empty() ? nullptr : v.front();
  }
  size_t count(Opcode op) const { return find(op).size(); }
  // Opcodes of function f in layout order, without pseudo-copies.
  std::vector<Opcode> opcodes(const ori::Function &f) const {
    std::vector<Opcode> v;
    for (ori::BasicBlock *bb : f.blocks())
      for (ori::Instr *i : *bb)
        if (i->opcode() != Opcode::PSEUDO_COPY) v.push_back(i->opcode());
    return v;
  }

private:
  // Forward must-analysis over 32-bit words: every word an instruction reads has been written on
  // every path from the entry (guarded writes count; precolored registers start defined).
  void checkDefinedBeforeUse(ori::Function &f) {
    const size_t n = f.numVRegs() * 8;
    auto bit = [](ori::VRegId r, unsigned w) { return static_cast<size_t>(r) * 8 + w; };
    std::vector<std::vector<bool>> in(f.blockIdLimit(), std::vector<bool>(n, true)), out = in;
    std::vector<bool> entry(n, false);
    for (ori::VRegId r = 0; r < f.numVRegs(); ++r)
      if (f.vreg(r).phys >= 0)
        for (unsigned w = 0; w < 8; ++w) entry[bit(r, w)] = true;
    auto words = [&](const ori::Operand &o, const std::function<void(size_t)> &fn) {
      if (!o.refersToVReg()) return;
      unsigned width = o.subWidth ? o.subWidth : f.vreg(o.reg).width;
      if (o.kind != ori::OperandKind::Reg) width = o.subWidth ? o.subWidth : f.vreg(o.reg).width;
      for (unsigned w = 0; w < width; ++w) fn(bit(o.reg, o.subOff + w));
    };
    // Predecessors from the branches and fall-through edges.
    std::vector<std::vector<ori::BasicBlock *>> preds(f.blockIdLimit());
    const auto &blocks = f.blocks();
    for (size_t k = 0; k < blocks.size(); ++k) {
      ori::Instr *t = blocks[k]->back();
      if (t && t->opcode() == Opcode::BRA) preds[t->use(0).block->id()].push_back(blocks[k]);
      bool fallsThrough = !t || !t->isTerminator() || t->isPredicated();
      if (fallsThrough && k + 1 < blocks.size()) preds[blocks[k + 1]->id()].push_back(blocks[k]);
    }
    auto transfer = [&](ori::BasicBlock *bb, std::vector<bool> state, bool report) {
      for (ori::Instr *i : *bb) {
        auto check = [&](const ori::Operand &o) {
          words(o, [&](size_t b) {
            if (report && !state[b])
              ADD_FAILURE() << "register %" << b / 8 << " word " << b % 8 << " of " << f.name()
                            << " is read before it is written, by [" << i->id() << "]\n" << text();
          });
        };
        for (const ori::Operand &u : i->uses()) check(u);
        if (i->isPredicated()) check(i->guard());
        for (const ori::Operand &d : i->defs()) words(d, [&](size_t b) { state[b] = true; });
      }
      return state;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (ori::BasicBlock *bb : blocks) {
        std::vector<bool> st = bb == f.entry() ? entry : std::vector<bool>(n, true);
        if (bb != f.entry()) {
          if (preds[bb->id()].empty()) st.assign(n, true);   // unreachable
          for (ori::BasicBlock *p : preds[bb->id()])
            for (size_t b = 0; b < n; ++b) st[b] = st[b] && out[p->id()][b];
        }
        auto o = transfer(bb, st, false);
        if (o != out[bb->id()] || st != in[bb->id()]) {
          in[bb->id()] = st;
          out[bb->id()] = o;
          changed = true;
        }
      }
    }
    for (ori::BasicBlock *bb : blocks) transfer(bb, in[bb->id()], true);
  }

  void checkStructure() {
    DiagEngine vd([this](Severity, const std::string &line) { messages.push_back(line); });
    EXPECT_TRUE(ori::verifyModule(*module, vd)) << all();
    for (const auto &f : module->functions()) checkDefinedBeforeUse(*f);
    std::string printed = text();
    DiagEngine pd([this](Severity, const std::string &line) { messages.push_back(line); });
    auto back = ori::parseModule(printed, pd, "lowered.ori");
    if (!back) {
      ADD_FAILURE() << "printed IR does not parse back:\n" << all() << printed;
      return;
    }
    ori::PrintOptions po;
    po.cfgComments = false;
    EXPECT_EQ(ori::toString(*back, po), printed);
  }
};

// A kernel with the given parameters, register declarations and body.
inline std::string kernel(const std::string &params, const std::string &body, const std::string &globals = "") {
  return ".version 8.5\n.target sm_90\n.address_size 64\n" + globals + "\n.visible .entry k(" + params +
         ")\n{\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<40>;\n  .reg .pred %p<10>;\n  .reg .b16 %h<10>;\n" + body +
         "\n  ret;\n}\n";
}

// Operand predicates.
inline bool isReg(const ori::Operand &o) { return o.kind == OperandKind::Reg; }
inline bool isImm(const ori::Operand &o, int64_t v) { return o.kind == OperandKind::Imm && o.value == v; }
inline bool isRZ(const ori::Operand &o) { return o.kind == OperandKind::Zero; }
inline bool isPT(const ori::Operand &o) { return o.kind == OperandKind::True && !o.hasFlag(ori::OpNot); }
inline bool isNotPT(const ori::Operand &o) { return o.kind == OperandKind::True && o.hasFlag(ori::OpNot); }
inline bool isCBank(const ori::Operand &o, unsigned bank, int64_t off) {
  return o.kind == OperandKind::CBank && o.bank == bank && o.value == off;
}
inline unsigned widthOf(const ori::Function &f, const ori::Operand &o) {
  return o.subWidth ? o.subWidth : f.vreg(o.reg).width;
}

} // namespace optxas::lower::test
