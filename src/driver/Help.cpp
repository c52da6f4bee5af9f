// --help, --version and --list-version texts.
#include <fmt/format.h>

#include "OptionTable.h"
#include "optxas/driver/Driver.h"

namespace optxas::driver {
namespace {

// Wraps text at `width` columns with the given indent.
std::string wrap(std::string_view text, size_t indent, size_t width) {
  std::string out, line;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t sp = text.find(' ', pos);
    std::string_view word = text.substr(pos, sp == std::string_view::npos ? std::string_view::npos : sp - pos);
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      out += std::string(indent, ' ') + line + "\n";
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
    if (sp == std::string_view::npos) break;
    pos = sp + 1;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
  return out;
}

void appendOption(std::string &s, const OptionSpec &o) {
  std::string head = fmt::format("--{} {}", o.longName, o.valueHint);
  s += fmt::format("{:<52}(-{})\n", head, o.shortName);
  s += wrap(o.help, 8, 88);
  s += "\n";
}

} // namespace

std::string helpText() {
  std::string s = "\nUsage  : ptxas [options] <ptx file>,...\n\nOptions\n=======\n\n";
  for (const OptionSpec &o : optionTable())
    if (!o.engineering) appendOption(s, o);
  s += "optxas engineering options\n==========================\n\n";
  for (const OptionSpec &o : optionTable())
    if (o.engineering) appendOption(s, o);
  return s;
}

std::string versionText() {
  return "ptxas: optxas, an open PTX optimizing assembler\n"
         "optxas 0.1.0, command-line compatible with ptxas of Cuda compilation tools, release 13.0, V13.0.88\n";
}

} // namespace optxas::driver
