// The encodability probe: would this instruction, as it stands, reach the encoder of its
// architecture being compiled for intact?
// Optimizations use it before committing an operand change (an immediate or RZ where lowering
// had a register), so they never create a form the back end cannot emit.
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
} // namespace

void setEncodingTarget(unsigned sm, bool hasTable) {
  encodingTarget = hasTable ? static_cast<sass::Target>(sm) : sass::Target::SM90;
}

bool encodes(ori::Function &f, const ori::Instr &i, std::string *why) {
  if (i.isPseudo()) return false;
  for (const ori::Operand &o : i.operands())
    if (o.kind == ori::OperandKind::Label || o.kind == ori::OperandKind::Symbol) return false;
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

} // namespace optxas::phases::opt
