// CubinBuilder: derived defaults and layout, checked two ways: structural facts of a small module
// (symbol and section order as ptxas lays them out), and against ptxas itself (the oracle): build
// from only what a back end knows about ptxas's own output and require the same bytes.
#include "optxas/elf/CubinBuilder.h"
#include "optxas/elf/CubinDiff.h"
#include "optxas/elf/CubinReader.h"
#include "optxas/elf/CubinWriter.h"
#include "optxas/elf/ElfFormat.h"
#include "optxas/elf/ElfImage.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

using namespace optxas::elf;

namespace {
std::vector<std::string> symbolNames(const std::vector<uint8_t> &bytes) {
  ElfImage img;
  EXPECT_FALSE(parseElf(bytes, img));
  auto syms = decodeSymbols(img.sections[img.findSection(".symtab")], img.sections[img.findSection(".strtab")]);
  std::vector<std::string> names;
  for (const auto &s : syms) names.push_back(s.name);
  return names;
}
std::vector<std::string> sectionNames(const std::vector<uint8_t> &bytes) {
  ElfImage img;
  EXPECT_FALSE(parseElf(bytes, img));
  std::vector<std::string> names;
  for (const auto &s : img.sections) names.push_back(s.name);
  return names;
}
std::vector<uint8_t> fakeCode(size_t n) { return std::vector<uint8_t>(n, 0x18); }
} // namespace

TEST(CubinBuilder, Sm90ExecutableLayout) {
  CubinBuilder b(*Target::parse("sm_90"), ObjectKind::Executable);
  // ptxas order for a whole-program compile: the kernel defined last comes first.
  auto &k2 = b.addKernel("k2");
  k2.setCode(fakeCode(0x100)).setRegisterCount(8).addParam(8, 8).addExitOffset(0x10);
  auto &k1 = b.addKernel("k1");
  k1.setCode(fakeCode(0x80)).setRegisterCount(10).addParam(4, 4).addParam(8, 8).addExitOffset(0x20);
  uint8_t init[4] = {1, 0, 0, 0};
  b.addGlobal("g", 4, 4, init);
  auto bytes = b.finish();

  EXPECT_EQ(symbolNames(bytes),
            (std::vector<std::string>{"", ".note.nv.tkinfo", ".note.nv.cuinfo", ".text.k2", ".nv.reservedSmem.offset0",
                                      "__nv_reservedSMEM_offset_0_alias", ".nv.global.init", "g", ".text.k1",
                                      ".nv.callgraph", "k2", "k1", ".nv.constant0.k2", ".nv.constant0.k1"}));
  EXPECT_EQ(sectionNames(bytes),
            (std::vector<std::string>{"", ".shstrtab", ".strtab", ".symtab", ".note.nv.tkinfo", ".note.nv.cuinfo",
                                      ".nv.info", ".nv.compat", ".nv.info.k2", ".nv.info.k1", ".nv.callgraph",
                                      ".text.k2", ".text.k1", ".nv.global.init", ".nv.shared.reserved.0",
                                      ".nv.constant0.k2", ".nv.constant0.k1"}));
  // Read back: the derived facts are there.
  Cubin c;
  ASSERT_FALSE(readCubin(bytes, c));
  ASSERT_EQ(c.functions.size(), 2u);
  const Function &f = c.functions[1];
  EXPECT_EQ(f.name, "k1");
  EXPECT_EQ(f.registerCount, 10u);
  ASSERT_EQ(f.params.size(), 2u);
  EXPECT_EQ(f.params[1].offset, 8); // aligned after the 4-byte parameter
  EXPECT_EQ(f.paramBlockSize, 16u);
  EXPECT_EQ(f.minStackSize.value_or(99), 0u);
  ASSERT_NE(f.find(NvInfoKind::MAXREG_COUNT), nullptr);
  EXPECT_EQ(f.find(NvInfoKind::MAXREG_COUNT)->value, 0xff);
  ASSERT_NE(f.find(NvInfoKind::SW_WAR), nullptr);
  EXPECT_EQ(c.compat.size(), 7u);
  ElfImage img;
  ASSERT_FALSE(parseElf(bytes, img));
  EXPECT_EQ(img.flags, 0x06005a04u);
  EXPECT_EQ(img.type, kEtExec);
  EXPECT_EQ(img.sections[img.findSection(".nv.constant0.k1")].size, 0x210u + 16u);
  EXPECT_EQ(img.segments.size(), 5u); // PHDR, its LOAD, code, data, parameter banks
}

// sm_100+: the e_flags low byte is the kind of code (docs/elf.md, "Mercury sections"). The builder
// writes no Mercury section, so its cubins say SASS only (0x04, what nvlink writes for SASS-only
// input); a model carrying Mercury sections (read from ptxas) is written as capmerc (0x02), and
// the reader rejects a kind that disagrees with the sections.
TEST(CubinBuilder, Sm100KindFollowsMercurySections) {
  CubinBuilder b(*Target::parse("sm_100"), ObjectKind::Executable);
  b.addKernel("k").setCode(fakeCode(0x80)).setRegisterCount(4).addExitOffset(0);
  auto bytes = b.finish();
  ElfImage img;
  ASSERT_FALSE(parseElf(bytes, img));
  EXPECT_EQ(img.flags & 0xffffu, 0x6400u | kElfKindSass);
  Cubin c;
  ASSERT_FALSE(readCubin(bytes, c));
  EXPECT_TRUE(c.mercury.empty());

  auto claimed = bytes;
  claimed[0x30] = kElfKindCapmerc; // capmerc without a capsule: what crashed nvlink
  Cubin bad;
  EXPECT_TRUE(readCubin(claimed, bad));

  MercurySection m;
  m.name = ".nv.merc.nv.info";
  m.type = 0x70000083;
  m.flags = SHF_CUDA_MERC;
  m.align = 4;
  m.data = {0x04, 0x2f, 0x00, 0x00};
  c.mercury.push_back(m);
  std::vector<uint8_t> out;
  ASSERT_FALSE(writeCubin(c, out));
  ASSERT_FALSE(parseElf(out, img));
  EXPECT_EQ(img.flags & 0xffu, kElfKindCapmerc);
  Cubin back;
  ASSERT_FALSE(readCubin(out, back));
  EXPECT_EQ(back.mercury.size(), 1u);
}

TEST(CubinBuilder, Sm80RelocatableUsesLegacyLayout) {
  CubinBuilder b(*Target::parse("sm_80"), ObjectKind::Relocatable);
  b.addKernel("k").setCode(fakeCode(0x80)).setRegisterCount(4).addExitOffset(0);
  auto bytes = b.finish();
  auto syms = symbolNames(bytes);
  // sm_8x: bank 0 is created with its function, with a _SREG symbol when there are no parameters.
  EXPECT_EQ(syms, (std::vector<std::string>{"", ".note.nv.tkinfo", ".note.nv.cuinfo", ".text.k", ".nv.constant0.k",
                                            "_SREG", ".nv.callgraph", "k"}));
  ElfImage img;
  ASSERT_FALSE(parseElf(bytes, img));
  EXPECT_EQ(img.flags, 0x06005004u);
  EXPECT_EQ(img.findSection(".nv.compat"), -1);
  EXPECT_EQ(img.sections[img.findSection(".nv.constant0.k")].type, SHT_CUDA_CONSTANT);
  EXPECT_EQ(img.sections[img.findSection(".text.k")].info >> 24, 4u); // register count in sh_info
}

// ---- oracle: ptxas ----

namespace {
std::string run(const std::string &cmd) {
  std::string out;
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return "popen failed";
  char buf[256];
  while (fgets(buf, sizeof buf, p)) out += buf;
  int rc = pclose(p);
  return rc == 0 ? std::string() : out.empty() ? "failed" : out;
}

std::vector<uint8_t> ptxasCubin(const std::string &ptx, const std::string &arch) {
  std::string out = std::string(OPTXAS_BINARY_DIR) + "/unit_elf_" + arch + ".cubin";
  std::string err = run("ptxas -arch=" + arch + " " + ptx + " -o " + out);
  EXPECT_EQ(err, "") << "ptxas (the oracle) must be on PATH";
  std::ifstream in(out, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// What differs, by meaning, and where the bytes first differ.
std::string explain(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
  std::string error, out;
  auto d = diffCubinFiles(a, b, {}, error);
  if (!d) return error;
  for (const auto &x : *d) out += x.str() + "\n";
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (a[i] != b[i]) return out + "first differing byte at " + std::to_string(i);
  return out + "sizes " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
}

// Rebuilds a single-kernel cubin from what a back end knows about it.
std::vector<uint8_t> rebuild(const Cubin &ref) {
  CubinBuilder b(ref.target, ref.kind);
  b.setToolIdentity(ref.toolkit.toolName, ref.toolkit.toolVersion, ref.toolkit.toolBranch, ref.toolkit.commandLine);
  b.setPtxTarget(ref.cudaNote.virtualSm);
  for (const auto &f : ref.functions) {
    auto &k = b.addKernel(f.name);
    k.setCode(f.code).setRegisterCount(f.registerCount).setFrameSize(f.frameSize);
    if (f.minStackSize) k.setStackSize(*f.minStackSize);
    for (const auto &p : f.params) k.addParamAt(p.offset, p.size, p.logAlign);
    if (const Attribute *e = f.find(NvInfoKind::EXIT_INSTR_OFFSETS))
      for (uint32_t o : e->words) k.addExitOffset(o);
  }
  for (const auto &d : ref.debugSections) b.addDebugSection(d);
  return b.finish();
}
} // namespace

TEST(CubinBuilderOracle, VecaddMatchesPtxasByteForByte) {
  // (sm_100+ cubins also carry Mercury sections, which are not the builder's to make.)
  for (const char *arch : {"sm_90", "sm_90a"}) {
    auto ref = ptxasCubin(std::string(OPTXAS_SOURCE_DIR) + "/examples/vecadd.ptx", arch);
    ASSERT_FALSE(ref.empty());
    Cubin c;
    ASSERT_FALSE(readCubin(ref, c));
    auto mine = rebuild(c);
    EXPECT_TRUE(mine == ref) << arch << "\n" << explain(ref, mine);
  }
}

TEST(CubinBuilderOracle, LocalMemoryKernelMatchesPtxas) {
  for (const char *arch : {"sm_80", "sm_89", "sm_90"}) {
    auto ref = ptxasCubin(std::string(OPTXAS_SOURCE_DIR) + "/tests/elf/inputs/local.ptx", arch);
    ASSERT_FALSE(ref.empty());
    Cubin c;
    ASSERT_FALSE(readCubin(ref, c));
    auto mine = rebuild(c);
    EXPECT_TRUE(mine == ref) << arch << "\n" << explain(ref, mine);
  }
}
