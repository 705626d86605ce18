// The lockstep command line: the app, its commands (one file each), and the exit statuses.
#include "lockstep/cli/cli.h"

#include <cstdio>
#include <exception>

#include "command.h"
#include "lockstep/core/error.h"
#include "lockstep/core/fpenv.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/trajectory/sqlite.h"

namespace lockstep::cli {

namespace {

int parse_and_run(int argc, char** argv) {
  CLI::App app{
      "lockstep: deterministic game-AI simulation. Step a model tick by tick and prove every build\n"
      "computes the same bits.\n\n"
      "Exit status as cmp(1): 0 same or pass, 1 divergent or fail, 2 bad usage or bad input.",
      "lockstep"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  const auto& build = lsr::this_build();
  app.set_version_flag("--version", std::string("lockstep ") + build.revision + " (" + build.compiler + ", " + build.arch +
                                        ", floating point: " + process_fp_env().text() + ")");
  // A host that changed the floating-point mode (a program linked with -ffast-math sets
  // flush-to-zero before main): say so; the model steps put the IEEE default back (fpenv.h).
  if (const auto fp = process_fp_env(); !fp.ieee_default())
    std::fprintf(stderr, "lockstep: note: this process started with %s (as a program linked with -ffast-math does); "
                         "every model step runs in the IEEE default and puts this mode back after it\n", fp.text().c_str());

  // The order of the help's listing.
  std::vector<std::unique_ptr<Command>> commands;
  for (auto make : {make_run, make_fields, make_trajectory, make_record, make_replay, make_inspect, make_export, make_diff, make_view,
                    make_gate, make_verify, make_capture, make_bisect, make_profile, make_chain, make_state})
    commands.push_back(make(app));

  // A first word that is no command and no flag: say so, rather than CLI11's "A subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    bool known = false;
    std::string names;
    for (const auto& c : commands) {
      known = known || c->sub->get_name() == word;
      names += (names.empty() ? "" : ", ") + c->sub->get_name();
    }
    if (!known) {
      std::fprintf(stderr, "lockstep: no command '%s' (the commands: %s)\nRun 'lockstep --help' for usage.\n", word.c_str(),
                   names.c_str());
      return kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line with the program's prefix, then one pointer to the help of the command at fault.
    std::string help = "lockstep --help";
    for (auto& c : commands)
      if (c->sub->parsed()) help = "lockstep " + c->sub->get_name() + " --help";
    std::fprintf(stderr, "lockstep: %s\nRun '%s' for usage.\n", e.what(), help.c_str());
    return kExitBadInput;
  }
  for (auto& c : commands)
    if (c->sub->parsed()) return c->run();
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return parse_and_run(argc, argv);
  } catch (const InputError& e) {
    std::fprintf(stderr, "lockstep: %s\n", e.what());
    return kExitBadInput;
  } catch (const trajectory::TrajectoryError& e) {
    std::fprintf(stderr, "lockstep: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lockstep: internal error: %s\n", e.what());
    return kExitInternal;
  }
}

}  // namespace lockstep::cli
