// Template part of NvInfoOrder.h.
#include <algorithm>

namespace optxas::elf {

inline uint32_t packKernelParamWord2(const KernelParam &p) {
  return p.logAlign | (p.space & 0xfu) << 8 | (p.cbank & 0x1fu) << 12 | (p.inSharedMemory ? 1u : 0u) << 17 |
         static_cast<uint32_t>(p.size) << 18;
}

template <typename SymbolIndexFn>
std::vector<NvInfoRecord> functionInfoRecords(const Target &target, const Function &f, uint32_t paramBankSymbol,
                                              SymbolIndexFn symbolIndex) {
  struct Ranked {
    int rank;
    size_t seq;
    NvInfoRecord rec;
  };
  std::vector<Ranked> all;
  auto push = [&](NvInfoKind k, NvInfoRecord r) { all.push_back({nvInfoRank(target, k), all.size(), std::move(r)}); };
  for (const auto &a : f.attributes) {
    NvInfoRecord r;
    r.format = a.format;
    r.kind = static_cast<uint8_t>(a.kind);
    r.value = a.value;
    if (a.format == NvInfoFormat::Sized) {
      std::vector<uint32_t> w = a.words;
      for (const auto &s : a.symbols) w.push_back(symbolIndex(s));
      r = NvInfoRecord::sized(r.kind, w);
    }
    push(a.kind, std::move(r));
  }
  // Parameters: ptxas lists them from the last ordinal to the first.
  std::vector<KernelParam> params = f.params;
  std::stable_sort(params.begin(), params.end(),
                   [](const KernelParam &a, const KernelParam &b) { return a.ordinal > b.ordinal; });
  for (const auto &p : params) {
    uint32_t w[3] = {p.index, static_cast<uint32_t>(p.ordinal) | static_cast<uint32_t>(p.offset) << 16,
                     packKernelParamWord2(p)};
    push(NvInfoKind::KPARAM_INFO, NvInfoRecord::sized(static_cast<uint8_t>(NvInfoKind::KPARAM_INFO), w));
  }
  if (f.paramBlockSize || !f.params.empty()) {
    push(NvInfoKind::CBANK_PARAM_SIZE,
         NvInfoRecord::half(static_cast<uint8_t>(NvInfoKind::CBANK_PARAM_SIZE), static_cast<uint16_t>(f.paramBlockSize)));
    uint32_t w[2] = {paramBankSymbol, target.paramBase() | f.paramBlockSize << 16};
    push(NvInfoKind::PARAM_CBANK, NvInfoRecord::sized(static_cast<uint8_t>(NvInfoKind::PARAM_CBANK), w));
  }
  std::stable_sort(all.begin(), all.end(), [](const Ranked &a, const Ranked &b) {
    return a.rank != b.rank ? a.rank < b.rank : a.seq < b.seq;
  });
  std::vector<NvInfoRecord> out;
  for (auto &r : all) out.push_back(std::move(r.rec));
  return out;
}

} // namespace optxas::elf
