// sm_90 conversions: F2I, F2IP, I2F, F2F, I2FP, F2FP (PACK_AB), I2I.
//
// Shared codes (verified with nvdisasm): float types are 1 F16, 2 F32, 3 F64, 4 BF16 (3 bits;
// destination 75..77, source 84..86); integer types are a size (0 8-bit, 1 16-bit, 2 32-bit,
// 3 64-bit) plus a signed bit. Conversions that touch 64-bit values use the 0x11x opcodes.
#include "sm90/Sm90.h"

namespace optxas::sass::sm90 {

using isa::FloatType;
using isa::IntType;
using isa::Round;
#define V(raw, val, text) ModValue{raw, static_cast<uint8_t>(val), text}

namespace {

struct FT {
  unsigned code;
  FloatType t;
  const char *text;
};
const FT kF16{1, FloatType::F16, ".F16"}, kF32{2, FloatType::F32, ".F32"},
    kF64{3, FloatType::F64, ".F64"}, kBF16{4, FloatType::BF16, ".BF16"};

// An integer type field made of a signed bit and a 2-bit size field elsewhere.
E intType(S slot, int signBit, int sizePos, std::initializer_list<IntType> types,
          bool hideS32) {
  ModMap m;
  for (IntType t : types) {
    unsigned size = 0, sgn = 0;
    const char *text = "";
    switch (t) {
    case IntType::U8: size = 0; text = ".U8"; break;
    case IntType::S8: size = 0; sgn = 1; text = ".S8"; break;
    case IntType::U16: size = 1; text = ".U16"; break;
    case IntType::S16: size = 1; sgn = 1; text = ".S16"; break;
    case IntType::U32: size = 2; text = ".U32"; break;
    case IntType::S32: size = 2; sgn = 1; text = hideS32 ? "" : ".S32"; break;
    case IntType::U64: size = 3; text = ".U64"; break;
    case IntType::S64: size = 3; sgn = 1; text = ".S64"; break;
    default: break;
    }
    m.push_back(V(sgn | size << 1, t, text));
    if (t == IntType::S32 && hideS32)
      m.push_back(V(sgn | size << 1, IntType::None, ""));
  }
  E e = mod(slot, bits(signBit, 1), m);
  e.fieldHi = bits(sizePos, 2);
  return e;
}

// A float type field; `hidden` is the type nvdisasm does not print (F32 for F2I's source).
E floatType(S slot, int pos, std::initializer_list<FT> types, FloatType hidden = FloatType::None) {
  ModMap m;
  for (const FT &t : types) {
    bool hide = t.t == hidden;
    m.push_back(V(t.code, t.t, hide ? "" : t.text));
    if (hide)
      m.push_back(V(t.code, FloatType::None, ""));
  }
  return mod(slot, bits(pos, 3), m);
}

E rounding() {
  return mod(S::round, bits(78, 2),
             {V(0, Round::RN, ""), V(0, Round::None, ""), V(1, Round::RM, ".RM"),
              V(2, Round::RP, ".RP"), V(3, Round::RZ, ".RZ")});
}
// F2I rounds to an integer: .FLOOR/.CEIL/.TRUNC
E intRounding() {
  return mod(S::round, bits(78, 2),
             {V(0, Round::RN, ""), V(0, Round::None, ""), V(1, Round::RM, ".FLOOR"),
              V(2, Round::RP, ".CEIL"), V(3, Round::RZ, ".TRUNC")});
}

const std::initializer_list<IntType> kSmallInts = {IntType::U8,  IntType::S8,  IntType::U16,
                                                   IntType::S16, IntType::U32, IntType::S32};

// The source operand of a conversion from float type `t`: immediates and constant banks are
// spelled after the source width.
E floatSource(const FT &t) {
  ImmFmt fm = t.t == FloatType::F64 ? ImmFmt::F64Hi
              : t.t == FloatType::F32 ? ImmFmt::F32 : ImmFmt::H1;
  E e = srcB(fm).neg(63).abs(62).wslot(S::srcFloatType);
  if (fm == ImmFmt::H1)
    e.spacedBank();
  return e;
}

void addF2I(Builder &b) {
  // F2I{.FTZ}{.dst}{.src}{.rnd}{.NTZ} Rd, b   (one form per source type)
  auto form = [&](unsigned opc, std::initializer_list<IntType> dst, const FT &src) {
    b.alu(Op::F2I, opc, kBSources,
          {flag(S::ftz, 80, ".FTZ"), intType(S::intType, 72, 75, dst, true),
           floatType(S::srcFloatType, 84, {src}, FloatType::F32), intRounding(),
           flag(S::ntz, 77, ".NTZ"), R(16).def().wslot(S::intType), floatSource(src)});
  };
  for (const FT &src : {kF16, kF32, kBF16})
    form(0x105, kSmallInts, src);
  for (const FT &src : {kF16, kF32, kBF16, kF64})
    form(0x111, {IntType::U64, IntType::S64}, src);
  form(0x111, kSmallInts, kF64);
  // F2IP.U8.F32{.TRUNC}{.NTZ} Rd, Ra, b, Rc   (fixed latency; ptxas's u8 from f32 without .ftz,
  // rounding RN or TRUNC only: 1 and 2 are INVALID). ptxas writes Ra = Rc = RZ; bits 72 (Rc.H1),
  // 75 (.RELU), 76 (.S8) stay 0 (not modelled).
  b.alu(Op::F2IP, 0x043, kBSources,
        {fixed(S::intType, static_cast<uint8_t>(IntType::U8), ".U8"),
         fixed(S::srcFloatType, static_cast<uint8_t>(FloatType::F32), ".F32"),
         mod(S::round, bits(78, 2),
             {V(0, Round::RN, ""), V(0, Round::None, ""), V(3, Round::RZ, ".TRUNC")}),
         flag(S::ntz, 74, ".NTZ"), R(16).def(), R(24).reuse(0), srcB(ImmFmt::F32).reuse(1),
         R(64).reuse(2)});
  b.fix(bits(72, 1), 0);
  b.fix(bits(75, 3), 0);
}

void addI2F(Builder &b) {
  // I2F{.dst}{.src}{.rnd} Rd, b   (8/16-bit sources: no immediate, spaced constant banks)
  auto form = [&](unsigned opc, std::initializer_list<FT> dst,
                  std::initializer_list<IntType> src, bool narrow) {
    E source = srcB(ImmFmt::IntSrc).wslot(S::srcIntType);
    if (narrow)
      source.spacedBank();
    b.alu(Op::I2F, opc, narrow ? std::vector<unsigned>{RR, CR, UR_} : kBSources,
          {floatType(S::floatType, 75, dst, FloatType::F32),
           intType(S::srcIntType, 74, 84, src, true), rounding(),
           R(16).def().wslot(S::floatType), source});
  };
  const std::initializer_list<IntType> narrow = {IntType::U8, IntType::S8, IntType::U16,
                                                 IntType::S16};
  form(0x106, {kF16, kF32, kBF16}, narrow, true);
  form(0x106, {kF16, kF32, kBF16}, {IntType::U32, IntType::S32}, false);
  form(0x112, {kF16, kF32, kF64}, {IntType::U64, IntType::S64}, false);
  form(0x112, {kF64}, narrow, true);
  form(0x112, {kF64}, {IntType::U32, IntType::S32}, false);
  // I2FP.F32.{U32|S32}{.RZ} Rd, b   (fixed-latency int -> f32)
  b.alu(Op::I2FP, 0x045, kBSources,
        {text(".F32"), intType(S::srcIntType, 74, 84, {IntType::U32, IntType::S32}, false),
         mod(S::round, bits(78, 2),
             {V(0, Round::RN, ""), V(0, Round::None, ""), V(3, Round::RZ, ".RZ")}),
         R(16).def(), srcB(ImmFmt::IntSrc).reuse(1)});
  b.fix(bits(75, 3), 2);
}

void addF2F(Builder &b) {
  // F2F{.FTZ}.dst.src{.rnd} Rd, b   (one form per source type)
  auto form = [&](unsigned opc, std::initializer_list<FT> dst, const FT &src) {
    b.alu(Op::F2F, opc, kBSources,
          {flag(S::ftz, 80, ".FTZ"), floatType(S::floatType, 75, dst),
           floatType(S::srcFloatType, 84, {src}), rounding(), R(16).def().wslot(S::floatType),
           floatSource(src)});
  };
  form(0x104, {kF16, kBF16}, kF32);
  form(0x104, {kF32}, kF16);
  form(0x104, {kF32}, kBF16);
  form(0x110, {kF16, kF32, kBF16}, kF64);
  form(0x110, {kF64}, kF16);
  form(0x110, {kF64}, kF32);
}

// FP8 pairs (cvt e4m3x2/e5m2x2): the 8-bit formats set bit 87; bit 76 picks E4M3 (1) or E5M2
// (0) whichever side is the FP8 one. Bits 72..74 name the 16-bit/fp8 source of the UNPACK
// forms; bits 78, 89, 90 select the packing (each combination checked with nvdisasm). nvdisasm
// spells every immediate source as an f32 (even the f16x2 and fp8 ones).
void addFp8(Builder &b) {
  auto fp8 = [](S slot, int bit) {
    return mod(slot, bits(bit, 1),
               {V(1, FloatType::E4M3, ".E4M3"), V(0, FloatType::E5M2, ".E5M2")});
  };
  const E satfinite = flag(S::satfinite, 77, ".SATFINITE"), relu = flag(S::relu, 75, ".RELU");
  // F2FP{.SATFINITE}{.RELU}.{E4M3|E5M2}.F32.PACK_AB_MERGE_C Rd, Ra, b, Rc
  //   (a -> byte 1, b -> byte 0, the high half from Rc)
  b.alu(Op::F2FP, 0x03e, kBSources,
        {satfinite, relu, fp8(S::floatType, 76),
         fixed(S::srcFloatType, static_cast<uint8_t>(FloatType::F32), ".F32"),
         fixed(S::pack, static_cast<uint8_t>(isa::PackMode::PACK_AB_MERGE_C), ".PACK_AB_MERGE_C"),
         R(16).def(), R(24).reuse(0), srcB(ImmFmt::F32).reuse(1), R(64).reuse(2)});
  b.fix(bits(72, 3), 0);
  b.fix(bits(78, 1), 1);
  b.fix(bits(79, 3), 0);
  b.fix(bits(84, 4), 8);
  b.fix(bits(89, 2), 2);
  // F2FP{.SATFINITE}{.RELU}.{E4M3|E5M2}.F16.UNPACK_B_MERGE_C Rd, b, Rc   (f16x2 -> fp8x2)
  b.alu(Op::F2FP, 0x03e, kBSources,
        {satfinite, relu, fp8(S::floatType, 76),
         fixed(S::srcFloatType, static_cast<uint8_t>(FloatType::F16), ".F16"),
         fixed(S::pack, static_cast<uint8_t>(isa::PackMode::UNPACK_B_MERGE_C), ".UNPACK_B_MERGE_C"),
         R(16).def(), srcB(ImmFmt::F32).reuse(1), R(64).reuse(2)});
  b.fix(bits(24, 8), RZ);
  b.fix(bits(72, 3), 2);
  b.fix(bits(78, 1), 0);
  b.fix(bits(79, 3), 0);
  b.fix(bits(84, 4), 8);
  b.fix(bits(89, 2), 2);
  // F2FP{.RELU}.F16.{E4M3|E5M2}.UNPACK_B Rd, b   (fp8x2 in the low half -> f16x2)
  b.alu(Op::F2FP, 0x03e, kBSources,
        {relu, fixed(S::floatType, static_cast<uint8_t>(FloatType::F16), ".F16"),
         mod(S::srcFloatType, bits(73, 1),
             {V(1, FloatType::E4M3, ".E4M3"), V(0, FloatType::E5M2, ".E5M2")}),
         fixed(S::pack, static_cast<uint8_t>(isa::PackMode::UNPACK_B), ".UNPACK_B"),
         R(16).def(), srcB(ImmFmt::F32).reuse(1).spacedBank()});
  b.fix(bits(24, 8), RZ);
  b.fix(bits(64, 8), RZ);
  b.fix(bits(72, 1), 0);
  b.fix(bits(74, 1), 1);
  b.fix(bits(76, 2), 0);
  b.fix(bits(78, 1), 0);
  b.fix(bits(79, 3), 0);
  b.fix(bits(84, 5), 0);
  b.fix(bits(89, 2), 1);
}

void addPack(Builder &b) {
  // F2FP{.RELU}{.SATFINITE}.{F16|BF16}.F32.PACK_AB{.RZ} Rd, Ra, b
  b.alu(Op::F2FP, 0x03e, kBSources,
        {flag(S::satfinite, 77, ".SATFINITE"), flag(S::relu, 75, ".RELU"),
         mod(S::floatType, bits(76, 1),
             {V(0, FloatType::F16, ".F16"), V(1, FloatType::BF16, ".BF16")}),
         fixed(S::srcFloatType, static_cast<uint8_t>(FloatType::F32), ".F32"),
         fixed(S::pack, static_cast<uint8_t>(isa::PackMode::PACK_AB), ".PACK_AB"),
         mod(S::round, bits(79, 3),
             {V(0, Round::RN, ""), V(0, Round::None, ""), V(3, Round::RZ, ".RZ")}),
         R(16).def(), R(24).reuse(0), srcB(ImmFmt::F32).reuse(1)});
  b.fix(bits(64, 8), RZ);
  b.fix(bits(72, 3), 0);
  b.fix(bits(78, 1), 0);
  b.fix(bits(86, 2), 0);
  b.fix(bits(89, 2), 0);
  addFp8(b);
  // I2I.{dst}.S32.SAT Rd, b   (saturating narrowing)
  b.alu(Op::I2I, 0x038, kBSources,
        {mod(S::intType, bits(76, 2),
             {V(1, IntType::S8, ".S8"), V(2, IntType::U16, ".U16"), V(0, IntType::U8, ".U8"),
              V(3, IntType::S16, ".S16")}),
         fixed(S::srcIntType, static_cast<uint8_t>(IntType::S32), ".S32"),
         fixed(S::sat, 1, ".SAT"), R(16).def(), srcB(ImmFmt::SHex).reuse(1)});
}

} // namespace

void addConversionForms(Builder &b) {
  addF2I(b);
  addI2F(b);
  addF2F(b);
  addPack(b);
}

#undef V
} // namespace optxas::sass::sm90
