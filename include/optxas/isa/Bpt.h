// BPT flavours that the SASS encoding does not distinguish.
#pragma once

#include <cstdint>

namespace optxas::isa {

// Modifiers::extra of a BPT that execution may resume after (brkpt: a debugger continues the
// thread), unlike trap: the block falls through to the next one.
constexpr uint8_t kBptResumes = 0x1;

} // namespace optxas::isa
