#include "optxas/ori/Printer.h"

#include <bit>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "optxas/ori/CFG.h"
#include "optxas/ori/ModifierText.h"

namespace optxas::ori {

namespace {

void appendHex(std::string &out, int64_t v) {
  if (v < 0) fmt::format_to(std::back_inserter(out), "-0x{:x}", static_cast<uint64_t>(-(v + 1)) + 1);
  else fmt::format_to(std::back_inserter(out), "0x{:x}", static_cast<uint64_t>(v));
}

std::string_view floatTypeKey(isa::FloatType t) {
  switch (t) {
  case isa::FloatType::F16: return "f16";
  case isa::FloatType::BF16: return "bf16";
  case isa::FloatType::F64: return "f64";
  case isa::FloatType::TF32: return "tf32";
  default: return "f32";
  }
}

// f32/f64 print as their shortest decimal that reads back to the same bits; everything else
// (and NaN/infinity) as raw bits.
void appendFloatImm(std::string &out, const Operand &o) {
  fmt::format_to(std::back_inserter(out), "{}:", floatTypeKey(o.fType));
  auto bits = static_cast<uint64_t>(o.value);
  if (o.fType == isa::FloatType::F64) {
    double d = std::bit_cast<double>(bits);
    if (std::isfinite(d)) {
      std::string s = fmt::format("{}", d);
      if (std::bit_cast<uint64_t>(std::strtod(s.c_str(), nullptr)) == bits) {
        out += s;
        return;
      }
    }
  } else if (o.fType == isa::FloatType::F32 || o.fType == isa::FloatType::None) {
    float f = std::bit_cast<float>(static_cast<uint32_t>(bits));
    if (std::isfinite(f)) {
      std::string s = fmt::format("{}", f);
      if (std::bit_cast<uint32_t>(std::strtof(s.c_str(), nullptr)) == static_cast<uint32_t>(bits)) {
        out += s;
        return;
      }
    }
  }
  fmt::format_to(std::back_inserter(out), "0x{:x}", bits);
}

// A register reference (Reg operand, or the index of Addr/CBank) in vreg or physical form.
void appendRegRef(std::string &out, const Function &f, const Operand &o, const PrintOptions &opts,
                  bool addressContext) {
  const VReg *v = o.reg < f.numVRegs() ? &f.vreg(o.reg) : nullptr;
  if (opts.physical && v && v->phys >= 0) {
    out += physRegName(v->cls, v->phys + o.subOff);
    unsigned width = o.subWidth ? o.subWidth : v->width;
    if (addressContext && width == 2) out += ".64";
    return;
  }
  fmt::format_to(std::back_inserter(out), "{}{}", vregPrefix(v ? v->cls : o.cls), o.reg);
  if (o.subWidth == 1) fmt::format_to(std::back_inserter(out), "[{}]", o.subOff);
  else if (o.subWidth > 1) fmt::format_to(std::back_inserter(out), "[{}:{}]", o.subOff, o.subWidth);
}

void appendOffset(std::string &out, int64_t off, bool afterReg) {
  if (afterReg) {
    if (off == 0) return;
    out += off < 0 ? "-" : "+";
    appendHex(out, off < 0 ? -off : off);
  } else {
    appendHex(out, off);
  }
}

} // namespace

std::string physRegName(RegClass c, int n) {
  switch (c) {
  case RegClass::R: return n == 255 ? "RZ" : fmt::format("R{}", n);
  case RegClass::UR: return n == 63 ? "URZ" : fmt::format("UR{}", n);
  case RegClass::P: return n == 7 ? "PT" : fmt::format("P{}", n);
  case RegClass::UP: return n == 7 ? "UPT" : fmt::format("UP{}", n);
  }
  return "?";
}

void printOperand(std::string &out, const Function &f, const Operand &o, const PrintOptions &opts) {
  if (o.hasFlag(OpNot)) out += '!';
  if (o.hasFlag(OpNeg)) out += '-';
  if (o.hasFlag(OpAbs)) out += '|';
  switch (o.kind) {
  case OperandKind::None: out += "<none>"; break;
  case OperandKind::Reg: appendRegRef(out, f, o, opts, false); break;
  case OperandKind::Zero: out += o.cls == RegClass::UR ? "URZ" : "RZ"; break;
  case OperandKind::True: out += o.cls == RegClass::UP ? "UPT" : "PT"; break;
  case OperandKind::Imm: appendHex(out, o.value); break;
  case OperandKind::FImm: appendFloatImm(out, o); break;
  case OperandKind::CBank:
    fmt::format_to(std::back_inserter(out), "c[0x{:x}][", o.bank);
    if (o.reg != kNoVReg) appendRegRef(out, f, o, opts, false);
    appendOffset(out, o.value, o.reg != kNoVReg);
    out += ']';
    break;
  case OperandKind::Addr:
    out += '[';
    if (o.reg != kNoVReg) appendRegRef(out, f, o, opts, true);
    appendOffset(out, o.value, o.reg != kNoVReg);
    out += ']';
    break;
  case OperandKind::Label:
    if (o.block) fmt::format_to(std::back_inserter(out), "bb{}", o.block->id());
    else out += "bb?";
    break;
  case OperandKind::Symbol: {
    const Module *m = f.parent();
    auto idx = static_cast<size_t>(o.value);
    if (m && idx < m->symbols().size()) fmt::format_to(std::back_inserter(out), "\"{}\"", m->symbol(idx).name);
    else fmt::format_to(std::back_inserter(out), "\"<symbol {}>\"", o.value);
    break;
  }
  case OperandKind::SReg: out += specialRegName(o.specialReg()); break;
  }
  if (o.hasFlag(OpAbs)) out += '|';
  if (o.hasFlag(OpH0H0)) out += ".H0_H0";
  if (o.hasFlag(OpH1H1)) out += ".H1_H1";
  if (o.hasFlag(OpReuse)) out += ".reuse";
}

void printInstr(std::string &out, const Instr &i, const PrintOptions &opts) {
  const Function &f = *i.function();
  if (opts.ids) fmt::format_to(std::back_inserter(out), "[{}] ", i.id());
  if (i.isPredicated()) {
    out += '@';
    printOperand(out, f, i.guard(), opts);
    out += ' ';
  }
  for (unsigned d = 0; d < i.numDefs(); ++d) {
    if (d) out += ", ";
    printOperand(out, f, i.def(d), opts);
  }
  if (i.numDefs()) out += " = ";
  out += isa::opcodeName(i.opcode());
  if (i.opcode() == isa::Opcode::PSEUDO_MACRO) fmt::format_to(std::back_inserter(out), ".{}", macroName(i.macro()));
  appendModifierText(out, i.mods());
  if (i.type() != DataType::None) fmt::format_to(std::back_inserter(out), ".{}", dataTypeName(i.type()));
  for (unsigned u = 0; u < i.numUses(); ++u) {
    out += u ? ", " : " ";
    printOperand(out, f, i.use(u), opts);
  }
  // Attributes that are not operands: source location and control bits.
  std::string attrs;
  if (i.loc().valid())
    fmt::format_to(std::back_inserter(attrs), " loc={}:{}:{}", i.loc().file, i.loc().line, i.loc().col);
  const ControlInfo &c = i.ctrl();
  if (c.valid) {
    attrs += " ctrl";
    if (c.stall) fmt::format_to(std::back_inserter(attrs), " stall={}", c.stall);
    if (c.yield) attrs += " yield";
    if (c.writeBarrier != 7) fmt::format_to(std::back_inserter(attrs), " wr={}", c.writeBarrier);
    if (c.readBarrier != 7) fmt::format_to(std::back_inserter(attrs), " rd={}", c.readBarrier);
    if (c.waitMask) fmt::format_to(std::back_inserter(attrs), " wait=0x{:x}", c.waitMask);
    if (c.reuseMask) fmt::format_to(std::back_inserter(attrs), " reuse=0x{:x}", c.reuseMask);
  }
  if (!attrs.empty()) fmt::format_to(std::back_inserter(out), " {{{}}}", std::string_view(attrs).substr(1));
}

void printFunction(std::string &out, const Function &f, const PrintOptions &opts) {
  fmt::format_to(std::back_inserter(out), ".function \"{}\" {}\n", f.name(), f.isEntry() ? "entry" : "func");
  if (f.localBytes || f.spillBytes || f.lowSpillBytes || f.sharedBytes || f.isAllocated()) {
    out += ".frame";
    if (f.localBytes) fmt::format_to(std::back_inserter(out), " local={}", f.localBytes);
    if (f.spillBytes) fmt::format_to(std::back_inserter(out), " spill={}", f.spillBytes);
    if (f.lowSpillBytes) fmt::format_to(std::back_inserter(out), " lowspill={}", f.lowSpillBytes);
    if (f.sharedBytes) fmt::format_to(std::back_inserter(out), " shared={}", f.sharedBytes);
    if (f.isAllocated()) out += " allocated";
    out += '\n';
  }
  // Declare the registers whose name does not say everything: wide, aligned, assigned, or unused.
  std::vector<bool> used(f.numVRegs(), false);
  for (BasicBlock *bb : f.blocks())
    for (Instr *i : *bb) {
      for (const Operand &o : i->operands())
        if (o.reg < used.size()) used[o.reg] = true;
      if (i->guard().reg < used.size()) used[i->guard().reg] = true;
    }
  for (VRegId r = 0; r < f.numVRegs(); ++r) {
    const VReg &v = f.vreg(r);
    unsigned naturalAlign = v.width >= 3 ? 4 : v.width;
    if (v.width == 1 && v.align == 1 && v.phys < 0 && used[r]) continue;
    fmt::format_to(std::back_inserter(out), ".reg {}{}", vregPrefix(v.cls), r);
    if (v.width != 1) fmt::format_to(std::back_inserter(out), " x{}", v.width);
    if (v.align != naturalAlign) fmt::format_to(std::back_inserter(out), " align={}", v.align);
    if (v.phys >= 0) fmt::format_to(std::back_inserter(out), " -> {}", physRegName(v.cls, v.phys));
    out += '\n';
  }
  const ControlFlowInfo *cfg = f.cfg();
  for (BasicBlock *bb : f.blocks()) {
    fmt::format_to(std::back_inserter(out), "bb{}", bb->id());
    if (!bb->label().empty()) fmt::format_to(std::back_inserter(out), " \"{}\"", bb->label());
    if (bb->noUnroll()) out += " nounroll";
    out += ':';
    std::vector<std::string> facts;
    if (cfg && opts.cfgComments) {
      std::string preds = "preds:", succs = "succs:";
      if (bb->preds().empty()) preds += " -";
      for (BasicBlock *p : bb->preds()) fmt::format_to(std::back_inserter(preds), " bb{}", p->id());
      if (bb->succs().empty()) succs += " -";
      for (BasicBlock *s : bb->succs()) fmt::format_to(std::back_inserter(succs), " bb{}", s->id());
      facts = {preds, succs};
      if (!bb->reachable()) facts.push_back("unreachable");
      if (bb->isLoopHeader()) facts.push_back("loop-header");
      if (bb->loopDepth()) facts.push_back(fmt::format("depth={}", bb->loopDepth()));
    }
    if (!facts.empty()) fmt::format_to(std::back_inserter(out), "  // {}", fmt::join(facts, "  "));
    out += '\n';
    for (Instr *i : *bb) {
      out += "  ";
      printInstr(out, *i, opts);
      out += '\n';
    }
  }
  out += ".end\n";
}

void printModule(std::string &out, const Module &m, const PrintOptions &opts) {
  fmt::format_to(std::back_inserter(out), ".module sm_{} addr{}\n", m.smVersion(), m.addressBits());
  for (const Symbol &s : m.symbols()) {
    fmt::format_to(std::back_inserter(out), ".symbol \"{}\" {} size={} align={}", s.name,
                   symbolKindName(s.kind), s.size, s.align);
    if (!s.init.empty()) {
      out += " init=";
      for (uint8_t b : s.init) fmt::format_to(std::back_inserter(out), "{:02x}", b);
    }
    out += '\n';
  }
  for (const auto &f : m.functions()) printFunction(out, *f, opts);
}

std::string toString(const Instr &i, const PrintOptions &opts) {
  std::string s;
  printInstr(s, i, opts);
  return s;
}
std::string toString(const Function &f, const PrintOptions &opts) {
  std::string s;
  printFunction(s, f, opts);
  return s;
}
std::string toString(const Module &m, const PrintOptions &opts) {
  std::string s;
  printModule(s, m, opts);
  return s;
}

} // namespace optxas::ori
