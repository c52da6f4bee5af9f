// The back half of the pipeline once a program is in Ori form:
//   phases::PhaseManager::run   the 159-phase schedule, which includes the code generator
//                               (122 AllocateRegisters, 127 PostExpansion,
//                               138 AdvancedScoreboardsAndOpexes, 141/142/147 Merc*)
//   codegen::collectFacts       registers, frame, spills, exits per function
//   -v / --warn-on-spills       ptxas's report lines
//   codegen::assembleCubin      elf::Cubin model -> ELF bytes
// The default BackEnd runs lowering and then this; tools and tests can start from Ori text.
#pragma once

#include <cstdint>
#include <vector>

#include "optxas/api/Options.h"
#include "optxas/codegen/CubinAssembly.h"
#include "optxas/ori/Module.h"
#include "optxas/support/Diagnostics.h"

namespace optxas::api {

// The targets ptxas 13.0 dropped (sm_50 - sm_72) that optxas accepts as an extension: they are
// lowered and run through the phase schedule up to, not including, 122 AllocateRegisters (so
// DumpIR and --stat show the architecture's phases, e.g. PromoteFP16 on sm_52/sm_61); code
// generation then stops with an error saying so (docs/options.md).
inline bool isPipelineOnlyTarget(unsigned sm) { return sm >= 50 && sm < 75; }
constexpr unsigned kFirstCodeGenPhase = 122; // AllocateRegisters

// Returns false after reporting errors; `cubin` is then left empty. `decls`: what the cubin
// records about the PTX declarations (prototypes, managed variables), when compiling from PTX.
bool compileOriModule(ori::Module &m, const Options &opts, DiagEngine &diags, std::vector<uint8_t> &cubin,
                      const codegen::PtxDeclarations &decls = {});

} // namespace optxas::api
