// The C library API (include/optxas/optxas.h) over the driver's compile entry point
// (driver::compileInvocation), which the command-line tool uses too: same options, same
// diagnostics, same cubin bytes. Messages are split into the two logs by severity.
#include "optxas/optxas.h"

#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "optxas/driver/Driver.h"

struct optxasCompiler {
  std::string ptx;
  bool compiled = false;         // the last optxasCompile succeeded
  bool codeGenerated = false;
  std::vector<uint8_t> cubin;
  std::string errorLog, infoLog;
};

namespace {

using namespace optxas;

// What diagnostics call the handle's PTX: ptxas's name for a --input-as-string text.
constexpr const char *kInputName = "application ptx input";

// Options that would make the tool read or write files of its own, or print a text instead of
// compiling, have no meaning for a handle that holds its PTX and returns its cubin.
bool refuseToolOnlyOptions(const driver::ParsedCommandLine &cl, DiagEngine &diags) {
  std::string why;
  if (cl.action != driver::Action::Compile) why = "--help, --version and --list-version";
  else if (!cl.options.inputs.empty())
    why = fmt::format("input file '{}' (the handle's PTX is the input)", cl.options.inputs.front());
  else if (!cl.options.inputStrings.empty()) why = "--input-as-string (the handle's PTX is the input)";
  else if (cl.options.outputFileGiven) why = "--output-file (optxasGetCubin returns the output)";
  else return true;
  diags.report(Severity::Fatal, fmt::format("not an option of the library API: {}", why));
  return false;
}

optxasResult compile(optxasCompiler &c, int numOptions, const char *const *options) {
  c.compiled = c.codeGenerated = false;
  c.cubin.clear();
  c.errorLog.clear();
  c.infoLog.clear();
  DiagEngine diags([&c](Severity sev, const std::string &line) {
    std::string &log = sev == Severity::Info ? c.infoLog : c.errorLog;
    log += line;
    log += '\n';
  });

  std::vector<std::string> args;
  for (int i = 0; i < numOptions; ++i) {
    if (!options[i]) return OPTXAS_ERROR_INVALID_ARGUMENT;
    args.emplace_back(options[i]);
  }
  driver::ParsedCommandLine cl = driver::parseCommandLine(args, diags);
  if (cl.action == driver::Action::Exit || !refuseToolOnlyOptions(cl, diags)) return OPTXAS_ERROR_INVALID_OPTION;

  auto readHandlePtx = [&c](std::vector<api::Input> &inputs, DiagEngine &) {
    inputs.push_back({kInputName, c.ptx});
    return true;
  };
  driver::Invocation inv = driver::compileInvocation(cl.options, readHandlePtx, diags);
  if (inv.status != 0) return OPTXAS_ERROR_COMPILATION_FAILED;
  c.compiled = true;
  c.codeGenerated = inv.codeGenerated;
  c.cubin = std::move(inv.cubin);
  return OPTXAS_SUCCESS;
}

// Copies a log with its terminating NUL.
optxasResult copyLog(const std::string &log, char *buffer) {
  if (!buffer) return OPTXAS_ERROR_INVALID_ARGUMENT;
  std::memcpy(buffer, log.c_str(), log.size() + 1);
  return OPTXAS_SUCCESS;
}

// Runs an API body, turning C++ exceptions into result codes (none may cross into C).
template <typename F> optxasResult guarded(F &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return OPTXAS_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    return OPTXAS_ERROR_INTERNAL;
  }
}

} // namespace

extern "C" {

optxasResult optxasGetVersion(unsigned int *major, unsigned int *minor) {
  if (!major || !minor) return OPTXAS_ERROR_INVALID_ARGUMENT;
  *major = OPTXAS_API_VERSION_MAJOR;
  *minor = OPTXAS_API_VERSION_MINOR;
  return OPTXAS_SUCCESS;
}

const char *optxasGetResultString(optxasResult result) {
  switch (result) {
  case OPTXAS_SUCCESS: return "success";
  case OPTXAS_ERROR_INVALID_HANDLE: return "invalid handle";
  case OPTXAS_ERROR_INVALID_ARGUMENT: return "invalid argument";
  case OPTXAS_ERROR_INVALID_OPTION: return "invalid option (see the error log)";
  case OPTXAS_ERROR_COMPILATION_FAILED: return "compilation failed (see the error log)";
  case OPTXAS_ERROR_NOT_COMPILED: return "not compiled";
  case OPTXAS_ERROR_NO_CODE: return "no code generated for a virtual architecture";
  case OPTXAS_ERROR_OUT_OF_MEMORY: return "out of memory";
  case OPTXAS_ERROR_INTERNAL: return "internal error";
  }
  return "unknown result code";
}

optxasResult optxasCreate(optxasHandle *handle, const char *ptx, size_t size) {
  if (!handle) return OPTXAS_ERROR_INVALID_ARGUMENT;
  *handle = nullptr;
  if (!ptx && size != 0) return OPTXAS_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    while (size > 0 && ptx[size - 1] == '\0') --size;
    auto *c = new optxasCompiler;
    c->ptx.assign(ptx ? ptx : "", size);
    *handle = c;
    return OPTXAS_SUCCESS;
  });
}

optxasResult optxasDestroy(optxasHandle *handle) {
  if (!handle) return OPTXAS_ERROR_INVALID_ARGUMENT;
  if (!*handle) return OPTXAS_ERROR_INVALID_HANDLE;
  delete *handle;
  *handle = nullptr;
  return OPTXAS_SUCCESS;
}

optxasResult optxasCompile(optxasHandle handle, int numOptions, const char *const *options) {
  if (!handle) return OPTXAS_ERROR_INVALID_HANDLE;
  if (numOptions < 0 || (numOptions > 0 && !options)) return OPTXAS_ERROR_INVALID_ARGUMENT;
  optxasResult r = guarded([&] { return compile(*handle, numOptions, options); });
  if (r == OPTXAS_ERROR_INTERNAL || r == OPTXAS_ERROR_OUT_OF_MEMORY) {
    handle->compiled = false;
    handle->cubin.clear();
  }
  return r;
}

optxasResult optxasGetCubinSize(optxasHandle handle, size_t *size) {
  if (!handle) return OPTXAS_ERROR_INVALID_HANDLE;
  if (!size) return OPTXAS_ERROR_INVALID_ARGUMENT;
  if (!handle->compiled) return OPTXAS_ERROR_NOT_COMPILED;
  if (!handle->codeGenerated) return OPTXAS_ERROR_NO_CODE;
  *size = handle->cubin.size();
  return OPTXAS_SUCCESS;
}

optxasResult optxasGetCubin(optxasHandle handle, void *buffer) {
  if (!handle) return OPTXAS_ERROR_INVALID_HANDLE;
  if (!buffer) return OPTXAS_ERROR_INVALID_ARGUMENT;
  if (!handle->compiled) return OPTXAS_ERROR_NOT_COMPILED;
  if (!handle->codeGenerated) return OPTXAS_ERROR_NO_CODE;
  std::memcpy(buffer, handle->cubin.data(), handle->cubin.size());
  return OPTXAS_SUCCESS;
}

optxasResult optxasGetErrorLogSize(optxasHandle handle, size_t *size) {
  if (!handle) return OPTXAS_ERROR_INVALID_HANDLE;
  if (!size) return OPTXAS_ERROR_INVALID_ARGUMENT;
  *size = handle->errorLog.size() + 1;
  return OPTXAS_SUCCESS;
}

optxasResult optxasGetErrorLog(optxasHandle handle, char *buffer) {
  if (!handle) return OPTXAS_ERROR_INVALID_HANDLE;
  return copyLog(handle->errorLog, buffer);
}

optxasResult optxasGetInfoLogSize(optxasHandle handle, size_t *size) {
  if (!handle) return OPTXAS_ERROR_INVALID_HANDLE;
  if (!size) return OPTXAS_ERROR_INVALID_ARGUMENT;
  *size = handle->infoLog.size() + 1;
  return OPTXAS_SUCCESS;
}

optxasResult optxasGetInfoLog(optxasHandle handle, char *buffer) {
  if (!handle) return OPTXAS_ERROR_INVALID_HANDLE;
  return copyLog(handle->infoLog, buffer);
}

} // extern "C"
