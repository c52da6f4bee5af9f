// sm_90 tensor-core forms: HMMA, IMMA, DMMA (mma.sync / wmma.mma) and LDSM (ldmatrix).
//
// Fields (nvdisasm bit probes of ptxas 13.0 output):
//   HMMA 0x23c  Rd 16, Ra 24, Rb 32, Rc 64; 75 = k16 (16816), 78 = k4 (1684), 76 = f32
//               accumulator, 82..83 = source type (F16, BF16, TF32).
//   IMMA 0x237  Rd 16, Ra 24 (.ROW: 73 = 0), Rb 32 (.COL: 74 = 1), Rc 64; 86 = m16, 75 = k32,
//               76..77 = A type, 78..79 = B type (U8, S8), 82 = .SAT.
//   HMMA.SP 0x23c as HMMA, 73 = .SP, 75 + 78 = k32, Re 40, sparsity selector 48..49.
//   BMMA 0x23d  Rd 16, Ra 24 (.ROW), Rb 32 (.COL: 74), Rc 64; 78, 80 set, 76 = k256, 75 = m16 k128.
//   DMMA 0x23f  Rd 16, Ra 24, Rb 32, Rc 64; 76/77 pick the larger shapes, 78..79 rounding.
//   LDSM 0x83b  Rd 16, [Ra 24 + URb 32 (91 = present) + imm 40..63]; 72..73 = matrix count
//               (.x1 .x2 .x4), 78 = .MT88 (transposed), 79 = .M816.
//   STSM 0x844  [Ra 24 + URb 64 (91) + imm 40..63], Rb 32; 72..73 and 78 as LDSM.
//   MOVM 0x23a  Rd 16, Ra 24; 78..79 = 0 (.MT88).
// Bits 87..90 (a uniform predicate operand, UPT when zero) stay zero. A and B have the
// usual operand-reuse bits (122, 123); nvdisasm rejects reuse on C.
// The register widths follow the shape, so each shape is its own form.
#include "optxas/isa/Mma.h"
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

using isa::FloatType;
using isa::IntType;
using isa::MmaShape;

namespace {

E shape(MmaShape s, std::string_view text) { return fixed(S::extra, static_cast<uint8_t>(s), text); }

struct HmmaForm {
  MmaShape shape;
  const char *shapeText;
  FloatType dst, src;
  uint8_t d, a, b;   // register widths of D (= C), A, B
};

void addHmma(Builder &b) {
  const HmmaForm forms[] = {
      {MmaShape::M16N8K16, ".16816", FloatType::F32, FloatType::F16, 4, 4, 2},
      {MmaShape::M16N8K16, ".16816", FloatType::F32, FloatType::BF16, 4, 4, 2},
      {MmaShape::M16N8K16, ".16816", FloatType::F16, FloatType::F16, 2, 4, 2},
      {MmaShape::M16N8K8, ".1688", FloatType::F32, FloatType::F16, 4, 2, 1},
      {MmaShape::M16N8K8, ".1688", FloatType::F32, FloatType::BF16, 4, 2, 1},
      {MmaShape::M16N8K8, ".1688", FloatType::F16, FloatType::F16, 2, 2, 1},
      {MmaShape::M16N8K8, ".1688", FloatType::F32, FloatType::TF32, 4, 4, 2},
      {MmaShape::M16N8K4, ".1684", FloatType::F32, FloatType::TF32, 4, 2, 1},
  };
  for (const HmmaForm &f : forms) {
    const bool f32 = f.dst == FloatType::F32;
    const char *srcText = f.src == FloatType::BF16 ? ".BF16" : f.src == FloatType::TF32 ? ".TF32" : "";
    b.form(Op::HMMA, 0x23c,
           {shape(f.shape, f.shapeText), fixed(S::floatType, static_cast<uint8_t>(f.dst), f32 ? ".F32" : ".F16"),
            fixed(S::srcFloatType, static_cast<uint8_t>(f.src), srcText), R(16).def().w(f.d),
            R(24).w(f.a).reuse(0), R(32).w(f.b).reuse(1), R(64).w(f.d)});
    b.fix(bits(75, 1), f.shape == MmaShape::M16N8K16);
    b.fix(bits(78, 1), f.shape == MmaShape::M16N8K4);
    b.fix(bits(76, 1), f32);
    b.fix(bits(82, 2), f.src == FloatType::BF16 ? 1 : f.src == FloatType::TF32 ? 2 : 0);
  }
}

// HMMA.SP.{16816|16832}.{F32|F16}{.BF16} Rd, Ra, Rb, Rc, Re, sel: the dense fields plus 73 = .SP,
// the metadata register at 40 and the sparsity selector at 48..49; 75 + 78 = k32.
void addHmmaSparse(Builder &b) {
  const HmmaForm forms[] = {
      {MmaShape::M16N8K32, ".SP.16832", FloatType::F32, FloatType::F16, 4, 4, 4},
      {MmaShape::M16N8K32, ".SP.16832", FloatType::F32, FloatType::BF16, 4, 4, 4},
      {MmaShape::M16N8K32, ".SP.16832", FloatType::F16, FloatType::F16, 2, 4, 4},
      {MmaShape::M16N8K16, ".SP.16816", FloatType::F32, FloatType::F16, 4, 2, 2},
      {MmaShape::M16N8K16, ".SP.16816", FloatType::F32, FloatType::BF16, 4, 2, 2},
      {MmaShape::M16N8K16, ".SP.16816", FloatType::F16, FloatType::F16, 2, 2, 2},
  };
  for (const HmmaForm &f : forms) {
    const bool f32 = f.dst == FloatType::F32;
    b.form(Op::HMMA, 0x23c,
           {fixed(S::extra, static_cast<uint8_t>(static_cast<uint8_t>(f.shape) | isa::kMmaSparse), f.shapeText),
            fixed(S::floatType, static_cast<uint8_t>(f.dst), f32 ? ".F32" : ".F16"),
            fixed(S::srcFloatType, static_cast<uint8_t>(f.src), f.src == FloatType::BF16 ? ".BF16" : ""),
            R(16).def().w(f.d), R(24).w(f.a).reuse(0), R(32).w(f.b).reuse(1), R(64).w(f.d), R(40), Imm(bits(48, 2))});
    b.fix(bits(73, 1), 1);
    b.fix(bits(75, 1), 1);
    b.fix(bits(78, 1), f.shape == MmaShape::M16N8K32);
    b.fix(bits(76, 1), f32);
    b.fix(bits(82, 2), f.src == FloatType::BF16 ? 1 : 0);
  }
}

// BMMA.{168256|168128|88128}.AND.POPC Rd, Ra.ROW, Rb.COL, Rc (mma .b1 .and.popc): IMMA's operand
// fields; 74 = .COL, 78 and 80 always, 76 = k256, 75 = m16 k128.
void addBmma(Builder &b) {
  struct Shape {
    MmaShape shape;
    const char *text;
    uint8_t d, a, b;
  };
  const Shape shapes[] = {{MmaShape::M16N8K256, ".168256", 4, 4, 2},
                          {MmaShape::M16N8K128, ".168128", 4, 2, 1},
                          {MmaShape::M8N8K128, ".88128", 2, 1, 1}};
  for (const Shape &s : shapes) {
    b.form(Op::BMMA, 0x23d,
           {shape(s.shape, s.text), text(".AND.POPC"), R(16).def().w(s.d),
            R(24).w(s.a).reuse(0).sel(bits(73, 1), {ModValue{0, 0, ".ROW"}}),
            R(32).w(s.b).reuse(1).sel(bits(74, 1), {ModValue{1, 0, ".COL"}}), R(64).w(s.d)});
    b.fix(bits(76, 1), s.shape == MmaShape::M16N8K256);
    b.fix(bits(75, 1), s.shape == MmaShape::M16N8K128);
    b.fix(bits(78, 1), 1);
    b.fix(bits(80, 1), 1);
  }
}

void addImma(Builder &b) {
  struct Shape {
    MmaShape shape;
    const char *text;
    uint8_t d, a, b;
  };
  const Shape shapes[] = {{MmaShape::M8N8K16, ".8816", 2, 1, 1},
                          {MmaShape::M16N8K16, ".16816", 4, 2, 1},
                          {MmaShape::M16N8K32, ".16832", 4, 4, 2}};
  auto type = [](S slot, int pos) {
    return mod(slot, bits(pos, 2),
               {ModValue{0, static_cast<uint8_t>(IntType::U8), ".U8"},
                ModValue{1, static_cast<uint8_t>(IntType::S8), ".S8"}});
  };
  for (const Shape &s : shapes) {
    b.form(Op::IMMA, 0x237,
           {shape(s.shape, s.text), type(S::intType, 76), type(S::srcIntType, 78), flag(S::sat, 82, ".SAT"),
            R(16).def().w(s.d), R(24).w(s.a).reuse(0).sel(bits(73, 1), {ModValue{0, 0, ".ROW"}}),
            R(32).w(s.b).reuse(1).sel(bits(74, 1), {ModValue{1, 0, ".COL"}}), R(64).w(s.d)});
    b.fix(bits(86, 1), s.shape != MmaShape::M8N8K16);
    b.fix(bits(75, 1), s.shape == MmaShape::M16N8K32);
  }
}

void addDmma(Builder &b) {
  b.form(Op::DMMA, 0x23f,
         {shape(MmaShape::M8N8K4, ".8x8x4"), R(16).def().w(4), R(24).w(2).reuse(0), R(32).w(2).reuse(1), R(64).w(4)});
}

void addLdsm(Builder &b) {
  MemLayout l;
  l.base = bits(24, 8);
  l.ur = bits(32, 6);
  l.urUse = MemLayout::UrUse::AddIfBit;
  l.urBit = 91;
  l.offset = bits(40, 24);
  l.absoluteSigned = true;   // (nvdisasm prints a lone offset signed: [-0x10])
  b.form(Op::LDSM, 0x83b,
         {text(".16"),
          mod(S::extra, bits(78, 1), {ModValue{0, 0, ".M88"}, ModValue{1, isa::kLdsmTrans, ".MT88"}}),
          mod(S::memType, bits(72, 2),
              {ModValue{0, static_cast<uint8_t>(isa::MemType::B32), ""},
               ModValue{1, static_cast<uint8_t>(isa::MemType::B64), ".2"},
               ModValue{2, static_cast<uint8_t>(isa::MemType::B128), ".4"}}),
          R(16).def().wslot(S::memType), Mem(l)});
}

// STSM.16.{M88,MT88}{,.2,.4} [Ra+URb+imm], Rb   (stmatrix: LDSM's fields, the data register at 32
// and the uniform register at 64 instead)
void addStsm(Builder &b) {
  MemLayout l;
  l.base = bits(24, 8);
  l.ur = bits(64, 6);
  l.urUse = MemLayout::UrUse::AddIfBit;
  l.urBit = 91;
  l.offset = bits(40, 24);
  l.absoluteSigned = true;
  b.form(Op::STSM, 0x844,
         {text(".16"),
          mod(S::extra, bits(78, 1), {ModValue{0, 0, ".M88"}, ModValue{1, isa::kLdsmTrans, ".MT88"}}),
          mod(S::memType, bits(72, 2),
              {ModValue{0, static_cast<uint8_t>(isa::MemType::B32), ""},
               ModValue{1, static_cast<uint8_t>(isa::MemType::B64), ".2"},
               ModValue{2, static_cast<uint8_t>(isa::MemType::B128), ".4"}}),
          Mem(l), R(32).wslot(S::memType)});
  b.noWriteScoreboard();
}

// MOVM.16.MT88 Rd, Ra   (movmatrix.trans; 78..79 = 1 / 2 are .M832 / .M864, not in PTX)
void addMovm(Builder &b) {
  b.form(Op::MOVM, 0x23a, {text(".16"), text(".MT88"), R(16).def(), R(24)});
  b.fix(bits(78, 2), 0);
}

} // namespace

void addTensorForms(Builder &b) {
  addHmma(b);
  addHmmaSparse(b);
  addImma(b);
  addBmma(b);
  addDmma(b);
  addLdsm(b);
  addStsm(b);
  addMovm(b);
}

} // namespace optxas::sass::sm90
