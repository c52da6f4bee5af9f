// The late SASS ("Mercury") phases that turn Ori into machine code (codegen/Emit.h):
//   141 MercConverter          every instruction converts to a sass::Inst
//   142 MercEncodeAndDecode    every instruction encodes, and decodes back to what was encoded
//   147 MercGenerateSassUCode  Function::sassCode: the words plus ptxas's epilogue
#include <fmt/format.h>

#include "optxas/codegen/Emit.h"
#include "optxas/ori/Printer.h"
#include "optxas/phases/Phase.h"
#include "optxas/sass/Codec.h"

namespace optxas::phases {
namespace {

sass::Target sassTarget(unsigned sm) { return static_cast<sass::Target>(sm); }

class MercConverter final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.function().isAllocated(); }
  void execute(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (!m) return;
    codegen::Layout layout = codegen::layoutFunction(f, *m);
    uint32_t pc = 0;
    for (const ori::Instr *i : layout.order) {
      sass::Inst inst;
      std::string err;
      if (!codegen::toSass(f, *i, layout, pc, inst, err)) {
        ctx.diags().report(Severity::Error, i->loc(),
                           fmt::format("internal: cannot convert '{}' in '{}': {}", ori::toString(*i), f.name(), err));
        return;
      }
      pc += m->instrBytes();
    }
  }
};

class MercEncodeAndDecode final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.function().isAllocated(); }
  void execute(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (!m) return;
    codegen::Layout layout = codegen::layoutFunction(f, *m);
    sass::Target t = sassTarget(ctx.smVersion());
    uint32_t pc = 0;
    for (const ori::Instr *i : layout.order) {
      sass::Inst inst;
      std::string err;
      if (!codegen::toSass(f, *i, layout, pc, inst, err)) return;  // reported by MercConverter
      auto text = [&] { return ori::toString(*i, {.physical = true, .cfgComments = false, .ids = false}); };
      sass::EncodeResult enc = sass::encode(inst, t);
      if (!enc) {
        ctx.diags().report(Severity::Error, i->loc(),
                           fmt::format("internal: cannot encode '{}' in '{}': {}", text(), f.name(), enc.error));
        return;
      }
      // The decoded instruction must encode to the same bits and mean the same: the same
      // instruction once its form's hidden operands are filled in, or else the same printed text
      // (printing only for the rare instruction whose decoding is spelled differently).
      sass::DecodeResult dec = sass::decode(enc.bits, t);
      sass::EncodeResult again = dec ? sass::encode(dec.inst, t) : sass::EncodeResult{};
      bool same = dec && again && again.bits == enc.bits;
      if (same) {
        sass::Inst canonical = inst;
        same = (sass::canonicalize(canonical, t) && canonical == dec.inst) ||
               sass::print(inst, t, pc).text == sass::print(dec.inst, t, pc).text;
      }
      if (!same) {
        sass::TextResult a = sass::print(inst, t, pc), b = dec ? sass::print(dec.inst, t, pc) : sass::TextResult{};
        ctx.diags().report(Severity::Error, i->loc(),
                           fmt::format("internal: '{}' in '{}' does not decode back: encoded '{}', decoded '{}' ({})",
                                       text(), f.name(), a.text, b.text,
                                       !dec ? dec.error : codegen::describeDifference(inst, dec.inst)));
        return;
      }
      pc += m->instrBytes();
    }
  }
};

class MercGenerateSassUCode final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.function().isAllocated(); }
  void execute(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    const target::MachineModel *m = target::machineModel(ctx.smVersion());
    if (!m) return;
    codegen::EmitResult r;
    if (codegen::emitFunction(f, *m, sassTarget(ctx.smVersion()), r, ctx.diags())) f.sassCode = std::move(r.code);
  }
};

} // namespace

std::unique_ptr<Phase> createMercConverter(PhaseId id) { return std::make_unique<MercConverter>(id); }
std::unique_ptr<Phase> createMercEncodeAndDecode(PhaseId id) { return std::make_unique<MercEncodeAndDecode>(id); }
std::unique_ptr<Phase> createMercGenerateSassUCode(PhaseId id) {
  return std::make_unique<MercGenerateSassUCode>(id);
}

} // namespace optxas::phases
