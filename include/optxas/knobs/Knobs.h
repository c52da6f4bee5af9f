// The knob registry: ptxas's internal tuning switches (-knob NAME=VALUE, knob files), driven by
// the data in knobs/knobs.tsv (docs/knobs.md). The library parses and validates; it never prints:
// problems go to the DiagEngine, and callers read typed values back.
//
//   knobs::KnobRegistry knobs;                              // every knob at its default
//   knobs.setAssignment("DUMPIR=AllocateRegisters", diags); // names are case-insensitive
//   knobs.loadFile("my.knobs", diags);                      // "[knobs]" then NAME=VALUE lines
//   if (knobs.isSet(knobs::Knob::DumpIR)) ... knobs.getString(knobs::Knob::DumpIR) ...
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "optxas/support/Diagnostics.h"

namespace optxas::knobs {

enum class KnobType : uint8_t { Bool, Int, Float, String, List };
// ptxas keeps two knob tables: OCG for the optimizer pipeline, DAG for the late SASS (Mercury)
// pipeline. A name may exist in both (DumpIR); "DAG:DumpIR" picks the second.
enum class KnobScope : uint8_t { OCG, DAG };

// Built-in knobs, in knobs.tsv order.
enum class Knob : uint16_t {
#define KNOB(id, name, scope, index, type, def, aliases, help) id,
#include "optxas/knobs/KnobTable.inc"
#undef KNOB
  NumKnobs
};

struct KnobInfo {
  std::string_view name;
  KnobScope scope;
  int index;                  // ptxas's index in its table
  KnobType type;
  std::string_view defaultValue;
  std::string_view aliases;   // comma-separated
  std::string_view help;
};

std::span<const KnobInfo> builtinKnobs();
const KnobInfo &knobInfo(Knob k);
std::string_view knobTypeName(KnobType t);
std::string_view knobScopeName(KnobScope s);

struct KnobValue {
  bool set = false;           // given by the user (otherwise the default is in place)
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<std::string> list;
  std::string raw;            // the text it was parsed from
};

class KnobRegistry {
public:
  KnobRegistry();                                         // the built-in table
  explicit KnobRegistry(std::span<const KnobInfo> table); // another table (tests)

  // Finds a knob by name or alias, case-insensitively. "OCG:" / "DAG:" select the table;
  // unqualified names look in OCG first, then DAG. Returns nullptr if there is none.
  const KnobInfo *find(std::string_view name) const;
  // Knobs whose name is closest to `name` (for "did you mean").
  std::string suggest(std::string_view name) const;

  // Parses and stores one value. Unknown names and bad values are reported as errors and leave
  // the knob unchanged. The last assignment of a knob wins.
  bool set(std::string_view name, std::string_view value, DiagEngine &diags, SourceLoc loc = {});
  // "NAME=VALUE", or just "NAME" for a bool (meaning true).
  bool setAssignment(std::string_view assignment, DiagEngine &diags, SourceLoc loc = {});
  // Several (name, value) pairs, as the driver collects them from -knob options.
  bool setAll(std::span<const std::pair<std::string, std::string>> pairs, DiagEngine &diags);
  // A knob file: text after a "[knobs]" header, one NAME=VALUE per line ('~' also separates);
  // blank lines and lines starting with '#' or ';' are ignored. Errors carry the file and line.
  bool parseFileText(std::string_view text, std::string_view fileName, DiagEngine &diags);
  bool loadFile(const std::string &path, DiagEngine &diags);

  // Typed access to built-in knobs (the default when unset).
  bool isSet(Knob k) const { return values_[static_cast<size_t>(k)].set; }
  bool getBool(Knob k) const { return values_[static_cast<size_t>(k)].b; }
  int64_t getInt(Knob k) const { return values_[static_cast<size_t>(k)].i; }
  double getFloat(Knob k) const { return values_[static_cast<size_t>(k)].f; }
  const std::string &getString(Knob k) const { return values_[static_cast<size_t>(k)].s; }
  const std::vector<std::string> &getList(Knob k) const { return values_[static_cast<size_t>(k)].list; }
  // Access by entry (any table).
  const KnobValue &value(const KnobInfo &info) const { return values_[indexOf(info)]; }
  std::span<const KnobInfo> table() const { return table_; }

  // "DumpIR (OCG 266, string) = AllocateRegisters" for every knob that is set (DumpKnobs).
  std::string describeSetKnobs() const;

private:
  size_t indexOf(const KnobInfo &info) const { return static_cast<size_t>(&info - table_.data()); }
  bool parseValue(const KnobInfo &info, std::string_view text, KnobValue &out, std::string &error) const;
  void applyDefault(size_t i);

  std::span<const KnobInfo> table_;
  std::vector<KnobValue> values_;
};

} // namespace optxas::knobs
