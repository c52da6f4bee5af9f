// The data model of a SASS encoding table (Volta..Blackwell 128-bit family).
//
// A table is a list of Forms. A Form is one encodable shape of one opcode: the bits that identify
// it (opcode bits 0..11 plus any fixed fields) and an ordered list of Elems. An Elem is either a
// modifier (a bit field whose raw values map to a Modifiers slot and to nvdisasm's ".XYZ" suffix)
// or an operand (register / immediate / constant bank / address ... fields). Elems appear in
// nvdisasm print order: modifiers in suffix order, operands in operand-list order.
//
// The encoder, decoder, printer and parser are generic over this model (sass/*.cpp); the per-
// architecture files (sm90/*.cpp) only contain tables.
#pragma once

#include "optxas/isa/Modifiers.h"
#include "optxas/isa/Opcode.h"
#include "optxas/sass/Codec.h"
#include "optxas/sass/Inst.h"

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace optxas::sass::tbl {

// A contiguous bit field of the 128-bit instruction word.
struct Field {
  uint8_t pos = 0;
  uint8_t width = 0;
  bool valid() const { return width != 0; }
};
constexpr Field bits(unsigned pos, unsigned width) {
  return Field{static_cast<uint8_t>(pos), static_cast<uint8_t>(width)};
}

uint64_t getField(const Word &w, Field f);
void setField(Word &w, Field f, uint64_t v);
// The raw value of an elem's (possibly split) field, and its inverse.
uint64_t getElemRaw(const Word &w, const struct Elem &e);
void setElemRaw(Word &w, const struct Elem &e, uint64_t v);
inline Word fieldMask(Field f) {
  Word m{0, 0};
  setField(m, f, ~0ull);
  return m;
}

// One raw value of a modifier field: what it means (slot value, and optionally a second slot's
// value) and how nvdisasm spells it ("" when not printed).
struct ModValue {
  uint32_t raw = 0;
  uint8_t value = 0;
  std::string_view text;
  uint8_t value2 = 0;
};
using ModMap = std::vector<ModValue>;

enum class ElemKind : uint8_t {
  Mod,      // modifier bit field (or a constant, if field.width == 0), printed as a suffix
  ModOpd,   // modifier slot printed as an immediate operand (LOP3's LUT)
  OpdText,  // fixed operand text with no Inst operand (R2P's "PR"); values[0].text
  Opd,      // operand
};

enum class OpdType : uint8_t { Gpr, UGpr, Pred, UPred, SReg, BarReg, Imm, FImm, CBank, Mem,
                               Target };

// How an Imm/FImm operand is printed.
enum class ImmFmt : uint8_t {
  Hex,      // 0x1f (unsigned)
  SHex,     // -0x1 / 0x1f (the field is sign-extended)
  F32,      // FADD's 32-bit float immediates (nvdisasm float syntax)
  F64Hi,    // DADD-style: the field is the high 32 bits of a double
  F16x2,    // HADD2-style: two halves, printed "a, b"
  H1,       // one half in the low 16 bits (f16, or bf16 for .BF16 forms)
  IntSrc,   // integer immediate, signed iff the source integer type (srcIntType) is signed
  Dec,      // plain decimal (rare)
};

// The layout of a memory address operand [base(.64) + UR + imm] or desc[UR][...].
struct MemLayout {
  Field base;                // GPR base (width 0: none)
  int16_t base64Bit = -1;    // bit that makes the base 64-bit (-1: use base64Const)
  bool base64Const = false;
  Field ur;                  // uniform register field (width 0: none)
  enum class UrUse : uint8_t { None, Add, Desc, DescIfBit, AddIfBit } urUse = UrUse::None;
  int16_t urBit = -1;        // DescIfBit: 1 = desc[UR]; AddIfBit: 1 = "+UR" present
  Field offset;              // byte offset (width 0: none)
  bool offsetSigned = true;
  Field scale;               // LDS-style .X4/.X8/.X16 index scaling (width 0: none)
  bool hideUrz = false;      // "+URZ" is not printed (LDGSTS)
  bool absoluteSigned = false; // a lone offset ([0x10]) prints signed (LDGSTS) or unsigned
  bool hideDesc = false;     // desc[URn] is encoded but not printed (Ampere)
};

// The layout of a constant-bank operand c[bank][offset] / c[bank][Rn+offset] / cx[URn][offset].
struct CBankLayout {
  Field bank;
  Field offset;
  uint8_t offsetScale = 1;   // ALU forms store a word offset (scale 4)
  bool offsetSigned = false;
  Field index;               // optional GPR index (width 0: none)
  int16_t cxBit = -1;        // bit that turns the bank into cx[URn] (bank field then holds URn)
  bool spaced = false;       // nvdisasm prints "c[0x1] [0x10]" (sub-32-bit source operands)
  Field cxUr;                // field of the UR when cx (defaults to the bank field)
  Field urIndex;             // uniform-register index c[bank][URn+offset] (Operand::ureg)
  bool urIndexNotZero = false; // URZ is no index: another form encodes c[bank][offset] (LDCU)
  bool sizeAligned = false;  // the offset is a multiple of the access size (.64: 8, .128: 16, else 4)
  bool zeroPrintsUrz = false; // offset 0 (no index) is printed c[bank][URZ] (LDCU)
};

struct Elem {
  ElemKind kind = ElemKind::Opd;
  // ---- modifiers ----
  isa::ModSlot slot = isa::ModSlot::NoSlot;
  isa::ModSlot slot2 = isa::ModSlot::NoSlot;
  Field field;               // Mod: raw bits; width 0 = constant value (values[0])
  Field fieldHi;             // Imm/Target split across two fields: high part (optional)
  ModMap values;
  // ---- operands ----
  OpdType type = OpdType::Gpr;
  bool def = false;          // written by the instruction
  bool noZero = false;       // RZ/URZ is not a valid value (nvdisasm prints ???; TEX's handle)
  uint8_t width = 1;         // registers covered (Gpr/UGpr)
  isa::ModSlot widthSlot = isa::ModSlot::NoSlot; // width follows this slot's value (e.g. memType)
  int16_t negBit = -1, absBit = -1, notBit = -1;
  bool spaceSep = false;     // printed after a space instead of ", " (RET R20 0x..)
  std::string_view wrap;     // register printed inside "<wrap>Rn]" (HGMMA's gdesc[URn])
  std::string_view wrapEnd;  // what closes it instead of "]" (HGMMA's "].tnspB")
  uint8_t xorMask = 0;       // register field stored XOR this value (LDG's trailing predicate)
  Field selField;            // sub-register selection field (swizzle / byte select)
  Field selFieldHi;          // its high part, if split (HFMA2's .H0_NH1 bit)
  ModMap selMap;             // raw -> SubSel value and spelling (".H0_H0")
  int8_t reuse = -1;         // reuse slot 0..3 (bit 122 + slot)
  uint8_t group = 0;         // nonzero: optional; nvdisasm hides it when it holds `dflt`
  Operand dflt;              // default value of a hideable operand
  ImmFmt fmt = ImmFmt::Hex;
  int64_t immAdd = 0;        // Inst value = (raw << immShift) + immAdd
  uint8_t immShift = 0;      // e.g. branch offsets are stored in 4-byte units
  bool immSigned = false;
  MemLayout mem;
  CBankLayout cb;
};

// Opcode-specific printing that depends on operand values (e.g. IMAD with a zero multiplicand
// prints as IMAD.MOV): returns the suffix to insert after the mnemonic, or "".
using AliasFn = std::string_view (*)(const Inst &);

struct Form {
  isa::Opcode op = isa::Opcode::NOP;
  // How nvdisasm spells the opcode when the architecture renames it (sm_100's LDCU is the
  // uniform constant load that Ori and sm_90 call ULDC); empty: isa::opcodeName(op).
  std::string_view mnemonic;
  Word fixedMask{0, 0};      // bits that identify this form
  Word fixedBits{0, 0};      // their values
  std::vector<Elem> elems;
  bool uniformGuard = false; // guard is UP0..UPT (uniform datapath forms)
  bool printsOptional = false; // nvdisasm prints the optional operands even at their defaults
  bool allowWbar = true;     // may release a write scoreboard (nvdisasm rejects it otherwise)
  bool allowRbar = true;     // may release a read scoreboard
  bool allowWait = true;     // may wait on scoreboards (WARPGROUP.DEPBAR may not)
  // nvdisasm prints ";" right after the operands of a zero-stall yielding instruction only if
  // it uses no scoreboards, for the instructions it considers variable-latency (set from the
  // opcode's VarLatency flag; the table overrides the exceptions).
  bool scoreboardSpacing = false;
  AliasFn alias = nullptr;
  std::vector<std::string_view> aliasTokens; // suffixes `alias` may produce (parser strips them)
  // Derived by finalize():
  uint64_t slotsUsed = 0;    // Modifiers slots this form can represent
  Word coveredMask{0, 0};    // fixed bits + every field of every elem + control bits
  std::string syntax;        // one-line description, e.g. "IADD3{.X} Rd, Pu?, ..."
  // Which operand elems are present in each accepted (shortened) operand list, longest first.
  std::vector<std::vector<bool>> presence;
  uint16_t id = 0;
};

// A whole architecture table, with its lookup indexes.
class FormTable {
public:
  explicit FormTable(Target t) : target_(t) {}
  Target target() const { return target_; }
  Form &add(Form f);
  // Computes derived data and the indexes; call once after the last add().
  void finalize();

  const std::vector<Form> &forms() const { return forms_; }
  Form &formAt(size_t i) { return forms_[i]; }
  // Drops the forms `drop` selects (a derived table removing what its architecture lacks);
  // call before finalize().
  void removeForms(const std::function<bool(const Form &)> &drop);
  // The spelling of a form's opcode (its mnemonic override, or the opcode's name).
  static std::string_view mnemonicOf(const Form &f);

  // The raw value of URZ in uniform-register fields: 63 where UR fields are 6 bits wide (sm_90),
  // 255 where they are 8 bits wide (sm_100 on). Inst always spells URZ as sass::URZ.
  uint8_t urzRaw = URZ;
  // Forms of one opcode, in table order (encoder/printer search order).
  const std::vector<const Form *> &formsOf(isa::Opcode op) const;
  // Forms whose fixed bits match a word (decoder candidates).
  std::vector<const Form *> candidates(const Word &w) const;

  // Variable-latency opcodes whose spacing nvdisasm treats like fixed-latency ones.
  std::set<isa::Opcode> noSpacingOps_;
  // Fixed-latency opcodes whose spacing nvdisasm treats like variable-latency ones.
  std::set<isa::Opcode> spacingOps_;
  // Special registers: index <-> nvdisasm name.
  std::vector<std::pair<uint8_t, std::string_view>> specialRegs;

private:
  Target target_;
  std::vector<Form> forms_;
  std::vector<std::vector<const Form *>> byOpcode_;
  std::vector<std::vector<const Form *>> byLow12_;
};

const FormTable *tableFor(Target t);

// ---- matching shared by encoder / printer / parser ----

// Checks that an Inst fits a form (opcode, slots, operand kinds, value ranges). On success fills
// `full` with the operand list completed with hidden defaults. Else returns a reason.
bool matchForm(const Form &f, const Inst &in, std::vector<Operand> &full, std::string *why);
// The form an Inst is encoded/printed with, or null (with the reasons of the closest forms).
const Form *selectForm(const FormTable &t, const Inst &in, std::vector<Operand> &full,
                       std::string *why);
// The register count an operand elem covers given the instruction's modifiers.
uint8_t elemWidth(const Elem &e, const isa::Modifiers &m);
// The value of a modifier elem for the given modifiers: nullptr if the form cannot express it.
const ModValue *modValueFor(const Elem &e, const isa::Modifiers &m);
bool isHiddenDefault(const Elem &e, const Operand &o);
// Which operand elems nvdisasm prints for a full operand list (optional ones at their default
// are hidden).
std::vector<bool> printedOperands(const Form &f, const std::vector<Operand> &full);

} // namespace optxas::sass::tbl
