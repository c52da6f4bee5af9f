// Memory instructions of the interpreter: address resolution in every state space, ld/st of
// scalars and vectors, atom/red. Threads run one at a time, so every atomic is trivially atomic.
#include <cstring>

#include <fmt/format.h>

#include "Decoder.h"
#include "IntOps.h"
#include "Machine.h"

namespace optxas::sim::ptxi {

uint8_t *resolveAddress(Machine &m, Thread &t, const DOp &op, Space space, uint64_t addr,
                        uint32_t size, bool write, Space *resolvedSpace) {
  if (!aligned(addr, size)) {
    m.raise(FaultKind::Misaligned, t, &op, {}, space, addr, size);
    return nullptr;
  }
  Space sp = space;
  uint64_t a = addr;
  if (sp == Space::Generic) {
    if (m.map.inShared(a)) {
      sp = Space::Shared;
      a -= m.map.sharedWindow;
    } else if (m.map.inLocal(a)) {
      sp = Space::Local;
      a -= m.map.localWindow;
    } else {
      sp = Space::Global;
    }
  }
  if (resolvedSpace) *resolvedSpace = sp;
  uint8_t *p = nullptr;
  FaultKind why = FaultKind::OutOfBounds;
  switch (sp) {
  case Space::Global: p = m.mem.resolve(a, size, write, why); break;
  case Space::Shared: p = ByteSpace{m.cta.shared.data(), m.cta.shared.size()}.resolve(a, size); break;
  case Space::Local: p = ByteSpace{t.local.data(), t.local.size()}.resolve(a, size); break;
  case Space::Const:
    if (write) why = FaultKind::ReadOnly;
    else if (a <= m.prog.constSize && size <= m.prog.constSize - a)
      p = m.mem.resolve(m.prog.constBase + a, size, false, why);
    break;
  case Space::Param:
    if (write) why = FaultKind::ReadOnly;
    else if (a <= m.paramSize && size <= m.paramSize - a)
      p = m.mem.resolve(m.paramBase + a, size, false, why);
    break;
  case Space::Generic: break;
  }
  if (!p) m.raise(why, t, &op, {}, space == Space::Generic ? Space::Generic : sp, addr, size);
  return p;
}

namespace {

inline uint64_t load(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  std::memcpy(&v, p, n);
  return v;
}
inline void store(uint8_t *p, uint64_t v, unsigned n) { std::memcpy(p, &v, n); }

// The new memory value of an atomic operation on one element.
uint64_t atomicResult(const DOp &I, uint64_t old, uint64_t b, uint64_t c, bool ftzF32) {
  using namespace intops;
  unsigned bits = typeBits(I.type);
  bool sgn = ptx::isSigned(I.type);
  switch (AtomOp(I.mode)) {
  case AtomOp::And: return old & b;
  case AtomOp::Or: return old | b;
  case AtomOp::Xor: return old ^ b;
  case AtomOp::Exch: return b;
  case AtomOp::Cas: return zext(old, bits) == zext(b, bits) ? c : old;
  case AtomOp::Inc: return zext(old, bits) >= zext(b, bits) ? 0 : old + 1;
  case AtomOp::Dec: return (zext(old, bits) == 0 || zext(old, bits) > zext(b, bits)) ? b : old - 1;
  default: break;
  }
  bool isAdd = AtomOp(I.mode) == AtomOp::Add, isMin = AtomOp(I.mode) == AtomOp::Min;
  switch (I.type) {
  case Type::F32: {
    uint32_t x = uint32_t(old), y = uint32_t(b);
    if (isAdd) return fp::addF32(x, y, {fp::Round::RN, ftzF32, false});
    fp::MinMaxOpts o{ftzF32, false, false, false};
    return isMin ? fp::minF32(x, y, o) : fp::maxF32(x, y, o);
  }
  case Type::F64:
    if (isAdd) return fp::addF64(old, b, fp::Round::RN);
    return isMin ? fp::minF64(old, b) : fp::maxF64(old, b);
  case Type::F16: case Type::BF16: case Type::F16x2: case Type::BF16x2: {
    fp::Half h = (I.type == Type::F16 || I.type == Type::F16x2) ? fp::Half::F16 : fp::Half::BF16;
    unsigned lanes = (I.type == Type::F16x2 || I.type == Type::BF16x2) ? 2 : 1;
    uint64_t r = 0;
    for (unsigned k = 0; k < lanes; ++k) {
      uint16_t x = uint16_t(old >> (16 * k)), y = uint16_t(b >> (16 * k));
      uint16_t v = isAdd ? fp::addHalf(h, x, y, {})
                 : isMin ? fp::minHalf(h, x, y, {}) : fp::maxHalf(h, x, y, {});
      r |= uint64_t(v) << (16 * k);
    }
    return r;
  }
  default: break;
  }
  uint64_t x = sgn ? sext(old, bits) : zext(old, bits);
  uint64_t y = sgn ? sext(b, bits) : zext(b, bits);
  if (isAdd) return x + y;
  bool lt = sgn ? int64_t(x) < int64_t(y) : x < y;
  return isMin ? (lt ? x : y) : (lt ? y : x);
}

} // namespace

bool execMemory(Machine &m, Thread &t, const DOp &I, uint64_t *R) {
  unsigned esz = typeBytes(I.type);
  unsigned total = esz * I.vec;
  uint64_t addr = uint64_t(I.imm);
  if (I.abase != kNoSlot) addr += R[I.abase];
  if (I.rel == AddrRel::Frame) addr += t.frames.back().localBase;
  switch (I.op) {
  case XOp::Ld: {
    const uint8_t *p = resolveAddress(m, t, I, I.space, addr, total, false);
    if (!p) return false;
    unsigned bits = esz * 8;
    bool sgn = ptx::isSigned(I.type);
    for (unsigned i = 0; i < I.vec; ++i) R[I.d(i)] = normalize(load(p + i * esz, esz), bits, sgn);
    return true;
  }
  case XOp::St: {
    uint8_t *p = resolveAddress(m, t, I, I.space, addr, total, true);
    if (!p) return false;
    for (unsigned i = 0; i < I.vec; ++i) store(p + i * esz, R[I.s(i)], esz);
    return true;
  }
  case XOp::Atom: case XOp::Red: {
    Space resolved = I.space;
    uint8_t *p = resolveAddress(m, t, I, I.space, addr, total, true, &resolved);
    if (!p) return false;
    if (resolved != Space::Global && resolved != Space::Shared) {
      m.raise(FaultKind::OutOfBounds, t, &I, "atomic on an address outside global and shared memory",
              I.space, addr, total);
      return false;
    }
    bool ftzF32 = resolved == Space::Global;   // atom.add.f32 on global memory flushes subnormals
    unsigned nd = I.op == XOp::Atom ? I.nd : 0;
    bool cas = AtomOp(I.mode) == AtomOp::Cas;
    for (unsigned i = 0; i < I.vec; ++i) {
      uint64_t old = load(p + i * esz, esz);
      uint64_t b = R[I.r[nd + i]];
      uint64_t c = cas ? R[I.r[nd + I.vec]] : 0;
      store(p + i * esz, atomicResult(I, old, b, c, ftzF32), esz);
      if (nd) R[I.d(i)] = normalize(old, esz * 8, ptx::isSigned(I.type));
    }
    return true;
  }
  default:
    return true;
  }
}

} // namespace optxas::sim::ptxi
