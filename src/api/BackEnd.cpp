// The back end linked into this build.
//
// EXTENSION POINT: the back half of the assembler plugs in here. Replace the body of
// defaultBackEnd() with a BackEnd that, for the checked modules of one program,
//   1. lowers each ptx::Module to the Ori IR              (src/lower)
//   2. runs the phase manager's schedule over it           (src/phases, knobs from opts.knobs)
//   3. selects/allocates/schedules/encodes SASS            (src/target, src/regalloc, src/sched)
//   4. writes the CUDA ELF image into `cubin`              (src/elf)
// and reports errors through `diags`. Until then the front end is the whole pipeline: the
// driver parses and checks, writes no output file, and says so under -v.
#include "optxas/api/Compiler.h"

namespace optxas::api {

BackEnd defaultBackEnd() { return {}; }

} // namespace optxas::api
