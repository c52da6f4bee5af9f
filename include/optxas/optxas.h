/* optxas library API: compile a PTX string into a cubin in memory.
 *
 * A C89 interface for JIT users and other programs that link the assembler instead of running
 * the `optxas` (ptxas-compatible) command-line tool. The tool and this API share one compile
 * entry point, so a PTX text compiled with the same options gives the same cubin bytes, and the
 * logs hold exactly the lines the tool would print, in ptxas's format:
 *
 *   optxasHandle h;
 *   const char *opts[] = { "-arch=sm_90", "-v" };
 *   optxasCreate(&h, ptx, strlen(ptx));
 *   if (optxasCompile(h, 2, opts) == OPTXAS_SUCCESS) {
 *     size_t n; optxasGetCubinSize(h, &n);
 *     void *cubin = malloc(n); optxasGetCubin(h, cubin);
 *     ... cuModuleLoadData(&mod, cubin) ...
 *   }
 *   optxasDestroy(&h);
 *
 * Options are ptxas's command-line options (see docs/options.md), one per array element
 * ("-arch=sm_90", or "-arch" followed by "sm_90"). Options that name the program's input or
 * output or ask for a text instead of a compilation (an input file name, --input-as-string,
 * --output-file, --help, --version, --list-version) are refused with
 * OPTXAS_ERROR_INVALID_OPTION.
 *
 * A handle is not thread-safe; separate handles may be used from separate threads. The
 * engineering options' dumps (-knob DUMPIR=..., --stat=phase-wise) go to stdout, not to the logs.
 * Link with liboptxas.a (CMake target `liboptxas`) and a C++ runtime; see docs/api.md.
 */
#ifndef OPTXAS_OPTXAS_H
#define OPTXAS_OPTXAS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this API (not of the PTX ISA): optxasGetVersion reports it. */
#define OPTXAS_API_VERSION_MAJOR 1
#define OPTXAS_API_VERSION_MINOR 0

typedef enum {
  OPTXAS_SUCCESS = 0,
  OPTXAS_ERROR_INVALID_HANDLE = 1,      /* a NULL or destroyed handle */
  OPTXAS_ERROR_INVALID_ARGUMENT = 2,    /* a NULL pointer where a value is required */
  OPTXAS_ERROR_INVALID_OPTION = 3,      /* the options do not parse; the error log says why */
  OPTXAS_ERROR_COMPILATION_FAILED = 4,  /* the PTX has errors; the error log has them */
  OPTXAS_ERROR_NOT_COMPILED = 5,        /* no successful optxasCompile yet on this handle */
  OPTXAS_ERROR_NO_CODE = 6,             /* compiled, but no cubin (a virtual -arch such as compute_90) */
  OPTXAS_ERROR_OUT_OF_MEMORY = 7,
  OPTXAS_ERROR_INTERNAL = 8             /* an unexpected failure inside the assembler */
} optxasResult;

/* An opaque compiler: one PTX program, its last compilation's cubin and logs. */
typedef struct optxasCompiler *optxasHandle;

/* Writes the API version (OPTXAS_API_VERSION_MAJOR/MINOR of the built library). */
optxasResult optxasGetVersion(unsigned int *major, unsigned int *minor);

/* A short English description of a result code (never NULL). */
const char *optxasGetResultString(optxasResult result);

/* Creates a handle holding a copy of the PTX text ptx[0..size). The text need not be
 * NUL-terminated; trailing NUL bytes are ignored, so size may count a terminator. */
optxasResult optxasCreate(optxasHandle *handle, const char *ptx, size_t size);

/* Destroys *handle and sets it to NULL. A NULL *handle is OPTXAS_ERROR_INVALID_HANDLE. */
optxasResult optxasDestroy(optxasHandle *handle);

/* Compiles the handle's PTX with ptxas's command-line options. Replaces the cubin and both
 * logs of any earlier compilation on this handle. */
optxasResult optxasCompile(optxasHandle handle, int numOptions, const char *const *options);

/* The cubin (an ELF image) of the last successful compilation. */
optxasResult optxasGetCubinSize(optxasHandle handle, size_t *size);
optxasResult optxasGetCubin(optxasHandle handle, void *buffer);

/* The logs of the last compilation, NUL-terminated; sizes include the terminating NUL.
 * Error log: errors, fatal errors and warnings ("ptxas FILE, line N; error   : ...").
 * Info log: the -v report and other info lines ("ptxas info    : ..."). The PTX is called
 * "application ptx input" in both, as ptxas calls a --input-as-string text. */
optxasResult optxasGetErrorLogSize(optxasHandle handle, size_t *size);
optxasResult optxasGetErrorLog(optxasHandle handle, char *buffer);
optxasResult optxasGetInfoLogSize(optxasHandle handle, size_t *size);
optxasResult optxasGetInfoLog(optxasHandle handle, char *buffer);

#ifdef __cplusplus
}
#endif

#endif /* OPTXAS_OPTXAS_H */
