// The optxas command-line tool: a thin client of the driver library.
#ifdef OPTXAS_HAVE_DRIVER
#include "optxas/driver/Driver.h"
int main(int argc, char **argv) { return optxas::driver::main(argc, argv); }
#else
#include "optxas/support/Diagnostics.h"
int main() {
  optxas::DiagEngine diags;
  diags.fatal("driver not built yet");
  return 1;
}
#endif
