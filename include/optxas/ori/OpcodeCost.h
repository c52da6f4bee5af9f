// A simple per-opcode cost model for the DUMPIR statistics header: which hardware unit runs the
// instruction, which statistics category it counts in, a latency estimate and an issue cost.
// The numbers are our estimates for sm_90 (documented in docs/ir.md); they feed estimates only,
// never correctness decisions. The table is src/ori/OpcodeCosts.def.
#pragma once

#include <cstdint>
#include <string_view>

#include "optxas/isa/Opcode.h"

namespace optxas::ori {

// Execution units (the post-allocation header counts per unit).
enum class Unit : uint8_t { None, ALU, FMA, FMA64, Half, XU, IPA, LSU, Shared, Tex, ADU, CBU, Redux, UDP, TTU, MMA };
// Categories of the pre-allocation header ("est fp", "est trancedental", ...).
enum class Category : uint8_t { Other, Int, Fp, Half, Trans, Ipa, Shared, Control, LoadStore, Tex, Uniform };

struct OpcodeCost {
  Unit unit = Unit::ALU;
  Category category = Category::Other;
  uint16_t latency = 6;   // cycles until a dependent instruction can issue (estimate)
  float issue = 1.0f;     // cycles the unit is busy per warp instruction on one SM sub-partition
};

const OpcodeCost &opcodeCost(isa::Opcode op);
std::string_view unitName(Unit u);

} // namespace optxas::ori
