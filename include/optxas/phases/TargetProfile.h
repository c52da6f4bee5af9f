// Per-architecture target profiles: which validation and lowering phases an architecture needs.
//
// Several phases of the schedule only have work on some architectures (FP16 promotion where the
// hardware has no FP16 arithmetic, forward-progress yields under independent thread scheduling,
// the graphics-only transforms). Each such phase is a TargetHookPhase: it asks the function's
// profile for its hook and runs it. A profile leaves a hook empty when its architecture does not
// need the phase, so the phase stays in the schedule (DUMPIR, NamedPhases and --stat see it) and
// returns at once; an architecture that needs it installs the hook.
#pragma once

#include <array>
#include <string_view>

namespace optxas::phases {

class PhaseContext;

// The hookable phases, one per pass (a pass that runs at two IDs has two hooks when the two
// points differ in what they may do, as the early and late argument restrictions do).
enum class TargetHook : unsigned {
  PromoteFP16,                     // 2
  ExtractShaderConstsFirst,        // 39 (graphics)
  ConvertVTGReadWrite,             // 45 (graphics)
  DoVirtualCTAExpansion,           // 46 (graphics)
  ForwardProgress,                 // 49
  EnforceArgumentRestrictions,     // 55 (under the optimization gate)
  ExtractShaderConstsFinal,        // 59 (graphics)
  ExpandJmxComputation,            // 94
  LateEnforceArgumentRestrictions, // 103 (always)
  FinalInspection,                 // 110
  BackPropagateVEC2D,              // 116
  Count
};
constexpr unsigned kNumTargetHooks = static_cast<unsigned>(TargetHook::Count);

using TargetHookFn = void (*)(PhaseContext &);

class TargetProfile {
public:
  virtual ~TargetProfile() = default;

  // The family this profile covers, for messages and DUMPIR headers ("sm_90", "sm_5x/sm_6x").
  std::string_view name() const { return name_; }
  // Whether the architecture has FP16 arithmetic instructions (HADD2/HMUL2/HFMA2).
  bool nativeFP16Arithmetic() const { return nativeFP16_; }
  // Whether threads of a warp are scheduled independently (sm_70 on): a spinning thread can
  // starve the others unless the warp yields.
  bool independentThreadScheduling() const { return independentThreads_; }
  // Whether the target is a graphics pipeline stage (no compute profile is).
  bool graphics() const { return false; }

  // The hook for a phase; null when this architecture has nothing to do there.
  TargetHookFn hook(TargetHook h) const { return hooks_[static_cast<unsigned>(h)]; }

protected:
  TargetProfile(std::string_view name, bool nativeFP16, bool independentThreads)
      : name_(name), nativeFP16_(nativeFP16), independentThreads_(independentThreads) {}
  void install(TargetHook h, TargetHookFn fn) { hooks_[static_cast<unsigned>(h)] = fn; }

private:
  std::string_view name_;
  bool nativeFP16_;
  bool independentThreads_;
  std::array<TargetHookFn, kNumTargetHooks> hooks_{};
};

// The profile of an SM version (52, 61, 90, ...). Every version gets one: unknown versions get
// the nearest older family's.
const TargetProfile &targetProfileFor(unsigned smVersion);

} // namespace optxas::phases
