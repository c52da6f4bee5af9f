// ori-cubin: compile Ori IR text (the form DUMPIR prints) to a cubin with the back half of the
// pipeline: the phase schedule (allocation, control bits, encoding) and the cubin writer.
// It lets tests and engineers exercise the back end on hand-written kernels, independently of
// PTX lowering.
//
// usage: ori-cubin IN.ori -o OUT.cubin [-v] [--warn-on-spills] [-maxrregcount N] [-knob K=V]...
//                  [-params SIZE,SIZE,...]
// The IR text has no parameter declarations: -params gives the kernel parameters' sizes in
// bytes (naturally aligned, from c[0x0][0x210]) for every entry function.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "optxas/api/OriBackEnd.h"
#include "optxas/ori/Parser.h"

using namespace optxas;

int main(int argc, char **argv) {
  api::Options opts;
  opts.arch.number = 90;
  std::string in, out, params;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "-o") out = next();
    else if (a == "-v") opts.verbose = true;
    else if (a == "--warn-on-spills") opts.warnOnSpills = true;
    else if (a == "-maxrregcount") {
      opts.maxrregcount.kind = api::RegLimit::Number;
      opts.maxrregcount.value = static_cast<uint32_t>(std::stoul(next()));
    } else if (a == "-knob") {
      std::string kv = next();
      size_t eq = kv.find('=');
      opts.knobs.push_back({kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1)});
    } else if (a == "-c") opts.compileOnly = true;
    else if (a == "-params") params = next();
    else if (!a.empty() && a[0] != '-') in = a;
    else {
      std::fprintf(stderr, "ori-cubin: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (in.empty() || out.empty()) {
    std::fprintf(stderr, "usage: ori-cubin IN.ori -o OUT.cubin [-v] [-maxrregcount N] [-knob K=V]\n");
    return 2;
  }
  std::ifstream f(in);
  if (!f) {
    std::fprintf(stderr, "ori-cubin: cannot read %s\n", in.c_str());
    return 2;
  }
  std::string text{std::istreambuf_iterator<char>(f), {}};
  DiagEngine diags;
  auto mod = ori::parseModule(text, diags, in);
  if (!mod) return 1;
  opts.arch.number = mod->smVersion();
  if (!params.empty()) {
    std::vector<uint32_t> sizes;
    for (size_t p = 0; p < params.size();) {
      size_t comma = params.find(',', p);
      sizes.push_back(static_cast<uint32_t>(std::stoul(params.substr(p, comma - p))));
      p = comma == std::string::npos ? params.size() : comma + 1;
    }
    for (const auto &f : mod->functions()) {
      if (!f->isEntry()) continue;
      uint32_t off = 0;
      for (size_t k = 0; k < sizes.size(); ++k) {
        ori::ParamInfo pi;
        pi.name = f->name() + "_param_" + std::to_string(k);
        pi.size = sizes[k];
        pi.align = sizes[k] >= 8 ? 8 : sizes[k];
        off = (off + pi.align - 1) / pi.align * pi.align;
        pi.offset = off;
        off += sizes[k];
        f->attrs.params.push_back(pi);
      }
      f->attrs.paramBytes = off;
      f->attrs.paramBase = 0x210;
    }
  }
  std::vector<uint8_t> cubin;
  if (!api::compileOriModule(*mod, opts, diags, cubin) || diags.hasErrors()) return 1;
  std::string tmp = out + ".tmp";
  {
    std::ofstream o(tmp, std::ios::binary);
    o.write(reinterpret_cast<const char *>(cubin.data()), static_cast<std::streamsize>(cubin.size()));
    if (!o) return 1;
  }
  return std::rename(tmp.c_str(), out.c_str()) == 0 ? 0 : 1;
}
