#include "Registry.h"

namespace optxas::lower {

void Registry::add(ptx::Opcode op, LowerFn fn, AcceptFn accepts) {
  handlers_[static_cast<size_t>(op)].push_back(Handler{fn, accepts});
}

LowerFn Registry::find(const ptx::Instruction &in) const {
  if (static_cast<size_t>(in.op) >= handlers_.size()) return nullptr;
  for (const Handler &h : handlers_[static_cast<size_t>(in.op)])
    if (!h.accepts || h.accepts(in)) return h.fn;
  return nullptr;
}

const Registry &Registry::instance() {
  static const Registry r = [] {
    Registry reg;
#define LOWER_FAMILY(name) register##name(reg);
#include "Families.def"
#undef LOWER_FAMILY
    return reg;
  }();
  return r;
}

} // namespace optxas::lower
