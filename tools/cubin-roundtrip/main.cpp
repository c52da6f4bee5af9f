// cubin-roundtrip: read a cubin into the model, write it back, compare the bytes.
// usage: cubin-roundtrip IN.cubin [-o OUT.cubin] [--derive-padding]
// --derive-padding  do not carry the sm_100+ .strtab padding the model records (docs/elf.md);
//                   prints "padding N" when the model had any
// Exit status: 0 identical, 1 different (first differences are described), 2 read/write error.
#include "optxas/elf/CubinReader.h"
#include "optxas/elf/CubinWriter.h"
#include "optxas/elf/ElfImage.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iterator>

using namespace optxas::elf;

static std::vector<uint8_t> load(const char *path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

static void describe(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
  ElfImage ia, ib;
  if (parseElf(a, ia) || parseElf(b, ib)) return;
  if (ia.sections.size() != ib.sections.size())
    fmt::print("section count {} vs {}\n", ia.sections.size(), ib.sections.size());
  size_t n = std::min(ia.sections.size(), ib.sections.size());
  int shown = 0;
  for (size_t i = 0; i < n && shown < 12; ++i) {
    const auto &x = ia.sections[i], &y = ib.sections[i];
    if (x.name != y.name || x.type != y.type || x.flags != y.flags || x.offset != y.offset || x.size != y.size ||
        x.link != y.link || x.info != y.info || x.align != y.align || x.entsize != y.entsize || x.data != y.data ||
        x.nameOffset != y.nameOffset) {
      ++shown;
      fmt::print("[{}] {} vs {}: type {:#x}/{:#x} flags {:#x}/{:#x} off {:#x}/{:#x} size {:#x}/{:#x} link {}/{} "
                 "info {}/{} align {}/{} name@{:#x}/{:#x}{}\n",
                 i, x.name, y.name, x.type, y.type, x.flags, y.flags, x.offset, y.offset, x.size, y.size, x.link,
                 y.link, x.info, y.info, x.align, y.align, x.nameOffset, y.nameOffset,
                 x.data != y.data ? " (contents differ)" : "");
      if (x.data != y.data && x.type == 3) {
        auto split = [](const std::vector<uint8_t> &d) {
          std::vector<std::string> v;
          std::string cur;
          for (uint8_t ch : d) {
            if (ch) cur += char(ch);
            else v.push_back(cur.empty() ? "''" : cur), cur.clear();
          }
          return v;
        };
        auto p = split(x.data), q = split(y.data);
        size_t k = 0;
        while (k < p.size() && k < q.size() && p[k] == q[k]) ++k;
        fmt::print("   strings diverge at #{}:\n", k);
        for (size_t j = k >= 3 ? k - 3 : 0; j < k + 6 && (j < p.size() || j < q.size()); ++j)
          fmt::print("     {:40} | {}\n", j < p.size() ? p[j] : "-", j < q.size() ? q[j] : "-");
      }
      if (x.data != y.data && x.type == 2) {
        auto sp = decodeSymbols(x, ia.sections[2]), sq = decodeSymbols(y, ib.sections[2]);
        for (size_t k = 0; k < std::max(sp.size(), sq.size()); ++k) {
          auto show = [](const std::vector<ElfSymbol> &v, size_t k) {
            if (k >= v.size()) return std::string("-");
            const auto &e = v[k];
            return fmt::format("{} i{:#x} o{:#x} s{} v{:#x} z{:#x}", e.name, e.info, e.other, e.shndx, e.value, e.size);
          };
          auto a1 = show(sp, k), b1 = show(sq, k);
          if (a1 != b1) fmt::print("   sym {}: {} | {}\n", k, a1, b1);
        }
      }
      if (x.data != y.data && (x.type == 3 || x.type == 2)) {
        for (size_t k = 0; k < std::max(x.data.size(), y.data.size()); ++k) {
          int p = k < x.data.size() ? x.data[k] : -1, q = k < y.data.size() ? y.data[k] : -1;
          if (p != q) {
            fmt::print("   first byte difference at +{:#x}\n", k);
            break;
          }
        }
      }
    }
  }
  for (size_t k = 0; k < std::min(a.size(), b.size()); ++k)
    if (a[k] != b[k]) {
      std::string where = "header";
      for (const auto &x : ia.sections)
        if (x.type != 8 && k >= x.offset && k < x.offset + x.size) where = x.name;
      if (k >= ia.shoff && k < ia.shoff + 64 * ia.sections.size())
        where = fmt::format("section header {}", (k - ia.shoff) / 64);
      if (ia.phoff && k >= ia.phoff) where = "program headers";
      fmt::print("first differing byte at {:#x} ({})\n", k, where);
      break;
    }
  if (ia.flags != ib.flags) fmt::print("e_flags {:#x} vs {:#x}\n", ia.flags, ib.flags);
  if (ia.shoff != ib.shoff || ia.phoff != ib.phoff) fmt::print("shoff {:#x}/{:#x} phoff {:#x}/{:#x}\n", ia.shoff, ib.shoff, ia.phoff, ib.phoff);
  for (size_t i = 0; i < std::min(ia.segments.size(), ib.segments.size()); ++i) {
    const auto &p = ia.segments[i], &q = ib.segments[i];
    if (p.type != q.type || p.flags != q.flags || p.offset != q.offset || p.filesz != q.filesz || p.memsz != q.memsz)
      fmt::print("segment {}: {:#x}/{:#x} off {:#x}/{:#x} filesz {:#x}/{:#x} memsz {:#x}/{:#x}\n", i, p.flags, q.flags,
                 p.offset, q.offset, p.filesz, q.filesz, p.memsz, q.memsz);
  }
  if (ia.segments.size() != ib.segments.size()) fmt::print("segments {} vs {}\n", ia.segments.size(), ib.segments.size());
}

int main(int argc, char **argv) {
  const char *in = nullptr, *outPath = nullptr;
  bool derivePadding = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-o" && i + 1 < argc) outPath = argv[++i];
    else if (arg == "--derive-padding") derivePadding = true;
    else if (!in && arg[0] != '-') in = argv[i];
    else in = nullptr, i = argc;
  }
  if (!in) {
    std::fputs("usage: cubin-roundtrip IN.cubin [-o OUT.cubin] [--derive-padding]\n", stderr);
    return 2;
  }
  auto a = load(in);
  Cubin c;
  if (auto err = readCubin(a, c)) {
    fmt::print(stderr, "{}: read error: {}\n", in, *err);
    return 2;
  }
  if (derivePadding && c.strtabPadding) {
    fmt::print("padding {}\n", c.strtabPadding);
    c.strtabPadding = 0;
  }
  std::vector<uint8_t> b;
  if (auto err = writeCubin(c, b)) {
    fmt::print(stderr, "{}: write error: {}\n", in, *err);
    return 2;
  }
  if (outPath) {
    std::ofstream out(outPath, std::ios::binary);
    out.write(reinterpret_cast<const char *>(b.data()), static_cast<std::streamsize>(b.size()));
  }
  if (a == b) return 0;
  fmt::print("{}: written cubin differs ({} vs {} bytes)\n", in, a.size(), b.size());
  describe(a, b);
  return 1;
}
