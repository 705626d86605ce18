// lockstep fields SCENARIO [PATTERN...]: every leaf of a model's state with its type and where the original keeps it.
#include <cstdio>

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"

namespace lockstep::cli {

namespace {

class Fields final : public Command {
 public:
  explicit Fields(CLI::App& app) {
    sub = app.add_subcommand("fields", "List a model's state fields: path, type and the original's offset");
    add_scenario_arg(sub, scenario_);
    sub->add_option("patterns", globs_, "Field paths or globs to list (default: all): 'humans[1].brain.*', '**.speed'");
    add_json_flag(sub, json_);
    sub->footer(
        "\nExample:\n  lockstep fields fixtures/warriors/runtime_case.json 'humans[1].brain.*'\n"
        "The third column is where the original program keeps the field (\"brain+0x114\": the brain's\n"
        "+0x114), from the model's field listing: what a trace map's \"field\" names (docs/traces.md).\n\n"
        "Exit 0 when fields are listed, 2 for a bad scenario or a pattern that matches no field.");
  }

  int run() override {
    auto model = load_scenario_file(scenario_);
    const auto leaves = model->leaves();
    std::size_t shown = 0;
    JsonOut list = JsonOut::array();
    for (const auto& l : leaves) {
      bool want = globs_.empty();
      for (const auto& g : globs_) want = want || path_matches(g, l.path);
      if (!want) continue;
      const char* kind = leaf_kind_name(l.ref.kind);
      if (json_)
        list.push_back(JsonOut{{"path", l.path}, {"type", kind}, {"original", l.original}});
      else
        std::printf("%-48s %-4s %s\n", l.path.c_str(), kind, l.original.c_str());
      ++shown;
    }
    if (shown == 0)
      throw InputError(scenario_, "pattern " + join(globs_, " "),
                       "matches no field of the " + model->info().name + " state (without a pattern, every field is listed)");
    if (json_) {
      JsonOut j = json_result("fields", true);
      j["model"] = model->info().name;
      j["fields"] = std::move(list);
      print_json(j);
    }
    return kExitOk;
  }

 private:
  std::string scenario_;
  std::vector<std::string> globs_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_fields(CLI::App& app) { return std::make_unique<Fields>(app); }

}  // namespace lockstep::cli
