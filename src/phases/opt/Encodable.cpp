// The encodability probe: would this instruction, as it stands, reach the encoder of its
// architecture being compiled for intact?
// Optimizations use it before committing an operand change (an immediate or RZ where lowering
// had a register), so they never create a form the back end cannot emit.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "Opt.h"
#include "optxas/codegen/Emit.h"
#include "optxas/sass/Codec.h"

namespace optxas::phases::opt {

namespace {
// The architecture of the function being compiled (set by the phase manager per function run;
// sm_90 for the pipeline-only targets, which are lowered with sm_90's forms).
thread_local sass::Target encodingTarget = sass::Target::SM90;

// The answer depends on nothing but the instruction's shape: the target, opcode, modifiers,
// control bits, the def/use split and every operand with each register reduced to what the
// converter reads of it (physical register, stand-in 0 when unallocated, and width).
// GeneralOptimize and AddressOffsets ask about the same few shapes again and again (each
// probe converts and matches encoding forms), so the answers are kept per thread.
struct Shape {
  sass::Target target;
  isa::Opcode op;
  isa::Modifiers mods;
  ori::ControlInfo ctrl;
  unsigned numDefs;
  std::vector<ori::Operand> ops;   // the guard, then the operands
  bool operator==(const Shape &) const = default;
};

struct ShapeHash {
  size_t operator()(const Shape &k) const {
    uint64_t h = static_cast<uint64_t>(k.op) * 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(k.target) ^
                 (static_cast<uint64_t>(k.numDefs) << 40);
    for (const ori::Operand &o : k.ops) {
      uint64_t x = static_cast<uint64_t>(o.kind) | static_cast<uint64_t>(o.flags) << 8 |
                   static_cast<uint64_t>(o.subOff) << 16 | static_cast<uint64_t>(o.subWidth) << 24 |
                   static_cast<uint64_t>(o.cls) << 32 | static_cast<uint64_t>(o.bank) << 40;
      h = (h ^ x) * 0x100000001b3ull;
      h = (h ^ static_cast<uint64_t>(o.value)) * 0x100000001b3ull;
      h = (h ^ o.reg) * 0x100000001b3ull;
    }
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

constexpr size_t kMaxShapes = 1u << 16;   // a bound on the memory; the set is rebuilt past it
thread_local std::unordered_map<Shape, bool, ShapeHash> knownShapes;

// o with its register replaced by (physical register or 0) << 8 | width; false when the
// converter would not find the register at all (then the probe runs uncached).
bool reduce(const ori::Function &f, ori::Operand &o) {
  if (!o.refersToVReg()) return true;
  if (o.reg >= f.numVRegs()) return false;
  const ori::VReg &v = f.vreg(o.reg);
  if (v.phys > 0xffff) return false;
  o.reg = static_cast<ori::VRegId>(std::max(v.phys, 0)) << 8 | v.width;
  return true;
}

bool probe(ori::Function &f, const ori::Instr &i, std::string *why) {
  // Stand-in physical register 0 for every unallocated register (aligned for any width).
  std::vector<ori::VRegId> assigned;
  auto standIn = [&](ori::VRegId r) {
    if (r == ori::kNoVReg || f.vreg(r).phys >= 0) return;
    f.vreg(r).phys = 0;
    assigned.push_back(r);
  };
  for (const ori::Operand &o : i.operands())
    if (o.refersToVReg()) standIn(o.reg);
  if (i.guard().kind == ori::OperandKind::Reg) standIn(i.guard().reg);
  codegen::Layout layout;
  sass::Inst inst;
  std::string error;
  const sass::Target target = encodingTarget;
  bool ok = codegen::toSass(f, i, layout, 0, inst, error) && sass::encodable(inst, target);
  // The reason only when asked: encode() builds the diagnostics encodable() skips.
  if (!ok && why && error.empty()) error = sass::encode(inst, target).error;
  for (ori::VRegId r : assigned) f.vreg(r).phys = -1;
  if (!ok && why) *why = error;
  return ok;
}
} // namespace

void setEncodingTarget(unsigned sm, bool hasTable) {
  encodingTarget = hasTable ? static_cast<sass::Target>(sm) : sass::Target::SM90;
}

bool encodes(ori::Function &f, const ori::Instr &i, std::string *why) {
  if (i.isPseudo()) return false;
  for (const ori::Operand &o : i.operands())
    if (o.kind == ori::OperandKind::Label || o.kind == ori::OperandKind::Symbol) return false;
  if (why) return probe(f, i, why);   // the reason is not kept
  Shape k{encodingTarget, i.opcode(), i.mods(), i.ctrl(), i.numDefs(), {}};
  k.ops.reserve(i.numOperands() + 1);
  k.ops.push_back(i.guard());
  for (const ori::Operand &o : i.operands()) k.ops.push_back(o);
  for (ori::Operand &o : k.ops)
    if (!reduce(f, o)) return probe(f, i, nullptr);
  if (auto it = knownShapes.find(k); it != knownShapes.end()) return it->second;
  bool ok = probe(f, i, nullptr);
  if (knownShapes.size() >= kMaxShapes) knownShapes.clear();
  knownShapes.emplace(std::move(k), ok);
  return ok;
}

} // namespace optxas::phases::opt
