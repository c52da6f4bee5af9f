#include "optxas/phases/Recipe.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

namespace optxas::phases {
namespace {

// The phases the dceN / cpyN keywords inject: the live/dead (dead code) phase and copy
// propagation. ptxas resolves the names "OriPerformLiveDead" and "OriCopyProp"; the first is not
// in the 13.0 name table, so we inject the first live/dead instance, which runs the same code.
constexpr PhaseId kInjectedDCE = 18;       // OriPerformLiveDeadFirst
constexpr PhaseId kInjectedCopyProp = 22;  // OriCopyProp

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> parseInt(std::string_view s) {
  s = trim(s);
  bool neg = !s.empty() && s[0] == '-';
  if (neg) s.remove_prefix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v > (1ull << 40)) return std::nullopt;
  return neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

// "SWAP3" -> 3 for prefix "SWAP" and digits in [lo, hi].
std::optional<int> keywordNumber(std::string_view name, std::string_view prefix, int lo, int hi) {
  if (name.size() != prefix.size() + 1 || name.substr(0, prefix.size()) != prefix) return std::nullopt;
  int d = name.back() - '0';
  if (d < lo || d > hi) return std::nullopt;
  return d;
}

PhaseId clampId(int64_t v) { return static_cast<PhaseId>(std::clamp<int64_t>(v, 0, kMaxRecipeId)); }

// xorshift32: small, fully specified, so a seed means the same shuffle everywhere.
uint32_t nextRandom(uint32_t &state) {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

class ScheduleBuilder {
public:
  ScheduleBuilder(std::vector<PhaseId> &s, DiagEngine &diags, bool verbose)
      : s_(s), diags_(diags), verbose_(verbose) {}

  bool apply(const RecipeEntry &e) {
    const std::string &n = e.name;
    if (n == "SHUFFLE") return shuffle(e);
    if (n == "REPS") return reps(e);
    if (auto k = keywordNumber(n, "SWAP", 1, 6)) return swap(e, *k);
    if (auto k = keywordNumber(n, "DCE", 1, 3)) return inject(e, kInjectedDCE, *k);
    if (auto k = keywordNumber(n, "CPY", 1, 3)) return inject(e, kInjectedCopyProp, *k);
    // pN / p,N: a phase by number.
    if (n == "P" || (n.size() > 1 && n[0] == 'P' && std::all_of(n.begin() + 1, n.end(), ::isdigit))) {
      std::optional<int64_t> v = n == "P" ? parseInt(e.param) : parseInt(std::string_view(n).substr(1));
      if (!v) return fail(e, "needs a phase number (pN or p,N)");
      return addPhase(e, clampId(*v), n == "P" ? std::string_view{} : e.param, n == "P" ? false : e.hasParam);
    }
    PhaseId id;
    if (!findPhase(n, id)) {
      id = kNopPhase;
      if (verbose_) diags_.warning(SourceLoc{}, "NamedPhases: unknown phase name '{}' runs as NOP", e.text);
    }
    return addPhase(e, id, e.param, e.hasParam);
  }

private:
  bool fail(const RecipeEntry &e, std::string_view why) {
    diags_.error(SourceLoc{}, "NamedPhases: '{}' {}", e.text, why);
    return false;
  }

  // A phase entry; the first one replaces the default schedule with an explicit list.
  // NAME,K appends the phase K times.
  bool addPhase(const RecipeEntry &e, PhaseId id, std::string_view param, bool hasParam) {
    int64_t times = 1;
    if (hasParam) {
      auto v = parseInt(param);
      if (!v || *v < 1 || *v > static_cast<int64_t>(kMaxRecipeEntries))
        return fail(e, "repeat count must be 1..256");
      times = *v;
    }
    if (!explicit_) {
      s_.clear();
      explicit_ = true;
    }
    s_.insert(s_.end(), static_cast<size_t>(times), id);
    return true;
  }

  bool reps(const RecipeEntry &e) {
    auto v = e.hasParam ? parseInt(e.param) : std::nullopt;
    if (!v || *v < 1 || *v > static_cast<int64_t>(kMaxRecipeEntries)) return fail(e, "needs a count 1..256 (reps,N)");
    reps_ = static_cast<int>(*v);
    return true;
  }

  // reps Fisher-Yates passes with xorshift32 seeded by the parameter (default 1).
  bool shuffle(const RecipeEntry &e) {
    uint32_t state = 1;
    if (e.hasParam) {
      auto v = parseInt(e.param);
      if (!v || *v < 0 || *v > 0xffffffffll) return fail(e, "seed must be 0..4294967295");
      state = static_cast<uint32_t>(*v);
    }
    if (state == 0) state = 1;   // xorshift never leaves 0
    for (int r = 0; r < reps_; ++r)
      for (size_t i = s_.size(); i > 1; --i) std::swap(s_[i - 1], s_[nextRandom(state) % i]);
    return true;
  }

  // swapK[,I]: exchange slots I and I+K (I defaults to 0).
  bool swap(const RecipeEntry &e, int k) {
    int64_t i = 0;
    if (e.hasParam) {
      auto v = parseInt(e.param);
      if (!v || *v < 0) return fail(e, "needs a slot number (swapK,I)");
      i = *v;
    }
    if (static_cast<size_t>(i + k) >= s_.size())
      return fail(e, "is outside the schedule (" + std::to_string(s_.size()) + " slots)");
    std::swap(s_[static_cast<size_t>(i)], s_[static_cast<size_t>(i + k)]);
    return true;
  }

  // dceN[,A] / cpyN[,A]: insert the phase N times after anchor A: a phase name (its first
  // occurrence), a slot number, or the end of the schedule when A is absent.
  bool inject(const RecipeEntry &e, PhaseId what, int times) {
    size_t at = s_.size();
    if (e.hasParam) {
      if (auto v = parseInt(e.param)) {
        if (*v < 0 || static_cast<size_t>(*v) >= s_.size())
          return fail(e, "anchor slot is outside the schedule (" + std::to_string(s_.size()) + " slots)");
        at = static_cast<size_t>(*v) + 1;
      } else {
        PhaseId anchor;
        if (!findPhase(trim(e.param), anchor)) return fail(e, "anchor names no phase");
        auto it = std::find(s_.begin(), s_.end(), anchor);
        if (it == s_.end()) return fail(e, "anchor phase is not in the schedule");
        at = static_cast<size_t>(it - s_.begin()) + 1;
      }
    }
    s_.insert(s_.begin() + static_cast<long>(at), static_cast<size_t>(times), what);
    return true;
  }

  std::vector<PhaseId> &s_;
  DiagEngine &diags_;
  bool verbose_;
  bool explicit_ = false;
  int reps_ = 1;
};

} // namespace

bool tokenizeRecipe(std::string_view recipe, std::vector<RecipeEntry> &out, DiagEngine &diags) {
  out.clear();
  size_t start = 0;
  while (start <= recipe.size()) {
    size_t plus = recipe.find('+', start);
    std::string_view text = trim(recipe.substr(start, plus == std::string_view::npos ? std::string_view::npos : plus - start));
    start = plus == std::string_view::npos ? recipe.size() + 1 : plus + 1;
    if (text.empty()) continue;   // "a++b" and a trailing '+' are harmless
    if (out.size() == kMaxRecipeEntries) {
      diags.error(SourceLoc{}, "NamedPhases: more than {} entries", kMaxRecipeEntries);
      return false;
    }
    RecipeEntry e;
    e.text = std::string(text);
    size_t comma = text.find(',');
    std::string_view name = trim(text.substr(0, comma));
    if (comma != std::string_view::npos) {
      e.hasParam = true;
      e.param = std::string(trim(text.substr(comma + 1)));
    }
    if (name.empty()) {
      diags.error(SourceLoc{}, "NamedPhases: entry '{}' has no name", text);
      return false;
    }
    for (char c : name) e.name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out.push_back(std::move(e));
  }
  return true;
}

bool buildSchedule(const std::vector<RecipeEntry> &entries, std::vector<PhaseId> &schedule, DiagEngine &diags,
                   bool verbose) {
  schedule = defaultSchedule();
  ScheduleBuilder b(schedule, diags, verbose);
  bool ok = true;
  for (const RecipeEntry &e : entries) ok &= b.apply(e);
  return ok;
}

bool scheduleFromRecipe(std::string_view recipe, std::vector<PhaseId> &schedule, DiagEngine &diags, bool verbose) {
  std::vector<RecipeEntry> entries;
  return tokenizeRecipe(recipe, entries, diags) && buildSchedule(entries, schedule, diags, verbose);
}

} // namespace optxas::phases
