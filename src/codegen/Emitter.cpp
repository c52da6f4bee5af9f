// Layout, encoding and the code epilogue of one function (see Emit.h).
#include "optxas/codegen/Emit.h"

#include <fmt/format.h>

#include "optxas/ori/Printer.h"
#include "optxas/sass/Codec.h"
#include "optxas/target/CallingConvention.h"

namespace optxas::codegen {

using namespace ori;

Layout layoutFunction(const Function &f, const target::MachineModel &m) {
  Layout l;
  uint32_t pc = 0;
  for (BasicBlock *bb : f.blocks()) {
    l.blockOffset[bb] = pc;
    for (Instr *i : *bb) {
      l.order.push_back(i);
      pc += m.instrBytes();
    }
  }
  l.codeEnd = pc;
  uint32_t withBra = pc + m.instrBytes();
  uint32_t align = m.codeAlign();
  l.totalSize = (withBra + align - 1) / align * align + m.codeTailPadding();
  return l;
}

std::vector<uint8_t> jumpTableBytes(const Function &f, const Layout &layout) {
  std::vector<uint8_t> bank = f.constBank2;   // the literals, and the tables' reserved space
  for (const Instr *i : layout.order) {
    if (i->opcode() != isa::Opcode::BRX || i->numUses() < 2 || i->use(1).kind != OperandKind::Imm) continue;
    size_t at = static_cast<size_t>(i->use(1).value);
    for (unsigned u = 2; u < i->numUses(); ++u, at += 4) {
      auto it = layout.blockOffset.find(i->use(u).block);
      uint32_t off = it == layout.blockOffset.end() ? 0 : it->second;
      if (bank.size() < at + 4) bank.resize(at + 4);
      for (unsigned b = 0; b < 4; ++b) bank[at + b] = static_cast<uint8_t>(off >> (8 * b));
    }
  }
  return bank;
}

std::vector<uint32_t> indirectBranchTargets(const Layout &layout) {
  std::vector<uint32_t> words;
  const uint32_t step = layout.order.empty() ? 0 : layout.codeEnd / static_cast<uint32_t>(layout.order.size());
  uint32_t pc = 0;
  for (const Instr *i : layout.order) {
    if (i->opcode() == isa::Opcode::BRX && i->numUses() >= 2 && i->use(1).kind == OperandKind::Imm) {
      words.push_back(pc);
      words.push_back(0);
      words.push_back(i->numUses() - 2);
      for (unsigned u = 2; u < i->numUses(); ++u) {
        auto it = layout.blockOffset.find(i->use(u).block);
        words.push_back(it == layout.blockOffset.end() ? 0 : it->second);
      }
    }
    pc += step;
  }
  return words;
}

namespace {

void appendWord(std::vector<uint8_t> &out, const sass::Word &w) {
  for (uint64_t part : w)
    for (unsigned b = 0; b < 8; ++b) out.push_back(static_cast<uint8_t>(part >> (8 * b)));
}

// The epilogue instructions carry no scheduling information (ptxas: stall 0 with the yield
// hint, i.e. raw bit 109 clear).
sass::Control quietControl() {
  sass::Control c;
  c.stall = 0;
  c.yield = true;
  return c;
}

} // namespace

bool emitFunction(const Function &f, const target::MachineModel &m, sass::Target target, EmitResult &out,
                  DiagEngine &diags) {
  out = EmitResult{};
  if (!f.isAllocated()) {
    diags.report(Severity::Error, fmt::format("internal: '{}' reached the encoder unallocated", f.name()));
    return false;
  }
  Layout layout = layoutFunction(f, m);
  out.code.reserve(layout.totalSize);
  // The MOV of a call's return address (PostExpansion puts `MOV R20, 0` before each CALL) gets
  // the function-relative address after the CALL; the cubin writer rebases it (CallLinking.cpp).
  std::unordered_map<const Instr *, uint32_t> returnAddress;
  for (size_t k = 0; k < layout.order.size(); ++k) {
    const Instr *call = layout.order[k];
    if (call->opcode() != isa::Opcode::CALL) continue;
    // sm_8x calls out of the module (PostExpansion.cpp): the IADD3 after LEPC R20 adds the
    // distance from the LEPC to the instruction after the CALL.
    const Instr *add = nullptr;
    for (const Instr *p = call->prev(); p && !add; p = p->prev()) {
      if (p->opcode() == isa::Opcode::CALL) break;
      if (p->opcode() == isa::Opcode::IADD3 && p->numDefs() == 2 && p->def(0).isReg() &&
          f.vreg(p->def(0).reg).phys + static_cast<int>(p->def(0).subOff) ==
              static_cast<int>(target::kReturnAddressReg) &&
          p->numUses() == 3 && p->use(1).kind == OperandKind::Imm)
        add = p;
    }
    if (add) {
      size_t lepc = layout.order.size();
      for (size_t q = k; q-- > 0;)
        if (layout.order[q] == add) {
          for (size_t r = q; r-- > 0;)
            if (layout.order[r]->opcode() == isa::Opcode::LEPC) {
              lepc = r;
              break;
            }
          break;
        }
      if (lepc < k) {
        returnAddress[add] = static_cast<uint32_t>((k + 1 - lepc) * m.instrBytes());
        continue;
      }
    }
    for (const Instr *p = call->prev(); p; p = p->prev())
      if (p->opcode() == isa::Opcode::MOV && p->numDefs() == 1 && p->def(0).isReg() &&
          f.vreg(p->def(0).reg).phys + static_cast<int>(p->def(0).subOff) ==
              static_cast<int>(target::kReturnAddressReg) &&
          p->numUses() == 1 && p->use(0).kind == OperandKind::Imm) {
        returnAddress[p] = static_cast<uint32_t>((k + 1) * m.instrBytes());
        break;
      }
  }
  uint32_t pc = 0;
  for (const Instr *i : layout.order) {
    sass::Inst inst;
    std::string err;
    if (!toSass(f, *i, layout, pc, inst, err)) {
      diags.report(Severity::Error, i->loc(),
                   fmt::format("internal: cannot convert '{}' in '{}': {}", toString(*i), f.name(), err));
      return false;
    }
    if (auto ra = returnAddress.find(i); ra != returnAddress.end())
      for (sass::Operand &o : inst.ops)
        if (o.kind == sass::OperandKind::Imm) o.imm = ra->second;
    sass::EncodeResult enc = sass::encode(inst, target);
    if (!enc) {
      std::string text = toString(*i, {.physical = true, .cfgComments = false, .ids = false});
      diags.report(Severity::Error, i->loc(),
                   fmt::format("internal: cannot encode '{}' in '{}': {}", text, f.name(), enc.error));
      return false;
    }
    for (const Operand &o : i->operands())
      if (o.kind == OperandKind::Symbol) {
        SymbolRef r;
        r.offset = pc;
        r.symbol = static_cast<uint32_t>(o.value);
        r.opcode = i->opcode();
        r.high = i->mods().variant == isa::Variant::HI;
        out.symbolRefs.push_back(r);
      }
    appendWord(out.code, enc.bits);
    out.insts.push_back(std::move(inst));
    pc += m.instrBytes();
  }
  // BRA to itself, then NOPs.
  sass::Inst bra;
  bra.op = isa::Opcode::BRA;
  bra.ops.push_back(sass::Operand::target(-static_cast<int64_t>(m.instrBytes())));
  bra.ctrl = quietControl();
  sass::Inst nop;
  nop.op = isa::Opcode::NOP;
  nop.ctrl = quietControl();
  for (const sass::Inst *tail = &bra; pc < layout.totalSize; tail = &nop) {
    sass::EncodeResult enc = sass::encode(*tail, target);
    if (!enc) {
      diags.report(Severity::Error, fmt::format("internal: cannot encode the epilogue {}: {}",
                                                isa::opcodeName(tail->op), enc.error));
      return false;
    }
    appendWord(out.code, enc.bits);
    pc += m.instrBytes();
  }
  return true;
}

} // namespace optxas::codegen
