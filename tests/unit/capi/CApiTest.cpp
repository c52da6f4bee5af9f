// The library API against the command-line tool: the same PTX and options give the same cubin
// bytes, the error log holds what the tool prints on stderr, the info log the -v report.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "optxas/optxas.h"
#include "optxas/optxas.hpp"

namespace {

namespace fs = std::filesystem;

const char *kBadPtx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u64 p)\n{\n  .reg .b64 %rd<2>;\n"
                      "  ld.param.u64 %rd1, [q];\n  ret;\n}\n";

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string examplePtx() { return readFile(fs::path(OPTXAS_SOURCE_DIR) / "tests/api/simple.ptx"); }

struct ToolRun {
  int status = -1;
  std::string stderrText;
};

// A scratch folder for the tool's files, removed at the end of the test.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    path = fs::temp_directory_path() / ("capi-test-" + std::to_string(getpid()));
    fs::create_directories(path);
  }
  ~ScratchDir() { fs::remove_all(path); }
};

std::string optxasTool() { return std::string(OPTXAS_BINARY_DIR) + "/bin/optxas"; }

// NVIDIA's ptxas on PATH (the oracle), or "" if there is none.
std::string ptxasTool() {
  const char *path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string d; std::getline(dirs, d, ':');)
    if (!d.empty() && access((d + "/ptxas").c_str(), X_OK) == 0) return d + "/ptxas";
  return "";
}

// Runs a tool (optxas unless told) in `cwd` with exactly these arguments (no shell), capturing
// stderr.
ToolRun runTool(const std::vector<std::string> &args, const fs::path &cwd, std::string tool = optxasTool()) {
  fs::path errFile = cwd / "tool.stderr";
  std::vector<std::string> copy = args;
  std::vector<char *> argv{tool.data()};
  for (std::string &a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  ToolRun r;
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 2) < 0 || chdir(cwd.c_str()) != 0) _exit(127);
    execv(tool.c_str(), argv.data());
    _exit(127);
  }
  int ws = 0;
  if (pid > 0 && waitpid(pid, &ws, 0) == pid) r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
  r.stderrText = readFile(errFile);
  return r;
}

// The timing in "Compile time = 1.234 ms" differs from run to run.
std::string withoutTimes(const std::string &log) {
  return std::regex_replace(log, std::regex("Compile time = [0-9.]+ ms"), "Compile time = T ms");
}

// The cubin the tool writes for this PTX with these options (empty if it writes none). The
// input file is named as the API names its PTX, so that the tool's diagnostics read the same.
std::string toolCubin(const std::string &ptx, std::vector<std::string> opts, ToolRun *run = nullptr,
                      const std::string &tool = optxasTool()) {
  ScratchDir dir;
  { std::ofstream(dir.path / "application ptx input", std::ios::binary) << ptx; }
  opts.insert(opts.end(), {"application ptx input", "-o", "out.cubin"});
  ToolRun r = runTool(opts, dir.path, tool);
  if (run) *run = r;
  return fs::exists(dir.path / "out.cubin") ? readFile(dir.path / "out.cubin") : std::string();
}

void expectCudaElfForSm90(const std::vector<char> &c, uint16_t elfType) {
  ASSERT_GE(c.size(), 64u);
  auto u8 = [&](size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(c[i])); };
  EXPECT_EQ(std::string(c.data(), 4), "\177ELF");
  EXPECT_EQ(u8(4), 2u);                       // ELFCLASS64
  EXPECT_EQ(u8(16) | u8(17) << 8, elfType);   // ET_EXEC, or ET_REL for -c
  EXPECT_EQ(u8(18) | u8(19) << 8, 190u);      // EM_CUDA
  EXPECT_EQ(u8(49), 90u);                     // e_flags: the SM number in bits 8..15
}

} // namespace

TEST(CApi, CubinEqualsToolOutput) {
  const std::vector<std::pair<std::vector<std::string>, int>> optionSets = {
      {{"-arch=sm_90"}, 2},
      {{"-arch", "sm_90", "-O1"}, 2},
      {{"-arch=sm_90", "-c"}, 1},
      {{"-arch=sm_90", "-maxrregcount=24"}, 2}};
  for (const char *file : {"tests/api/simple.ptx", "examples/vecadd.ptx"}) {
    std::string ptx = readFile(fs::path(OPTXAS_SOURCE_DIR) / file);
    for (const auto &[opts, elfType] : optionSets) {
      SCOPED_TRACE(std::string(file) + " " + opts.back());
      optxas::PtxCompiler c(ptx);
      ASSERT_EQ(c.compile(opts), OPTXAS_SUCCESS) << c.errorLog();
      std::vector<char> cubin = c.cubin();
      expectCudaElfForSm90(cubin, static_cast<uint16_t>(elfType));
      std::string ref = toolCubin(ptx, opts);
      ASSERT_FALSE(ref.empty());
      EXPECT_TRUE(std::string(cubin.begin(), cubin.end()) == ref)
          << "API " << cubin.size() << " bytes, tool " << ref.size();
    }
  }
}

TEST(CApi, ErrorLogIsWhatTheToolPrints) {
  optxas::PtxCompiler c(kBadPtx);
  EXPECT_EQ(c.compile({"-arch=sm_90"}), OPTXAS_ERROR_COMPILATION_FAILED);
  ToolRun tool;
  EXPECT_TRUE(toolCubin(kBadPtx, {"-arch=sm_90"}, &tool).empty());
  EXPECT_EQ(tool.status, 255);
  EXPECT_EQ(c.errorLog(), tool.stderrText);
  EXPECT_NE(c.errorLog().find("ptxas application ptx input, line 7; error   : "), std::string::npos) << c.errorLog();
  EXPECT_EQ(c.infoLog(), "");
  size_t n = 0;
  EXPECT_EQ(optxasGetCubinSize(c.handle(), &n), OPTXAS_ERROR_NOT_COMPILED);
  EXPECT_THROW(c.cubin(), optxas::ApiError);
}

TEST(CApi, InfoLogHasTheVerboseReport) {
  std::string ptx = examplePtx();
  optxas::PtxCompiler c(ptx);
  ASSERT_EQ(c.compile({"-arch=sm_90", "-v"}), OPTXAS_SUCCESS) << c.errorLog();
  std::string info = c.infoLog();
  EXPECT_NE(info.find("ptxas info    : Compiling entry function 'add_ints' for 'sm_90'"), std::string::npos) << info;
  EXPECT_TRUE(std::regex_search(info, std::regex("ptxas info    : Used [0-9]+ registers")));
  EXPECT_NE(info.find("bytes stack frame, "), std::string::npos);
  EXPECT_EQ(c.errorLog(), "");
  ToolRun tool;
  EXPECT_FALSE(toolCubin(ptx, {"-arch=sm_90", "-v"}, &tool).empty());
  EXPECT_EQ(withoutTimes(info), withoutTimes(tool.stderrText));
}

TEST(CApi, BadOptionsGoToTheErrorLog) {
  optxas::PtxCompiler c(examplePtx());
  EXPECT_EQ(c.compile({"-arch=sm_12"}), OPTXAS_ERROR_INVALID_OPTION);
  ScratchDir dir;
  ToolRun tool = runTool({"-arch=sm_12", "x.ptx"}, dir.path);
  EXPECT_EQ(tool.status, 255);
  EXPECT_FALSE(c.errorLog().empty());
  EXPECT_EQ(c.errorLog(), tool.stderrText);
  // A later compilation on the same handle starts with fresh logs.
  EXPECT_EQ(c.compile({"-arch=sm_90"}), OPTXAS_SUCCESS);
  EXPECT_EQ(c.errorLog(), "");
  EXPECT_FALSE(c.cubin().empty());
}

TEST(CApi, ToolOnlyOptionsAreRefused) {
  for (std::vector<std::string> opts : {std::vector<std::string>{"-arch=sm_90", "other.ptx"},
                                        {"-arch=sm_90", "-o", "x.cubin"},
                                        {"-arch=sm_90", "--input-as-string", ".version 8.0"},
                                        {"--version"}}) {
    optxas::PtxCompiler c(examplePtx());
    EXPECT_EQ(c.compile(opts), OPTXAS_ERROR_INVALID_OPTION) << opts.back();
    EXPECT_NE(c.errorLog().find("ptxas fatal   : not an option of the library API"), std::string::npos) << c.errorLog();
  }
}

TEST(CApi, VirtualArchitectureChecksButHasNoCode) {
  optxas::PtxCompiler c(examplePtx());
  EXPECT_EQ(c.compile({"-arch=compute_90"}), OPTXAS_SUCCESS) << c.errorLog();
  size_t n = 0;
  EXPECT_EQ(optxasGetCubinSize(c.handle(), &n), OPTXAS_ERROR_NO_CODE);
}

TEST(CApi, HandleAndArgumentChecks) {
  optxasHandle h = nullptr;
  size_t n = 0;
  EXPECT_EQ(optxasCompile(nullptr, 0, nullptr), OPTXAS_ERROR_INVALID_HANDLE);
  EXPECT_EQ(optxasGetErrorLogSize(nullptr, &n), OPTXAS_ERROR_INVALID_HANDLE);
  EXPECT_EQ(optxasDestroy(&h), OPTXAS_ERROR_INVALID_HANDLE);
  EXPECT_EQ(optxasCreate(nullptr, "x", 1), OPTXAS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(optxasCreate(&h, nullptr, 3), OPTXAS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(h, nullptr);
  ASSERT_EQ(optxasCreate(&h, "", 0), OPTXAS_SUCCESS);
  EXPECT_EQ(optxasGetCubinSize(h, &n), OPTXAS_ERROR_NOT_COMPILED);
  EXPECT_EQ(optxasGetErrorLogSize(h, &n), OPTXAS_SUCCESS);
  EXPECT_EQ(n, 1u);  // an empty log is just its NUL
  const char *nullOption[] = {nullptr};
  EXPECT_EQ(optxasCompile(h, 1, nullOption), OPTXAS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(optxasCompile(h, -1, nullptr), OPTXAS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(optxasDestroy(&h), OPTXAS_SUCCESS);
  EXPECT_EQ(h, nullptr);
  unsigned major = 0, minor = 99;
  EXPECT_EQ(optxasGetVersion(&major, &minor), OPTXAS_SUCCESS);
  EXPECT_EQ(major, unsigned(OPTXAS_API_VERSION_MAJOR));
  EXPECT_EQ(minor, unsigned(OPTXAS_API_VERSION_MINOR));
  EXPECT_STREQ(optxasGetResultString(OPTXAS_SUCCESS), "success");
}

TEST(CApi, WrapperIsMoveOnly) {
  optxas::PtxCompiler a(examplePtx());
  optxasHandle h = a.handle();
  optxas::PtxCompiler b(std::move(a));
  EXPECT_EQ(b.handle(), h);
  EXPECT_EQ(a.handle(), nullptr);
  EXPECT_EQ(b.compile({"-arch=sm_90"}), OPTXAS_SUCCESS);
  static_assert(!std::is_copy_constructible_v<optxas::PtxCompiler>);
}

// nvcc -G passes -g: ptxas then compiles unoptimized, refuses an explicit -O above 0 before any
// other check, and ignores -lineinfo with a warning. Checked against ptxas itself.
TEST(CApi, DeviceDebugOptionsAsPtxas) {
  std::string ptxas = ptxasTool();
  if (ptxas.empty()) GTEST_SKIP() << "SKIPPED: ptxas (the oracle) not on PATH";
  std::string ptx = examplePtx();
  for (std::vector<std::string> opts : {std::vector<std::string>{"-arch=sm_90", "-g", "-O3"},
                                        {"-arch=sm_90", "-O1", "-dlcm=zz", "-g"}}) {
    optxas::PtxCompiler c(ptx);
    EXPECT_EQ(c.compile(opts), OPTXAS_ERROR_COMPILATION_FAILED);
    ToolRun ref;
    EXPECT_TRUE(toolCubin(ptx, opts, &ref, ptxas).empty());
    EXPECT_EQ(ref.status, 255);
    EXPECT_EQ(c.errorLog(), ref.stderrText);
  }
  for (std::vector<std::string> opts : {std::vector<std::string>{"-arch=sm_90", "-g", "-O0"},
                                        {"-arch=sm_90", "-g", "-O"},
                                        {"-arch=sm_90", "-g", "-lineinfo"}}) {
    optxas::PtxCompiler c(ptx);
    EXPECT_EQ(c.compile(opts), OPTXAS_SUCCESS) << c.errorLog();
    ToolRun ref;
    EXPECT_FALSE(toolCubin(ptx, opts, &ref, ptxas).empty());
    const std::string conflict = "ptxas warning : Conflicting options --device-debug and --generate-line-info "
                                 "specified, ignoring --generate-line-info option\n";
    bool lineinfo = opts.back() == "-lineinfo";
    EXPECT_EQ(c.errorLog().find(conflict) != std::string::npos, lineinfo) << c.errorLog();
    EXPECT_EQ(ref.stderrText.find(conflict) != std::string::npos, lineinfo) << ref.stderrText;
  }
}

// Separate handles on separate threads: every thread gets the single-threaded cubin.
TEST(CApi, HandlesOnSeparateThreads) {
  std::string ptx = examplePtx();
  optxas::PtxCompiler one(ptx);
  ASSERT_EQ(one.compile({"-arch=sm_90"}), OPTXAS_SUCCESS);
  const std::vector<char> want = one.cubin();
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int k = 0; k < 3; ++k) {
        optxas::PtxCompiler c(ptx);
        if (c.compile({"-arch=sm_90"}) != OPTXAS_SUCCESS || c.cubin() != want) ++mismatches[t];
      }
    });
  for (std::thread &th : threads) th.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}
