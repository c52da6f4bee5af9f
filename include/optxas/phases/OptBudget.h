// The OptBudget gate (knob OptBudget, ptxas index 499). Optimizing phases consult it inside
// their own execute(): while the budget lasts the gate returns the effective optimization level
// and counts the consultation; once the limit is reached it returns 1 (kForcedO0) and the phase
// leaves the IR alone. The phase still runs in the schedule, so consultation N always means the
// same phase in the same function, and bisecting a miscompile over N finds the transformation
// that breaks it (docs/phases.md, "Bisecting with OptBudget").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "optxas/phases/PhaseTable.h"

namespace optxas::phases {

class OptBudget {
public:
  static constexpr int kForcedO0 = 1;

  // limit < 0: unlimited.
  explicit OptBudget(int64_t limit = -1) : limit_(limit) {}

  // Returns optLevel (counting the consultation) while fewer than `limit` consultations were
  // granted, else kForcedO0.
  int gate(int optLevel, PhaseId phase = kNopPhase, std::string_view function = {});

  struct Consultation {
    uint64_t number = 0;   // 1-based
    PhaseId phase = kNopPhase;
    std::string function;
  };

  int64_t limit() const { return limit_; }
  uint64_t granted() const { return granted_; }
  uint64_t refused() const { return refused_; }
  bool exhausted() const { return limit_ >= 0 && granted_ >= static_cast<uint64_t>(limit_); }
  // The last consultation that was granted and the first that was refused: with OptBudget=N
  // failing and N-1 passing, lastGranted() names the culprit.
  const std::optional<Consultation> &lastGranted() const { return lastGranted_; }
  const std::optional<Consultation> &firstRefused() const { return firstRefused_; }

private:
  int64_t limit_;
  uint64_t granted_ = 0, refused_ = 0;
  std::optional<Consultation> lastGranted_, firstRefused_;
};

} // namespace optxas::phases
