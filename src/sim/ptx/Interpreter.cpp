// The interpreter's public face and its scheduler: CTAs one after another, the threads of a CTA
// round-robin (see Machine.h for the model).
#include "optxas/sim/PtxInterpreter.h"

#include <cstring>

#include <fmt/format.h>

#include "Decoder.h"
#include "Machine.h"

namespace optxas::sim {

using namespace ptxi;

struct PtxInterpreter::Impl {
  const ptx::Module &module;
  GlobalMemory &mem;
  PtxInterpreterOptions opts;
  Program prog;
  uint32_t moduleLocalBytes = 0;
  std::vector<Thread> threadPool;   // reused across CTAs and launches
  std::vector<uint64_t> heap;       // device malloc allocations still live

  Impl(const ptx::Module &m, GlobalMemory &g, PtxInterpreterOptions o) : module(m), mem(g), opts(o) {}

  const DFunction *kernel(std::string_view name) const {
    for (const auto &f : prog.functions)
      if (f->isKernel && (name.empty() || f->name == name)) return f.get();
    return nullptr;
  }

  LaunchResult launch(std::string_view name, const LaunchConfig &cfg, const LaunchLimits &limits);
  void setupCta(Machine &m, Dim3 ctaid);
  void runCta(Machine &m, const LaunchLimits &limits);
};

PtxInterpreter::PtxInterpreter(const ptx::Module &module, GlobalMemory &memory,
                               PtxInterpreterOptions opts)
    : impl_(std::make_unique<Impl>(module, memory, opts)) {
  Program &p = impl_->prog;
  for (const ptx::Function *f : module.functions) {
    if (!f->isDefinition || p.byAst.count(f)) continue;
    auto d = std::make_unique<DFunction>();
    d->fn = f;
    d->name = std::string(f->name.str());
    d->isKernel = f->isEntry;
    d->index = uint32_t(p.functions.size());
    p.byAst[f] = d.get();
    p.functions.push_back(std::move(d));
  }
  Decoder dec(module, p, memory, opts.map);
  dec.layoutModule();
  dec.decodeAll();
  impl_->moduleLocalBytes = dec.moduleLocalBytes();
}

PtxInterpreter::~PtxInterpreter() = default;

std::vector<std::string> PtxInterpreter::kernelNames() const {
  std::vector<std::string> names;
  for (const auto &f : impl_->prog.functions)
    if (f->isKernel) names.push_back(f->name);
  return names;
}

std::optional<std::vector<ParamSlot>> PtxInterpreter::kernelParams(std::string_view kernel) const {
  const DFunction *k = impl_->kernel(kernel);
  if (!k) return std::nullopt;
  return Decoder::kernelParamSlots(*k->fn);
}

uint64_t PtxInterpreter::globalAddress(std::string_view name) const {
  for (const auto &[v, a] : impl_->prog.varAddress)
    if (v->space == ptx::StateSpace::Global && v->name.str() == name) return a;
  return 0;
}

std::vector<std::string> PtxInterpreter::unsupported() const {
  std::vector<std::string> out;
  for (const auto &f : impl_->prog.functions)
    for (const DOp &op : f->code)
      if (op.op == XOp::Unsupported)
        out.push_back(fmt::format("{}: line {}: {}", f->name, op.src ? op.src->loc.line : 0,
                                  impl_->prog.messages[op.aux]));
  return out;
}

LaunchResult PtxInterpreter::launch(std::string_view kernel, const LaunchConfig &cfg,
                                    const LaunchLimits &limits) {
  return impl_->launch(kernel, cfg, limits);
}

// ------------------------------------------------------------------------------------------

LaunchResult PtxInterpreter::Impl::launch(std::string_view name, const LaunchConfig &cfg,
                                          const LaunchLimits &limits) {
  LaunchResult res;
  auto invalid = [&](std::string msg) {
    res.fault.kind = FaultKind::InvalidLaunch;
    res.fault.message = std::move(msg);
    return res;
  };
  const DFunction *k = kernel(name);
  if (!k) return invalid(fmt::format("no kernel named '{}'", name));
  uint64_t threads = cfg.block.count();
  if (threads == 0 || threads > 1024 || cfg.block.z > 64)
    return invalid(fmt::format("block ({},{},{}) is not a valid CTA shape", cfg.block.x, cfg.block.y, cfg.block.z));
  if (cfg.grid.count() == 0 || cfg.grid.y > 65535 || cfg.grid.z > 65535)
    return invalid(fmt::format("grid ({},{},{}) is not valid", cfg.grid.x, cfg.grid.y, cfg.grid.z));
  if (prog.staticShared + uint64_t(cfg.dynamicSharedBytes) > 228 * 1024)
    return invalid(fmt::format("{} bytes of shared memory exceed 228 KiB",
                               prog.staticShared + uint64_t(cfg.dynamicSharedBytes)));
  auto slots = Decoder::kernelParamSlots(*k->fn);
  uint64_t need = 0;
  for (const ParamSlot &s : slots) need = std::max<uint64_t>(need, s.offset + s.size);
  if (cfg.params.size() < need)
    return invalid(fmt::format("the parameter block has {} bytes, the kernel needs {}",
                               cfg.params.size(), need));

  Machine m(prog, mem, cfg);
  m.map = opts.map;
  m.limits = limits;
  m.kernel = k;
  m.moduleLocalBytes = moduleLocalBytes;
  m.quantum = opts.quantum ? opts.quantum : 256;
  m.paramSize = need;
  m.paramBase = mem.allocate(need ? need : 1, ".param", 256, /*readOnly=*/true);
  if (need) std::memcpy(mem.bytes(m.paramBase).data(), cfg.params.data(), need);
  m.cta.threads.swap(threadPool);
  m.heap = &heap;

  for (uint32_t z = 0; z < cfg.grid.z && !m.faulted(); ++z)
    for (uint32_t y = 0; y < cfg.grid.y && !m.faulted(); ++y)
      for (uint32_t x = 0; x < cfg.grid.x && !m.faulted(); ++x) {
        setupCta(m, {x, y, z});
        runCta(m, limits);
      }

  m.cta.threads.swap(threadPool);
  mem.release(m.paramBase);
  res.fault = m.fault;
  res.instructions = m.instructions;
  res.printed = std::move(m.printed);
  return res;
}

void PtxInterpreter::Impl::setupCta(Machine &m, Dim3 ctaid) {
  const Dim3 &b = m.cfg.block;
  uint32_t n = uint32_t(b.count());
  Cta &c = m.cta;
  c.ctaid = ctaid;
  c.shared.assign(prog.staticShared + m.cfg.dynamicSharedBytes, 0);
  for (Barrier &B : c.bars) B = Barrier{};
  uint32_t nw = (n + 31) / 32;
  c.warps.assign(nw, Warp{});
  for (uint32_t w = 0; w < nw; ++w) {
    c.warps[w].first = w * 32;
    uint32_t lanes = std::min<uint32_t>(32, n - w * 32);
    c.warps[w].lanes = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  }
  c.threads.resize(n);
  const DFunction &k = *m.kernel;
  uint32_t base = (m.moduleLocalBytes + 15) / 16 * 16;
  for (uint32_t i = 0; i < n; ++i) {
    Thread &t = c.threads[i];
    t.linear = i;
    t.tid = {i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
    t.lane = i % 32;
    t.warp = i / 32;
    t.state = TState::Ready;
    t.cc = 0;
    t.clock = 0;
    t.coll = nullptr;
    t.clusterPhase = 0;
    t.regs.assign(k.initialRegs.begin(), k.initialRegs.end());
    t.frames.clear();
    Frame f;
    f.fn = &k;
    f.localBase = base;
    t.frames.push_back(f);
    t.localTop = base + k.frameBytes;
    t.local.assign(t.localTop, 0);
  }
  c.live = n;
  c.clusterArrived = c.clusterPhase = 0;
  c.clusterWaiting.clear();
}

void PtxInterpreter::Impl::runCta(Machine &m, const LaunchLimits &limits) {
  Cta &c = m.cta;
  while (c.live > 0) {
    bool progress = false;
    for (Thread &t : c.threads) {
      if (t.state != TState::Ready) continue;
      runThread(m, t, m.quantum);
      progress = true;
      if (m.faulted()) return;
      if (m.instructions > limits.maxInstructions) {
        m.raise(FaultKind::StepLimit, t, nullptr,
                fmt::format("more than {} instructions executed", limits.maxInstructions));
        return;
      }
    }
    if (c.live == 0) break;
    if (!progress) {
      if (resolveImplicitCollectives(m)) continue;
      for (const Thread &t : c.threads)
        if (t.state == TState::AtBarrier || t.state == TState::AtCollective) {
          m.raise(FaultKind::Deadlock, t, nullptr, describeWait(m, t));
          return;
        }
      return;
    }
  }
}

} // namespace optxas::sim
