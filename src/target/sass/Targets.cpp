// Maps a Target to its encoding table. A new architecture adds its table here.
#include "sass/FormTable.h"

namespace optxas::sass {
namespace sm90 {
const tbl::FormTable &table();
}
namespace sm80 {
const tbl::FormTable &table();
}
namespace sm86 {
const tbl::FormTable &table();
}
namespace sm89 {
const tbl::FormTable &table();
}
namespace sm100 {
const tbl::FormTable &table();
}
namespace sm120 {
const tbl::FormTable &table();
}

namespace tbl {
const FormTable *tableFor(Target t) {
  switch (t) {
  case Target::SM80: return &sm80::table();
  case Target::SM86: return &sm86::table();
  case Target::SM89: return &sm89::table();
  case Target::SM90: return &sm90::table();
  case Target::SM100: return &sm100::table();
  case Target::SM120: return &sm120::table();
  default: return nullptr;
  }
}
} // namespace tbl

} // namespace optxas::sass
