# optxas_component(NAME DEPS a b c): one static library per pipeline folder, built from every
# .cpp in it (and its subfolders), so that adding a file needs no CMake edit.
function(optxas_component name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  add_library(optxas_${name} STATIC ${srcs})
  target_include_directories(optxas_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include
                                            PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(optxas_${name} PUBLIC ${ARG_DEPS})
endfunction()

# optxas_unit_test(NAME DEPS ...): a gtest binary from tests/unit/NAME/*.cpp, registered with ctest.
function(optxas_unit_test name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(NOT srcs)
    return()
  endif()
  add_executable(unit_${name} ${srcs})
  target_link_libraries(unit_${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(unit_${name} PRIVATE OPTXAS_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                                  OPTXAS_BINARY_DIR="${PROJECT_BINARY_DIR}")
  gtest_discover_tests(unit_${name} TEST_PREFIX "${name}." DISCOVERY_TIMEOUT 60)
endfunction()
