#include "optxas/phases/PhaseTable.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <numeric>

namespace optxas::phases {
namespace {

struct Row {
  PhaseId id;
  std::string_view name;
};
constexpr Row kRows[] = {
#define PHASE(id, name) {id, name},
#include "PhaseTable.inc"
#undef PHASE
};
static_assert(std::size(kRows) == kNumPhases, "knobs/phases.tsv must list exactly 159 phases");
constexpr bool inIndexOrder() {
  for (size_t i = 0; i < std::size(kRows); ++i)
    if (kRows[i].id != i) return false;
  return true;
}
static_assert(inIndexOrder(), "knobs/phases.tsv must be in index order");

int compareNoCase(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    int x = std::tolower(static_cast<unsigned char>(a[i])), y = std::tolower(static_cast<unsigned char>(b[i]));
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

// The name table sorted case-insensitively, built on first use and kept.
const std::array<Row, kNumPhases> &sortedRows() {
  static const std::array<Row, kNumPhases> kSorted = [] {
    std::array<Row, kNumPhases> s;
    std::copy(std::begin(kRows), std::end(kRows), s.begin());
    std::sort(s.begin(), s.end(), [](const Row &a, const Row &b) { return compareNoCase(a.name, b.name) < 0; });
    return s;
  }();
  return kSorted;
}

} // namespace

std::string_view phaseName(PhaseId id) { return id < kNumPhases ? kRows[id].name : kRows[kNopPhase].name; }

bool findPhase(std::string_view name, PhaseId &out) {
  const auto &s = sortedRows();
  size_t lo = 0, hi = s.size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = compareNoCase(s[mid].name, name);
    if (c == 0) {
      out = s[mid].id;
      return true;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

PhaseId lookupPhase(std::string_view name) {
  PhaseId id;
  return findPhase(name, id) ? id : kNopPhase;
}

std::vector<PhaseId> defaultSchedule() {
  std::vector<PhaseId> s(kDefaultScheduleLength);
  std::iota(s.begin(), s.end(), PhaseId{0});
  return s;
}

} // namespace optxas::phases
