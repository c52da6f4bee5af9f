/* A C89 client of the library API (include/optxas/optxas.h), run by ctest as api.c_client:
 *
 *   c_client OPTXAS_TOOL PTX_FILE WORK_DIR
 *
 * 1. compiles PTX_FILE in memory for sm_90 and checks the cubin is a CUDA ELF for sm_90 whose
 *    bytes equal what the optxas tool writes for the same PTX and options (also with -c);
 * 2. with -v, checks the info log has ptxas's resource lines;
 * 3. compiles PTX with a syntax error and checks the error log has ptxas's error line.
 * Prints one line per failed check; exit status 0 only if every check passed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optxas/optxas.h"

static int failures = 0;

static void fail(const char *what, const char *detail) {
  printf("FAIL: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  ++failures;
}

/* Reads a whole file; returns NULL if it cannot. */
static char *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  long n;
  if (!f) return NULL;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
    buf = (char *)malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
      buf[n] = '\0';
      *size = (size_t)n;
    } else {
      free(buf);
      buf = NULL;
    }
  }
  fclose(f);
  return buf;
}

static char *getLog(optxasHandle h, int info) {
  size_t n = 0;
  char *log;
  if ((info ? optxasGetInfoLogSize(h, &n) : optxasGetErrorLogSize(h, &n)) != OPTXAS_SUCCESS) return NULL;
  log = (char *)malloc(n);
  if (log && (info ? optxasGetInfoLog(h, log) : optxasGetErrorLog(h, log)) != OPTXAS_SUCCESS) {
    free(log);
    return NULL;
  }
  return log;
}

static unsigned le16(const unsigned char *p) { return p[0] | (p[1] << 8); }
static unsigned long le32(const unsigned char *p) {
  return p[0] | (p[1] << 8) | ((unsigned long)p[2] << 16) | ((unsigned long)p[3] << 24);
}

/* Compiles `ptx` with `opts` through the API and through the tool (writing WORK/name.cubin);
 * checks the two cubins are the same bytes and a CUDA ELF for sm_90 of the given ELF type. */
static void compareWithTool(const char *tool, const char *ptxPath, const char *ptx, size_t ptxSize,
                            const char *work, const char *name, const char *extraOpt, unsigned elfType) {
  char cmd[4096], cubinPath[2048];
  const char *opts[2];
  int numOpts = 1;
  optxasHandle h = NULL;
  optxasResult r;
  size_t size = 0, refSize = 0;
  unsigned char *cubin = NULL;
  char *ref = NULL;

  opts[0] = "-arch=sm_90";
  if (extraOpt) opts[numOpts++] = extraOpt;
  if (strlen(tool) + strlen(ptxPath) + 2 * strlen(work) + 128 > sizeof cubinPath) {
    fail(name, "paths too long");
    return;
  }
  sprintf(cubinPath, "%s/%s.cubin", work, name);
  sprintf(cmd, "'%s' -arch=sm_90 %s '%s' -o '%s'", tool, extraOpt ? extraOpt : "", ptxPath, cubinPath);
  remove(cubinPath);
  if (system(cmd) != 0) {
    fail(name, "the optxas tool failed");
    return;
  }
  ref = readFile(cubinPath, &refSize);
  if (!ref) {
    fail(name, "the optxas tool wrote no cubin");
    return;
  }

  if (optxasCreate(&h, ptx, ptxSize) != OPTXAS_SUCCESS) {
    fail(name, "optxasCreate");
    free(ref);
    return;
  }
  r = optxasCompile(h, numOpts, opts);
  if (r != OPTXAS_SUCCESS) {
    char *log = getLog(h, 0);
    printf("%s", log ? log : "");
    free(log);
    fail(name, optxasGetResultString(r));
  } else if (optxasGetCubinSize(h, &size) != OPTXAS_SUCCESS || size < 64) {
    fail(name, "no cubin");
  } else {
    cubin = (unsigned char *)malloc(size);
    if (!cubin || optxasGetCubin(h, cubin) != OPTXAS_SUCCESS) fail(name, "optxasGetCubin");
    else {
      if (memcmp(cubin, "\177ELF", 4) != 0 || cubin[4] != 2 /* ELFCLASS64 */ || cubin[5] != 1 /* LSB */)
        fail(name, "not a 64-bit little-endian ELF");
      if (le16(cubin + 16) != elfType) fail(name, "wrong ELF type (executable / relocatable)");
      if (le16(cubin + 18) != 190 /* EM_CUDA */) fail(name, "e_machine is not EM_CUDA");
      if (((le32(cubin + 48) >> 8) & 0xff) != 90) fail(name, "e_flags do not name sm_90");
      if (size != refSize || memcmp(cubin, ref, size) != 0) fail(name, "the API's cubin differs from the tool's");
    }
  }
  printf("%s: API cubin %lu bytes, tool cubin %lu bytes\n", name, (unsigned long)size, (unsigned long)refSize);
  free(cubin);
  free(ref);
  optxasDestroy(&h);
  if (h != NULL) fail(name, "optxasDestroy did not clear the handle");
}

static void checkInfoLog(const char *ptx, size_t ptxSize) {
  const char *opts[2];
  optxasHandle h = NULL;
  char *log;
  opts[0] = "-arch=sm_90";
  opts[1] = "-v";
  if (optxasCreate(&h, ptx, ptxSize) != OPTXAS_SUCCESS || optxasCompile(h, 2, opts) != OPTXAS_SUCCESS) {
    fail("-v", "compilation failed");
    optxasDestroy(&h);
    return;
  }
  log = getLog(h, 1);
  if (!log) fail("-v", "no info log");
  else {
    if (!strstr(log, "ptxas info    : Compiling entry function '")) fail("-v", "no 'Compiling entry function' line");
    if (!strstr(log, "ptxas info    : Used ")) fail("-v", "no 'Used N registers' line");
    if (!strstr(log, " bytes stack frame, ")) fail("-v", "no stack frame line");
  }
  free(log);
  log = getLog(h, 0);
  if (!log || log[0] != '\0') fail("-v", "the error log of a clean compilation is not empty");
  free(log);
  optxasDestroy(&h);
}

static void checkErrorLog(void) {
  static const char bad[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                            ".visible .entry k()\n{\n  bogus.instruction;\n  ret;\n}\n";
  const char *opts[1];
  optxasHandle h = NULL;
  size_t size;
  char *log;
  opts[0] = "-arch=sm_90";
  if (optxasCreate(&h, bad, sizeof bad) != OPTXAS_SUCCESS) {
    fail("bad PTX", "optxasCreate");
    return;
  }
  if (optxasCompile(h, 1, opts) != OPTXAS_ERROR_COMPILATION_FAILED) fail("bad PTX", "not a compilation failure");
  if (optxasGetCubinSize(h, &size) != OPTXAS_ERROR_NOT_COMPILED) fail("bad PTX", "a cubin after errors");
  log = getLog(h, 0);
  if (!log || !strstr(log, "ptxas application ptx input, line 6; error   : "))
    fail("bad PTX", "no ptxas-format error at line 6");
  if (!log || !strstr(log, "ptxas fatal   : Ptx assembly aborted due to errors\n"))
    fail("bad PTX", "no 'aborted' line");
  printf("bad PTX error log:\n%s", log ? log : "(none)\n");
  free(log);
  optxasDestroy(&h);
}

int main(int argc, char **argv) {
  size_t ptxSize = 0;
  char *ptx;
  unsigned major = 0, minor = 0;
  if (argc != 4) {
    fprintf(stderr, "usage: %s OPTXAS_TOOL PTX_FILE WORK_DIR\n", argv[0]);
    return 2;
  }
  ptx = readFile(argv[2], &ptxSize);
  if (!ptx) {
    fprintf(stderr, "cannot read %s\n", argv[2]);
    return 2;
  }
  if (optxasGetVersion(&major, &minor) != OPTXAS_SUCCESS || major != OPTXAS_API_VERSION_MAJOR)
    fail("optxasGetVersion", NULL);
  compareWithTool(argv[1], argv[2], ptx, ptxSize, argv[3], "c_client_exec", NULL, 2 /* ET_EXEC */);
  compareWithTool(argv[1], argv[2], ptx, ptxSize, argv[3], "c_client_reloc", "-c", 1 /* ET_REL */);
  checkInfoLog(ptx, ptxSize);
  checkErrorLog();
  free(ptx);
  printf("%s\n", failures ? "c_client: FAILED" : "c_client: all checks passed");
  return failures ? 1 : 0;
}
