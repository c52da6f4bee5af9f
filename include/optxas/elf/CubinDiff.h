// Comparing two cubins by meaning: sections and symbols present, header and notes, every
// function attribute (by EIATTR name), parameters, variables, constant banks, relocations,
// call graph and debug sections. Used by tools/cubin-diff and by back-end tests that compare
// optxas's cubins with ptxas's "attribute for attribute".
#pragma once

#include "optxas/elf/Cubin.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace optxas::elf {

struct DiffOptions {
  // Ignore code bytes, code sizes and everything derived from instruction positions: .text
  // contents, instruction-offset attributes (EXIT_INSTR_OFFSETS, ...), relocation offsets in code,
  // subroutine offsets/sizes, .debug_frame/.nv_debug_* contents, Mercury sections.
  bool ignoreCode = false;
  // Ignore .note.nv.tkinfo (tool name, version and command line naturally differ).
  bool ignoreToolkitNote = false;
  // Ignore register counts, frame and stack sizes (code-generation results).
  bool ignoreResources = false;
};

struct Difference {
  std::string where; // "function _Z3addPKfS0_Pfi", "section .nv.constant3", "module", ...
  std::string what;  // "EIATTR_REGCOUNT: 12 vs 16", "missing in B", ...
  std::string str() const { return where + ": " + what; }
};

std::vector<Difference> diffCubins(const Cubin &a, const Cubin &b, const DiffOptions &options = {});

// Reads both files' bytes, then also compares what only the ELF level shows (section names,
// types, flags and sizes, symbol names and bindings). Returns nullopt and an error message when
// a file cannot be read.
std::optional<std::vector<Difference>> diffCubinFiles(std::span<const uint8_t> a, std::span<const uint8_t> b,
                                                      const DiffOptions &options, std::string &error);

// Attributes whose values are instruction offsets in .text (ignored with ignoreCode).
bool isCodeOffsetAttribute(NvInfoKind kind);

} // namespace optxas::elf
