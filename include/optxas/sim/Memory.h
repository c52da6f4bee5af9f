// The device memory model shared by both executors (PTX reference interpreter, SASS simulator).
//
//   global   a sparse 64-bit address space of allocations (kernel buffers, module .global and
//            .const data, the kernel parameter block). Any access that is not entirely inside
//            one allocation, or not naturally aligned, is a reported Fault, never a host crash.
//   shared   one byte array per CTA (static variables first, dynamic shared memory after).
//   local    one byte array per thread (its stack of frames).
//   const    constant banks (c[bank][offset]) for SASS; the PTX interpreter keeps module .const
//            data and the kernel parameter block in read-only global allocations instead, which
//            is also what makes their generic addresses (cvta.const / cvta.param) work.
//
// Generic addresses: shared and local memory are seen through two windows (AddressMap); every
// other generic address is a global address.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace optxas::sim {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3 &) const = default;
};

enum class Space : uint8_t { Generic, Global, Shared, Local, Const, Param };
std::string_view spaceName(Space s);

enum class FaultKind : uint8_t {
  None,
  OutOfBounds,     // access outside every allocation / the shared or local array
  Misaligned,      // address not a multiple of the access size
  ReadOnly,        // store or atomic to const/param data
  Trap,            // trap instruction
  Deadlock,        // barrier or warp collective that can never complete
  StackOverflow,   // local stack or call depth beyond the launch limits
  StepLimit,       // instruction budget exhausted (likely an infinite loop)
  BadTarget,       // brx.idx index out of range, call through a non-function address
  Unsupported,     // an instruction the executor does not implement was reached
  InvalidLaunch,   // bad grid/block dimensions, parameter block, unknown kernel
  Diverged,        // a CTA barrier reached by a warp whose live threads are not converged
};
std::string_view faultKindName(FaultKind k);

struct Fault {
  FaultKind kind = FaultKind::None;
  Space space = Space::Generic;
  uint64_t address = 0;
  uint32_t size = 0;
  Dim3 ctaid{0, 0, 0}, tid{0, 0, 0};
  std::string where;    // the executor's description of the faulting instruction
  std::string message;  // details
  explicit operator bool() const { return kind != FaultKind::None; }
  std::string describe() const;  // one line for humans
};

// Generic-address windows of shared and local memory.
struct AddressMap {
  uint64_t sharedWindow = 0x0000100000000000ull;
  uint64_t localWindow = 0x0000200000000000ull;
  uint64_t windowSize = 0x0000000100000000ull;   // 4 GiB each
  uint64_t firstGlobal = 0x00007f0000000000ull;  // where global allocations start
  bool inShared(uint64_t a) const { return a - sharedWindow < windowSize; }
  bool inLocal(uint64_t a) const { return a - localWindow < windowSize; }
};

struct Allocation {
  uint64_t base = 0;
  uint64_t size = 0;
  bool readOnly = false;
  std::string name;
  std::unique_ptr<uint8_t[]> bytes;   // zero-initialized
};

// The global address space. Allocations are separated by unmapped gaps so that running off the
// end of a buffer faults instead of silently touching the next one.
class GlobalMemory {
public:
  explicit GlobalMemory(uint64_t firstAddress = AddressMap{}.firstGlobal);
  GlobalMemory(const GlobalMemory &) = delete;
  GlobalMemory &operator=(const GlobalMemory &) = delete;

  // Returns the base address (aligned to `align`, at least 256).
  uint64_t allocate(uint64_t size, std::string name = {}, uint64_t align = 256,
                    bool readOnly = false);
  bool release(uint64_t base);

  // The allocation that contains [addr, addr+size), or null.
  const Allocation *find(uint64_t addr, uint64_t size = 1) const;
  // Host view of a whole allocation (ignores readOnly); empty if `base` is not an allocation.
  std::span<uint8_t> bytes(uint64_t base);
  std::span<const uint8_t> bytes(uint64_t base) const;

  // Device accesses: a pointer to `size` bytes at addr, or null with `why` set.
  uint8_t *resolve(uint64_t addr, uint32_t size, bool write, FaultKind &why);

  const std::vector<std::unique_ptr<Allocation>> &allocations() const { return allocs_; }

private:
  std::vector<std::unique_ptr<Allocation>> allocs_;   // sorted by base
  uint64_t next_;
  mutable size_t lastHit_ = 0;
};

// A flat byte array seen as a state space (shared memory of a CTA, local memory of a thread).
struct ByteSpace {
  uint8_t *data = nullptr;
  uint64_t size = 0;
  uint8_t *resolve(uint64_t off, uint32_t n) const {
    return (off <= size && n <= size - off) ? data + off : nullptr;
  }
};

// Constant banks c[0]..c[17] as the SASS simulator sees them (bank 0: driver constants and the
// kernel parameters; bank 3: module .const data). Reads outside a bank return zero, as hardware
// does for constant-bank reads past the bound size.
struct ConstBanks {
  std::array<std::vector<uint8_t>, 18> bank;
  uint64_t read(unsigned b, uint64_t off, unsigned size) const;
};

// Alignment check for an access of `size` bytes (sizes are powers of two up to 16; vector
// accesses must be aligned to their full size).
inline bool aligned(uint64_t addr, uint32_t size) { return (addr & (size - 1)) == 0; }

} // namespace optxas::sim
