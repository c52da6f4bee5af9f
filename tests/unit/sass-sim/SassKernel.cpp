#include "SassKernel.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include <fmt/format.h>

#include "optxas/elf/CubinBuilder.h"
#include "optxas/sass/Codec.h"

namespace optxas::sim::test {

namespace {

// Splits "{S4 W0 R- M03 Y} INSTR" into control bits and the instruction text.
bool splitControl(const std::string &line, sass::Control &c, std::string &text, std::string &err) {
  c = sass::Control{};
  text = line;
  if (line.empty() || line[0] != '{') return true;
  size_t close = line.find('}');
  if (close == std::string::npos) {
    err = "unclosed control bits: " + line;
    return false;
  }
  std::istringstream in(line.substr(1, close - 1));
  for (std::string tok; in >> tok;) {
    char k = tok[0];
    std::string v = tok.substr(1);
    auto num = [&](int base) { return v == "-" ? 7 : int(std::stoul(v, nullptr, base)); };
    if (k == 'S') c.stall = uint8_t(num(10));
    else if (k == 'W') c.wbar = uint8_t(num(10));
    else if (k == 'R') c.rbar = uint8_t(num(10));
    else if (k == 'M') c.wait = uint8_t(num(16));
    else if (k == 'Y') c.yield = true;
    else {
      err = "bad control token " + tok;
      return false;
    }
  }
  text = line.substr(close + 1);
  return true;
}

} // namespace

// Resolves labels: a line "name:" marks the next instruction; "%name" in an instruction is
// replaced by that instruction's byte address.
std::vector<std::string> resolveLabels(const std::vector<std::string> &lines, std::string &err) {
  std::vector<std::pair<std::string, size_t>> labels;
  std::vector<std::string> insts;
  for (const std::string &l : lines) {
    if (!l.empty() && l.back() == ':') labels.emplace_back(l.substr(0, l.size() - 1), insts.size());
    else insts.push_back(l);
  }
  // Longest names first, so that %loop2 is not taken for %loop.
  std::sort(labels.begin(), labels.end(),
            [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
  for (std::string &inst : insts) {
    for (const auto &[name, idx] : labels) {
      std::string key = "%" + name;
      for (size_t pos; (pos = inst.find(key)) != std::string::npos;)
        inst.replace(pos, key.size(), fmt::format("{:#x}", 16 * idx));
    }
    if (inst.find('%') != std::string::npos) err = "unknown label in: " + inst;
  }
  return insts;
}

std::vector<uint8_t> assemble(const SassKernel &k, std::string &error) {
  std::vector<uint8_t> code;
  std::vector<uint32_t> exits;
  std::vector<std::string> lines = resolveLabels(k.lines, error);
  if (!error.empty()) return {};
  const auto target = elf::Target::parse(k.arch);
  if (!target) {
    error = "unknown arch " + k.arch;
    return {};
  }
  const auto arch = static_cast<sass::Target>(target->sm);
  const bool ampere = target->sm < 90;
  for (size_t i = 0; i < lines.size(); ++i) {
    sass::Control ctrl;
    std::string text;
    if (!splitControl(lines[i], ctrl, text, error)) return {};
    auto p = sass::parse(text, arch, 16 * i);
    if (!p) {
      error = fmt::format("line {} '{}': {}", i, text, p.error);
      return {};
    }
    p.inst.ctrl = ctrl;
    auto enc = sass::encode(p.inst, arch);
    if (!enc) {
      error = fmt::format("line {} '{}': {}", i, text, enc.error);
      return {};
    }
    if (p.inst.op == isa::Opcode::EXIT) exits.push_back(uint32_t(16 * i));
    uint8_t bytes[16];
    std::memcpy(bytes, &enc.bits[0], 8);
    std::memcpy(bytes + 8, &enc.bits[1], 8);
    code.insert(code.end(), bytes, bytes + 16);
  }
  elf::CubinBuilder b(*target, elf::ObjectKind::Executable);
  auto &f = b.addKernel("k");
  f.setCode(code).setRegisterCount(k.registers);
  for (uint32_t s : k.paramSizes) f.addParam(s, s);
  for (uint32_t e : exits) f.addExitOffset(e);
  if (k.sharedBytes) f.setSharedMemory((ampere ? 0 : 0x400) + k.sharedBytes, 16, true);
  if (k.minStackSize) f.setStackSize(k.minStackSize);
  try {
    return b.finish();
  } catch (const std::exception &ex) {
    error = ex.what();
    return {};
  }
}

SassRun runSass(const SassKernel &k, unsigned outWords, Dim3 block, bool timing,
                std::vector<uint32_t> init, std::vector<uint32_t> scalars, Dim3 grid) {
  SassRun run;
  std::vector<uint8_t> cubin = assemble(k, run.error);
  if (cubin.empty()) return run;
  GlobalMemory mem;
  SassSimOptions opts;
  opts.timing = timing;
  SassSimulator sim(cubin, mem, opts);
  if (!sim.loadError().empty()) {
    run.error = sim.loadError();
    return run;
  }
  auto slots = sim.kernelParams("k");
  if (!slots || slots->size() != 1 + scalars.size()) {
    run.error = "parameter layout does not match";
    return run;
  }
  uint64_t buf = mem.allocate(outWords * 4, "out");
  init.resize(outWords, 0);
  std::memcpy(mem.bytes(buf).data(), init.data(), outWords * 4);
  LaunchConfig cfg;
  cfg.grid = grid;
  cfg.block = block;
  setParam(cfg.params, (*slots)[0], &buf, 8);
  for (size_t i = 0; i < scalars.size(); ++i) setParam(cfg.params, (*slots)[i + 1], &scalars[i], 4);
  run.result = sim.launch("k", cfg);
  run.out.resize(outWords);
  std::memcpy(run.out.data(), mem.bytes(buf).data(), outWords * 4);
  run.hazards = sim.hazards();
  run.hazardCount = sim.hazardCount();
  return run;
}

} // namespace optxas::sim::test
