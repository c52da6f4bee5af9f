// Instruction modifiers shared by the Ori IR and the SASS encoder/decoder/printer.
//
// A modifier set is a small struct of named slots. Each opcode uses the slots that make sense for
// it (ISETP: cmp, boolOp, intType, ex; LDG: memType, cache, scope, ...); unused slots stay at their
// zero value ("none"/"default"), so two instructions compare equal iff they mean the same thing.
// The encoder table for each opcode says which slot feeds which bit field.
#pragma once

#include <cstdint>

namespace optxas::isa {

// Comparison of ISETP/FSETP/DSETP/HSETP2/FSET/...: the SASS spellings.
enum class Cmp : uint8_t { None, F, LT, EQ, LE, GT, NE, GE, T,
                           // floating-point unordered/ordered variants
                           NUM, NAN_, LTU, EQU, LEU, GTU, NEU, GEU };
// Boolean combination with the accumulated predicate (.AND/.OR/.XOR), also PLOP3-style ops.
enum class BoolOp : uint8_t { None, AND, OR, XOR };
// Integer operand/result type of an integer instruction (ISETP.U32, I2F.S64, IMAD.U32, ...).
enum class IntType : uint8_t { None, U8, S8, U16, S16, U32, S32, U64, S64 };
// Floating-point type (F2F.F64.F32, I2F.F16, F2FP.BF16.F32.PACK_AB, ...).
enum class FloatType : uint8_t { None, F16, BF16, F32, F64, TF32, E4M3, E5M2, F16x2, BF16x2 };
// IEEE rounding mode (.RN is the default and usually not printed).
enum class Round : uint8_t { None, RN, RZ, RM, RP, RNA };
// MUFU function.
enum class MufuOp : uint8_t { None, COS, SIN, EX2, LG2, RCP, RSQ, RCP64H, RSQ64H, SQRT, TANH };
// Memory access width/type of a load/store (LDG.E.64, STS.U8, LDG.E.128, ...).
enum class MemType : uint8_t { None, U8, S8, U16, S16, B32, B64, B128 };
// Cache-control / eviction hints on global and generic memory.
enum class CacheOp : uint8_t { None, EF, EL, LU, EU, NA, STRONG_GPU, STRONG_SYS, CONSTANT };
// Memory-consistency scope and order (ld.relaxed.gpu -> .STRONG.GPU, atom.acq_rel.sys, ...).
enum class Scope : uint8_t { None, CTA, SM, GPU, SYS, VC };
enum class MemOrder : uint8_t { None, WEAK, CONSTANT, RELAXED, ACQUIRE, RELEASE, ACQ_REL, SC, MMIO };
// Atomic/reduction operation.
enum class AtomOp : uint8_t { None, ADD, MIN, MAX, INC, DEC, AND, OR, XOR, EXCH, CAS, SAFEADD };
// Shuffle, vote, match and redux flavours.
enum class ShflMode : uint8_t { None, IDX, UP, DOWN, BFLY };
enum class VoteMode : uint8_t { None, ALL, ANY, EQ };
enum class MatchMode : uint8_t { None, ANY, ALL };
enum class ReduxOp : uint8_t { None, AND, OR, XOR, SUM, MIN, MAX };
// Barrier flavours (BAR.SYNC, BAR.ARV, BAR.RED.POPC, ...).
enum class BarMode : uint8_t { None, SYNC, ARV, RED_POPC, RED_AND, RED_OR, SYNC_DEFER_BLOCKING };
// Funnel shift / LEA / IMAD variants.
enum class ShiftDir : uint8_t { None, L, R };
enum class Variant : uint8_t { None, LO, HI, WIDE, SHL, MOV, IADD, X };

struct Modifiers {
  Cmp cmp = Cmp::None;
  BoolOp boolOp = BoolOp::None;
  IntType intType = IntType::None;      // main integer type
  IntType srcIntType = IntType::None;   // source integer type for conversions
  FloatType floatType = FloatType::None;     // destination float type
  FloatType srcFloatType = FloatType::None;  // source float type for conversions
  Round round = Round::None;
  MufuOp mufu = MufuOp::None;
  MemType memType = MemType::None;
  CacheOp cache = CacheOp::None;
  Scope scope = Scope::None;
  MemOrder order = MemOrder::None;
  AtomOp atom = AtomOp::None;
  ShflMode shfl = ShflMode::None;
  VoteMode vote = VoteMode::None;
  MatchMode match = MatchMode::None;
  ReduxOp redux = ReduxOp::None;
  BarMode bar = BarMode::None;
  ShiftDir shift = ShiftDir::None;
  Variant variant = Variant::None;
  bool ftz = false;       // flush subnormals to zero
  bool sat = false;       // saturate
  bool ex = false;        // extended (carry-in / chained compare: .X / .EX)
  bool wide = false;      // 64-bit address (LDG.E ... [R.64])
  bool trunc = false;     // F2I.TRUNC and friends
  uint8_t lut = 0;        // LOP3/PLOP3 truth table (printed as LOP3.LUT)
  uint8_t barrierId = 0;  // explicit barrier number when immediate

  bool operator==(const Modifiers &) const = default;
};

} // namespace optxas::isa
