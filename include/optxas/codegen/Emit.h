// Ori (allocated, with control bits) -> sass::Inst -> 128-bit words (phases 141 MercConverter,
// 142 MercEncodeAndDecode, 147 MercGenerateSassUCode).
//
// Layout is the block order of the function; each Ori instruction becomes exactly one SASS
// instruction, so instruction k sits at byte 16k. After the last instruction comes ptxas's
// epilogue: a BRA to itself, then NOPs up to a multiple of 128 bytes plus one more 128-byte line.
//
// Conventions the conversion relies on (lowering emits them this way; docs/codegen.md):
//  - operands are in nvdisasm's print order, defs first;
//  - a global/generic memory instruction names its memory descriptor as a 64-bit UR register
//    operand before the address; it becomes the desc[URn] of the address;
//  - PSEUDO_SPILL / PSEUDO_FILL encode as STL / LDL.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "optxas/ori/Function.h"
#include "optxas/sass/Inst.h"
#include "optxas/support/Diagnostics.h"
#include "optxas/target/MachineModel.h"

namespace optxas::codegen {

struct Layout {
  std::vector<const ori::Instr *> order;                       // encoded instructions
  std::unordered_map<const ori::BasicBlock *, uint32_t> blockOffset;
  uint32_t codeEnd = 0;     // bytes of the function's own instructions
  uint32_t totalSize = 0;   // with the BRA-to-self and the NOP padding
};
Layout layoutFunction(const ori::Function &f, const target::MachineModel &m);

// The function's constant bank 2 (.nv.constant2.<fn>): the literals phases put there
// (ori::Function::constBank2) and the jump tables of its BRX instructions (phase 94,
// `BRX target, table, L0, ...`), each label's function-relative offset as a 32-bit word at
// table + 4*k. Empty when the function has none.
std::vector<uint8_t> jumpTableBytes(const ori::Function &f, const Layout &layout);
// EIATTR_INDIRECT_BRANCH_TARGETS of those BRX instructions, as ptxas writes it: per BRX, its
// offset, 0, the number of targets and each target's offset. Empty when the function has none.
std::vector<uint32_t> indirectBranchTargets(const Layout &layout);

// A use of a module symbol by an instruction, which becomes a relocation (or, for a call inside
// the same executable, a resolved offset).
struct SymbolRef {
  uint32_t offset = 0;      // byte offset of the instruction
  uint32_t symbol = 0;      // index into Module::symbols()
  isa::Opcode opcode = isa::Opcode::NOP;
  bool high = false;        // the high half of a 64-bit address (MOV ... .HI)
};

// A direct CALL's branch offset until the cubin writer places its callee (CallLinking.cpp): the
// callee's Module symbol index, 16 bytes per index.
inline int64_t callPlaceholder(uint32_t symbol) { return 16 * static_cast<int64_t>(symbol); }
inline uint32_t calleeOfPlaceholder(int64_t offset) { return static_cast<uint32_t>(offset / 16); }

// Converts one instruction placed at byte `pc`. Returns false with `error` if the Ori operands
// have no SASS meaning (unallocated register, unknown special register, ...).
bool toSass(const ori::Function &f, const ori::Instr &i, const Layout &layout, uint32_t pc,
            sass::Inst &out, std::string &error);

struct EmitResult {
  std::vector<uint8_t> code;           // totalSize bytes
  std::vector<sass::Inst> insts;       // the function's own instructions (no epilogue)
  std::vector<SymbolRef> symbolRefs;
};

// Converts and encodes every instruction, appends the epilogue, and checks that each word
// decodes back to the instruction (the codec's round trip). Errors name the instruction.
bool emitFunction(const ori::Function &f, const target::MachineModel &m, sass::Target target,
                  EmitResult &out, DiagEngine &diags);

} // namespace optxas::codegen

namespace optxas::codegen {
// The first field in which two instructions differ ("ops[1].base 255 vs 65535"), for messages.
std::string describeDifference(const sass::Inst &a, const sass::Inst &b);
} // namespace optxas::codegen
