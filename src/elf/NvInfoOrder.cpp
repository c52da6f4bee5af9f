#include "NvInfoOrder.h"

#include <array>
#include <span>

namespace optxas::elf {

namespace {
using K = NvInfoKind;

// sm_90 and later (read from ptxas 13.0 cubins for sm_90, sm_90a, sm_100, sm_103, sm_110, sm_120).
constexpr K kOrderSm90[] = {
    K::CUDA_API_VERSION, K::KPARAM_INFO, K::EXPLICIT_CLUSTER, K::CTA_PER_CLUSTER, K::MAX_CLUSTER_RANK,
    K::RESERVED_SMEM_USED, K::BLOCKS_ARE_CLUSTERS, K::SPARSE_MMA_MASK, K::WMMA_USED, K::MAXREG_COUNT,
    K::NUM_BARRIERS, K::EXTERNS, K::UNKNOWN_5F, K::UNUSED_LOAD_BYTE_OFFSET, K::INT_WARP_WIDE_INSTR_OFFSETS,
    K::COOP_GROUP_MASK_REGIDS, K::COOP_GROUP_INSTR_OFFSETS, K::VRC_CTA_INIT_COUNT, K::SYSCALL_OFFSETS, K::INSTR_REG_MAP,
    K::MBARRIER_INSTR_OFFSETS, K::NUM_MBARRIERS, K::ATOM16_EMUL_INSTR_REG_MAP, K::EXIT_INSTR_OFFSETS, K::INDIRECT_BRANCH_TARGETS,
    K::CTAIDZ_USED, K::MAX_THREADS, K::REQNTID, K::CRS_STACK_SIZE, K::CBANK_PARAM_SIZE, K::PARAM_CBANK,
    K::SW_WAR, K::BINDLESS_TEXTURE_BANK, K::BINDLESS_SURFACE_BANK,
};

// sm_80 .. sm_89: the parameter bank and parameters come first.
constexpr K kOrderSm80[] = {
    K::CUDA_API_VERSION, K::UNKNOWN_35, K::PARAM_CBANK, K::CBANK_PARAM_SIZE, K::KPARAM_INFO,
    K::RESERVED_SMEM_USED, K::WMMA_USED, K::MAXREG_COUNT, K::BINDLESS_SURFACE_BANK, K::BINDLESS_TEXTURE_BANK,
    K::NUM_BARRIERS, K::EXTERNS, K::UNKNOWN_5F,
    K::UNUSED_LOAD_BYTE_OFFSET, K::INT_WARP_WIDE_INSTR_OFFSETS, K::COOP_GROUP_MASK_REGIDS, K::COOP_GROUP_INSTR_OFFSETS, K::SYSCALL_OFFSETS,
    K::INSTR_REG_MAP, K::MBARRIER_INSTR_OFFSETS, K::NUM_MBARRIERS, K::ATOM16_EMUL_INSTR_REG_MAP, K::EXIT_INSTR_OFFSETS,
    K::INDIRECT_BRANCH_TARGETS, K::CTAIDZ_USED, K::MAX_THREADS, K::REQNTID, K::CRS_STACK_SIZE,
};
} // namespace

int nvInfoRank(const Target &target, NvInfoKind kind) {
  std::span<const K> order = target.sm >= 90 ? std::span<const K>(kOrderSm90) : std::span<const K>(kOrderSm80);
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] == kind) return static_cast<int>(i);
  return 1000;
}

} // namespace optxas::elf
