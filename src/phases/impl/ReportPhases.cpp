// The report phases: they only look. ReportInitialRepresentation, ReportBeforeScheduling,
// ReportBeforeRegisterAllocation and ReportAfterRegisterAllocation keep an IR dump under --keep;
// ReportFinalMemoryUsage prints the pool consumption under --stat=phase-wise; DumpNVuCodeText and
// DumpNVuCodeHex keep the final listing and the encoded bytes under --keep.
#include <fmt/format.h>

#include "optxas/phases/Dumps.h"
#include "optxas/phases/Phase.h"

namespace optxas::phases {
namespace {

class ReportIR final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.options().keep; }
  void execute(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    ctx.keepFile(fmt::format("{}.{}.ori", f.name(), name()),
                 formatIRDump(f, fmt::format("{} (phase {}), function {}", name(), id(), f.name())));
  }
};

class ReportFinalMemoryUsage final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.options().phaseWiseStats; }
  void execute(PhaseContext &ctx) override {
    ctx.dump(fmt::format("[Pool Consumption = {}]\n", formatMemorySize(ctx.module().memory().peakReserved)));
  }
};

class DumpNVuCodeText final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.options().keep; }
  void execute(PhaseContext &ctx) override {
    ctx.keepFile(ctx.function().name() + ".sass", formatSassListing(ctx.function()));
  }
};

class DumpNVuCodeHex final : public Phase {
public:
  using Phase::Phase;
  bool isNoOp(PhaseContext &ctx) const override { return !ctx.options().keep; }
  void execute(PhaseContext &ctx) override {
    ori::Function &f = ctx.function();
    if (f.sassCode.empty()) {
      if (ctx.options().verbose)
        ctx.diags().warning(SourceLoc{}, "DumpNVuCodeHex: function '{}' has no encoded instructions; nothing kept",
                            f.name());
      return;
    }
    ctx.keepFile(f.name() + ".hex", formatCodeHex(f));
  }
};

} // namespace

std::unique_ptr<Phase> createReportIR(PhaseId id) { return std::make_unique<ReportIR>(id); }
std::unique_ptr<Phase> createReportFinalMemoryUsage(PhaseId id) { return std::make_unique<ReportFinalMemoryUsage>(id); }
std::unique_ptr<Phase> createDumpNVuCodeText(PhaseId id) { return std::make_unique<DumpNVuCodeText>(id); }
std::unique_ptr<Phase> createDumpNVuCodeHex(PhaseId id) { return std::make_unique<DumpNVuCodeHex>(id); }

} // namespace optxas::phases
