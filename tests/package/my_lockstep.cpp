// An outside project's own `lockstep`: the installed command line (lockstep::cli) over its own
// model. Every command then opens this game's scenarios and recordings.
#include <lockstep/cli/cli.h>

#include "counter.h"

int main(int argc, char** argv) {
  lockstep::register_model_type<game::Counter>();
  return lockstep::cli::main(argc, argv);
}
