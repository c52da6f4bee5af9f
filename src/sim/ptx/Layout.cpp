// Module data layout for the interpreter: .global variables become global allocations, .const
// variables share one read-only allocation, static .shared variables get offsets in the CTA's
// shared array (dynamic `.extern .shared` arrays start after them), module .local variables
// sit at the bottom of every thread's local stack. Initializers are written here.
#include "Decoder.h"

#include <cstring>

namespace optxas::sim::ptxi {

using namespace optxas::ptx;

namespace {

uint64_t alignUp(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

bool isDynamicShared(const Variable &v) {
  return (v.space == StateSpace::Shared || v.space == StateSpace::SharedCta) &&
         v.sizeInBytes() == 0;
}

bool isShared(StateSpace s) {
  return s == StateSpace::Shared || s == StateSpace::SharedCta || s == StateSpace::SharedCluster;
}

// Every variable that lives in module data: module scope, and .global/.const/.shared declared in
// function bodies (those are static too).
template <class Fn> void forEachStaticVar(const Module &m, Fn fn) {
  for (const Variable *v : m.globals) fn(*v);
  for (const Function *f : m.functions) {
    if (!f->isDefinition) continue;
    for (const Variable *v : f->locals)
      if (v->space == StateSpace::Global || v->space == StateSpace::Const || isShared(v->space))
        fn(*v);
  }
}

} // namespace

std::vector<ParamSlot> Decoder::kernelParamSlots(const Function &f) {
  std::vector<ParamSlot> slots;
  uint32_t off = 0;
  for (const Variable *v : f.params) {
    ParamSlot s;
    s.name = std::string(v->name.str());
    s.align = v->alignment();
    s.size = uint32_t(v->sizeInBytes());
    off = uint32_t(alignUp(off, s.align));
    s.offset = off;
    off += s.size;
    slots.push_back(std::move(s));
  }
  return slots;
}

void Decoder::layoutModule() {
  // Pass 1: addresses.
  uint64_t constOff = 0, sharedOff = 0;
  uint32_t sharedAlign = 16;
  std::vector<const Variable *> globals, consts, dynShared;
  forEachStaticVar(m_, [&](const Variable &v) {
    if (p_.varAddress.count(&v)) return;
    uint64_t size = v.sizeInBytes();
    uint32_t align = v.alignment();
    switch (v.space) {
    case StateSpace::Global:
      p_.varAddress[&v] = mem_.allocate(size ? size : 1, std::string(v.name.str()), align);
      globals.push_back(&v);
      break;
    case StateSpace::Const:
      constOff = alignUp(constOff, align);
      p_.varAddress[&v] = constOff;
      constOff += size;
      consts.push_back(&v);
      break;
    case StateSpace::Shared: case StateSpace::SharedCta: case StateSpace::SharedCluster:
      if (align > sharedAlign) sharedAlign = align;
      if (isDynamicShared(v)) {
        dynShared.push_back(&v);
      } else {
        sharedOff = alignUp(sharedOff, align);
        p_.varAddress[&v] = sharedOff;
        sharedOff += size;
      }
      break;
    case StateSpace::Local:
      if (!v.owner) {
        moduleLocalBytes_ = uint32_t(alignUp(moduleLocalBytes_, align));
        moduleLocalOffset_[&v] = moduleLocalBytes_;
        moduleLocalBytes_ += uint32_t(size);
      }
      break;
    default: break;
    }
  });
  for (const Variable *v : m_.globals)
    if (v->space == StateSpace::Local && !moduleLocalOffset_.count(v)) {
      moduleLocalBytes_ = uint32_t(alignUp(moduleLocalBytes_, v->alignment()));
      moduleLocalOffset_[v] = moduleLocalBytes_;
      moduleLocalBytes_ += uint32_t(v->sizeInBytes());
    }
  p_.sharedAlign = sharedAlign;
  p_.staticShared = uint32_t(alignUp(sharedOff, sharedAlign));
  for (const Variable *v : dynShared) p_.varAddress[v] = p_.staticShared;
  p_.constSize = constOff;
  p_.constBase = mem_.allocate(constOff ? constOff : 1, ".const", 256, /*readOnly=*/true);

  // Pass 2: initializers (addresses of every symbol are known now).
  for (const Variable *v : globals)
    if (v->init) {
      auto bytes = mem_.bytes(p_.varAddress[v]);
      writeInitializer(*v, bytes.data(), bytes.size());
    }
  auto cbytes = mem_.bytes(p_.constBase);
  for (const Variable *v : consts)
    if (v->init) {
      uint64_t off = p_.varAddress[v];
      writeInitializer(*v, cbytes.data() + off, v->sizeInBytes());
    }
}

// The value a symbol stands for in an initializer or operand: its address in its own state
// space (generic=false) or its generic address (generic=true).
uint64_t Decoder::symbolAddress(const Decl *d, int64_t offset, bool generic) {
  if (!d) return 0;
  if (d->kind == DeclKind::Function) {
    auto it = p_.byAst.find(static_cast<const Function *>(d));
    if (it != p_.byAst.end()) return p_.functionAddress(*it->second) + offset;
    return 0;
  }
  if (d->kind != DeclKind::Variable) return 0;
  const auto *v = static_cast<const Variable *>(d);
  auto it = p_.varAddress.find(v);
  uint64_t a = it == p_.varAddress.end() ? 0 : it->second;
  a += uint64_t(offset);
  if (!generic) return a;
  switch (v->space) {
  case StateSpace::Const: return p_.constBase + a;
  case StateSpace::Shared: case StateSpace::SharedCta: case StateSpace::SharedCluster:
    return map_.sharedWindow + a;
  default: return a;
  }
}

void Decoder::writeInitializer(const Variable &v, uint8_t *dst, uint64_t size) {
  unsigned esz = typeBytes(v.type);
  if (esz == 0) return;
  uint64_t pos = 0;
  // Depth-first over the initializer tree, one scalar element at a time.
  auto put = [&](const Initializer &in, auto &self) -> void {
    if (in.kind == InitKind::Aggregate) {
      for (const Initializer &e : in.elems) self(e, self);
      return;
    }
    if (pos + esz > size) return;
    uint64_t bits = 0;
    switch (in.kind) {
    case InitKind::Int:
      if (isFloat(v.type)) {
        double d = double(int64_t(in.bits));
        bits = v.type == Type::F64 ? fp::bitsF64(d)
                                   : fp::roundToFormat(d, 0, v.type == Type::F32 ? fp::kF32 : fp::kF16,
                                                       fp::Round::RN);
      } else {
        bits = in.bits;
      }
      break;
    case InitKind::Float: {
      double d = in.isSingle ? double(fp::asF32(uint32_t(in.bits))) : fp::asF64(in.bits);
      if (v.type == Type::F64) bits = fp::bitsF64(d);
      else if (v.type == Type::F32) bits = in.isSingle ? in.bits : fp::roundToFormat(d, 0, fp::kF32, fp::Round::RN);
      else if (v.type == Type::F16) bits = fp::roundToFormat(d, 0, fp::kF16, fp::Round::RN);
      else if (v.type == Type::BF16) bits = fp::roundToFormat(d, 0, fp::kBF16, fp::Round::RN);
      else bits = in.bits;   // a float literal in an integer variable: its bit pattern
      break;
    }
    case InitKind::Address: bits = symbolAddress(in.sym, in.offset, false); break;
    case InitKind::Generic: bits = symbolAddress(in.sym, in.offset, true); break;
    case InitKind::Mask: {
      uint64_t a = symbolAddress(in.sym, in.offset, in.genericInner);
      bits = in.mask ? (a & in.mask) >> __builtin_ctzll(in.mask) : 0;
      break;
    }
    case InitKind::Aggregate: break;
    }
    std::memcpy(dst + pos, &bits, esz);
    pos += esz;
  };
  put(*v.init, put);
}

} // namespace optxas::sim::ptxi
