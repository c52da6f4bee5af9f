// Texture and surface instructions with bindless handles (a .u64 register holding a texture or
// surface object), lowered as ptxas lowers them for sm_90:
//
//   tex.{1d,2d,3d,cube,a1d,a2d,acube} (float coordinates)  TEX.LL d2, d, coords, lod, URh, 0x0, DIM
//       (no explicit level: lod = -32.0, as ptxas; .level: the given lod; 1d as 2d at y = 0)
//   tex.{1d,2d,3d} (integer coordinates)                   TLD.LZ d2, d, coords, URh, 0x0, DIM
//   tex.grad.2d                                            TXD d2, d, {x,y}, {dPdx, dPdy}, URh, 0x0, 2D
//   tld4.{r,g,b,a}.2d                                      TLD4.c d2, d, {x,y}, URh, 0x0, 2D
//   suld.b / sust.b / sured.b .{1d,2d,3d,a1d,a2d}          SULD/SUST/SURED.D.BA.DIM ... [coords], URh, 0x0
//
// The coordinates go to consecutive registers (array index first), the four results come back
// in two register pairs (d = x,y; d2 = z,w; write mask 0xf). The handle is a uniform register
// pair (texture header in the low word, high word zero in the unified texture mode) or a single
// uniform register (surfaces). When the handle register is only ever loaded from a kernel
// parameter, the handle is read straight from the constant bank with ULDC, as ptxas does;
// otherwise its low word is moved into a uniform register (R2UR).
//   txq/suq.{width,height,depth}                           TXQ d2, d, level 0, TEX_HEADER_DIMENSION, URh, 0x0, 1/2/4
//   txq/suq other queries                                  LDG.E.CONSTANT of the driver's descriptor table
//   istypep.{texref,samplerref,surfref}                    LOP3 + ISETP of the handle's type bit
//
// Module-scope .texref/.surfref operands read their header index from a bank-0 slot after the
// parameters (refSlotOffset), like a parameter handle; in the independent texture mode the
// high word of a texture handle is a .samplerref's slot instead of zero.
//
// Ampere (IsaFeatures::boundTextures): a handle in a bank-0 word (by name, or a kernel
// parameter) is not loaded but named by the word's index, ptxas's bound forms
// (TEX.SCR.LL ..., 0x0, 0x5b, 1D; SULD ..., 0x0, 0x5d); in the independent mode a texture and
// its sampler share one word (pairSlotOffset).
//
// Not lowered yet (reported as unsupported): txq.level, txq.force_unnormalized_coords, descriptor
// queries in the independent texture mode or outside a kernel, tex.grad other than 2d,
// tld4 other than 2d, integer-coordinate arrays, predicate results, and sub-word or mixed
// vector surface formats.
#include "Emit.h"
#include "ModuleLowering.h"
#include "Passes.h"
#include "Registry.h"

#include <bit>

namespace optxas::lower {

using namespace sass;
using isa::TexDim;
using isa::TexMode;

namespace {

TexDim dimOf(const ptx::Instruction &in) {
  if (in.has(ptx::Mod::Dim1)) return TexDim::D1;
  if (in.has(ptx::Mod::Dim2)) return TexDim::D2;
  if (in.has(ptx::Mod::Dim3)) return TexDim::D3;
  if (in.has(ptx::Mod::Cube)) return TexDim::CUBE;
  if (in.has(ptx::Mod::A1d)) return TexDim::ARRAY_1D;
  if (in.has(ptx::Mod::A2d)) return TexDim::ARRAY_2D;
  if (in.has(ptx::Mod::Acube)) return TexDim::ARRAY_CUBE;
  return TexDim::None;
}

// Registers of the coordinate operand for each dimensionality (array index first).
unsigned coordWords(TexDim d) {
  switch (d) {
  case TexDim::D1: return 1;
  case TexDim::D2: case TexDim::ARRAY_1D: return 2;
  case TexDim::D3: case TexDim::CUBE: case TexDim::ARRAY_2D: return 3;
  case TexDim::ARRAY_CUBE: return 4;
  default: return 0;
  }
}

// The kernel-parameter byte offset in constant bank 0 a handle register is loaded from, if it is
// defined exactly once in the function and that definition is ld.param of a kernel parameter.
bool paramHandleOffset(LowerCtx &cx, const ptx::Operand &h, uint32_t &offset) {
  if (h.kind != ptx::OperandKind::Reg || !cx.isKernel()) return false;
  const ptx::Instruction *def = nullptr;
  unsigned defs = 0;
  for (const ptx::Instruction *i : cx.ptxFunction().instructions) {
    if (i->operands.empty()) continue;
    auto writes = [&](const ptx::Operand &o) {
      return o.kind == ptx::OperandKind::Reg && o.reg == h.reg && o.regIndex == h.regIndex;
    };
    const ptx::Operand &d = i->operands[0];
    bool hit = writes(d);
    if (d.kind == ptx::OperandKind::Vector || d.kind == ptx::OperandKind::Pair)
      for (const ptx::Operand &e : d.elems) hit |= writes(e);
    if (hit) {
      ++defs;
      def = i;
    }
  }
  if (defs != 1 || def->op != ptx::Opcode::Ld || def->guard.present() || def->operands.size() != 2) return false;
  ptx::StateSpace s = def->space();
  if (s != ptx::StateSpace::Param && s != ptx::StateSpace::ParamEntry) return false;
  if (ptx::typeBits(def->type()) != 64 || def->vectorWidth() != 1) return false;
  const ptx::Operand &a = def->operands[1];
  if (a.kind != ptx::OperandKind::Address || a.base != ptx::BaseKind::Symbol || !a.sym) return false;
  if (a.sym->kind != ptx::DeclKind::Variable) return false;
  const auto *v = static_cast<const ptx::Variable *>(a.sym);
  const ParamHome *home = cx.paramHome(v);
  if (!home || home->kind != ParamHome::KernelCBank) return false;
  offset = home->cbankOffset + static_cast<uint32_t>(a.offset);
  return true;
}

// The variable of a module-scope .texref/.samplerref/.surfref used by name, or null (reported).
const ptx::Variable *refVariable(LowerCtx &cx, const ptx::Operand &h) {
  if (!h.sym || h.sym->kind != ptx::DeclKind::Variable || h.offset != 0)
    return cx.unsupported("this texture/surface handle operand"), nullptr;
  const auto *v = static_cast<const ptx::Variable *>(h.sym);
  if (v->type != ptx::Type::TexRef && v->type != ptx::Type::SurfRef && v->type != ptx::Type::SamplerRef)
    return cx.unsupported("this texture/surface handle operand"), nullptr;
  for (const auto &r : cx.moduleLowering().module().textureRefs())
    if (r.samplerInitUnsupported && r.name == v->name.str())
      return cx.unsupported("sampler initializers other than addr_mode_0..2 and filter_mode"), nullptr;
  if (!cx.isKernel())
    return cx.unsupported("texture/surface references by name outside a kernel"), nullptr;
  return v;
}

ori::TextureRefKind refKind(const ptx::Variable &v) {
  return v.type == ptx::Type::TexRef       ? ori::TextureRefKind::Texture
         : v.type == ptx::Type::SamplerRef ? ori::TextureRefKind::Sampler
                                           : ori::TextureRefKind::Surface;
}

// The next free slot: ptxas's are 4-byte words in order of first use, after the largest
// parameter block of any kernel of the module (sm_90; with bound forms, sm_8x: after the
// kernel's own parameters), the first one aligned to DriverBank::refSlotAlign.
uint32_t nextRefSlot(LowerCtx &cx) {
  ori::FunctionAttrs &a = cx.fn().attrs;
  uint32_t params = cx.features().boundTextures ? a.paramBytes
                                                : std::max(a.paramBytes, cx.moduleLowering().maxKernelParamBytes());
  const uint32_t align = cx.bank().refSlotAlign;
  return a.textureRefSlots.empty() ? a.paramBase + ((params + align - 1) & ~(align - 1))
                                   : a.textureRefSlots.back().offset + 4;
}

// A module-scope .texref/.surfref used by name: the kernel's bank-0 slot the driver fills with
// its header index. (The last one naming it: ptxas's txq of an independent-mode texture reads
// the texture's latest texture+sampler slot.)
bool refSlotOffset(LowerCtx &cx, const ptx::Operand &h, uint32_t &offset) {
  const ptx::Variable *v = refVariable(cx, h);
  if (!v) return false;
  ori::FunctionAttrs &a = cx.fn().attrs;
  std::string name(v->name.str());
  for (auto s = a.textureRefSlots.rbegin(); s != a.textureRefSlots.rend(); ++s)
    if (s->name == name) {
      offset = s->offset;
      return true;
    }
  offset = nextRefSlot(cx);
  a.textureRefSlots.push_back({name, refKind(*v), offset});
  return true;
}

// Bound textures in the independent mode (IsaFeatures::boundTextures): one slot per texture +
// sampler pair, both header-index relocations at its offset (ptxas's sm_8x layout; pairs in
// order of first use).
bool pairSlotOffset(LowerCtx &cx, const ptx::Operand &tex, const ptx::Operand &samp, uint32_t &offset) {
  const ptx::Variable *t = refVariable(cx, tex);
  if (!t) return false;
  const ptx::Variable *s = refVariable(cx, samp);
  if (!s) return false;
  if (t->type != ptx::Type::TexRef || s->type != ptx::Type::SamplerRef)
    return cx.unsupported("this texture/sampler operand pair");
  auto &slots = cx.fn().attrs.textureRefSlots;
  for (size_t i = 0; i + 1 < slots.size(); ++i)
    if (slots[i].name == t->name.str() && slots[i + 1].name == s->name.str() && slots[i].offset == slots[i + 1].offset &&
        slots[i + 1].kind == ori::TextureRefKind::Sampler) {
      offset = slots[i].offset;
      return true;
    }
  offset = nextRefSlot(cx);
  slots.push_back({std::string(t->name.str()), ori::TextureRefKind::Texture, offset});
  slots.push_back({std::string(s->name.str()), ori::TextureRefKind::Sampler, offset});
  return true;
}

// How an instruction names its handle: two operands, a uniform register (pair) and the
// immediate 0 (bindless), or the immediate 0 and the bank-0 word index of the handle's slot
// (bound, IsaFeatures::boundTextures).
struct Handle {
  Operand a, b;
  bool bound = false;
};

// The handle in a uniform register (words = 1) or a uniform pair with a zero high word (2), or
// bound to its bank-0 slot where the target has bound forms and `bindable` allows.
bool handleOperand(LowerCtx &cx, const ptx::Operand &h, unsigned words, Handle &out,
                   const ptx::Operand *sampler = nullptr, bool bindable = true) {
  uint32_t off = 0;
  bool byName = false;
  const bool bound = bindable && cx.features().boundTextures;
  if (h.kind == ptx::OperandKind::Symbol) {
    if (bound && words == 2 && sampler) {
      if (sampler->kind != ptx::OperandKind::Symbol)
        return cx.unsupported("independent-mode samplers other than a .texref with a .samplerref by name");
      if (!pairSlotOffset(cx, h, *sampler, off)) return false;
      out = {imm(0), imm(static_cast<int32_t>(off / 4)), true};
      return true;
    }
    if (!refSlotOffset(cx, h, off)) return false;
    byName = true;
  } else if (h.kind != ptx::OperandKind::Reg) {
    return cx.unsupported("this texture/surface handle operand");
  }
  const bool inBank = byName || paramHandleOffset(cx, h, off);
  if (bound && inBank && !sampler) {
    out = {imm(0), imm(static_cast<int32_t>(off / 4)), true};
    return true;
  }
  VRegId u = cx.temp(RegClass::UR, words);
  Operand lo = words == 1 ? cx.whole(u) : cx.part(u, 0);
  if (inBank) {
    cx.emit(Opcode::ULDC, {lo}, {Operand::cbank(0, off)});
  } else {
    Operand r = cx.srcReg(h, ptx::Type::U64);
    cx.copy(lo, r.kind == ori::OperandKind::Reg ? cx.word(r, 0) : r);
  }
  if (words == 2 && sampler) {
    // The independent texture mode: the sampler's header index in the high word.
    uint32_t soff = 0;
    if (sampler->kind != ptx::OperandKind::Symbol || !byName)
      return cx.unsupported("independent-mode samplers other than a .texref with a .samplerref by name");
    if (!refSlotOffset(cx, *sampler, soff)) return false;
    cx.emit(Opcode::ULDC, {cx.part(u, 1)}, {Operand::cbank(0, soff)});
  } else if (words == 2) {
    cx.emit(Opcode::UMOV, {cx.part(u, 1)}, {Operand::zero(RegClass::UR)});
  }
  out = {cx.whole(u), imm(0)};
  return true;
}

// The elements of a {a, b, ...} operand (or the operand itself when it is not a vector).
std::vector<const ptx::Operand *> elemsOf(const ptx::Operand &o) {
  std::vector<const ptx::Operand *> v;
  if (o.kind == ptx::OperandKind::Vector)
    for (const ptx::Operand &e : o.elems) v.push_back(&e);
  else
    v.push_back(&o);
  return v;
}

// `words` consecutive registers holding the first `words` elements of `o`; element i has type
// types[i] (all 32-bit).
Operand gather(LowerCtx &cx, const std::vector<const ptx::Operand *> &elems, unsigned words,
               const std::vector<ptx::Type> &types) {
  Operand t = cx.tempOp(RegClass::R, words);
  for (unsigned i = 0; i < words; ++i) {
    Operand d = words == 1 ? t : cx.word(t, i);
    cx.copy(d, cx.src(*elems[i], types[i]));
  }
  return t;
}

// The [handle, {coords}] operand, or [texture, sampler, {coords}] (independent mode; only where
// `sampler` is given).
bool splitAddress(LowerCtx &cx, const ptx::Operand &a, const ptx::Operand *&handle,
                  const ptx::Operand *&coords, const ptx::Operand **sampler = nullptr) {
  if (a.kind != ptx::OperandKind::List || a.elems.size() < 2)
    return cx.unsupported("this texture/surface address operand");
  if (a.elems.size() == 3 && sampler) {
    handle = &a.elems[0];
    *sampler = &a.elems[1];
    coords = &a.elems[2];
    return true;
  }
  if (a.elems.size() != 2)
    return cx.unsupported("a separate sampler operand here");
  handle = &a.elems[0];
  coords = &a.elems[1];
  return true;
}

// Copies the four results (d = x,y; d2 = z,w) to the PTX destinations.
bool scatterResults(LowerCtx &cx, const ptx::Operand &dst, ptx::Type t, Operand d, Operand d2) {
  std::vector<const ptx::Operand *> ds = elemsOf(dst);
  if (ds.size() != 4) return cx.unsupported("texture results other than .v4");
  for (unsigned i = 0; i < 4; ++i) {
    if (ds[i]->kind == ptx::OperandKind::Sink) continue;
    cx.copy(cx.dst(*ds[i], t), cx.word(i < 2 ? d : d2, i % 2));
  }
  return true;
}

bool lowerTex(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const bool tld4 = in.op == ptx::Opcode::Tld4;
  if (ops.size() < 2 || ops[0].kind == ptx::OperandKind::Pair)
    return cx.unsupported(std::string(in.opcodeName()) + " with a predicate result");
  const ptx::Type dt = in.type(0), ct = in.type(1);
  if (ptx::typeBits(dt) != 32 || ptx::typeBits(ct) != 32)
    return cx.unsupported(std::string(in.opcodeName()) + " with these types");
  const bool floatCoords = ct == ptx::Type::F32;
  const TexDim dim = dimOf(in);
  const bool level = in.has(ptx::Mod::Level), grad = in.has(ptx::Mod::Grad);
  const unsigned n = coordWords(dim);
  if (n == 0) return cx.unsupported(std::string(in.opcodeName()) + " of this dimensionality");
  Opcode op = Opcode::TEX;
  isa::Modifiers m;
  m.texDim = dim;
  if (tld4) {
    if (dim != TexDim::D2 || !floatCoords) return cx.unsupported("tld4 other than .2d with float coordinates");
    op = Opcode::TLD4;
    ptx::Mod c = in.firstOf({ptx::Mod::R, ptx::Mod::G, ptx::Mod::B, ptx::Mod::A});
    m.texMode = c == ptx::Mod::G ? TexMode::G : c == ptx::Mod::B ? TexMode::B : c == ptx::Mod::A ? TexMode::A : TexMode::R;
  } else if (grad) {
    if (dim != TexDim::D2 || !floatCoords) return cx.unsupported("tex.grad other than .2d");
    op = Opcode::TXD;
  } else if (!floatCoords) {
    if (level || (dim != TexDim::D1 && dim != TexDim::D2 && dim != TexDim::D3))
      return cx.unsupported("tex with integer coordinates of this form");
    op = Opcode::TLD;
    m.texMode = TexMode::LZ;
  } else {
    m.texMode = TexMode::LL;
  }
  const ptx::Operand *handle = nullptr, *coords = nullptr, *sampler = nullptr;
  if (!splitAddress(cx, ops[1], handle, coords, &sampler)) return false;
  std::vector<const ptx::Operand *> cs = elemsOf(*coords);
  if (cs.size() < n) return cx.unsupported("too few texture coordinates");
  // Array forms: the index is an integer, the rest follow the coordinate type.
  std::vector<ptx::Type> types(n, ct);
  if (dim == TexDim::ARRAY_1D || dim == TexDim::ARRAY_2D || dim == TexDim::ARRAY_CUBE) types[0] = ptx::Type::U32;
  Handle ur;
  if (!handleOperand(cx, *handle, 2, ur, sampler)) return false;
  Operand ra;
  if (op == Opcode::TEX && dim == TexDim::D1 && !sampler) {
    // ptxas samples a 1d texture object as 2d at y = 0 (the driver's 1d headers are 2d ones).
    // (Not with a separate sampler: the independent mode samples 1d as 1d.)
    m.texDim = TexDim::D2;
    ra = cx.tempOp(RegClass::R, 2);
    cx.copy(cx.word(ra, 0), cx.src(*cs[0], ct));
    cx.copy(cx.word(ra, 1), Operand::zero());
  } else {
    ra = gather(cx, cs, n, types);
  }
  Operand rb = Operand::zero();
  if (op == Opcode::TXD) {
    if (ops.size() != 4) return cx.unsupported("this tex.grad form");
    std::vector<const ptx::Operand *> g = elemsOf(ops[2]), g2 = elemsOf(ops[3]);
    if (g.size() < 2 || g2.size() < 2) return cx.unsupported("this tex.grad form");
    g.resize(2);
    g.insert(g.end(), g2.begin(), g2.begin() + 2);
    rb = gather(cx, g, 4, std::vector<ptx::Type>(4, ptx::Type::F32));
  } else if (op == Opcode::TEX) {
    if (level) {
      if (ops.size() != 3) return cx.unsupported("this tex.level form");
      rb = cx.srcReg(ops[2], ptx::Type::F32);
    } else {
      if (ops.size() != 2) return cx.unsupported("this tex form");
      rb = cx.inReg(LowerCtx::imm32(0xc2000000u));   // LOD -32.0: the finest level
    }
  } else if (ops.size() != 2) {
    return cx.unsupported(std::string("this ") + std::string(in.opcodeName()) + " form");
  }
  // Ampere's bound TEX/TLD/TLD4 may take .SCR, which splits the coordinates and TEX's LOD as one
  // list over Ra (the first half, rounded up) and Rb (ptxas 13.0's sm_8x code: TLD 2D x | y, TEX
  // CUBE x,y | z,lod). Set only where that is the layout above (coordinates | LOD): TEX 1D, 2D
  // and ARRAY_1D with their LOD, TLD 1D; ptxas does the same there. (Elsewhere the plain bound
  // form takes the layout above, as ptxas's TEX.LL ... ARRAY_CUBE.)
  const unsigned coordRegs = coordWords(m.texDim);
  if (ur.bound && ((op == Opcode::TEX && m.texMode == TexMode::LL && coordRegs <= 2) ||
                   (op == Opcode::TLD && coordRegs == 1)))
    m.extra = 1;   // .SCR
  Operand d = cx.tempOp(RegClass::R, 2), d2 = cx.tempOp(RegClass::R, 2);
  if (op == Opcode::TEX || op == Opcode::TXD)
    cx.emit(op, {d2, d}, {ra, rb, ur.a, ur.b, imm(0xf)}, m);
  else
    cx.emit(op, {d2, d}, {ra, Operand::zero(), ur.a, ur.b, imm(0xf)}, m);
  return scatterResults(cx, ops[0], dt, d, d2);
}

// Surface dimensionality and the out-of-bounds mode.
bool surfaceMods(LowerCtx &cx, const ptx::Instruction &in, isa::Modifiers &m) {
  m.texDim = dimOf(in);
  if (m.texDim == TexDim::None || m.texDim == TexDim::CUBE || m.texDim == TexDim::ARRAY_CUBE)
    return cx.unsupported(std::string(in.opcodeName()) + " of this dimensionality");
  if (!in.has(ptx::Mod::B)) return cx.unsupported(std::string(in.opcodeName()) + ".p (formatted access)");
  m.surfOob = in.has(ptx::Mod::Trap) ? isa::SurfOob::TRAP : in.has(ptx::Mod::Zero) ? isa::SurfOob::IGN : isa::SurfOob::None;
  m.order = isa::MemOrder::RELAXED;
  m.scope = isa::Scope::SM;
  return true;
}

// SULD/SUST access size of .bN with .vK, or MemType::None if SASS has no such size.
isa::MemType surfaceSize(ptx::Type t, unsigned vec) {
  unsigned bits = ptx::typeBits(t) * vec;
  if (vec == 1 && bits == 8) return isa::MemType::U8;
  if (vec == 1 && bits == 16) return isa::MemType::U16;
  if (ptx::typeBits(t) < 32) return isa::MemType::None;
  return bits == 32 ? isa::MemType::B32 : bits == 64 ? isa::MemType::B64 : bits == 128 ? isa::MemType::B128 : isa::MemType::None;
}

Operand surfaceCoords(LowerCtx &cx, const ptx::Operand &coords, TexDim dim) {
  std::vector<const ptx::Operand *> cs = elemsOf(coords);
  unsigned n = coordWords(dim);
  if (cs.size() < n) return Operand{};
  return gather(cx, cs, n, std::vector<ptx::Type>(n, ptx::Type::U32));
}

// What SULD and SUST share: modifiers with the access size, the handle (uniform register) and the
// coordinates of the surface address operand `addr`.
bool surfaceAccess(LowerCtx &cx, const ptx::Instruction &in, unsigned addr, const char *what, isa::Modifiers &m,
                   Handle &ur, Operand &ra) {
  if (!surfaceMods(cx, in, m)) return false;
  m.memType = surfaceSize(in.type(0), in.vectorWidth());
  if (m.memType == isa::MemType::None) return cx.unsupported(std::string(what) + " of this vector format");
  const ptx::Operand *handle = nullptr, *coords = nullptr;
  if (in.operands.size() != 2 || !splitAddress(cx, in.operands[addr], handle, coords)) return false;
  if (!handleOperand(cx, *handle, 1, ur)) return false;
  ra = surfaceCoords(cx, *coords, m.texDim);
  if (ra.kind != ori::OperandKind::Reg) return cx.unsupported("too few surface coordinates");
  return true;
}

bool lowerSuld(LowerCtx &cx, const ptx::Instruction &in) {
  isa::Modifiers m;
  Handle ur;
  Operand ra;
  if (!surfaceAccess(cx, in, 1, "suld", m, ur, ra)) return false;
  const ptx::Type t = in.type(0);
  const unsigned vec = in.vectorWidth();
  const unsigned words = std::max(1u, ptx::typeBits(t) * vec / 32);
  Operand d = cx.tempOp(RegClass::R, words);
  cx.emit(Opcode::SULD, {d}, {ra, ur.a, ur.b}, m);
  std::vector<const ptx::Operand *> ds = elemsOf(in.operands[0]);
  const unsigned per = std::max(1u, ptx::typeBits(t) / 32);
  const ptx::Type dt = per == 2 ? ptx::Type::B64 : ptx::Type::B32;
  for (unsigned i = 0; i < ds.size(); ++i) {
    if (ds[i]->kind == ptx::OperandKind::Sink) continue;
    Operand src = words == 1 ? d : cx.part(d.reg, i * per, per);
    cx.copy(per == 2 ? cx.dstWide(*ds[i], dt, 2) : cx.dst(*ds[i], dt), src);
  }
  return true;
}

bool lowerSust(LowerCtx &cx, const ptx::Instruction &in) {
  isa::Modifiers m;
  Handle ur;
  Operand ra;
  if (!surfaceAccess(cx, in, 0, "sust", m, ur, ra)) return false;
  const ptx::Type t = in.type(0);
  std::vector<const ptx::Operand *> vs = elemsOf(in.operands[1]);
  const unsigned per = std::max(1u, ptx::typeBits(t) / 32);
  const unsigned words = per * static_cast<unsigned>(vs.size());
  Operand data;
  if (words == 1) {
    data = cx.srcReg(*vs[0], ptx::Type::B32);
  } else {
    data = cx.tempOp(RegClass::R, words);
    for (unsigned i = 0; i < vs.size(); ++i) {
      if (per == 2) {
        Operand w = cx.srcWide(*vs[i], ptx::Type::B64, 2);
        for (unsigned k = 0; k < 2; ++k) cx.copy(cx.word(data, 2 * i + k), cx.word(w, k));
      } else {
        cx.copy(cx.word(data, i), cx.src(*vs[i], ptx::Type::B32));
      }
    }
  }
  cx.emit(Opcode::SUST, {}, {ra, data, ur.a, ur.b}, m);
  return true;
}

bool lowerSured(LowerCtx &cx, const ptx::Instruction &in) {
  isa::Modifiers m;
  if (!surfaceMods(cx, in, m)) return false;
  m.scope = isa::Scope::SYS;   // ptxas issues surface reductions .STRONG.SYS
  switch (in.atomOp()) {
  case ptx::Mod::Add: m.atom = isa::AtomOp::ADD; break;
  case ptx::Mod::Min: m.atom = isa::AtomOp::MIN; break;
  case ptx::Mod::Max: m.atom = isa::AtomOp::MAX; break;
  case ptx::Mod::And: m.atom = isa::AtomOp::AND; break;
  case ptx::Mod::Or: m.atom = isa::AtomOp::OR; break;
  default: return cx.unsupported("this sured operation");
  }
  const ptx::Type t = in.type(0);
  switch (t) {
  case ptx::Type::U32: case ptx::Type::B32: m.atomType = isa::AtomType::U32; break;
  case ptx::Type::S32: m.atomType = isa::AtomType::S32; break;
  case ptx::Type::U64: case ptx::Type::B64: m.atomType = isa::AtomType::U64; break;
  default: return cx.unsupported("sured of this type");
  }
  const ptx::Operand *handle = nullptr, *coords = nullptr;
  if (in.operands.size() != 2 || !splitAddress(cx, in.operands[0], handle, coords)) return false;
  Handle ur;
  if (!handleOperand(cx, *handle, 1, ur)) return false;
  Operand ra = surfaceCoords(cx, *coords, m.texDim);
  if (ra.kind != ori::OperandKind::Reg) return cx.unsupported("too few surface coordinates");
  Operand data = ptx::typeBits(t) == 64 ? cx.srcWide(in.operands[1], t, 2) : cx.srcReg(in.operands[1], t);
  cx.emit(Opcode::SURED, {}, {ra, data, ur.a, ur.b}, m);
  return true;
}

// The field of the driver's texture (tex) or surface descriptor a txq/suq query reads, or -1.
int descriptorField(const ptx::Instruction &in, bool surface) {
  struct Field {
    ptx::Mod mod;
    int tex, surf;
  };
  static const Field fields[] = {
      {ptx::Mod::AddrMode0, 0xc, -1},        {ptx::Mod::AddrMode1, 0x10, -1},
      {ptx::Mod::AddrMode2, 0x14, -1},       {ptx::Mod::FilterMode, 0x18, -1},
      {ptx::Mod::NormalizedCoords, 0x1c, -1}, {ptx::Mod::ChannelDataType, 0x20, 0xc},
      {ptx::Mod::ChannelOrder, 0x24, 0x10},  {ptx::Mod::ArraySize, 0x28, 0x1c},
      {ptx::Mod::NumMipmapLevels, 0x2c, -1}, {ptx::Mod::NumSamples, 0x30, -1},
  };
  for (const Field &f : fields)
    if (in.has(f.mod)) return surface ? f.surf : f.tex;
  return -1;
}

// A query of the descriptor table: LDG.E.CONSTANT d, [table + index * descSize + field], where
// the table's base is a driver bank slot, the index the handle's header index, and descSize a
// 4-byte value the driver fills in by relocation (R_CUDA_ABS32_32 against
// .nv.unified.texrefDescSize / .nv.surfrefDescSize, as ptxas 13.0 writes it).
bool descriptorQuery(LowerCtx &cx, const ptx::Instruction &in, const ptx::Operand &h, bool surface, int field) {
  const target::DriverBank &bank = cx.bank();
  const uint32_t table = surface ? bank.surfDescTable : bank.texDescTable;
  if (table == target::kNoSlot || !cx.isKernel() || cx.moduleLowering().module().texmodeIndependent())
    return cx.unsupported(std::string("this ") + std::string(in.opcodeName()) + " query");
  Handle ur;
  if (!handleOperand(cx, h, 1, ur, nullptr, /*bindable=*/false)) return false;
  Operand index = cx.tempOp();
  cx.copy(index, ur.a);
  if (bank.descIndexMask) lop3(cx, index, index, imm(bank.descIndexMask), RZ(), 0xc0);
  Operand size = cx.tempOp();
  const char *sym = surface ? ".nv.surfrefDescSize" : ".nv.unified.texrefDescSize";
  cx.emit(Opcode::MOV, {size}, {Operand::symbol(static_cast<uint32_t>(cx.moduleLowering().driverSymbol(sym)))});
  Operand off = cx.tempOp();
  imad(cx, off, index, size, imm(field));
  Operand base = cx.tempOp(RegClass::R, 2);
  isa::Modifiers lm;
  lm.memType = isa::MemType::B64;
  cx.emit(Opcode::LDC, {base}, {Operand::cbank(0, table)}, lm);
  Operand addr = cx.tempOp(RegClass::R, 2), carry = cx.tempOp(RegClass::P);
  iadd3co(cx, cx.word(addr, 0), carry, off, cx.word(base, 0));
  iadd3x(cx, cx.word(addr, 1), RZ(), cx.word(base, 1), RZ(), carry);
  isa::Modifiers m;
  m.wide = true;
  m.memType = isa::MemType::B32;
  m.order = isa::MemOrder::CONSTANT;
  Operand d = cx.tempOp();
  Operand at = Operand::addr(addr.reg, addr.cls, 0);
  at.subOff = addr.subOff;
  at.subWidth = addr.subWidth;
  cx.emit(Opcode::LDG, {d}, {cx.memDescriptor(), at}, m);
  cx.copy(cx.dst(in.operands[0], ptx::Type::B32), d);
  return true;
}

// txq/suq.{width,height,depth}.b32 d, [handle] -> TXQ d2, d, level 0, TEX_HEADER_DIMENSION, URh,
// 0x0, mask 1/2/4 (as ptxas; the level register holds zero; surfaces too); the other queries read
// the descriptor table (descriptorQuery).
bool lowerTxq(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  const bool surface = in.op == ptx::Opcode::Suq;
  if (ops.size() != 2 || ops[1].kind != ptx::OperandKind::Address || ops[1].base == ptx::BaseKind::None ||
      ops[1].offset != 0 || in.has(ptx::Mod::Level))
    return cx.unsupported(std::string("this ") + std::string(in.opcodeName()) + " operand");
  ptx::Operand h = ops[1];
  h.kind = ops[1].base == ptx::BaseKind::Reg ? ptx::OperandKind::Reg : ptx::OperandKind::Symbol;
  const unsigned mask = in.has(ptx::Mod::Width) ? 1 : in.has(ptx::Mod::Height) ? 2 : in.has(ptx::Mod::Depth) ? 4 : 0;
  if (mask == 0) {
    int field = descriptorField(in, surface);
    if (field < 0) return cx.unsupported(std::string("this ") + std::string(in.opcodeName()) + " query");
    return descriptorQuery(cx, in, h, surface, field);
  }
  Handle ur;
  if (!handleOperand(cx, h, 2, ur)) return false;
  Operand level = cx.tempOp();
  cx.copy(level, Operand::zero());
  isa::Modifiers m;
  m.extra = 1;   // TEX_HEADER_DIMENSION
  Operand d = cx.tempOp(), unused = cx.tempOp();
  cx.emit(Opcode::TXQ, {unused, d}, {level, ur.a, ur.b, imm(mask)}, m);
  cx.copy(cx.dst(ops[0], ptx::Type::B32), d);
  return true;
}

// istypep.{texref,samplerref,surfref} p, a: the handle's type bit (bit 61, 63 or 62 of the
// 64-bit handle, as ptxas tests it).
bool lowerIstypep(LowerCtx &cx, const ptx::Instruction &in) {
  const auto &ops = in.operands;
  if (ops.size() != 2) return cx.unsupported("this istypep form");
  const ptx::Type t = in.type(0);
  const uint32_t bit = t == ptx::Type::TexRef ? 0x20000000u : t == ptx::Type::SurfRef ? 0x40000000u
                       : t == ptx::Type::SamplerRef                                   ? 0x80000000u
                                                                                      : 0;
  if (!bit) return cx.unsupported("istypep of this type");
  cx.moduleLowering().module().setUsesIstypep();
  Operand a = cx.srcWide(ops[1], ptx::Type::U64, 2);
  Operand hi = cx.tempOp();
  lop3(cx, hi, cx.word(a, 1), imm(bit), RZ(), 0xc0);
  isetp(cx, cx.dstPred(ops[0]), Cmp::EQ, true, hi, imm(bit));
  return true;
}

} // namespace

void registerTextureOps(Registry &r) {
  r.add(ptx::Opcode::Txq, lowerTxq);
  r.add(ptx::Opcode::Suq, lowerTxq);
  r.add(ptx::Opcode::Istypep, lowerIstypep);
  r.add(ptx::Opcode::Tex, lowerTex);
  r.add(ptx::Opcode::Tld4, lowerTex);
  r.add(ptx::Opcode::Suld, lowerSuld);
  r.add(ptx::Opcode::Sust, lowerSust);
  r.add(ptx::Opcode::Sured, lowerSured);
}

} // namespace optxas::lower
