// The PTX interpreter's decoded program: each AST instruction becomes one compact DOp whose
// operands are all register-file slots (registers, then constants, then scratch), so that the
// execution loop never looks at the AST.
//
// Slot layout of a function's frame:  [registers][.reg parameters][constants][scratch]
// Constants are copied into every new frame from DFunction::initialRegs, so an immediate
// operand reads exactly like a register.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "optxas/ptx/AST.h"
#include "optxas/sim/Float.h"
#include "optxas/sim/Memory.h"

namespace optxas::sim::ptxi {

using ptx::Type;

inline constexpr uint32_t kNoSlot = 0xffffffffu;

enum class XOp : uint16_t {
  Nop,
  Unsupported,      // faults when executed; DOp::aux indexes Program::messages
  // data movement
  Mov, MovPack, MovUnpack, SReg, LocalAddr,
  // integer arithmetic
  IAdd, ISub, IAddc, ISubc, IMul, IMad, IMadc, IMul24, IMad24, Sad, IDiv, IRem, IAbs, INeg,
  IMin, IMax, Popc, Clz, Bfind, Fns, Brev, Bfe, Bfi, Szext, Bmsk, Dp4a, Dp2a, Video, VideoScalar,
  // logic and shifts
  And, Or, Xor, Not, Cnot, Lop3, Shf, Shl, Shr, Prmt,
  // comparison and selection
  Setp, Set, Selp, Slct,
  // floating point (FOp in DOp::mode) and conversions
  Float, FAdd32, FMul32, FFma32, Cvt, CvtPack, Cvta, CvtaTo, Isspacep,
  // memory
  Ld, St, Atom, Red, Alloca, StackSave, StackRestore, CpAsync, Mapa,
  // control flow
  Bra, BrxIdx, Call, Ret, Exit, Trap,
  // synchronization and warp collectives
  Bar, BarWarp, Shfl, Vote, Match, Redux, Activemask, Elect, ClusterArrive, ClusterWait,
  // warp matrix operations (collectives over the whole warp)
  MmaB1,
};

enum class FOp : uint8_t {
  Add, Sub, Mul, Fma, Div, Min, Max, Abs, Neg, Sqrt, Rcp, Rsqrt, Sin, Cos, Ex2, Lg2, Tanh,
  Testp, Copysign,
};

// Flags of DOp::flags.
enum : uint16_t {
  F_FTZ = 1 << 0,
  F_SAT = 1 << 1,
  F_APPROX = 1 << 2,      // .approx / .full (for div)
  F_NAN = 1 << 3,         // min/max .NaN
  F_XORSIGN = 1 << 4,     // min/max .xorsign.abs; redux .abs
  F_RELU = 1 << 5,
  F_CC = 1 << 6,          // .cc: write the carry flag
  F_X2 = 1 << 7,          // packed 16x2 integer SIMD
  F_SIGNED = 1 << 8,      // signed interpretation of the instruction type
  F_SATFINITE = 1 << 9,
  F_PAIR = 1 << 10,       // a second (predicate) destination is present
  F_NEG_C = 1 << 11,      // negated predicate source (setp/bar.red/vote)
  F_CLAMP = 1 << 12,
  F_RNDINT = 1 << 13,     // cvt with an integer rounding mode (.rni ...)
  F_FULL = 1 << 14,       // div.full
  F_SYNC = 1 << 15,       // warp collective with an explicit member mask
};

enum class AddrRel : uint8_t { None, Frame };

struct DOp {
  XOp op = XOp::Nop;
  Type type = Type::None;     // the instruction type (first type suffix)
  Type type2 = Type::None;    // second type suffix (cvt source, set/setp source, dp4a b)
  uint8_t bits = 0;           // width of `type` in bits (operand normalization)
  uint8_t nd = 0, ns = 0;     // destinations r[0..nd), sources r[nd..nd+ns)
  uint8_t mode = 0;           // op-specific: FOp, comparison, atom op, shfl mode, sreg, ...
  uint8_t mode2 = 0;          // op-specific: boolean combining op, vote mode, component, ...
  Space space = Space::Generic;
  AddrRel rel = AddrRel::None;
  fp::Round rnd = fp::Round::RN;
  bool guardNeg = false;
  uint16_t flags = 0;
  uint8_t vec = 1;            // vector element count (ld/st/atom)
  uint32_t guard = kNoSlot;
  uint32_t abase = kNoSlot;   // memory operand: base register slot
  int64_t imm = 0;            // memory offset / branch target / local address / misc
  uint32_t aux = 0;           // side-table index (calls, brx targets, messages)
  uint32_t r[14] = {};        // mma .m16n8k256 .b1: 4 + 4 + 2 + 4
  const ptx::Instruction *src = nullptr;

  uint32_t d(unsigned i) const { return r[i]; }
  uint32_t s(unsigned i) const { return r[nd + i]; }
};

// Comparison operators (setp/set/slct): DOp::mode.
enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class AtomOp : uint8_t { And, Or, Xor, Cas, Exch, Add, Inc, Dec, Min, Max };

// Where a call argument or result lives in the caller.
struct CallOperand {
  bool inFrame = false;   // a .param variable in the caller's frame (offset) ...
  uint32_t offset = 0;
  uint32_t slot = kNoSlot;// ... or a register / constant slot
  uint32_t size = 0;      // bytes
};

struct DFunction;

// Runtime functions that CUDA programs call as external .func declarations.
enum class Builtin : uint8_t { None, Vprintf, Malloc, Free, AssertFail };

struct CallSite {
  Builtin builtin = Builtin::None;
  const DFunction *callee = nullptr;  // null: indirect through fptrSlot (or a builtin)
  uint32_t fptrSlot = kNoSlot;
  std::vector<CallOperand> args, rets;
};

// A parameter or result of a .func as the callee sees it.
struct FuncParam {
  bool isReg = false;     // .reg parameter: lives in a register slot
  uint32_t slot = kNoSlot;
  uint32_t offset = 0;    // .param parameter: offset in the callee's local frame
  uint32_t size = 0;
};

struct DFunction {
  const ptx::Function *fn = nullptr;
  std::string name;
  bool isKernel = false;
  uint32_t index = 0;                 // in Program::functions
  std::vector<DOp> code;
  std::vector<uint64_t> initialRegs;  // the frame's slots at entry (zeros + constants)
  uint32_t numSlots = 0;
  uint32_t frameBytes = 0;            // local frame: .local and .param variables of the body
  uint32_t frameAlign = 16;
  std::vector<FuncParam> params, results;
  std::vector<uint32_t> regSlot;      // dense register id -> first slot
};

struct Program {
  std::vector<std::unique_ptr<DFunction>> functions;
  std::unordered_map<const ptx::Function *, DFunction *> byAst;
  std::vector<CallSite> calls;
  std::vector<std::vector<uint32_t>> branchTables;   // brx.idx targets (instruction indices)
  std::vector<std::string> messages;                 // reasons of Unsupported ops
  // Module data.
  uint64_t constBase = 0, constSize = 0;             // the read-only global allocation of .const
  uint32_t staticShared = 0;                         // bytes of static .shared (all functions)
  uint32_t sharedAlign = 16;
  std::unordered_map<const ptx::Variable *, uint64_t> varAddress;  // global/const/shared vars
  // Function pointers: fake code addresses in a range no data address uses.
  static constexpr uint64_t kCodeBase = 0x0000300000000000ull;
  uint64_t functionAddress(const DFunction &f) const { return kCodeBase + 16 * uint64_t(f.index); }
  const DFunction *functionAt(uint64_t addr) const {
    if (addr < kCodeBase || (addr - kCodeBase) % 16) return nullptr;
    uint64_t i = (addr - kCodeBase) / 16;
    return i < functions.size() ? functions[i].get() : nullptr;
  }
};

} // namespace optxas::sim::ptxi
