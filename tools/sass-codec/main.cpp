// sass-codec: the SASS machine-code layer on the command line.
//
//   sass-codec decode FILE           disassemble a cubin (.text.* sections) or a raw .bin
//   sass-codec encode "TEXT" [--pc N] [--ctrl STALL,YIELD,WBAR,RBAR,WAIT]
//                                    assemble one instruction, print its two 64-bit words
//   sass-codec roundtrip FILE.bin    per instruction: address, status, our text (for the
//                                    decode oracle test); status OK / DECODE / REENCODE
//   sass-codec sample SEED N OUT.bin OUT.txt
//                                    N random instances of every form, encoded, with our text
//   sass-codec forms                 list every encodable form
//   (--arch SM100|SM120 before the command selects a Blackwell table)
#include "CubinText.h"

#include "optxas/sass/Codec.h"
#include "optxas/sass/Sampler.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

using namespace optxas::sass;

namespace {

// The architecture every command works on (--arch SM100 / SM120; sm_90 by default).
Target gTarget = Target::SM90;

int usage() {
  std::fprintf(stderr,
               "usage: sass-codec [--arch SM80|SM86|SM89|SM90|SM100|SM120] COMMAND ...\n"
               "       sass-codec decode FILE.cubin|FILE.bin\n"
               "       sass-codec encode \"TEXT\" [--pc N] [--ctrl S,Y,W,R,M]\n"
               "       sass-codec roundtrip FILE.bin\n"
               "       sass-codec sample SEED N OUT.bin OUT.txt\n"
               "       sass-codec forms\n");
  return 2;
}

void printListing(const std::vector<uint8_t> &bytes) {
  auto insts = decodeSection(bytes.data(), bytes.size(), gTarget);
  for (size_t i = 0; i < insts.size(); ++i) {
    uint64_t pc = i * 16;
    Word w{0, 0};
    std::memcpy(&w[0], bytes.data() + pc, 8);
    std::memcpy(&w[1], bytes.data() + pc + 8, 8);
    std::string text;
    if (insts[i]) {
      TextResult t = print(insts[i].inst, gTarget, pc);
      text = t ? t.text : "<print error: " + t.error + ">";
    } else {
      text = "<decode error: " + insts[i].error + ">";
    }
    std::printf("        /*%04" PRIx64 "*/  %-60s /* 0x%016" PRIx64 " 0x%016" PRIx64 " */\n", pc,
                text.c_str(), w[0], w[1]);
  }
}

int cmdDecode(const char *path) {
  std::vector<uint8_t> data;
  if (!sasscodec::readFile(path, data)) {
    std::fprintf(stderr, "sass-codec: cannot read %s\n", path);
    return 1;
  }
  if (data.size() >= 4 && std::memcmp(data.data(), "\x7f" "ELF", 4) == 0) {
    std::vector<sasscodec::TextSection> secs;
    std::string err;
    if (!sasscodec::readTextSections(data, secs, err)) {
      std::fprintf(stderr, "sass-codec: %s: %s\n", path, err.c_str());
      return 1;
    }
    for (const auto &s : secs) {
      std::printf("// %s\n", s.name.c_str());
      printListing(s.bytes);
    }
  } else {
    printListing(data);
  }
  return 0;
}

int cmdEncode(int argc, char **argv) {
  if (argc < 1)
    return usage();
  uint64_t pc = 0;
  Control ctrl;
  bool haveCtrl = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--pc") && i + 1 < argc) {
      pc = std::strtoull(argv[++i], nullptr, 0);
    } else if (!std::strcmp(argv[i], "--ctrl") && i + 1 < argc) {
      unsigned s, y, wb, rb, wt;
      if (std::sscanf(argv[++i], "%u,%u,%u,%u,%u", &s, &y, &wb, &rb, &wt) != 5)
        return usage();
      ctrl = Control{uint8_t(s), y != 0, uint8_t(wb), uint8_t(rb), uint8_t(wt)};
      haveCtrl = true;
    } else {
      return usage();
    }
  }
  ParseResult p = parse(argv[0], gTarget, pc);
  if (!p) {
    std::fprintf(stderr, "sass-codec: %s\n", p.error.c_str());
    return 1;
  }
  if (haveCtrl)
    p.inst.ctrl = ctrl;
  EncodeResult e = encode(p.inst, gTarget);
  if (!e) {
    std::fprintf(stderr, "sass-codec: %s\n", e.error.c_str());
    return 1;
  }
  TextResult t = print(p.inst, gTarget, pc);
  std::printf("0x%016" PRIx64 " 0x%016" PRIx64 "  %s\n", e.bits[0], e.bits[1], t.text.c_str());
  return 0;
}

int cmdRoundtrip(const char *path) {
  std::vector<uint8_t> data;
  if (!sasscodec::readFile(path, data)) {
    std::fprintf(stderr, "sass-codec: cannot read %s\n", path);
    return 1;
  }
  auto insts = decodeSection(data.data(), data.size(), gTarget);
  for (size_t i = 0; i < insts.size(); ++i) {
    uint64_t pc = i * 16;
    if (!insts[i]) {
      std::printf("%" PRIx64 "\tDECODE\t%s\n", pc, insts[i].error.c_str());
      continue;
    }
    Word w{0, 0};
    std::memcpy(&w[0], data.data() + pc, 8);
    std::memcpy(&w[1], data.data() + pc + 8, 8);
    EncodeResult e = encode(insts[i].inst, gTarget);
    TextResult t = print(insts[i].inst, gTarget, pc);
    if (!t) {
      std::printf("%" PRIx64 "\tPRINT\t%s\n", pc, t.error.c_str());
      continue;
    }
    if (!e || e.bits != w) {
      std::printf("%" PRIx64 "\tREENCODE\t%s\t%s\n", pc, t.text.c_str(),
                  e ? "bits differ" : e.error.c_str());
      continue;
    }
    // The text must parse back to an Inst that encodes identically (lossy spellings aside).
    ParseResult p = parse(t.text, gTarget, pc);
    const char *parseStatus = "PARSE_OK";
    if (!p) {
      parseStatus = "PARSE_FAIL";
    } else {
      p.inst.ctrl = insts[i].inst.ctrl;
      for (size_t k = 0; k < p.inst.ops.size() && k < insts[i].inst.ops.size(); ++k)
        p.inst.ops[k].reuse = insts[i].inst.ops[k].reuse;
      EncodeResult e2 = encode(p.inst, gTarget);
      if (!e2)
        parseStatus = "PARSE_DIFF";
      else if (e2.bits != w)
        // Different bits with identical text: nvdisasm's spelling is ambiguous here.
        parseStatus = print(p.inst, gTarget, pc).text == t.text ? "PARSE_AMBIG" : "PARSE_DIFF";
    }
    std::printf("%" PRIx64 "\tOK\t%s\t%s\n", pc, t.text.c_str(), parseStatus);
  }
  return 0;
}

int cmdSample(int argc, char **argv) {
  if (argc != 4)
    return usage();
  uint64_t seed = std::strtoull(argv[0], nullptr, 0);
  unsigned n = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 0));
  std::ofstream bin(argv[2], std::ios::binary), txt(argv[3]);
  if (!bin || !txt)
    return usage();
  auto samples = sampleForms(gTarget, seed, n);
  uint64_t pc = 0;
  int bad = 0;
  for (const Sample &s : samples) {
    EncodeResult e = encode(s.inst, gTarget);
    TextResult t = print(s.inst, gTarget, pc);
    if (!e || !t) {
      std::fprintf(stderr, "sass-codec: sample of %s: %s%s\n", s.form.c_str(), e.error.c_str(),
                   t.error.c_str());
      ++bad;
      continue;
    }
    DecodeResult d = decode(e.bits, gTarget);
    const char *rt = !d ? "DECODE_FAIL" : d.inst == s.inst ? "RT_OK" : "RT_DIFF";
    ParseResult p = parse(t.text, gTarget, pc);
    const char *pt = "PARSE_FAIL";
    if (p) {
      p.inst.ctrl = s.inst.ctrl;
      for (size_t k = 0; k < p.inst.ops.size() && k < s.inst.ops.size(); ++k)
        p.inst.ops[k].reuse = s.inst.ops[k].reuse;
      EncodeResult e2 = encode(p.inst, gTarget);
      pt = e2 && e2.bits == e.bits                           ? "PARSE_OK"
           : e2 && print(p.inst, gTarget, pc).text == t.text ? "PARSE_AMBIG"
                                                               : "PARSE_DIFF";
    }
    bin.write(reinterpret_cast<const char *>(&e.bits[0]), 8);
    bin.write(reinterpret_cast<const char *>(&e.bits[1]), 8);
    txt << t.text << '\t' << s.form << '\t' << rt << '\t' << pt << '\n';
    pc += 16;
  }
  return bad ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc >= 3 && !std::strcmp(argv[1], "--arch")) {
    std::string a = argv[2];
    if (a == "SM90") gTarget = Target::SM90;
    else if (a == "SM80") gTarget = Target::SM80;
    else if (a == "SM86") gTarget = Target::SM86;
    else if (a == "SM89") gTarget = Target::SM89;
    else if (a == "SM100") gTarget = Target::SM100;
    else if (a == "SM120") gTarget = Target::SM120;
    else return usage();
    argc -= 2;
    argv += 2;
  }
  if (argc < 2)
    return usage();
  std::string cmd = argv[1];
  if (cmd == "decode" && argc == 3)
    return cmdDecode(argv[2]);
  if (cmd == "encode")
    return cmdEncode(argc - 2, argv + 2);
  if (cmd == "roundtrip" && argc == 3)
    return cmdRoundtrip(argv[2]);
  if (cmd == "sample")
    return cmdSample(argc - 2, argv + 2);
  if (cmd == "forms") {
    for (const std::string &f : describeForms(gTarget))
      std::printf("%s\n", f.c_str());
    return 0;
  }
  return usage();
}
