// Builds the interpreter's Program from a PTX module: lays out module data (Layout.cpp), then
// decodes every function body into DOps (Decode.cpp: operands and frames; DecodeOps.cpp: the
// per-opcode mapping).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "Program.h"
#include "optxas/sim/Launch.h"

namespace optxas::sim::ptxi {

class Decoder {
public:
  Decoder(const ptx::Module &m, Program &p, GlobalMemory &mem, const AddressMap &map)
      : m_(m), p_(p), mem_(mem), map_(map) {}

  // Allocates .global/.const data and lays out static .shared memory (Layout.cpp).
  void layoutModule();
  // Decodes every defined function (after layoutModule).
  void decodeAll();
  // The parameter block layout of a kernel.
  static std::vector<ParamSlot> kernelParamSlots(const ptx::Function &f);

private:
  // ---- Layout.cpp ----
  void writeInitializer(const ptx::Variable &v, uint8_t *dst, uint64_t size);
  uint64_t symbolAddress(const ptx::Decl *d, int64_t offset, bool generic);

  // ---- Decode.cpp ----
  void decodeFunction(DFunction &f);
  void layoutFrame(DFunction &f);
  uint32_t newSlot(uint64_t init = 0);
  uint32_t constSlot(uint64_t bits);
  uint32_t scratch() { return newSlot(0); }
  uint64_t immBits(const ptx::Operand &o, Type t) const;
  uint32_t regSlot(const ptx::Operand &o);
  // A source value of type t: register, immediate, special register, symbol address.
  uint32_t src(const ptx::Operand &o, Type t);
  // A destination: register, sink, or a .reg parameter.
  uint32_t dst(const ptx::Operand &o);
  // A memory operand [base+offset]; fills abase/imm/rel of `op` and may narrow op.space.
  bool address(const ptx::Operand &o, DOp &op);
  // Symbol value (mov r, sym; cvta r, sym): its address in its own state space.
  uint32_t symbolValue(const ptx::Operand &o);
  void emit(DOp op);
  DOp unsupported(const ptx::Instruction &ins, std::string why);

  // ---- DecodeOps.cpp ----
  void decodeInstruction(const ptx::Instruction &ins, uint32_t astIndex);
  bool decodeArith(const ptx::Instruction &ins, DOp &op);
  bool decodeFloat(const ptx::Instruction &ins, DOp &op);
  bool decodeLogic(const ptx::Instruction &ins, DOp &op);
  bool decodeCompare(const ptx::Instruction &ins, DOp &op);
  bool decodeMove(const ptx::Instruction &ins, DOp &op);
  bool decodeMemory(const ptx::Instruction &ins, DOp &op);
  bool decodeCpAsync(const ptx::Instruction &ins, DOp &op);
  bool decodeControl(const ptx::Instruction &ins, DOp &op, uint32_t astIndex);
  bool decodeSync(const ptx::Instruction &ins, DOp &op);
  bool decodeConvert(const ptx::Instruction &ins, DOp &op);
  void setOperands(DOp &op, std::initializer_list<uint32_t> dsts,
                   std::initializer_list<uint32_t> srcs);
  CallOperand callOperand(const ptx::Operand &o, uint32_t size);

  const ptx::Module &m_;
  Program &p_;
  GlobalMemory &mem_;
  AddressMap map_;

  // Module layout results.
  uint32_t moduleLocalBytes_ = 0;                            // module-scope .local variables
  std::unordered_map<const ptx::Variable *, uint32_t> moduleLocalOffset_;

  // Per-function decoding state.
  DFunction *f_ = nullptr;
  std::unordered_map<uint64_t, uint32_t> consts_;
  std::unordered_map<const ptx::Variable *, uint32_t> frameOffset_;   // .local/.param vars
  std::unordered_map<const ptx::Variable *, uint32_t> regParam_;      // .reg parameters
  std::vector<uint32_t> firstOpOfInstr_;                             // AST index -> DOp index
  struct Fixup { uint32_t op; const ptx::Label *label; };
  std::vector<Fixup> fixups_;
  struct TableFixup { uint32_t table; std::vector<const ptx::Label *> labels; };
  std::vector<TableFixup> tableFixups_;

  friend struct LayoutAccess;
public:
  uint32_t moduleLocalBytes() const { return moduleLocalBytes_; }
};

// Modifier helpers shared by the decoding files (DecodeOps.cpp).
Space spaceOf(ptx::StateSpace s);
bool atomOpOf(ptx::Mod m, AtomOp &a);

// Bits and signedness of a PTX type for register normalization.
unsigned typeWidth(Type t);
bool typeSigned(Type t);
// Normalizes a value written with instruction type t to the register image (sign-/zero-extended
// to 64 bits; predicates 0/1).
inline uint64_t normalize(uint64_t v, unsigned bits, bool sgn) {
  if (bits >= 64) return v;
  if (bits == 1) return v != 0;
  unsigned sh = 64 - bits;
  return sgn ? uint64_t(int64_t(v << sh) >> sh) : (v << sh) >> sh;
}

} // namespace optxas::sim::ptxi
