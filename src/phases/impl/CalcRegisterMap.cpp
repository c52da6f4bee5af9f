// Phase 149, CalcRegisterMap (-g): where each PTX register lives, for the debugger's register
// maps (.nv_debug_info_reg_sass/_type, docs/elf.md "Register maps"). For every 32-bit piece of
// every PTX register still held by a virtual register after allocation (Function::debugRegNames),
// the runs of consecutive instructions where that component holds a value (live after the
// instruction, or read by it) become entries: the physical register, its file, the offset of the
// instruction that starts the run (the write, or the first instruction of a block it is live
// into) and the offset of the last instruction of the run (the last read, or a branch it is live
// across). A run counts only if one of its instructions comes from a PTX line naming the register. Runs follow the final layout (the encoder's order), so it runs after
// MercGenerateSassUCode. Not an optimization: no OptBudget consultation.
#include <algorithm>
#include <unordered_map>

#include "optxas/codegen/Emit.h"
#include "optxas/ori/Liveness.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

// ptxas's register file numbers in .nv_debug_info_reg_sass.
constexpr uint8_t kFileR = 5, kFileP = 2;

class CalcRegisterMap final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override {
    return ctx.function().debugRegNames.empty() || !ctx.function().isAllocated();
  }
  void execute(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    f.registerMap.clear();
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (!m) return;
    codegen::Layout layout = codegen::layoutFunction(f, *m);
    if (layout.order.empty()) return;
    const uint32_t step = m->instrBytes();
    std::unordered_map<const ori::Instr *, size_t> index;
    for (size_t k = 0; k < layout.order.size(); ++k) index[layout.order[k]] = k;

    // The named components, in vreg order (a stable order for the entries).
    struct Piece {
      ori::VRegId vreg;
      unsigned component, piece;
      const ori::DebugRegName *name;
    };
    std::vector<Piece> pieces;
    std::vector<ori::VRegId> named;
    for (const auto &[v, n] : f.debugRegNames) named.push_back(v);
    std::sort(named.begin(), named.end());
    for (ori::VRegId v : named) {
      const ori::VReg &r = f.vreg(v);
      if (r.phys < 0 || (r.cls != ori::RegClass::R && r.cls != ori::RegClass::P)) continue;
      for (const ori::DebugRegName &n : f.debugRegNames.at(v))
        for (unsigned p = 0; p < n.pieces && n.component + p < r.width; ++p)
          pieces.push_back({v, n.component + p, p, &n});
    }
    if (pieces.empty()) return;

    // present[k * np + j]: piece j's value is in its register at instruction k: the component
    // is live just after k, or k reads it.
    ori::Liveness lv(f);
    std::unordered_map<ori::VRegId, std::vector<size_t>> piecesOf;
    for (size_t j = 0; j < pieces.size(); ++j) piecesOf[pieces[j].vreg].push_back(j);
    const size_t np = pieces.size();
    std::vector<uint8_t> present(layout.order.size() * np, 0);
    for (const ori::BasicBlock *bb : f.blocks())
      lv.walkBlockUnits(bb, [&](const ori::Instr &i, const llvm::BitVector &after) {
        auto it = index.find(&i);
        if (it == index.end()) return;
        uint8_t *row = &present[it->second * np];
        for (size_t j = 0; j < np; ++j) row[j] = after.test(lv.unitBase(pieces[j].vreg) + pieces[j].component);
        ori::Liveness::forEachUseUnit(f, i, [&](ori::VRegId v, unsigned off, unsigned n) {
          auto p = piecesOf.find(v);
          if (p == piecesOf.end()) return;
          for (size_t j : p->second)
            if (pieces[j].component >= off && pieces[j].component < off + n) row[j] = 1;
        });
      });

    // Each run of instructions where the value is present, if one of them comes from a PTX
    // line that names the register (else it is a temporary's value sharing the vreg).
    for (size_t j = 0; j < np; ++j) {
      const Piece &p = pieces[j];
      const ori::VReg &r = f.vreg(p.vreg);
      const std::vector<uint32_t> &lines = p.name->lines;
      for (size_t k = 0; k < layout.order.size(); ++k) {
        if (!present[k * np + j]) continue;
        size_t b = k;
        bool named = false;
        for (;; ++b) {
          named = named || std::binary_search(lines.begin(), lines.end(), layout.order[b]->loc().line);
          if (b + 1 >= layout.order.size() || !present[(b + 1) * np + j]) break;
        }
        if (named) {
          ori::RegisterMapEntry e;
          e.name = p.name->name;
          e.piece = p.piece;
          e.reg = static_cast<uint32_t>(r.phys) + p.component;
          e.file = r.cls == ori::RegClass::P ? kFileP : kFileR;
          e.type = p.name->type;
          e.start = static_cast<uint32_t>(k * step);
          e.end = static_cast<uint32_t>(b * step);
          f.registerMap.push_back(std::move(e));
        }
        k = b;
      }
    }
    // ptxas lists the entries by where their ranges start.
    std::stable_sort(f.registerMap.begin(), f.registerMap.end(),
                     [](const ori::RegisterMapEntry &a, const ori::RegisterMapEntry &b) { return a.start < b.start; });
  }
};

} // namespace

std::unique_ptr<Phase> createCalcRegisterMap(PhaseId id) { return std::make_unique<CalcRegisterMap>(id); }

} // namespace optxas::phases
