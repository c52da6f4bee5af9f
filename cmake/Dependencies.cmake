# Third-party dependencies, all from Debian's archive (see tools/install-deps.sh).
find_package(LLVM 14 REQUIRED CONFIG HINTS /usr/lib/llvm-14/lib/cmake/llvm)
# Only LLVM Support (llvm::cl, ADT) is used; link its static archive, not all of libLLVM.
add_library(optxas_llvm INTERFACE)
target_include_directories(optxas_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(optxas_llvm INTERFACE ${LLVM_DEFINITIONS})
llvm_map_components_to_libnames(OPTXAS_LLVM_LIBS support)
target_link_libraries(optxas_llvm INTERFACE ${OPTXAS_LLVM_LIBS})

find_package(fmt REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
find_package(Threads REQUIRED)

if(OPTXAS_BUILD_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
endif()
