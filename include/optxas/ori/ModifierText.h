// How the IR text spells isa::Modifiers: one dotted token per slot that is not zero, covering
// every slot of OPTXAS_MODIFIER_SLOTS. The order is SASS-like for the common slots (E, mufu,
// variant, shift, cmp, floatType, intType, srcFloatType, srcIntType, boolOp, round, memType, atom,
// atomType, redux, shfl, vote, match, bar, cache, order, scope), then declaration order. An enum
// value prints as its name and a flag as its SASS spelling (FTZ, SAT, E, W, ...) unless an earlier
// slot uses the same spelling; then, and for numeric slots and values without a name, the token
// carries the slot name: ATOMG.E.atom:AND, I2F.F32.srcIntType:S32, LOP3.lut:0x96, memType:0x9 (numbers are hex).
// So every token parses back to exactly one slot and value.
#pragma once

#include <string>
#include <string_view>

#include "optxas/isa/Modifiers.h"

namespace optxas::ori {

// Appends ".TOKEN" for every slot that is not at its default value.
void appendModifierText(std::string &out, const isa::Modifiers &m);
// Applies one token (without the dot); false if it names no slot value.
bool applyModifierToken(std::string_view token, isa::Modifiers &m);

} // namespace optxas::ori
