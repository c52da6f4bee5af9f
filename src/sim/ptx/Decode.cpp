// Decoding of function bodies: frames (register slots, local frame layout) and operands.
#include "Decoder.h"

#include <fmt/format.h>

namespace optxas::sim::ptxi {

using namespace optxas::ptx;

unsigned typeWidth(Type t) {
  unsigned b = typeBits(t);
  if (t == Type::Pred) return 1;
  if (b <= 8) return 8;
  if (b <= 16) return 16;
  if (b <= 32) return 32;
  return 64;
}

bool typeSigned(Type t) { return isSigned(t); }

namespace {
uint64_t alignUp(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }
bool isSharedSpace(StateSpace s) {
  return s == StateSpace::Shared || s == StateSpace::SharedCta || s == StateSpace::SharedCluster;
}
} // namespace

void Decoder::decodeAll() {
  for (auto &f : p_.functions) decodeFunction(*f);
}

uint32_t Decoder::newSlot(uint64_t init) {
  f_->initialRegs.push_back(init);
  return f_->numSlots++;
}

uint32_t Decoder::constSlot(uint64_t bits) {
  auto it = consts_.find(bits);
  if (it != consts_.end()) return it->second;
  uint32_t s = newSlot(bits);
  consts_[bits] = s;
  return s;
}

void Decoder::layoutFrame(DFunction &f) {
  const Function &fn = *f.fn;
  f.regSlot.assign(fn.numRegs, 0);
  for (const RegDecl *r : fn.regs) {
    for (uint32_t i = 0; i < r->count; ++i) {
      uint32_t id = r->firstId + i;
      if (id >= f.regSlot.size()) f.regSlot.resize(id + 1, 0);
      f.regSlot[id] = f.numSlots;
      unsigned slots = r->vecWidth * (typeBits(r->type) > 64 ? 2 : 1);   // .b128: two slots
      for (unsigned k = 0; k < slots; ++k) f.initialRegs.push_back(0), ++f.numSlots;
    }
  }
  // Frame: the function's .param parameters and results, then the .local and .param variables
  // of its body.
  uint32_t off = 0, align = 16;
  auto place = [&](const Variable *v) {
    uint32_t a = v->alignment();
    if (a > align) align = a;
    off = uint32_t(alignUp(off, a));
    frameOffset_[v] = off;
    uint32_t at = off;
    off += uint32_t(v->sizeInBytes());
    return at;
  };
  auto param = [&](const Variable *v) {
    FuncParam fp;
    fp.size = uint32_t(v->sizeInBytes());
    if (v->space == StateSpace::Reg) {
      fp.isReg = true;
      fp.slot = newSlot();
      regParam_[v] = fp.slot;
    } else {
      fp.offset = place(v);
    }
    return fp;
  };
  if (!f.isKernel) {
    for (const Variable *v : fn.results) f.results.push_back(param(v));
    for (const Variable *v : fn.params) f.params.push_back(param(v));
  }
  for (const Variable *v : fn.locals)
    if (v->space == StateSpace::Local || v->space == StateSpace::Param ||
        v->space == StateSpace::Reg)
      place(v);
  f.frameBytes = uint32_t(alignUp(off, 16));
  f.frameAlign = align;
}

void Decoder::decodeFunction(DFunction &f) {
  f_ = &f;
  consts_.clear();
  frameOffset_.clear();
  regParam_.clear();
  fixups_.clear();
  tableFixups_.clear();
  const Function &fn = *f.fn;
  layoutFrame(f);
  firstOpOfInstr_.assign(fn.instructions.size() + 1, 0);
  for (uint32_t i = 0; i < fn.instructions.size(); ++i) {
    firstOpOfInstr_[i] = uint32_t(f.code.size());
    decodeInstruction(*fn.instructions[i], i);
  }
  firstOpOfInstr_[fn.instructions.size()] = uint32_t(f.code.size());
  // Falling off the end of a body returns (kernels: exits).
  DOp end;
  end.op = XOp::Ret;
  f.code.push_back(end);
  for (const Fixup &fx : fixups_) {
    uint32_t idx = fx.label && fx.label->defined ? fx.label->instrIndex : 0;
    f.code[fx.op].imm = firstOpOfInstr_[std::min<size_t>(idx, fn.instructions.size())];
  }
  for (const TableFixup &t : tableFixups_) {
    auto &tab = p_.branchTables[t.table];
    for (const Label *l : t.labels)
      tab.push_back(firstOpOfInstr_[std::min<size_t>(l->instrIndex, fn.instructions.size())]);
  }
  f_ = nullptr;
}

void Decoder::emit(DOp op) { f_->code.push_back(op); }

DOp Decoder::unsupported(const Instruction &ins, std::string why) {
  DOp op;
  op.op = XOp::Unsupported;
  op.src = &ins;
  op.aux = uint32_t(p_.messages.size());
  p_.messages.push_back(std::move(why));
  return op;
}

uint64_t Decoder::immBits(const Operand &o, Type t) const {
  uint64_t bits = o.bits;
  if (t == Type::Pred) return o.kind == OperandKind::ImmInt ? (o.bits != 0) : 0;
  if (o.kind == OperandKind::ImmFloat) {
    double d = o.isSingle ? double(fp::asF32(uint32_t(o.bits))) : fp::asF64(o.bits);
    switch (t) {
    case Type::F32: bits = o.isSingle ? (o.bits & 0xffffffffu) : fp::roundToFormat(d, 0, fp::kF32, fp::Round::RN); break;
    case Type::F64: bits = fp::bitsF64(d); break;
    case Type::F16: bits = fp::roundToFormat(d, 0, fp::kF16, fp::Round::RN); break;
    case Type::BF16: bits = fp::roundToFormat(d, 0, fp::kBF16, fp::Round::RN); break;
    default: bits = o.isSingle ? (o.bits & 0xffffffffu) : o.bits; break;   // bit pattern
    }
  }
  return normalize(bits, typeWidth(t), typeSigned(t));
}

uint32_t Decoder::regSlot(const Operand &o) {
  if (!o.reg) return scratch();
  uint32_t id = o.regId();
  if (id >= f_->regSlot.size()) return scratch();
  int c = o.componentIndex();
  return f_->regSlot[id] + (c > 0 && o.reg->vecWidth > 1 ? uint32_t(c) : 0);
}

uint32_t Decoder::symbolValue(const Operand &o) {
  const Decl *d = o.sym;
  if (d && d->kind == DeclKind::Variable) {
    const auto *v = static_cast<const Variable *>(d);
    if (auto it = regParam_.find(v); it != regParam_.end()) return it->second;
    if (auto it = frameOffset_.find(v); it != frameOffset_.end()) {
      uint32_t s = scratch();
      DOp op;
      op.op = XOp::LocalAddr;
      op.nd = 1;
      op.r[0] = s;
      op.imm = int64_t(it->second) + o.offset;
      emit(op);
      return s;
    }
    if (auto it = moduleLocalOffset_.find(v); it != moduleLocalOffset_.end())
      return constSlot(it->second + uint64_t(o.offset));
    if (v->space == StateSpace::Param && f_->isKernel) {
      auto slots = kernelParamSlots(*f_->fn);
      for (size_t i = 0; i < f_->fn->params.size(); ++i)
        if (f_->fn->params[i] == v) return constSlot(slots[i].offset + uint64_t(o.offset));
    }
  }
  return constSlot(symbolAddress(d, o.offset, false));
}

uint32_t Decoder::src(const Operand &o, Type t) {
  switch (o.kind) {
  case OperandKind::Reg: return regSlot(o);
  case OperandKind::ImmInt:
  case OperandKind::ImmFloat: return constSlot(immBits(o, t));
  case OperandKind::SReg: {
    uint32_t s = scratch();
    DOp op;
    op.op = XOp::SReg;
    op.nd = 1;
    op.r[0] = s;
    op.mode = uint8_t(o.sreg);
    int c = o.componentIndex();
    op.mode2 = uint8_t(c < 0 ? 0 : c);
    op.type = t;
    op.bits = uint8_t(typeWidth(t));
    emit(op);
    return s;
  }
  case OperandKind::Symbol: return symbolValue(o);
  default: return scratch();
  }
}

uint32_t Decoder::dst(const Operand &o) {
  if (o.kind == OperandKind::Reg) return regSlot(o);
  if (o.kind == OperandKind::Symbol && o.sym && o.sym->kind == DeclKind::Variable) {
    auto it = regParam_.find(static_cast<const Variable *>(o.sym));
    if (it != regParam_.end()) return it->second;
  }
  return scratch();   // sink '_' (or anything unwritable)
}

bool Decoder::address(const Operand &o, DOp &op) {
  op.abase = kNoSlot;
  op.rel = AddrRel::None;
  if (o.kind != OperandKind::Address) {
    // A bare symbol or register used as an address (accepted by some instructions).
    if (o.kind == OperandKind::Reg) {
      op.abase = regSlot(o);
      op.imm = 0;
      return true;
    }
    if (o.kind != OperandKind::Symbol) return false;
  }
  if (o.kind == OperandKind::Address && o.base == BaseKind::Reg) {
    if (!o.reg) return false;
    op.abase = regSlot(o);
    op.imm = o.offset;
    return true;
  }
  if (o.kind == OperandKind::Address && o.base == BaseKind::None) {
    op.imm = o.offset;
    return true;
  }
  const Decl *d = o.sym;
  if (!d || d->kind != DeclKind::Variable) {
    op.imm = int64_t(symbolAddress(d, o.offset, op.space == Space::Generic));
    return d != nullptr;
  }
  const auto *v = static_cast<const Variable *>(d);
  if (auto it = frameOffset_.find(v); it != frameOffset_.end()) {
    // .local variables, .func parameters and call-site .param variables live in the frame.
    op.rel = AddrRel::Frame;
    if (op.space == Space::Generic) {
      op.imm = int64_t(map_.localWindow) + it->second + o.offset;
    } else {
      op.space = Space::Local;
      op.imm = int64_t(it->second) + o.offset;
    }
    return true;
  }
  if (auto it = moduleLocalOffset_.find(v); it != moduleLocalOffset_.end()) {
    op.imm = int64_t(it->second) + o.offset + (op.space == Space::Generic ? int64_t(map_.localWindow) : 0);
    if (op.space != Space::Generic) op.space = Space::Local;
    return true;
  }
  if (v->space == StateSpace::Param) {
    if (f_->isKernel) {
      auto slots = kernelParamSlots(*f_->fn);
      for (size_t i = 0; i < f_->fn->params.size(); ++i)
        if (f_->fn->params[i] == v) {
          op.space = Space::Param;
          op.imm = int64_t(slots[i].offset) + o.offset;
          return true;
        }
    }
    return false;
  }
  bool generic = op.space == Space::Generic;
  op.imm = int64_t(symbolAddress(v, o.offset, generic));
  if (!generic) {
    // The instruction's space decides; a mismatch with the variable's space is the program's
    // problem (ptxas rejects it), keep the variable's own space.
    if (v->space == StateSpace::Global) op.space = Space::Global;
    else if (v->space == StateSpace::Const) op.space = Space::Const;
    else if (isSharedSpace(v->space)) op.space = Space::Shared;
  }
  return true;
}

void Decoder::setOperands(DOp &op, std::initializer_list<uint32_t> dsts,
                          std::initializer_list<uint32_t> srcs) {
  op.nd = uint8_t(dsts.size());
  op.ns = uint8_t(srcs.size());
  unsigned i = 0;
  for (uint32_t d : dsts) op.r[i++] = d;
  for (uint32_t s : srcs) op.r[i++] = s;
}

CallOperand Decoder::callOperand(const Operand &o, uint32_t size) {
  CallOperand c;
  c.size = size;
  if (o.kind == OperandKind::Symbol && o.sym && o.sym->kind == DeclKind::Variable) {
    const auto *v = static_cast<const Variable *>(o.sym);
    if (auto it = frameOffset_.find(v); it != frameOffset_.end()) {
      c.inFrame = true;
      c.offset = it->second + uint32_t(o.offset);
      c.size = uint32_t(v->sizeInBytes());
      return c;
    }
  }
  if (o.kind == OperandKind::Reg || o.kind == OperandKind::Symbol) {
    c.slot = o.kind == OperandKind::Reg ? regSlot(o) : dst(o);
    if (o.kind == OperandKind::Reg && o.reg) c.size = typeBytes(o.reg->type);
    return c;
  }
  if (o.kind == OperandKind::ImmInt || o.kind == OperandKind::ImmFloat) {
    c.slot = constSlot(o.bits);
    return c;
  }
  c.slot = scratch();
  return c;
}

} // namespace optxas::sim::ptxi
