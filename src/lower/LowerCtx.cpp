// The per-function driver: walks the PTX body statement by statement, keeps the block structure
// (a block starts at each label and after each terminator), and dispatches each instruction to
// its family (Registry). Operand access lives in Operands.cpp.
#include "LowerCtx.h"

#include <algorithm>

#include <fmt/format.h>

#include "ModuleLowering.h"
#include "Passes.h"
#include "Registry.h"
#include "optxas/ori/Verifier.h"

namespace optxas::lower {

LowerCtx::LowerCtx(ModuleLowering &ml, const ptx::Function &pf, ori::Function &f)
    : ml_(ml), pf_(pf), f_(f), b_(f) {
  regs_.assign(pf.numRegs, ori::kNoVReg);
}

const LowerOptions &LowerCtx::options() const { return ml_.options(); }
const target::DriverBank &LowerCtx::bank() const {
  const target::MachineModel *m = target::machineModel(options().smVersion);
  return (m ? m : target::machineModel(90))->driverBank();
}
const target::IsaFeatures &LowerCtx::features() const {
  const target::MachineModel *m = target::machineModel(options().smVersion);
  return (m ? m : target::machineModel(90))->features();
}
DiagEngine &LowerCtx::diags() { return ml_.diags(); }
ori::Module &LowerCtx::module() { return ml_.module(); }
int LowerCtx::symbolOf(const ptx::Decl *d) { return ml_.symbolOf(d); }

bool LowerCtx::unsupported(std::string_view what) {
  diags().error(cur_ ? cur_->loc : pf_.loc, "{} is not yet supported by optxas", what);
  return false;
}

bool LowerCtx::error(std::string_view message) {
  diags().error(cur_ ? cur_->loc : pf_.loc, "{}", message);
  return false;
}

// ---------------------------------------------------------------------------------------------
// Emitting
// ---------------------------------------------------------------------------------------------

void LowerCtx::startBlockIfNeeded() {
  if (!needBlock_) return;
  needBlock_ = false;
  setBlock(newBlockAfterCurrent());
}

ori::Instr *LowerCtx::emit(Opcode op, std::initializer_list<Operand> defs, std::initializer_list<Operand> uses,
                           const isa::Modifiers &mods, ori::DataType type) {
  startBlockIfNeeded();
  ori::Instr *i = b_.create(op, defs, uses, mods, type);
  if (guard_.kind == ori::OperandKind::Reg) i->setGuard(guard_);
  if (i->isTerminator()) needBlock_ = true;
  return i;
}

ori::Instr *LowerCtx::emitMacro(ori::MacroKind kind, std::initializer_list<Operand> defs,
                                std::initializer_list<Operand> uses, ori::DataType type) {
  ori::Instr *i = emit(Opcode::PSEUDO_MACRO, defs, uses, {}, type);
  i->setMacro(kind);
  return i;
}

void LowerCtx::copy(const Operand &dst, const Operand &src) {
  if (dst.kind != ori::OperandKind::Reg) return;   // a sink
  if (src.kind == ori::OperandKind::Reg && src == dst) return;
  if (src.kind == ori::OperandKind::Reg && !ori::isPredicateClass(dst.cls)) {
    emit(Opcode::PSEUDO_COPY, {dst}, {src});
    return;
  }
  if (ori::isPredicateClass(dst.cls)) {
    // p = q (or !q, PT, !PT): PLOP3.LUT p, PT, q, PT, PT, 0xf0 (first input).
    isa::Modifiers m;
    m.lut = 0xf0;
    emit(Opcode::PLOP3, {dst, Operand::truePred()}, {src, Operand::truePred(), Operand::truePred()}, m);
    return;
  }
  // Immediates, RZ, constant-bank words, special registers: MOV.
  if (src.kind == ori::OperandKind::Zero) {
    emit(Opcode::MOV, {dst}, {Operand::zero()});
    return;
  }
  emit(Opcode::MOV, {dst}, {src});
}

// ---------------------------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------------------------

ori::BasicBlock *LowerCtx::newBlockAfterCurrent() {
  return f_.createBlockAfter(b_.block());
}

void LowerCtx::setBlock(ori::BasicBlock *bb) {
  b_.setInsertPoint(bb);
  needBlock_ = false;
}

ori::BasicBlock *LowerCtx::blockOf(const ptx::Label *l) {
  auto it = labelBlocks_.find(l);
  if (it != labelBlocks_.end()) return it->second;
  // A label not (yet) placed: its block is created detached from the layout order until the
  // label is reached; createBlock appends, and the label statement moves it into place.
  ori::BasicBlock *bb = f_.createBlock(std::string(l->name.str()));
  labelBlocks_[l] = bb;
  return bb;
}

// ---------------------------------------------------------------------------------------------
// Registers
// ---------------------------------------------------------------------------------------------

VRegId LowerCtx::vregOf(const ptx::RegDecl *decl, uint32_t index) {
  uint32_t id = decl->firstId + index;
  if (id >= regs_.size()) regs_.resize(id + 1, ori::kNoVReg);
  if (regs_[id] != ori::kNoVReg) {
    if (options().deviceDebug) noteDebugUse(regs_[id]);
    return regs_[id];
  }
  VRegId r;
  if (decl->type == ptx::Type::Pred) {
    r = f_.newVReg(RegClass::P, 1);
  } else {
    unsigned words = wordsOf(decl->type) * decl->vecWidth;
    r = f_.newVReg(RegClass::R, words);
  }
  regs_[id] = r;
  if (options().deviceDebug) {
    nameForDebugger(r, decl, index);
    noteDebugUse(r);
  }
  return r;
}

void LowerCtx::noteDebugUse(VRegId r) {
  auto it = f_.debugRegNames.find(r);
  if (it == f_.debugRegNames.end() || it->second.empty() || !cur_) return;
  std::vector<uint32_t> &lines = it->second.front().lines;
  uint32_t line = cur_->loc.line;
  auto at = std::lower_bound(lines.begin(), lines.end(), line);
  if (at == lines.end() || *at != line) lines.insert(at, line);
}

namespace {

// The type byte ptxas 13.0 writes in .nv_debug_info_reg_type for a PTX register's type
// (docs/elf.md, "Register maps"; learned from ptxas -g on registers of every type). Types ptxas
// was not seen to write take the byte of the untyped bits of their size.
uint8_t debugTypeByte(ptx::Type t) {
  using T = ptx::Type;
  switch (t) {
  case T::B8: return 0;   case T::B16: return 1;   case T::B32: return 2;   case T::B64: return 3;
  case T::U8: return 4;   case T::U16: return 5;   case T::U32: return 6;   case T::U64: return 7;
  case T::S8: return 8;   case T::S16: return 9;   case T::S32: return 10;  case T::S64: return 11;
  case T::F16: return 12; case T::F16x2: return 13; case T::F32: return 14; case T::F64: return 15;
  case T::Pred: return 16; case T::B128: return 17;
  default: break;
  }
  switch (ptx::typeBits(t)) {
  case 8: return 0;
  case 16: return 1;
  case 64: return 3;
  case 128: return 17;
  default: return 2;
  }
}

} // namespace

void LowerCtx::nameForDebugger(VRegId r, const ptx::RegDecl *decl, uint32_t index) {
  ori::DebugRegName n;
  n.name = std::string(decl->name.str());
  if (decl->parameterized) n.name += std::to_string(index);
  n.type = debugTypeByte(decl->type);
  n.pieces = static_cast<uint8_t>(f_.vreg(r).width);
  f_.debugRegNames[r].push_back(std::move(n));
}

// ---------------------------------------------------------------------------------------------
// Walking the body
// ---------------------------------------------------------------------------------------------

bool LowerCtx::run() {
  errorsAtStart_ = diags().errorCount();
  b_.setLoc(pf_.loc);
  ori::BasicBlock *entry = f_.createBlock();
  setBlock(entry);
  prologue();
  for (const ptx::Stmt *s : pf_.body) {
    if (!lowerStatement(s) && diags().errorCount() > errorsAtStart_ + 50) break;
  }
  cur_ = nullptr;
  guard_ = Operand{};
  if (diags().errorCount() != errorsAtStart_) return false;
  finish();
  return diags().errorCount() == errorsAtStart_;
}

bool LowerCtx::lowerStatement(const ptx::Stmt *s) {
  switch (s->kind) {
  case ptx::StmtKind::Label: {
    const auto *ls = static_cast<const ptx::LabelStmt *>(s);
    ori::BasicBlock *bb = blockOf(ls->label);
    // Place the label's block right after the current one (it may have been created earlier by
    // a forward branch) and continue there; the previous block falls through into it.
    if (bb != b_.block()) f_.moveBlockAfter(bb, b_.block());
    setBlock(bb);
    return true;
  }
  case ptx::StmtKind::Instruction:
    return lowerInstruction(*static_cast<const ptx::Instruction *>(s));
  case ptx::StmtKind::VarDecl: {
    const ptx::Variable *v = static_cast<const ptx::VarDeclStmt *>(s)->var;
    if (v->space == ptx::StateSpace::Local) localOffset(v);
    // A call sequence's .param: assembled in an ordinary register until the call (Calls.cpp).
    if (v->space == ptx::StateSpace::Param) {
      const ParamHome *h = paramHome(v);
      if (!h) h = setParamHome(v, registerHome(v->sizeInBytes()));
      h->written.assign(h->words.size(), false);
    }
    return true;
  }
  case ptx::StmtKind::Pragma:
    // Statement-level "nounroll" marks the block it opens: the loop that block heads stays rolled.
    for (std::string_view p : static_cast<const ptx::PragmaStmt *>(s)->strings)
      if (p == "nounroll" && b_.block()) b_.block()->setNoUnroll(true);
    return true;
  default:
    return true;   // register declarations, .loc and scopes need no code
  }
}

bool LowerCtx::lowerInstruction(const ptx::Instruction &in) {
  cur_ = &in;
  b_.setLoc(in.loc);
  guard_ = Operand{};
  if (in.guard.present()) {
    guard_ = Operand::vreg(vregOf(in.guard.reg, in.guard.regIndex), RegClass::P);
    if (in.guard.negated) guard_.setFlag(ori::OpNot);
  }
  LowerFn fn = Registry::instance().find(in);
  if (!fn) {
    std::string name(in.opcodeName());
    for (ptx::Type t : in.types()) name += fmt::format(".{}", ptx::typeName(t));
    return unsupported(fmt::format("instruction '{}'", name));
  }
  return fn(*this, in);
}

void LowerCtx::prologue() {
  // R1 is the stack pointer in every function (docs/abi.md); a kernel loads its initial value
  // from the driver's constant bank.
  sp_ = f_.newVReg(RegClass::R, 1);
  f_.vreg(sp_).phys = 1;
  if (pf_.isEntry) prologueEnd_ = b_.create(Opcode::LDC, {whole(sp_)}, {Operand::cbank(0, bank().stackInit)});
  if (pf_.isEntry) {
    bool movesSp = false, hasLocals = false;
    for (const ptx::Instruction *i : pf_.instructions)
      movesSp |= i->op == ptx::Opcode::Alloca || i->op == ptx::Opcode::Stackrestore;
    for (const ptx::Variable *v : pf_.locals) hasLocals |= v->space == ptx::StateSpace::Local;
    if (movesSp && hasLocals) {
      // The frame subtraction (PostExpansion) goes right after the LDC, before this copy.
      fp_ = f_.newVReg(RegClass::R, 1);
      prologueEnd_ = b_.create(Opcode::MOV, {whole(fp_)}, {whole(sp_)});
    }
  }
  setupParams(*this);
  // The function's own shared variables get their symbols in declaration order, the order in
  // which ptxas lays them out (the layout follows symbol indices; unused ones are not placed).
  for (const ptx::Variable *v : pf_.locals)
    if (v->space == ptx::StateSpace::Shared || v->space == ptx::StateSpace::SharedCta ||
        v->space == ptx::StateSpace::SharedCluster)
      symbolOf(v);
}

Operand LowerCtx::memDescriptor() {
  if (desc_ == ori::kNoVReg) {
    desc_ = f_.newVReg(RegClass::UR, 2);
    ori::Builder pb(f_);
    ori::BasicBlock *entry = f_.entry();
    if (prologueEnd_) pb.setInsertPointAfter(prologueEnd_);
    else if (!entry->empty()) pb.setInsertPoint(entry->front());
    else pb.setInsertPoint(entry);
    pb.setLoc(pf_.loc);
    isa::Modifiers m;
    m.memType = isa::MemType::B64;
    prologueEnd_ = pb.create(Opcode::ULDC, {whole(desc_)}, {Operand::cbank(0, bank().globalDesc)}, m);
  }
  return whole(desc_);
}

uint32_t LowerCtx::localOffset(const ptx::Variable *v) {
  auto it = locals_.find(v);
  if (it != locals_.end()) return it->second;
  uint32_t align = std::max<uint32_t>(v->alignment(), 1);
  uint32_t off = (f_.localBytes + align - 1) / align * align;
  f_.localBytes = off + static_cast<uint32_t>(v->sizeInBytes());
  locals_[v] = off;
  return off;
}

const ParamHome *LowerCtx::paramHome(const ptx::Variable *v) const {
  auto it = params_.find(v);
  return it == params_.end() ? nullptr : it->second.get();
}

ParamHome LowerCtx::registerHome(uint64_t bytes) {
  ParamHome h;
  h.kind = ParamHome::Registers;
  unsigned n = std::max<unsigned>(1, static_cast<unsigned>((bytes + 3) / 4));
  for (unsigned i = 0; i < n; ++i) h.words.push_back(temp(RegClass::R, 1));
  h.written.assign(n, true);
  return h;
}

Operand LowerCtx::incomingArgs() {
  if (argp_ == ori::kNoVReg) {
    argp_ = f_.newVReg(RegClass::R, 1);
    ori::Builder pb(f_);
    ori::BasicBlock *entry = f_.entry();
    if (entry->empty()) pb.setInsertPoint(entry);
    else pb.setInsertPoint(entry->front());
    pb.setLoc(pf_.loc);
    pb.create(Opcode::PSEUDO_PARAM, {whole(argp_)}, {Operand::addr(sp_, RegClass::R, 0)});
  }
  return whole(argp_);
}

void LowerCtx::finish() {
  finishFunction(*this);
  if (options().verify) {
    if (!ori::verifyFunction(f_, diags()))
      diags().error(pf_.loc, "internal error: lowering produced malformed IR for function '{}'", f_.name());
  }
}

} // namespace optxas::lower
