// sm_90 texture and surface instructions, bindless forms (the texture/sampler or surface handle
// is a uniform register, as ptxas emits them on sm_90 for .u64 handles and for module-scope
// .texref/.surfref variables alike):
//
//   TEX{.LZ|.LB|.LL} [Pd,] Rd2, Rd, Ra, [Rb,] URh, idx, DIM{, mask}
//   TLD{.LZ|.LL}     [Pd,] Rd2, Rd, Ra, [Rb,] URh, idx, DIM{, mask}
//   TLD4{.R|.G|.B|.A}[Pd,] Rd2, Rd, Ra, [Rb,] URh, idx, DIM{, mask}
//   TXD              [Pd,] Rd2, Rd, Ra, Rb, URh, idx, DIM{, mask}
//   TXQ              Rd2, Rd, Ra, QUERY, URh, idx, mask
//   SULD.D.BA.DIM{.size}{.sem}{.oob} [Pd,] Rd, [Ra], URh, idx
//   SUST.D.BA.DIM{.size}{.sem}{.oob} [Ra], Rb, URh, idx
//   SURED.D.BA.DIM.op{.type}{.sem}{.oob} [Ra], Rb, URh, idx
//
// Fields (each checked by flipping bits of ptxas's own instructions under nvdisasm, see
// tests/encoding/probe.py): Rd 16..23, Ra 24..31 (the coordinates, consecutive registers, array
// index first), Rb 32..39 (LOD, or TXD's four gradients; hidden when RZ except for TXD), the
// handle UR 40..45 (a pair for textures: header, sampler), immediate 46..53, DIM 61..63, Rd2
// 64..71 (the third and fourth components), write mask 72..75 (hidden when 0xf; the written
// components are packed into Rd, Rd+1, Rd2, Rd2+1), Pd 81..83, cache 84..86 (1 = default),
// LOD mode / TLD4 component 87..89; bit 91 is set in every bindless form. Surfaces: clamp mode
// 59..60 (0 .IGN, 1 clamp, 2 .TRAP), .BA (byte addressing) 72, size 73..75 as LDG's, memory
// semantics 77..80 as LDG's, SURED operation 87..90 and type 73..75.
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

using isa::MemOrder;
using isa::Scope;
using isa::SurfOob;
using isa::TexDim;
using isa::TexMode;
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}
#define V2(raw, val, val2, text)                                                                  \
  ModValue{raw, static_cast<uint8_t>(val), text, static_cast<uint8_t>(val2)}

namespace {

// A modifier printed as an operand with named values (TEX's "2D").
E namedOperand(S slot, Field f, ModMap values) {
  E e = slotOperand(slot, f);
  e.values = std::move(values);
  return e;
}

// Every dimension TEX takes; TLD, TLD4 and TXD take subsets (nvdisasm prints the others
// INVALIDn).
const ModMap &allDims() {
  static const ModMap m = {V(0, TexDim::D1, "1D"), V(1, TexDim::D2, "2D"), V(2, TexDim::D3, "3D"),
                           V(3, TexDim::CUBE, "CUBE"), V(4, TexDim::ARRAY_1D, "ARRAY_1D"),
                           V(5, TexDim::ARRAY_2D, "ARRAY_2D"),
                           V(7, TexDim::ARRAY_CUBE, "ARRAY_CUBE")};
  return m;
}

E texDim(std::initializer_list<unsigned> raws) {
  ModMap m;
  for (const ModValue &v : allDims())
    for (unsigned r : raws)
      if (v.raw == r) m.push_back(v);
  return namedOperand(S::texDim, bits(61, 3), m);
}

E surfDim() {
  return mod(S::texDim, bits(61, 3),
             {V(0, TexDim::D1, ".1D"), V(1, TexDim::BUFFER_1D, ".1D_BUFFER"),
              V(2, TexDim::ARRAY_1D, ".1D_ARRAY"), V(3, TexDim::D2, ".2D"),
              V(4, TexDim::ARRAY_2D, ".2D_ARRAY"), V(5, TexDim::D3, ".3D")});
}

E surfOob() {
  return mod(S::surfOob, bits(59, 2),
             {V(1, SurfOob::None, ""), V(0, SurfOob::IGN, ".IGN"), V(2, SurfOob::TRAP, ".TRAP")});
}

// The strong scopes a surface access is issued with (ptxas: .STRONG.SM for suld/sust,
// .STRONG.SYS for sured).
E surfSemantics() {
  return mod2(S::order, S::scope, bits(77, 4),
              {V2(5, MemOrder::RELAXED, Scope::SM, ".STRONG.SM"),
               V2(7, MemOrder::RELAXED, Scope::GPU, ".STRONG.GPU"),
               V2(10, MemOrder::RELAXED, Scope::SYS, ".STRONG.SYS")});
}

// Operands shared by the texture family, after the modifiers.
std::vector<E> texOperands(bool rbShown, E dim) {
  E rb = R(32);
  if (!rbShown)
    rb.opt(2, Operand::r(RZ));
  else
    rb.w(4);
  return {P(81).def().opt(1, pt()), R(64).def().w(2), R(16).def().w(2),
          R(24).wslot(S::texDim).nz(), rb, UR(40).w(2).nz(), Imm(bits(46, 8)), dim,
          Imm(bits(72, 4)).opt(3, Operand::i(0xf))};
}

void texForm(Builder &b, Op op, unsigned opcode, std::vector<E> mods, bool rbShown, E dim) {
  std::vector<E> elems = std::move(mods);
  for (E &e : texOperands(rbShown, dim))
    elems.push_back(e);
  b.form(op, opcode, elems);
  b.fix(bits(84, 3), 1);   // default cache policy
  b.fix(bits(91, 1), 1);   // bindless (handle in a uniform register)
}

void addTextures(Builder &b) {
  texForm(b, Op::TEX, 0xf60,
          {mod(S::texMode, bits(87, 3),
               {V(0, TexMode::None, ""), V(1, TexMode::LZ, ".LZ"), V(2, TexMode::LB, ".LB"),
                V(3, TexMode::LL, ".LL")})},
          false, texDim({0, 1, 2, 3, 4, 5, 7}));
  // TLD.LL wants its LOD register (RZ there prints ???): only .LZ, which ptxas uses for tex
  // with integer coordinates.
  texForm(b, Op::TLD, 0xf66, {fixed(S::texMode, static_cast<uint8_t>(TexMode::LZ), ".LZ")}, false,
          texDim({0, 1, 2, 4, 5}));
  b.fix(bits(87, 3), 1);
  texForm(b, Op::TLD4, 0xf63,
          {mod(S::texMode, bits(87, 2),
               {V(0, TexMode::R, ".R"), V(1, TexMode::G, ".G"), V(2, TexMode::B, ".B"),
                V(3, TexMode::A, ".A")})},
          false, texDim({1, 3, 5, 7}));
  texForm(b, Op::TXD, 0xf6c, {}, true, texDim({0, 1, 4, 5}));
  // TXQ Rd2, Rd, Ra (the mip level), QUERY, URh, idx, mask: the query 62..63 in
  // Modifiers::extra (1 TEX_HEADER_DIMENSION: mask 1 width, 2 height, 4 depth).
  b.form(Op::TXQ, 0xf6f,
         {R(64).def(), R(16).def(), R(24).nz(),
          namedOperand(S::extra, bits(62, 2),
                       {V(0, 1, "TEX_HEADER_DIMENSION"), V(1, 2, "TEX_HEADER_TEXTURE_TYPE"),
                        V(2, 3, "TEX_HEADER_SAMPLER_POS")}),
          UR(40).w(2).nz(), Imm(bits(46, 8)), Imm(bits(72, 4))});   // mask always printed
  b.fix(bits(81, 4), 0xf);   // no predicate result (PT), default cache policy
  b.fix(bits(91, 1), 1);
}

// The surface instructions' modifiers and operands up to the handle (the bindless forms follow
// them with URh, idx; Ampere's bound forms with the bank-0 word index).
std::vector<E> suldOperands() {
  return {text(".D.BA"), surfDim(), mod(S::memType, bits(73, 3), maps::memSize()), surfSemantics(),
          surfOob(), P(81).def().opt(1, pt()), R(16).def().wslot(S::memType),
          R(24).wslot(S::texDim).wrapped("[").nz()};
}

std::vector<E> sustOperands() {
  return {text(".D.BA"), surfDim(), mod(S::memType, bits(73, 3), maps::memSize()), surfSemantics(),
          surfOob(), R(24).wslot(S::texDim).wrapped("[").nz(), R(32).wslot(S::memType)};
}

std::vector<E> suredOperands() {
  using isa::AtomOp;
  using isa::AtomType;
  return {text(".D.BA"), surfDim(),
          mod(S::atom, bits(87, 3),
              {V(0, AtomOp::ADD, ".ADD"), V(1, AtomOp::MIN, ".MIN"), V(2, AtomOp::MAX, ".MAX"),
               V(3, AtomOp::INC, ".INC"), V(4, AtomOp::DEC, ".DEC"), V(5, AtomOp::AND, ".AND"),
               V(6, AtomOp::OR, ".OR"), V(7, AtomOp::XOR, ".XOR")}),
          mod(S::atomType, bits(73, 3),
              {V(0, AtomType::U32, ""), V(1, AtomType::S32, ".S32"), V(2, AtomType::U64, ".U64")}),
          surfSemantics(), surfOob(), R(24).wslot(S::texDim).wrapped("[").nz(),
          R(32).wslot(S::atomType)};
}

std::vector<E> followedBy(std::vector<E> elems, const std::vector<E> &tail) {
  elems.insert(elems.end(), tail.begin(), tail.end());
  return elems;
}

void addSurfaces(Builder &b) {
  auto common = [&](Op op, unsigned opcode, std::vector<E> elems) {
    b.form(op, opcode, elems);
    b.fix(bits(72, 1), 1);
    b.fix(bits(84, 3), 1);
    b.fix(bits(91, 1), 1);
  };
  // SULD.D.BA.DIM{.size}.sem{.oob} [Pd,] Rd, [Ra], URh, idx
  common(Op::SULD, 0xf99, followedBy(suldOperands(), {UR(40).nz(), Imm(bits(46, 8))}));
  // SUST.D.BA.DIM{.size}.sem{.oob} [Ra], Rb, URh, idx
  common(Op::SUST, 0xf9d, followedBy(sustOperands(), {UR(40), Imm(bits(46, 8))}));
  b.noWriteScoreboard();
  // SURED.D.BA.DIM.op{.type}.sem{.oob} [Ra], Rb, URh, idx
  common(Op::SURED, 0xf9f, followedBy(suredOperands(), {UR(40).nz(), Imm(bits(46, 8))}));
  b.noWriteScoreboard();
}

// Ampere's bound forms: the handle is not a uniform register but the index of a constant-bank-0
// word the driver fills with the header index (ptxas 13.0's sm_80/86 code for .texref/.surfref
// by name and for handles loaded from kernel parameters). The word index is bits 40..53 and a
// second immediate (always 0 in ptxas's code) 54..58, printed "0x0, 0x5b"; bit 91 (bindless) is
// clear, and so is opcode bit 10 (bits 9 and 11 too for SURED: 0x59f). TEX/TLD/TLD4 may carry
// .SCR (bits 59..60 = 2, Modifiers::extra = 1; 1 prints .B): the coordinates and LOD split over
// Ra and Rb (lowering, TextureOps.cpp); TXD/TXQ have no such field.
std::vector<E> boundSlot() { return {Imm(bits(54, 5)), Imm(bits(40, 14))}; }

void boundTexForm(Builder &b, Op op, unsigned opcode, std::vector<E> mode, bool scr, bool rbShown, E dim) {
  std::vector<E> elems;
  if (scr) elems.push_back(mod(S::extra, bits(59, 2), {V(0, 0, ""), V(2, 1, ".SCR")}));
  for (E &m : mode) elems.push_back(m);
  for (E &e : texOperands(rbShown, dim)) {
    if (e.kind == ElemKind::Opd && e.type == OpdType::UGpr) {
      for (E &s : boundSlot()) elems.push_back(s);
      continue;
    }
    if (e.kind == ElemKind::Opd && e.type == OpdType::Imm && e.field.pos == 46) continue;
    elems.push_back(e);
  }
  b.form(op, opcode, elems);
  b.fix(bits(84, 3), 1);
  if (!scr) b.fix(bits(59, 2), 0);
  b.fix(bits(91, 1), 0);
}

void addBoundTextures(Builder &b) {
  boundTexForm(b, Op::TEX, 0xb60,
               {mod(S::texMode, bits(87, 3),
                    {V(0, TexMode::None, ""), V(1, TexMode::LZ, ".LZ"), V(2, TexMode::LB, ".LB"),
                     V(3, TexMode::LL, ".LL")})},
               true, false, texDim({0, 1, 2, 3, 4, 5, 7}));
  boundTexForm(b, Op::TLD, 0xb66, {fixed(S::texMode, static_cast<uint8_t>(TexMode::LZ), ".LZ")}, true, false,
               texDim({0, 1, 2, 4, 5}));
  b.fix(bits(87, 3), 1);
  boundTexForm(b, Op::TLD4, 0xb63,
               {mod(S::texMode, bits(87, 2),
                    {V(0, TexMode::R, ".R"), V(1, TexMode::G, ".G"), V(2, TexMode::B, ".B"), V(3, TexMode::A, ".A")})},
               true, false, texDim({1, 3, 5, 7}));
  boundTexForm(b, Op::TXD, 0xb6c, {}, false, true, texDim({0, 1, 4, 5}));
  std::vector<E> txq = {R(64).def(), R(16).def(), R(24).nz(),
                        namedOperand(S::extra, bits(62, 2),
                                     {V(0, 1, "TEX_HEADER_DIMENSION"), V(1, 2, "TEX_HEADER_TEXTURE_TYPE"),
                                      V(2, 3, "TEX_HEADER_SAMPLER_POS")})};
  for (E &s : boundSlot()) txq.push_back(s);
  txq.push_back(Imm(bits(72, 4)));
  b.form(Op::TXQ, 0xb6f, txq);
  b.fix(bits(81, 4), 0xf);
  b.fix(bits(91, 1), 0);
}

void addBoundSurfaces(Builder &b) {
  auto common = [&](Op op, unsigned opcode, std::vector<E> elems) {
    b.form(op, opcode, elems);
    b.fix(bits(72, 1), 1);
    b.fix(bits(84, 3), 1);
    b.fix(bits(91, 1), 0);
  };
  common(Op::SULD, 0xb99, followedBy(suldOperands(), boundSlot()));
  common(Op::SUST, 0xb9d, followedBy(sustOperands(), boundSlot()));
  b.noWriteScoreboard();
  common(Op::SURED, 0x59f, followedBy(suredOperands(), boundSlot()));
  b.noWriteScoreboard();
}

} // namespace

void addTextureForms(Builder &b) {
  addTextures(b);
  addSurfaces(b);
}

void addBoundTextureForms(Builder &b) {
  addBoundTextures(b);
  addBoundSurfaces(b);
}

} // namespace optxas::sass::sm90
