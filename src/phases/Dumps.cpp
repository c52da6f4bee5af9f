#include "optxas/phases/Dumps.h"

#include <cmath>

#include <fmt/format.h>

#include "optxas/ori/CFG.h"
#include "optxas/ori/ModifierText.h"
#include "optxas/ori/Printer.h"
#include "optxas/ori/Stats.h"

namespace optxas::phases {

// Dumps must not change what later phases see: analyses a dump computes are dropped again.
class AnalysisScope {
public:
  explicit AnalysisScope(ori::Function &f) : f_(f), had_(f.cfg() != nullptr) {}
  ~AnalysisScope() {
    if (!had_) f_.invalidateCFG();
  }

private:
  ori::Function &f_;
  bool had_;
};

std::string formatIRDump(ori::Function &f, std::string_view title) {
  AnalysisScope scope(f);
  std::string out = fmt::format("//--- {}\n", title);
  out += ori::formatStatsHeader(ori::computeStats(f), f.isAllocated());
  ori::PrintOptions opts;
  opts.physical = f.isAllocated();
  ori::printFunction(out, f, opts);
  return out;
}

std::string formatCFGDump(ori::Function &f, std::string_view title) {
  AnalysisScope scope(f);
  ori::ControlFlowInfo &cfg = ori::ensureControlFlow(f);
  std::string out = fmt::format("//--- {}\n", title);
  auto list = [&](const std::vector<ori::BasicBlock *> &v) {
    std::string s;
    for (ori::BasicBlock *b : v) s += fmt::format(" bb{}", b->id());
    return s.empty() ? std::string(" -") : s;
  };
  for (ori::BasicBlock *bb : f.blocks()) {
    fmt::format_to(std::back_inserter(out), "bb{}: preds:{}  succs:{}", bb->id(), list(bb->preds()), list(bb->succs()));
    if (!bb->reachable()) out += "  unreachable";
    else if (bb->idom() && bb->idom() != bb) fmt::format_to(std::back_inserter(out), "  idom: bb{}", bb->idom()->id());
    if (bb->loopDepth()) fmt::format_to(std::back_inserter(out), "  depth: {}", bb->loopDepth());
    if (bb->isLoopHeader()) out += "  loop-header";
    out += '\n';
  }
  for (const auto &l : cfg.loops())
    fmt::format_to(std::back_inserter(out), "loop bb{}: depth {} blocks:{} latches:{}\n", l->header->id(), l->depth,
                   list(l->blocks), list(l->latches));
  for (auto &[from, to] : cfg.irreducibleEdges())
    fmt::format_to(std::back_inserter(out), "irreducible edge bb{} -> bb{}\n", from->id(), to->id());
  return out;
}

std::string formatSassListing(const ori::Function &f) {
  std::string out = fmt::format("\t.text.{}:\n", f.name());
  ori::PrintOptions opts;
  opts.physical = true;
  unsigned offset = 0;
  for (ori::BasicBlock *bb : f.blocks()) {
    fmt::format_to(std::back_inserter(out), ".L_x_{}:\n", bb->id());
    for (ori::Instr *i : *bb) {
      if (i->isPseudo()) continue;
      std::string text;
      if (i->isPredicated()) {
        text += '@';
        ori::printOperand(text, f, i->guard(), opts);
        text += ' ';
      }
      text += isa::opcodeName(i->opcode());
      ori::appendModifierText(text, i->mods());
      bool first = true;
      for (const ori::Operand &o : i->operands()) {
        text += first ? " " : ", ";
        first = false;
        ori::printOperand(text, f, o, opts);
      }
      fmt::format_to(std::back_inserter(out), "        /*{:04x}*/ {:>20}{} ;\n", offset, "", text);
      offset += 16;
    }
  }
  return out;
}

std::string formatCodeHex(const ori::Function &f) {
  std::string out;
  const auto &code = f.sassCode;
  for (size_t at = 0; at + 16 <= code.size(); at += 16) {
    uint64_t lo = 0, hi = 0;
    for (int b = 7; b >= 0; --b) {
      lo = (lo << 8) | code[at + static_cast<size_t>(b)];
      hi = (hi << 8) | code[at + 8 + static_cast<size_t>(b)];
    }
    fmt::format_to(std::back_inserter(out), "/*{:04x}*/ 0x{:016x} 0x{:016x}\n", at, lo, hi);
  }
  return out;
}

std::string formatPhaseWiseLine(std::string_view label, const MemoryAccount &a) {
  long percent = a.live ? std::lround(100.0 * static_cast<double>(a.leaked) / static_cast<double>(a.live)) : 0;
  return fmt::format("{}  ::  [Total {}]   [Freeable {}]   [Freeable Leaked {}]   ({}%)\n", label,
                     formatMemorySize(a.reserved), formatMemorySize(a.live), formatMemorySize(a.leaked), percent);
}

} // namespace optxas::phases
