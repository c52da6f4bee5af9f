// What lowering knows about a function's interface and launch constraints, recorded for the back
// end (register limits, ABI, frame) and the ELF writer (.nv.info attributes, symbols).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace optxas::ori {

enum class Linkage : uint8_t { Internal, Visible, Extern, Weak, Common };

// One parameter. Kernel parameters live in constant bank 0 at paramBase + offset (0x210 on
// sm_90); .func parameters are passed per the calling convention (docs/abi.md).
struct ParamInfo {
  std::string name;
  uint32_t offset = 0;     // byte offset within the parameter block
  uint32_t size = 0;       // bytes
  uint32_t align = 1;
  bool isPointer = false;  // `.ptr` attribute or a .u64 the program uses as an address
  // A `.ptr` parameter's KPARAM_INFO pointee: ptxas's space code (5 generic, 4 .global/.const,
  // 2 .shared, 1 .local) and log2 of its `.align N` (0 without).
  uint8_t pointeeSpace = 5;
  uint8_t pointeeLogAlign = 0;
};

// Module-scope texture, sampler and surface references (.texref/.samplerref/.surfref).
enum class TextureRefKind : uint8_t { Texture, Sampler, Surface };

// A kernel's constant-bank-0 word that the driver fills with the header index of a texture,
// sampler or surface reference the kernel uses by name (ptxas: after the parameters, 4 bytes
// each, in order of first use; an R_CUDA_{TEX,SAMP,SURF}_HEADER_INDEX relocation on it).
struct TextureRefSlot {
  std::string name;
  TextureRefKind kind = TextureRefKind::Texture;
  uint32_t offset = 0; // bank-0 byte offset
};

struct FunctionAttrs {
  Linkage linkage = Linkage::Visible;
  std::vector<ParamInfo> params;      // in declaration order
  std::vector<ParamInfo> results;     // .func return parameters
  uint32_t paramBytes = 0;            // size of the parameter block
  uint32_t paramBase = 0;             // bank-0 offset of the first kernel parameter (entries)
  std::vector<TextureRefSlot> textureRefSlots; // kernels: by-name texture/surface references
  // Performance-tuning directives (0 = not given).
  uint32_t maxnreg = 0;
  std::array<uint32_t, 3> maxntid{0, 0, 0};
  std::array<uint32_t, 3> reqntid{0, 0, 0};
  uint32_t minnctapersm = 0;
  uint32_t maxnctapersm = 0;
  std::array<uint32_t, 3> reqnctapercluster{0, 0, 0};
  bool explicitCluster = false;
  uint32_t maxclusterrank = 0;
  bool noreturn = false;
  std::vector<std::string> pragmas;   // .pragma strings ("nounroll", ...)
  // A subroutine optxas made for the slow path of a macro (phases/ExpandMacros.h): the ptxas
  // runtime routine it stands for ("__cuda_sm20_div_s64"); empty for the PTX's own functions.
  std::string slowPathRoutine;
};

} // namespace optxas::ori
