// lockstep gate GATE.json: run scenarios against their golden recordings (the CI gate).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include "lockstep/verify/gate.h"

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/replay/lsr.h"

namespace lockstep::cli {

namespace {

struct GateArgs {
  std::string file, junit, keep, shard = "1/1";
  bool update = false, update_all = false, json = false;
};

int cmd_gate(const GateArgs& a) {
  lockstep::verify::GateOptions opt;
  opt.update = a.update;
  opt.update_all = a.update_all;
  opt.keep = a.keep;
  {
    const auto slash = a.shard.find('/');
    char* e1 = nullptr;
    char* e2 = nullptr;
    const std::string i = a.shard.substr(0, slash), n = slash == std::string::npos ? "" : a.shard.substr(slash + 1);
    const unsigned long si = std::strtoul(i.c_str(), &e1, 10), sn = std::strtoul(n.c_str(), &e2, 10);
    if (slash == std::string::npos || i.empty() || n.empty() || *e1 || *e2 || si == 0 || sn == 0 || si > sn || sn > 100000)
      throw lockstep::InputError("--shard", a.shard, "expected K/N, shard K of N with 1 <= K <= N, e.g. 2/4");
    opt.shard = static_cast<uint32_t>(si);
    opt.shards = static_cast<uint32_t>(sn);
  }
  if (opt.update || opt.update_all) {
    const std::string rev = lockstep::lsr::this_build().revision;
    if (rev.size() >= 6 && rev.compare(rev.size() - 6, 6, "-dirty") == 0)
      std::fprintf(stderr,
                   "lockstep: note: this build's revision %s has uncommitted changes, and the golden recordings written "
                   "now name it: commit, rebuild, then update\n",
                   rev.c_str());
  }
  if (!a.json) opt.log = [](const std::string& line) { std::printf("%s\n", line.c_str()); std::fflush(stdout); };
  const auto g = lockstep::verify::load_gate(a.file);
  const auto cases = lockstep::verify::run_gate(a.file, opt);
  std::size_t failed = 0, errored = 0;
  for (const auto& c : cases) {
    failed += c.passed || c.errored ? 0 : 1;
    errored += c.errored ? 1 : 0;
  }
  if (!a.junit.empty()) {
    std::ofstream out(a.junit, std::ios::binary);
    if (!out) throw lockstep::InputError(a.junit, "", "cannot write the JUnit report");
    out << lockstep::verify::junit_xml(g.name, cases, opt.shard, opt.shards);
  }
  if (a.json) {
    JsonOut j = json_result("gate", failed == 0 && errored == 0);
    j["shard"] = std::to_string(opt.shard) + "/" + std::to_string(opt.shards);
    j["passed"] = cases.size() - failed - errored;
    j["failed"] = failed;
    j["errored"] = errored;
    JsonOut list = JsonOut::array();
    for (const auto& c : cases) {
      list.push_back(JsonOut{{"scenario", c.name}, {"passed", c.passed}, {"errored", c.errored}, {"updated", c.updated},
                             {"ticks", c.ticks}, {"message", c.message}});
      if (!c.kept.empty()) list.back()["kept"] = c.kept;
      if (!c.expected.empty()) list.back()["expected"] = c.expected;
    }
    j["cases"] = std::move(list);
    print_json(j);
  } else {
    for (const auto& c : cases)
      if (!c.passed && !c.report.empty()) std::printf("\n%s:\n%s", c.name.c_str(), c.report.c_str());
    std::printf("gate: %zu passed, %zu failed, %zu errored\n", cases.size() - failed - errored, failed, errored);
  }
  return errored ? kExitBadInput : failed ? kExitDiffer : kExitOk;
}

class Gate final : public Command {
 public:
  explicit Gate(CLI::App& app) {
    sub = app.add_subcommand("gate", "Run scenarios against their golden recordings: the CI gate");
    sub->add_option("gatefile", a_.file, "A gate file (JSON: scenarios, ticks, golden recordings)")->required()->check(CLI::ExistingFile);
    sub->add_option("--junit", a_.junit, "Write JUnit XML here: one test case per scenario");
    sub->add_flag("--update", a_.update,
                  "Write the golden recordings that are missing or differ, and their manifest lines (review the change!)");
    sub->add_flag("--update-all", a_.update_all,
                  "Rewrite every golden recording and manifest line from this build, even when the behaviour is the same "
                  "(to stamp them with a new revision)");
    sub->add_option("--keep", a_.keep, "Keep each failing run's recording in this folder (the report names it)");
    sub->add_option("--shard", a_.shard,
                    "Run shard K of N: the scenarios whose index (from 0, in the gate file's order) modulo N is K-1; "
                    "the JUnit report names the shard");
    add_json_flag(sub, a_.json);
    sub->footer("\nExamples:\n  lockstep gate fixtures/gate.json --junit gate.xml\n"
                "  lockstep gate fixtures/gate.json --shard 2/4 --junit gate-2.xml   # one of four CI jobs (docs/ci.md)\n"
                "  lockstep gate fixtures/gate.json --update   # after a reviewed change: goldens and manifest\n"
                "Exit 0 when every scenario matches its golden recording, 1 when any diverges (the report is\n"
                "lockstep diff's), 2 for a bad gate file, or when any scenario or golden recording is bad: that\n"
                "case is an errored case (JUnit <error>) and the others still run.");
  }
  int run() override { return cmd_gate(a_); }

 private:
  GateArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_gate(CLI::App& app) { return std::make_unique<Gate>(app); }

}  // namespace lockstep::cli
