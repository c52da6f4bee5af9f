// The 159 phases of ptxas 13.0 (knobs/phases.tsv, in index order): names and name lookup.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace optxas::phases {

using PhaseId = uint16_t;

constexpr unsigned kNumPhases = 159;                // IDs 0..158
constexpr unsigned kDefaultScheduleLength = 157;    // IDs 0..156 run by default, in order
constexpr PhaseId kDebuggerBreak = 157;             // recipe-only
constexpr PhaseId kNopPhase = 158;                  // recipe-only; unknown names resolve here
// Recipe IDs are clamped to [0, 159] as in ptxas; 159 is one past the table and runs as NOP.
constexpr PhaseId kMaxRecipeId = 159;

// The phase's name; 159 (past the table) reads as "NOP".
std::string_view phaseName(PhaseId id);

// Case-insensitive binary search over the sorted name table (built once, then cached).
// Unknown names resolve to kNopPhase (158), as in ptxas.
PhaseId lookupPhase(std::string_view name);
// The same search, but says whether the name exists.
bool findPhase(std::string_view name, PhaseId &out);

// IDs 0..156.
std::vector<PhaseId> defaultSchedule();

} // namespace optxas::phases
