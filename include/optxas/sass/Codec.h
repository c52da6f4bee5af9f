// The SASS machine-code layer: encode, decode, print and parse Inst (see Inst.h).
//
//   encode(inst, Target::SM90)       Inst -> 128 bits, or an error naming the unencodable form
//   decode(word, Target::SM90)       128 bits -> Inst, or an error (unknown / unmodelled bits)
//   print(inst, Target::SM90, pc)    Inst -> the exact text nvdisasm prints, e.g.
//                                    "@!P0 IMAD.WIDE.U32 R2, R9, 0x4, R2 ;"
//   parse(text, Target::SM90, pc)    nvdisasm-syntax text -> Inst (control bits from the
//                                    optional trailing "?stall..." are not part of the syntax;
//                                    the parsed Inst gets default Control)
//
// Every entry point is table-driven (src/target/<sm>/); the tables are verified bit for bit
// against nvdisasm by tests/encoding.
#pragma once

#include "optxas/sass/Inst.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace optxas::sass {

struct EncodeResult {
  Word bits{0, 0};
  std::string error;  // empty on success
  explicit operator bool() const { return error.empty(); }
};

struct DecodeResult {
  Inst inst;
  std::string error;  // empty on success
  explicit operator bool() const { return error.empty(); }
};

struct TextResult {
  std::string text;
  std::string error;  // empty on success
  explicit operator bool() const { return error.empty(); }
};

struct ParseResult {
  Inst inst;
  std::string error;  // empty on success
  explicit operator bool() const { return error.empty(); }
};

EncodeResult encode(const Inst &inst, Target target = Target::SM90);
// Whether encode would succeed, without building its diagnostics: for the probes that try
// operand forms (legalization in codegen, the optimizers' encodability check).
bool encodable(const Inst &inst, Target target = Target::SM90);
DecodeResult decode(const Word &word, Target target = Target::SM90);
// `pc` is the instruction's byte address (branch targets print as absolute addresses).
TextResult print(const Inst &inst, Target target = Target::SM90, uint64_t pc = 0);
ParseResult parse(std::string_view text, Target target = Target::SM90, uint64_t pc = 0);

// Decodes a whole .text section (16 bytes per instruction, little-endian).
std::vector<DecodeResult> decodeSection(const uint8_t *bytes, size_t size,
                                        Target target = Target::SM90);

// Control bits <-> their 21-bit field (bits 105..125 of the word, reuse bits excluded here:
// bits 0..3 stall, 4 yield, 5..7 wbar, 8..10 rbar, 11..16 wait).
uint32_t packControl(const Control &c);
Control unpackControl(uint32_t bits);
// Reads/writes the control bits (105..121) and reuse mask (122..125) of a word.
Control controlOf(const Word &w);
uint8_t reuseMaskOf(const Word &w);
void setControl(Word &w, const Control &c, uint8_t reuseMask);

// The role of each operand of an Inst (in Inst::ops order), as the form table defines it.
struct OperandRole {
  bool def = false;       // written
  uint8_t width = 1;      // registers covered (Reg/UReg)
};
// Fills `roles` for an encodable Inst; returns false (with `error`) if no form matches.
bool operandRoles(const Inst &inst, Target target, std::vector<OperandRole> &roles,
                  std::string *error = nullptr);

// Completes an Inst's operand list with the hidden default operands of its form (so that it
// compares equal to what decode/parse produce). Returns false if no form matches.
bool canonicalize(Inst &inst, Target target = Target::SM90, std::string *error = nullptr);

// One line per encodable form ("IADD3{.X} Rd, Pu?, ..."), for documentation and `sass-codec forms`.
std::vector<std::string> describeForms(Target target = Target::SM90);

// nvdisasm's name of a special register (SR_TID.X, SR_CLOCKLO, ...), or "" if unknown.
std::string_view specialRegName(uint8_t index, Target target = Target::SM90);
bool specialRegFromName(std::string_view name, uint8_t &index, Target target = Target::SM90);

} // namespace optxas::sass
