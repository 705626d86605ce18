// The lockstep command line as a library: a user's own game gets every command.
//
//   #include <lockstep/cli/cli.h>
//   #include "my_game.h"
//
//   int main(int argc, char** argv) {
//     lockstep::register_model_type<my::Game>();   // scenarios with "model": "my-game" make it
//     return lockstep::cli::main(argc, argv);
//   }
//
// Every command (run, record, replay, inspect, diff, gate, bisect, export, fields, trajectory,
// verify, capture, and the plumbing chain and state) then works on that model's scenarios and
// recordings, through the model contract only (lockstep/core/model.h). The bundled `lockstep`
// is exactly this with the bundled models registered (lockstep/models/bundled.h).
//
// Exit status as cmp(1): 0 same or pass, 1 divergent or fail, 2 bad usage or bad input, 3 an
// internal error.
#pragma once

namespace lockstep::cli {

/// Parse the command line, run the command, return the exit status. Never throws.
int main(int argc, char** argv);

}  // namespace lockstep::cli
