// The CUDA runtime's device-side functions that PTX declares `.extern .func` and calls:
//   vprintf(fmt, args)   formats into LaunchResult::printed (argument buffer: each argument
//                        aligned to its size; %c/%d/%u/%x... 4 bytes, l/ll 8, floats as double,
//                        %s/%p 8-byte generic pointers)
//   malloc(size)/free(p) a device heap of global allocations
//   __assertfail(...)    a Trap fault carrying the assertion message
#include <cctype>
#include <cstring>

#include <fmt/format.h>
#include <fmt/printf.h>

#include "Decoder.h"
#include "Machine.h"

namespace optxas::sim::ptxi {

namespace {

uint64_t argValue(const Thread &t, const CallOperand &a) {
  const Frame &f = t.frames.back();
  uint64_t v = 0;
  if (a.inFrame) std::memcpy(&v, t.local.data() + f.localBase + a.offset, std::min<uint32_t>(a.size, 8));
  else v = t.regs[f.regBase + a.slot];
  return v;
}

void setResult(Thread &t, const CallSite &cs, uint64_t v) {
  if (cs.rets.empty()) return;
  const Frame &f = t.frames.back();
  const CallOperand &r = cs.rets[0];
  if (r.inFrame) std::memcpy(t.local.data() + f.localBase + r.offset, &v, std::min<uint32_t>(r.size, 8));
  else t.regs[f.regBase + r.slot] = v;
}

// Reads device memory at a generic address; false after raising a fault.
bool readBytes(Machine &m, Thread &t, const DOp &op, uint64_t addr, void *out, uint32_t n) {
  uint8_t *p = resolveAddress(m, t, op, Space::Generic, addr, n, false);
  if (!p) return false;
  std::memcpy(out, p, n);
  return true;
}

bool readString(Machine &m, Thread &t, const DOp &op, uint64_t addr, std::string &s, size_t max = 4096) {
  s.clear();
  if (addr == 0) {
    s = "(null)";
    return true;
  }
  for (size_t i = 0; i < max; ++i) {
    char c;
    if (!readBytes(m, t, op, addr + i, &c, 1)) return false;
    if (!c) return true;
    s += c;
  }
  return true;
}

bool vprintf(Machine &m, Thread &t, const DOp &op, uint64_t fmtAddr, uint64_t args, int &count) {
  std::string f;
  if (!readString(m, t, op, fmtAddr, f)) return false;
  uint64_t off = 0;
  auto next = [&](uint32_t size, uint64_t &v) {
    off = (off + size - 1) / size * size;
    v = 0;
    if (!readBytes(m, t, op, args + off, &v, size)) return false;
    off += size;
    ++count;
    return true;
  };
  std::string out;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      out += f[i];
      continue;
    }
    size_t start = i++;
    if (i < f.size() && f[i] == '%') {
      out += '%';
      continue;
    }
    while (i < f.size() && std::strchr("-+ #0", f[i])) ++i;
    while (i < f.size() && (std::isdigit(static_cast<unsigned char>(f[i])) || f[i] == '.')) ++i;
    bool longs = false;   // l, ll, z, j, t: an 8-byte argument (h, hh: still promoted to int)
    for (; i < f.size() && std::strchr("hlLzjt", f[i]); ++i)
      if (f[i] != 'h') longs = true;
    if (i >= f.size()) break;
    char conv = f[i];
    std::string spec = f.substr(start, i - start);
    // Drop length modifiers; fmt::sprintf gets the value at its full width.
    std::string clean;
    for (char c : spec)
      if (!std::strchr("hlLzjt", c)) clean += c;
    uint64_t v;
    switch (conv) {
    case 'd': case 'i': {
      if (!next(longs ? 8 : 4, v)) return false;
      int64_t x = longs ? int64_t(v) : int64_t(int32_t(v));
      out += fmt::sprintf(clean + "lld", static_cast<long long>(x));
      break;
    }
    case 'u': case 'x': case 'X': case 'o': {
      if (!next(longs ? 8 : 4, v)) return false;
      out += fmt::sprintf(clean + "ll" + conv, static_cast<unsigned long long>(v));
      break;
    }
    case 'c':
      if (!next(4, v)) return false;
      out += fmt::sprintf(clean + "c", char(v));
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
      if (!next(8, v)) return false;
      double d;
      std::memcpy(&d, &v, 8);
      out += fmt::sprintf(clean + conv, d);
      break;
    }
    case 's': {
      if (!next(8, v)) return false;
      std::string s;
      if (!readString(m, t, op, v, s)) return false;
      out += fmt::sprintf(clean + "s", s);
      break;
    }
    case 'p':
      if (!next(8, v)) return false;
      out += fmt::format("0x{:x}", v);
      break;
    default:
      out += spec + conv;
      break;
    }
  }
  m.printed += out;
  return true;
}

} // namespace

bool execBuiltin(Machine &m, Thread &t, const DOp &op, const CallSite &cs) {
  auto arg = [&](size_t i) { return i < cs.args.size() ? argValue(t, cs.args[i]) : 0; };
  switch (cs.builtin) {
  case Builtin::Vprintf: {
    int count = 0;
    if (!vprintf(m, t, op, arg(0), arg(1), count)) return false;
    setResult(t, cs, uint64_t(int64_t(count)));
    return true;
  }
  case Builtin::Malloc: {
    uint64_t size = arg(0);
    uint64_t addr = 0;
    if (size <= (uint64_t(1) << 32)) {
      addr = m.mem.allocate(size ? size : 1, "malloc", 16);
      m.heap->push_back(addr);
    }
    setResult(t, cs, addr);
    return true;
  }
  case Builtin::Free: {
    uint64_t p = arg(0);
    for (size_t i = 0; i < m.heap->size(); ++i)
      if ((*m.heap)[i] == p) {
        m.mem.release(p);
        m.heap->erase(m.heap->begin() + long(i));
        break;
      }
    return true;
  }
  case Builtin::AssertFail: {
    std::string msg, file, func;
    readString(m, t, op, arg(0), msg);
    readString(m, t, op, arg(1), file);
    readString(m, t, op, arg(3), func);
    if (m.faulted()) return false;
    m.raise(FaultKind::Trap, t, &op,
            fmt::format("assertion '{}' failed at {}:{} in {}", msg, file, uint32_t(arg(2)), func));
    return false;
  }
  case Builtin::None: break;
  }
  return true;
}

} // namespace optxas::sim::ptxi
