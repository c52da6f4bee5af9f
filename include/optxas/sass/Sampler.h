// Random valid instructions of every encodable form, for oracle tests and fuzzing.
#pragma once

#include "optxas/sass/Inst.h"

#include <cstdint>
#include <string>
#include <vector>

namespace optxas::sass {

struct Sample {
  Inst inst;
  std::string form;   // the form's one-line syntax (see describeForms)
};

// `perForm` random instances of each form (modifier values cycle through every encodable
// value), deterministic for a given seed. Every Inst uses canonical modifier values, so
// decode(encode(inst)) == inst holds for each.
std::vector<Sample> sampleForms(Target target, uint64_t seed, unsigned perForm);

} // namespace optxas::sass
