// Parameters: kernel parameters in constant bank 0 (c[0x0][0x210 + offset] on sm_90) and the
// register calling convention of .func parameters and results (docs/abi.md).
#include <algorithm>

#include "ModuleLowering.h"
#include "Passes.h"

namespace optxas::lower {

namespace {

constexpr uint32_t kFirstArgReg = 4;     // R4..R15 carry parameters and results
constexpr uint32_t kArgRegs = 12;

uint32_t alignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// Assigns registers R4..R15 first-fit (lowest free aligned run) in declaration order; a value
// that does not fit is passed on the stack, at offsets in order with natural alignment (at least
// 4 bytes each).
void assign(std::span<ptx::Variable *const> vars, std::vector<CallLayout::Slot> &out, uint32_t &stackBytes) {
  bool used[kArgRegs] = {};
  for (const ptx::Variable *v : vars) {
    uint32_t bytes = static_cast<uint32_t>(v->sizeInBytes());
    uint32_t words = std::max<uint32_t>(1, (bytes + 3) / 4);
    uint32_t align = std::clamp<uint32_t>(v->alignment() / 4, 1, 4);
    if (words == 2 && align < 2) align = 2;
    CallLayout::Slot s;
    s.var = v;
    s.words = words;
    bool placed = false;
    for (uint32_t r = 0; r + words <= kArgRegs && !placed; r += align) {
      bool free = std::none_of(used + r, used + r + words, [](bool b) { return b; });
      if (!free) continue;
      std::fill(used + r, used + r + words, true);
      s.firstReg = kFirstArgReg + r;
      placed = true;
    }
    if (!placed) {
      uint32_t a = std::max<uint32_t>(4, v->alignment());
      s.onStack = true;
      s.stackOffset = alignUp(stackBytes, a);
      stackBytes = s.stackOffset + std::max<uint32_t>(4, alignUp(bytes, 4));
    }
    out.push_back(s);
  }
}

} // namespace

CallLayout ModuleLowering::layoutOf(std::span<ptx::Variable *const> params, std::span<ptx::Variable *const> results) {
  CallLayout l;
  assign(params, l.params, l.stackBytes);
  uint32_t resultStack = 0;
  assign(results, l.results, resultStack);
  l.resultsInRegisters = resultStack == 0;
  return l;
}

const CallLayout &ModuleLowering::callLayout(const ptx::Function *f) {
  auto it = layouts_.find(f);
  if (it != layouts_.end()) return it->second;
  return layouts_.emplace(f, layoutOf(f->params, f->results)).first->second;
}

void setupParams(LowerCtx &cx) {
  const ptx::Function &pf = cx.ptxFunction();
  ori::FunctionAttrs &a = cx.fn().attrs;
  if (pf.isEntry) {
    uint32_t off = 0;
    a.paramBase = cx.bank().paramBase;
    for (const ptx::Variable *v : pf.params) {
      uint32_t align = std::max<uint32_t>(v->alignment(), 1);
      off = alignUp(off, align);
      ori::ParamInfo p;
      p.name = std::string(v->name.str());
      p.offset = off;
      p.size = static_cast<uint32_t>(v->sizeInBytes());
      p.align = align;
      p.isPointer = v->isPtr;
      if (v->isPtr) {
        switch (v->ptrSpace) {
        case ptx::StateSpace::Global:
        case ptx::StateSpace::Const: p.pointeeSpace = 4; break;
        case ptx::StateSpace::Shared:
        case ptx::StateSpace::SharedCta: p.pointeeSpace = 2; break;
        case ptx::StateSpace::Local: p.pointeeSpace = 1; break;
        default: p.pointeeSpace = 5; break;
        }
        for (uint32_t a = v->ptrAlign; a > 1; a >>= 1) ++p.pointeeLogAlign;
      }
      a.params.push_back(p);
      ParamHome h;
      h.kind = ParamHome::KernelCBank;
      h.cbankOffset = a.paramBase + off;
      cx.setParamHome(v, h);
      off += p.size;
    }
    a.paramBytes = off;
    return;
  }
  // .func: parameters arrive in R4..R15 (PSEUDO_PARAM defines their precolored registers) or in
  // the caller's frame (the incoming-argument area).
  const CallLayout &l = cx.moduleLowering().callLayout(&pf);
  if (!l.resultsInRegisters) {
    cx.error("results that do not fit in registers R4..R15 are not yet supported by optxas");
    return;
  }
  // Each parameter is copied out of its precolored register right at entry, and each result is
  // assembled in ordinary registers that RET copies into place (ControlFlow.cpp), so that the
  // precolored live ranges stay as short as possible.
  auto info = [](const CallLayout::Slot &s) {
    ori::ParamInfo p;
    p.name = std::string(s.var->name.str());
    p.offset = s.onStack ? s.stackOffset : s.firstReg;   // .func: first register / stack offset
    p.size = static_cast<uint32_t>(s.var->sizeInBytes());
    p.align = std::max<uint32_t>(s.var->alignment(), 1);
    return p;
  };
  for (const CallLayout::Slot &s : l.params) {
    a.params.push_back(info(s));
    if (s.onStack) {
      ParamHome h;
      h.kind = ParamHome::Stack;
      h.stackOffset = s.stackOffset;
      cx.setParamHome(s.var, h);
      continue;
    }
    const ParamHome *h = cx.setParamHome(s.var, cx.registerHome(s.var->sizeInBytes()));
    VRegId pre = cx.fn().newVReg(RegClass::R, s.words, 1);
    cx.fn().vreg(pre).phys = static_cast<int32_t>(s.firstReg);
    cx.builder().create(Opcode::PSEUDO_PARAM, {cx.whole(pre)}, {});
    for (unsigned w = 0; w < s.words && w < h->words.size(); ++w)
      cx.builder().create(Opcode::PSEUDO_COPY, {cx.whole(h->words[w])}, {s.words == 1 ? cx.whole(pre) : cx.part(pre, w)});
  }
  for (const CallLayout::Slot &s : l.results) {
    a.results.push_back(info(s));
    const ParamHome *h = cx.setParamHome(s.var, cx.registerHome(s.var->sizeInBytes()));
    cx.funcResults().push_back({h, s.firstReg, s.words});
  }
}

} // namespace optxas::lower
