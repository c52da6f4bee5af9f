// NamedPhases recipes (knob NamedPhases, ptxas index 298): a small language that rewrites the
// phase schedule. docs/recipes.md defines it; in short, entries are separated by '+', an entry is
// NAME or NAME,PARAM, names are case-insensitive (uppercased while tokenizing), at most 256
// entries. Phase names and pN select phases (the first one replaces the default schedule with an
// explicit list); the keywords shuffle, reps, swap1..swap6, dce1..dce3 and cpy1..cpy3 edit the
// schedule built so far.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "optxas/phases/PhaseTable.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::phases {

constexpr size_t kMaxRecipeEntries = 256;

struct RecipeEntry {
  std::string name;    // upper case
  std::string param;   // as written ("" when absent)
  bool hasParam = false;
  std::string text;    // the entry as written, for messages
};

// Splits a recipe into entries. Errors: more than 256 entries, an empty name.
bool tokenizeRecipe(std::string_view recipe, std::vector<RecipeEntry> &out, DiagEngine &diags);

// Applies the entries to the default schedule (IDs 0..156) and returns the result in schedule.
// With verbose, phase names that resolve to nothing are reported as warnings (ptxas silently
// turns them into NOP, and so do we).
bool buildSchedule(const std::vector<RecipeEntry> &entries, std::vector<PhaseId> &schedule, DiagEngine &diags,
                   bool verbose = false);

// tokenizeRecipe + buildSchedule.
bool scheduleFromRecipe(std::string_view recipe, std::vector<PhaseId> &schedule, DiagEngine &diags,
                        bool verbose = false);

} // namespace optxas::phases
