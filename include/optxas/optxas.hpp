// A thin C++ (17 or later) wrapper over the C API in optxas.h: the handle is owned by an RAII
// object, results come back as std::vector / std::string.
//
//   optxas::PtxCompiler c(ptxText);
//   if (c.compile({"-arch=sm_90", "-v"}) == OPTXAS_SUCCESS) load(c.cubin());
//   else std::cerr << c.errorLog();
#ifndef OPTXAS_OPTXAS_HPP
#define OPTXAS_OPTXAS_HPP

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "optxas/optxas.h"

namespace optxas {

// Thrown when a handle cannot be created or a getter fails unexpectedly.
class ApiError : public std::runtime_error {
public:
  explicit ApiError(optxasResult code)
      : std::runtime_error(std::string("optxas: ") + optxasGetResultString(code)), code_(code) {}
  optxasResult code() const { return code_; }

private:
  optxasResult code_;
};

class PtxCompiler {
public:
  explicit PtxCompiler(std::string_view ptx) { check(optxasCreate(&handle_, ptx.data(), ptx.size())); }
  ~PtxCompiler() {
    if (handle_) optxasDestroy(&handle_);
  }
  PtxCompiler(const PtxCompiler &) = delete;
  PtxCompiler &operator=(const PtxCompiler &) = delete;
  PtxCompiler(PtxCompiler &&o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
  PtxCompiler &operator=(PtxCompiler &&o) noexcept {
    if (this != &o) {
      if (handle_) optxasDestroy(&handle_);
      handle_ = std::exchange(o.handle_, nullptr);
    }
    return *this;
  }

  // Compiles with ptxas's command-line options; the result code says whether a cubin exists.
  // A failure is not thrown: the error log explains it.
  optxasResult compile(const std::vector<std::string> &options) {
    std::vector<const char *> argv;
    argv.reserve(options.size());
    for (const std::string &o : options) argv.push_back(o.c_str());
    return optxasCompile(handle_, static_cast<int>(argv.size()), argv.data());
  }

  // The cubin of the last successful compilation (throws ApiError if there is none).
  std::vector<char> cubin() const {
    size_t n = 0;
    check(optxasGetCubinSize(handle_, &n));
    std::vector<char> bytes(n);
    if (n) check(optxasGetCubin(handle_, bytes.data()));
    return bytes;
  }

  std::string errorLog() const { return log(optxasGetErrorLogSize, optxasGetErrorLog); }
  std::string infoLog() const { return log(optxasGetInfoLogSize, optxasGetInfoLog); }

  optxasHandle handle() const { return handle_; }

private:
  static void check(optxasResult r) {
    if (r != OPTXAS_SUCCESS) throw ApiError(r);
  }
  std::string log(optxasResult (*sizeOf)(optxasHandle, size_t *), optxasResult (*get)(optxasHandle, char *)) const {
    size_t n = 0;
    check(sizeOf(handle_, &n));
    std::string text(n, '\0');
    check(get(handle_, text.data()));
    text.resize(n ? n - 1 : 0);  // drop the terminating NUL
    return text;
  }

  optxasHandle handle_ = nullptr;
};

} // namespace optxas

#endif // OPTXAS_OPTXAS_HPP
