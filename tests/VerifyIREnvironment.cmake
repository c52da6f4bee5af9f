# Included by ctest (TEST_INCLUDE_FILES of tests/) while it reads the test list, before any test
# runs: every test's optxas runs phase 0's full IR verifier (docs/phases.md, OriCheckInitialProgram).
set(ENV{OPTXAS_VERIFY_IR} 1)
