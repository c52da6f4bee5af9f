// Instruction modifiers shared by the Ori IR and the SASS encoder/decoder/printer.
//
// A modifier set is a small struct of named slots. Each opcode uses the slots that make sense for
// it (ISETP: cmp, boolOp, intType, ex; LDG: memType, cache, scope, ...); unused slots stay at their
// zero value ("none"/"default"), so two instructions compare equal iff they mean the same thing.
// The per-architecture encoding table says which slot feeds which bit field and how each value is
// spelled by nvdisasm (the same meaning may be spelled differently by different opcodes, e.g.
// Scope::CTA is ".CTA" on MEMBAR but ".SM" on LDG).
//
// Every slot is listed once in OPTXAS_MODIFIER_SLOTS, which generates the struct members and the
// ModSlot enum used by table-driven code (getSlot/setSlot). All slot types are 8-bit.
#pragma once

#include <cstdint>
#include <string_view>

namespace optxas::isa {

// Comparison of ISETP/FSETP/DSETP/HSETP2/FSET/...: the SASS spellings.
enum class Cmp : uint8_t { None, F, LT, EQ, LE, GT, NE, GE, T,
                           // floating-point unordered/ordered variants
                           NUM, NAN_, LTU, EQU, LEU, GTU, NEU, GEU,
                           // DSETP's min/max-select compares (DSETP.MIN/.MAX)
                           MIN, MAX };
// Boolean combination with the accumulated predicate (.AND/.OR/.XOR), also PLOP3-style ops.
enum class BoolOp : uint8_t { None, AND, OR, XOR };
// Integer operand/result type of an integer instruction (ISETP.U32, I2F.S64, IMAD.U32, ...).
// The x2/x4 forms are the packed SIMD types of VIMNMX/VIADD/VABSDIFF4/IDP.
enum class IntType : uint8_t { None, U8, S8, U16, S16, U32, S32, U64, S64,
                               U16x2, S16x2, U8x4, S8x4 };
// Floating-point type (F2F.F64.F32, I2F.F16, F2FP.BF16.F32.PACK_AB, ...).
enum class FloatType : uint8_t { None, F16, BF16, F32, F64, TF32, E4M3, E5M2, F16x2, BF16x2,
                                 F32x2 };
// IEEE rounding mode (.RN is the default and usually not printed). FRND/F2I print RZ/RM/RP as
// .TRUNC/.FLOOR/.CEIL.
enum class Round : uint8_t { None, RN, RZ, RM, RP, RNA };
// MUFU function.
enum class MufuOp : uint8_t { None, COS, SIN, EX2, LG2, RCP, RSQ, RCP64H, RSQ64H, SQRT, TANH,
                              EX2_F16, TANH_F16, EX2_BF16, TANH_BF16 };
// Memory access width/type of a load/store (LDG.E.64, STS.U8, LDG.E.128, ...).
enum class MemType : uint8_t { None, U8, S8, U16, S16, B32, B64, B128 };
// Cache-control / eviction hints on global and generic memory.
// (STRONG_GPU/STRONG_SYS/CONSTANT are kept for compatibility; the sm_90 tables express those with
// `order` and `scope`.)
enum class CacheOp : uint8_t { None, EF, EL, LU, EU, NA, STRONG_GPU, STRONG_SYS, CONSTANT };
// Memory-consistency scope and order (ld.relaxed.gpu -> .STRONG.GPU, atom.acq_rel.sys, ...).
// In SASS, RELAXED is spelled .STRONG; CONSTANT is the read-only (ld.global.nc) path.
enum class Scope : uint8_t { None, CTA, SM, GPU, SYS, VC };
enum class MemOrder : uint8_t { None, WEAK, CONSTANT, RELAXED, ACQUIRE, RELEASE, ACQ_REL, SC, MMIO,
                                // LDG.E.CONSTANT.PRIVATE / .CONSTANT.CTA flavours
                                CONSTANT_PRIVATE, CONSTANT_CTA };
// Atomic/reduction operation.
enum class AtomOp : uint8_t { None, ADD, MIN, MAX, INC, DEC, AND, OR, XOR, EXCH, CAS, SAFEADD,
                              CAST_SPIN, POPC_INC };
// Shuffle, vote, match and redux flavours.
enum class ShflMode : uint8_t { None, IDX, UP, DOWN, BFLY };
enum class VoteMode : uint8_t { None, ALL, ANY, EQ };
enum class MatchMode : uint8_t { None, ANY, ALL };
enum class ReduxOp : uint8_t { None, AND, OR, XOR, SUM, MIN, MAX };
// Barrier flavours (BAR.SYNC, BAR.ARV, BAR.RED.POPC, ...).
enum class BarMode : uint8_t { None, SYNC, ARV, RED_POPC, RED_AND, RED_OR, SYNC_DEFER_BLOCKING,
                               SYNCALL };
// Funnel shift / LEA / IMAD variants.
enum class ShiftDir : uint8_t { None, L, R };
enum class Variant : uint8_t { None, LO, HI, WIDE, SHL, MOV, IADD, X };
// PRMT byte-selection mode (default: plain index mode).
enum class PrmtMode : uint8_t { None, F4E, B4E, RC8, ECL, ECR, RC16 };
// F2FP packing of the two results into one register.
enum class PackMode : uint8_t { None, PACK_AB, PACK_B, PACK_AB_MERGE_C, UNPACK_B, MERGE_C,
                                UNPACK_B_MERGE_C };
// L2 prefetch size hint of global loads (.LTC64B/.LTC128B/.LTC256B).
enum class L2Prefetch : uint8_t { None, B64, B128, B256 };
// Memory-fence kind (MEMBAR.SC / MEMBAR.ALL, FENCE.VIEW.ASYNC.*).
enum class FenceMode : uint8_t { None, SC, ALL, VC, VIEW_ASYNC_S, VIEW_ASYNC_G, VIEW_ASYNC_T };
// Cache-control operation of CCTL.
enum class CctlOp : uint8_t { None, PF1, PF2, WB, IV, IVALL, RS, RSLB, PF1_5, WBALL, RML2, PML2,
                              DML2 };
// Software breakpoint / trap flavour of BPT.
enum class BptMode : uint8_t { None, DRAIN_ILLEGAL, CAL, PAUSE, TRAP, INT, DRAIN };
// Data type of an atomic/reduction (ATOMG.E.ADD.F32.FTZ.RN, ATOMS.CAS.64, REDG.E.MIN.S64, ...).
enum class AtomType : uint8_t { None, U32, S32, U64, S64, F32, F64, F16x2, BF16x2, F32x2, B64,
                                B128 };
// Address space of a generic pointer test (QSPC.E.S / .D ...).
enum class Space : uint8_t { None, GLOBAL, SHARED, LOCAL, DSMEM };
// Texture/surface dimensionality (TEX/TLD/TLD4/TXD print it as an operand, SULD/SUST/SURED as
// a suffix; the spellings differ per family, see src/target/sm90/TextureForms.cpp).
enum class TexDim : uint8_t { None, D1, D2, D3, CUBE, ARRAY_1D, ARRAY_2D, ARRAY_CUBE, BUFFER_1D };
// Level-of-detail mode of TEX/TLD, or the gathered component of TLD4.
enum class TexMode : uint8_t { None, LZ, LB, LL, R, G, B, A };
// Out-of-bounds behaviour of surface accesses: None = clamp (unprinted), .IGN, .TRAP.
enum class SurfOob : uint8_t { None, IGN, TRAP };

#define OPTXAS_MODIFIER_SLOTS(X)                                                                  \
  X(Cmp, cmp)                 /* comparison */                                                    \
  X(BoolOp, boolOp)           /* combination with the chained predicate */                        \
  X(IntType, intType)         /* main integer type */                                             \
  X(IntType, srcIntType)      /* source integer type for conversions / IDP second source */      \
  X(FloatType, floatType)     /* destination (or main) float type */                              \
  X(FloatType, srcFloatType)  /* source float type for conversions */                             \
  X(Round, round)                                                                                 \
  X(MufuOp, mufu)                                                                                 \
  X(MemType, memType)                                                                             \
  X(CacheOp, cache)                                                                               \
  X(Scope, scope)                                                                                 \
  X(MemOrder, order)                                                                              \
  X(AtomOp, atom)                                                                                 \
  X(ShflMode, shfl)                                                                               \
  X(VoteMode, vote)                                                                               \
  X(MatchMode, match)                                                                             \
  X(ReduxOp, redux)                                                                               \
  X(BarMode, bar)                                                                                 \
  X(ShiftDir, shift)                                                                              \
  X(Variant, variant)                                                                             \
  X(bool, ftz)                /* flush subnormals to zero */                                      \
  X(bool, fmz)                /* .FMZ: multiplication treats denormals/infinity*0 as zero */       \
  X(bool, sat)                /* saturate */                                                      \
  X(bool, acc)                /* VABSDIFF4.ACC: accumulate into the third source */               \
  X(bool, ex)                 /* extended (carry-in / chained compare: .X / .EX) */               \
  X(bool, wide)               /* 64-bit address (LDG.E ... [R.64]) */                             \
  X(bool, trunc)              /* F2I.TRUNC and friends */                                         \
  X(uint8_t, lut)             /* LOP3/PLOP3 truth table (printed as an operand) */                \
  X(uint8_t, barrierId)       /* explicit barrier number when immediate */                        \
  X(bool, wrap)               /* SHF.W / SGXT.W / BMSK.W: shift amount wraps instead of clamps */ \
  X(bool, sx32)               /* LEA.HI.SX32: sign-extend the 32-bit index */                     \
  X(PrmtMode, prmt)                                                                               \
  X(PackMode, pack)                                                                               \
  X(bool, relu)               /* clamp negative results to zero */                                \
  X(bool, satfinite)          /* saturate to the largest finite value */                          \
  X(bool, nan)                /* NaN-propagating min/max */                                       \
  X(bool, xorsign)            /* FMNMX.XORSIGN */                                                 \
  X(bool, ntz)                /* F2I.NTZ: no trap on zero / NaN-to-zero conversion flavour */     \
  X(bool, mmaPipe)            /* HFMA2.MMA: issue on the tensor pipe */                           \
  X(bool, boolResult)         /* FSET.BF / HSET2.BF: result is 1.0 instead of all ones */         \
  X(L2Prefetch, l2prefetch)                                                                       \
  X(FenceMode, fence)                                                                             \
  X(CctlOp, cctl)                                                                                 \
  X(BptMode, bpt)                                                                                 \
  X(AtomType, atomType)                                                                           \
  X(Space, space)                                                                                 \
  X(bool, absolute)           /* CALL.ABS / RET.ABS / JMP (absolute target) */                    \
  X(bool, noinc)              /* CALL.NOINC / RET.NODEC: no call-stack push/pop */                \
  X(bool, shiftAmt)           /* FLO.SH: return the shift amount */                               \
  X(bool, u64)                /* MATCH.ANY.U64 and other 64-bit-data flags */                     \
  X(bool, defer)              /* BAR.SYNC.DEFER_BLOCKING */                                       \
  X(bool, bypass)             /* LDGSTS.BYPASS: skip L1 (cp.async.cg) */                          \
  X(bool, zfill)              /* LDGSTS.ZFILL: zero-fill the bytes past the source size */        \
  X(bool, pand)               /* LOP3.PAND: predicate output is the AND of the result bits */    \
  X(bool, branchUniform)      /* BRA.U: the branch condition is warp-uniform */                   \
  X(bool, divergent)          /* BRA.DIV: taken when the warp is not converged (mask in UR) */    \
  X(bool, collective)         /* WARPSYNC.COLLECTIVE */                                           \
  X(bool, exclusive)          /* WARPSYNC.EXCLUSIVE: only the mask's threads run what follows */  \
  X(uint8_t, extra)           /* opcode-specific flavour bits (see the target table) */          \
  X(TexDim, texDim)           /* texture/surface dimensionality */                                \
  X(TexMode, texMode)         /* TEX/TLD level-of-detail mode, TLD4 component */                  \
  X(SurfOob, surfOob)         /* surface out-of-bounds mode */                                    \
  X(uint8_t, tnsp)            /* HGMMA: 1 = .tnspA, 2 = .tnspB (transposed operand matrices) */

struct Modifiers {
#define OPTXAS_MOD_MEMBER(type, name) type name{};
  OPTXAS_MODIFIER_SLOTS(OPTXAS_MOD_MEMBER)
#undef OPTXAS_MOD_MEMBER

  bool operator==(const Modifiers &) const = default;
};

// Names every slot, for table-driven code (encoders, printers, IR dumps).
enum class ModSlot : uint8_t {
#define OPTXAS_MOD_ENUM(type, name) name,
  OPTXAS_MODIFIER_SLOTS(OPTXAS_MOD_ENUM)
#undef OPTXAS_MOD_ENUM
  NumSlots,
  NoSlot = 0xff
};

// Reads/writes a slot as its 8-bit underlying value.
uint8_t getSlot(const Modifiers &m, ModSlot s);
void setSlot(Modifiers &m, ModSlot s, uint8_t v);
std::string_view slotName(ModSlot s);
// The slots that are not zero, as a bit mask indexed by ModSlot.
uint64_t setSlots(const Modifiers &m);

} // namespace optxas::isa
