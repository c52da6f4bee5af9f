// Phase 110, FinalInspectionPass: the last legality check before scheduling and allocation.
// Every machine instruction must encode for the target as it stands (opt::encodes asks the
// encoder's form table; registers get stand-in numbers), and no macro pseudo-instruction may be
// left. Anything else is a compiler bug that would otherwise surface as an encoder failure after
// allocation; it is reported here as an internal error naming the function, block and
// instruction. Read-only. Not probed: the pseudo-instructions that allocation and PostExpansion
// (127) turn into machine code (copies, parameters), control transfers (branches, calls, EXIT,
// RET) and instructions that carry a label or a symbol (address moves), whose operands only the
// final layout resolves.
#include "../opt/Opt.h"
#include "../profiles/TargetHooks.h"
#include "optxas/ori/Printer.h"
#include "optxas/phases/Phase.h"
#include "optxas/target/MachineModel.h"

namespace optxas::phases {

unsigned inspectEncodability(ori::Function &f, DiagEngine &diags, unsigned smVersion) {
  const target::MachineModel *model = smVersion ? target::machineModel(smVersion) : nullptr;
  // A BMMA on a target without BMMA (Blackwell): lowering emulates mma .b1 there
  // (src/lower/BitMma.cpp), so none should arrive; kept as a clean error, not an internal one.
  const bool noBmma = model && !model->features().bmma;
  unsigned bad = 0;
  for (ori::BasicBlock *bb : f.blocks())
    for (ori::Instr *i : *bb) {
      std::string why;
      if (i->opcode() == isa::Opcode::PSEUDO_MACRO) {
        why = "a macro pseudo-instruction was never expanded";
      } else {
        if (i->isPseudo()) continue;
        // Control transfers get their targets (and RET its return form) from the layout.
        bool resolvedLater = i->isBranch() || i->isTerminator() || isa::hasFlag(i->opcode(), isa::Call);
        for (const ori::Operand &o : i->operands())
          resolvedLater |= o.kind == ori::OperandKind::Label || o.kind == ori::OperandKind::Symbol;
        if (resolvedLater || opt::encodes(f, *i, &why)) continue;
        if (noBmma && i->opcode() == isa::Opcode::BMMA) {
          ++bad;
          diags.error(i->loc(), "mma with .b1 operands on .target 'sm_{}' is not yet supported by optxas", smVersion);
          continue;
        }
      }
      ++bad;
      diags.error(i->loc(), "internal error: FinalInspectionPass: function '{}', bb{}, instruction [{}] '{}' is not legal for the target: {}",
                  f.name(), bb->id(), i->id(), ori::toString(*i), why);
    }
  return bad;
}

void finalInspectionHook(PhaseContext &ctx) { inspectEncodability(ctx.function(), ctx.diags(), ctx.smVersion()); }

} // namespace optxas::phases
