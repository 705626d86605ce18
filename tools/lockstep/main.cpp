// lockstep: the command line over the bundled models. A user's own game builds the same in a few
// lines with its own model registered (lockstep/cli/cli.h, docs/library.md).
#include "lockstep/cli/cli.h"
#include "lockstep/models/bundled.h"

int main(int argc, char** argv) {
  lockstep::register_bundled_models();
  return lockstep::cli::main(argc, argv);
}
