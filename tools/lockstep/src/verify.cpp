// lockstep verify --trace T --map M: compare a model with a trace of the original program, value by value (docs/traces.md).
#include <cstdio>

#include "lockstep/traces/trace.h"
#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "progress.h"

namespace lockstep::cli {

namespace {

using namespace lockstep::traces;

struct VerifyArgs {
  std::string trace, map, scenario, format;
  bool json = false;
};

int cmd_verify(const VerifyArgs& a) {
  const Map map = load_map(a.map);
  const std::string scenario = a.scenario.empty() ? map.scenario : a.scenario;
  if (scenario.empty())
    throw InputError(a.map, "$.scenario", "no scenario: give --scenario, or \"scenario\" in the map");
  auto model = load_scenario_file(scenario);
  VerifyOptions opt;
  opt.scenario = scenario;
  if (!a.format.empty()) opt.format = a.format == "csv" ? TraceFormat::Csv : TraceFormat::JsonLines;
  Progress progress("verify", "row", 0);
  opt.progress = [&](uint64_t rows, uint64_t) { progress.update(rows); };
  auto res = verify_trace(*model, a.trace, map, opt);
  res.scenario = scenario;
  if (a.json) {
    JsonOut j = json_result("verify", res.ok());
    j.update(report_json(res));
    print_json(j);
  } else {
    std::fputs(report_text(res).c_str(), stdout);
  }
  return res.ok() ? kExitOk : kExitDiffer;
}

class Verify final : public Command {
 public:
  explicit Verify(CLI::App& app) {
    sub = app.add_subcommand("verify", "Compare a model with a trace of the original program, value by value");
    sub->add_option("--trace,-t", a_.trace, "The trace: CSV (step and one column per field) or JSON lines (.jsonl)")
        ->required()
        ->check(CLI::ExistingFile);
    sub->add_option("--map,-m", a_.map, "The map (JSON): each column's model field, type, units and tolerance")
        ->required()
        ->check(CLI::ExistingFile);
    sub->add_option("--scenario,-s", a_.scenario, "The scenario to run (default: the map's \"scenario\")")
        ->check(CLI::ExistingFile);
    sub->add_option("--format", a_.format, "csv or jsonl (default: by extension, then by content)")
        ->check(CLI::IsMember({"csv", "jsonl"}));
    add_json_flag(sub, a_.json);
    sub->footer(
        "\nExample:\n"
        "  lockstep verify --trace fixtures/traces/wander_setup.csv --map fixtures/traces/wander_setup.map.json\n"
        "\n"
        "A trace has a `step` column and one column per field:\n"
        "  step,actioncooldown,trycount,maxtries\n"
        "  0,120,0,0\n"
        "  1,119,0,0\n"
        "Values are decimal, or 0x and a float's IEEE bits (0x42f00000). A blank cell is not compared.\n"
        "The map names each column's model field and how to compare it:\n"
        "  {\"model\": \"wander\", \"scenario\": \"wander_setup.json\", \"ticks_per_step\": 1, \"tick_offset\": 0,\n"
        "   \"columns\": [{\"column\": \"actioncooldown\", \"field\": \"entities[0].actioncooldown\", \"type\": \"f32\",\n"
        "                \"tolerance\": \"exact\"}]}\n"
        "Step s is compared with the model's state at tick s x ticks_per_step + tick_offset (the state after\n"
        "that many ticks of the scenario's scripted inputs), and no further than the scenario runs: a row\n"
        "beyond its \"ticks\" (or the model's default run length) is refused. Tolerances: \"exact\" (the\n"
        "default; integers are always exact), {\"abs\": 0.001}, {\"ulps\": 2}, {\"abs\": 0.5, \"modulo\": 360}.\n"
        "docs/traces.md has the whole format.\n"
        "\n"
        "Reports the first value outside its tolerance (step, tick, column, field, expected, model, error,\n"
        "ULPs, three rows of context) and per column the first divergence and the largest error.\n"
        "Exit 0 every value within tolerance, 1 divergent, 2 bad trace, map or scenario.");
  }
  int run() override { return cmd_verify(a_); }

 private:
  VerifyArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_verify(CLI::App& app) { return std::make_unique<Verify>(app); }

}  // namespace lockstep::cli
