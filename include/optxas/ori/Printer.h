// The textual form of the IR (docs/ir.md). The default form names virtual registers and reads
// back with parseModule(); the physical form (after register allocation) names R12/UR4/P0 the
// way SASS does and is meant for reading.
#pragma once

#include <string>

#include "optxas/ori/Module.h"

namespace optxas::ori {

struct PrintOptions {
  // Print allocated registers as R12/UR4/P0 instead of %r7 (only where a vreg has one).
  bool physical = false;
  // Add "// preds ... succs ..." and loop facts to block headers when the CFG is known.
  bool cfgComments = true;
  // Print the instruction ids "[12]".
  bool ids = true;
};

void printOperand(std::string &out, const Function &f, const Operand &o, const PrintOptions &opts = {});
void printInstr(std::string &out, const Instr &i, const PrintOptions &opts = {});
void printFunction(std::string &out, const Function &f, const PrintOptions &opts = {});
void printModule(std::string &out, const Module &m, const PrintOptions &opts = {});

std::string toString(const Instr &i, const PrintOptions &opts = {});
std::string toString(const Function &f, const PrintOptions &opts = {});
std::string toString(const Module &m, const PrintOptions &opts = {});

// "R12", "UR4", "P0", "UP1" for physical register n of class c (RZ/URZ/PT/UPT for the
// architectural zero/true registers 255/63/7/7).
std::string physRegName(RegClass c, int n);

} // namespace optxas::ori
