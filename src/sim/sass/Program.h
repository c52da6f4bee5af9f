// A cubin loaded for simulation: each kernel's code decoded (with the sass codec) into
// instructions with their register uses and timing classes, the kernel's resources, and the
// module's global variables and constant banks placed in the simulator's memory.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <map>
#include <string>
#include <vector>

#include "Latency.h"
#include "optxas/sass/Codec.h"
#include "optxas/sim/Launch.h"
#include "optxas/sim/Memory.h"

namespace optxas::sim::sasssim {

// Fake code addresses of runtime functions the simulator provides (vprintf, malloc, ...): a
// CALL.ABS to one of these runs the host implementation. Kernel code addresses are byte offsets
// in the kernel's .text section (what ptxas writes into function-pointer tables).
constexpr uint64_t kRuntimeBase = 0x0000300000000000ull;
enum class Runtime : uint8_t { None, Vprintf, Malloc, Free, AssertFail };

// One register an instruction reads or writes (wide operands are expanded per register).
struct RegUse {
  RegFile file = RegFile::R;
  uint8_t index = 0;
  bool def = false;
  RClass reader = RClass::Alu;   // for reads
  WClass writer = WClass::None;  // for writes
};

struct DInst {
  sass::Inst in;
  bool decoded = false;
  std::string error;          // why it cannot run (decode error / no semantics)
  std::string text;           // as nvdisasm prints it
  InstTiming timing;
  std::vector<RegUse> uses;
  std::vector<uint8_t> def;   // per operand of `in.ops`: 1 if written
  std::vector<uint8_t> dstIdx, srcIdx;   // operand indexes of the written / read operands
};

struct SFunction {
  std::string name;
  bool kernel = true;
  std::vector<DInst> code;           // instruction i is at byte offset 16*i
  std::vector<ParamSlot> params;
  uint32_t paramBytes = 0;
  uint64_t staticShared = 0;         // .nv.shared.<fn> size (includes the reserved window)
  uint32_t frameBytes = 0;           // per-thread stack the code needs
  uint32_t regCount = 0;
  std::vector<uint8_t> constant2;    // .nv.constant2.<fn>
};

struct SProgram {
  // The architecture the cubin is for: sm_90, or sm_80/86/89 (Ampere/Ada: another constant-bank
  // layout, a 64-bit shared window in c[0x0][0x18], variable-latency FP64; docs/simulation.md).
  sass::Target target = sass::Target::SM90;
  bool ampere() const { return target != sass::Target::SM90; }
  std::vector<SFunction> functions;
  std::array<std::vector<uint8_t>, 18> banks;   // module constant banks (3: .const, 4: addresses)
  std::vector<std::pair<std::string, Runtime>> runtimeSymbols;   // index -> runtime function
  std::map<std::string, uint64_t, std::less<>> globals;   // .global variable -> address
  const SFunction *find(std::string_view name) const;
};

// Reads a cubin and places its global variables in `mem`. Returns an error message or "".
std::string loadProgram(std::span<const uint8_t> cubin, GlobalMemory &mem, SProgram &out);

// Fills d.def, d.uses and d.timing from the decoded instruction (of code for `target`).
void analyze(DInst &d, sass::Target target);

} // namespace optxas::sim::sasssim
