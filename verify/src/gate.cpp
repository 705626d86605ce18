#include "lockstep/verify/gate.h"

#include <cctype>
#include <chrono>
#include <filesystem>

#include "lockstep/core/json_load.h"
#include "lockstep/core/model.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/verify/rundiff.h"

namespace lockstep::verify {

namespace fs = std::filesystem;

namespace {

std::string resolve(const std::string& gate_path, const std::string& p) {
  const fs::path q(p);
  if (q.is_absolute()) return p;
  return (fs::path(gate_path).parent_path() / q).lexically_normal().string();
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') o += ' ';
        else o += c;
    }
  }
  return o;
}

uint64_t record_to(const std::string& scenario_path, uint64_t ticks_opt, uint32_t keyframe_every, const std::string& out) {
  auto m = load_scenario_file(scenario_path);
  uint64_t ticks = ticks_opt;
  if (ticks == 0) ticks = m->default_ticks();
  lsr::RecorderOptions opt;
  opt.keyframe_every = keyframe_every;
  lsr::Recorder rec(out, *m, opt);
  for (uint64_t k = 0; k < ticks; ++k) {
    const auto in = m->scripted_input();
    m->step(in);
    rec.tick(in, *m);
  }
  rec.finish();
  return ticks;
}

}  // namespace

GateFile load_gate(const std::string& path) {
  GateFile g;
  JsonReader r(path);
  r.read(parse_json_file(path), g, "$");
  if (g.scenarios.empty()) r.fail("$.scenarios", "a gate needs at least one scenario");
  for (std::size_t i = 0; i < g.scenarios.size(); ++i) {
    const auto& s = g.scenarios[i];
    const std::string at = "$.scenarios[" + std::to_string(i) + "]";
    if (s.scenario.empty()) r.fail(at + ".scenario", "expected the scenario's path");
    if (s.golden.empty()) r.fail(at + ".golden", "expected the golden recording's path");
  }
  return g;
}

namespace {

/// A file name for a case's kept recording: its index and its scenario path, '/' and the like made '_'.
std::string kept_name(std::size_t i, const std::string& scenario) {
  std::string n = std::to_string(i) + "-";
  for (char c : fs::path(scenario).replace_extension().string())
    n += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return n + ".lsr";
}

/// Judge one case: record the scenario afresh and compare it with its golden recording. Throws
/// InputError (or another exception) for bad input; the caller makes that an errored case.
void judge(GateCase& c, const GateFile& g, const GateScenario& s, const std::string& path, const std::string& fresh,
           const GateOptions& opt) {
  const std::string scenario = resolve(path, s.scenario);
  const std::string golden = resolve(path, s.golden);
  c.ticks = record_to(scenario, s.ticks, g.keyframe_every, fresh);
  auto adopt = [&](const std::string& why) {
    fs::create_directories(fs::path(golden).parent_path());
    fs::copy_file(fresh, golden, fs::copy_options::overwrite_existing);
    c.passed = true;
    c.updated = true;
    c.message = why + ": wrote " + golden;
  };
  if (!fs::exists(golden)) {
    if (opt.update) adopt("no golden recording yet");
    else c.message = "no golden recording " + golden + " (run the gate with --update to make it)";
    return;
  }
  const auto want = lsr::Recording::open(golden);
  const auto got = lsr::Recording::open(fresh);
  if (want.damage())
    throw InputError(golden, "byte " + std::to_string(want.damage()->offset), "the golden recording is damaged: " + want.damage()->what);
  const auto& hw = want.header();
  const auto& hg = got.header();
  if (hw.model != hg.model || hw.model_version != hg.model_version || hw.subsystems != hg.subsystems) {
    // A new model version (its state changed): the old golden cannot be compared tick by tick.
    const std::string why = "the golden recording was made by " + hw.model + " v" + std::to_string(hw.model_version) +
                            ", this build runs " + hg.model + " v" + std::to_string(hg.model_version);
    if (opt.update) adopt(why);
    else c.message = why + " (review the change, then run the gate with --update)";
    return;
  }
  const RunDiff d = diff_recordings(want, got, {});
  if (d.same()) {
    c.passed = true;
  } else if (opt.update) {
    adopt("the behaviour changed");
  } else {
    c.report = report_text(d, want, got);
    if (d.tick)
      c.message = "diverges from its golden recording at tick " + std::to_string(*d.tick) +
                  (d.fields.empty() ? "" : " in " + d.fields.front().path);
    else
      c.message = "ran " + std::to_string(d.ticks_b) + " ticks, the golden recording has " + std::to_string(d.ticks_a);
  }
}

}  // namespace

std::vector<GateCase> run_gate(const std::string& path, const GateOptions& opt) {
  if (opt.shards == 0 || opt.shard == 0 || opt.shard > opt.shards)
    throw InputError("", "--shard", "expected I/N with 1 <= I <= N");
  const GateFile g = load_gate(path);
  if (!opt.keep.empty()) {
    std::error_code ec;
    fs::create_directories(opt.keep, ec);
    if (ec || !fs::is_directory(opt.keep)) throw InputError(opt.keep, "--keep", "cannot make the folder: " + ec.message());
  }
  const fs::path work = fs::temp_directory_path() / ("lockstep-gate-" + std::to_string(::getpid()));
  fs::create_directories(work);
  std::vector<GateCase> cases;
  for (std::size_t i = 0; i < g.scenarios.size(); ++i) {
    if (i % opt.shards != opt.shard - 1) continue;
    const auto& s = g.scenarios[i];
    GateCase c;
    c.name = s.scenario;
    const auto t0 = std::chrono::steady_clock::now();
    // Recorded under the name it keeps when kept, so that the report names the file that exists.
    const std::string fresh = opt.keep.empty() ? (work / ("case" + std::to_string(i) + ".lsr")).string()
                                               : (fs::path(opt.keep) / kept_name(i, s.scenario)).string();
    try {
      judge(c, g, s, path, fresh, opt);
    } catch (const std::exception& e) {
      c = GateCase{};
      c.name = s.scenario;
      c.errored = true;
      c.message = e.what();
    }
    std::error_code ec;
    if (!opt.keep.empty() && !c.passed && !c.errored && fs::exists(fresh)) {
      c.kept = fresh;
      c.message += " (this run's recording: " + fresh + ")";
    } else {
      fs::remove(fresh, ec);
      const auto at = c.report.find(fresh);  // the report's "b" line names a file about to be gone
      if (at != std::string::npos) c.report.replace(at, fresh.size(), "this run (not kept: --keep DIR keeps it)");
    }
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (opt.log)
      opt.log((c.errored ? "ERR  " : c.passed ? (c.updated ? "upd  " : "ok   ") : "FAIL ") + c.name +
              (c.errored ? "" : " (" + std::to_string(c.ticks) + " ticks)") + (c.message.empty() ? "" : ": " + c.message));
    cases.push_back(std::move(c));
  }
  std::error_code ec;
  fs::remove_all(work, ec);
  return cases;
}

std::string junit_xml(const std::string& suite, const std::vector<GateCase>& cases) {
  std::size_t failures = 0, errors = 0;
  double total = 0;
  for (const auto& c : cases) {
    failures += c.passed || c.errored ? 0 : 1;
    errors += c.errored ? 1 : 0;
    total += c.seconds;
  }
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<testsuites tests=\"" + std::to_string(cases.size()) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
       std::to_string(errors) + "\">\n";
  o += "  <testsuite name=\"" + xml_escape(suite) + "\" tests=\"" + std::to_string(cases.size()) + "\" failures=\"" +
       std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" time=\"" + std::to_string(total) + "\">\n";
  for (const auto& c : cases) {
    o += "    <testcase classname=\"lockstep.gate\" name=\"" + xml_escape(c.name) + "\" time=\"" + std::to_string(c.seconds) + "\"";
    if (c.passed) {
      o += c.updated ? ">\n      <system-out>" + xml_escape(c.message) + "</system-out>\n    </testcase>\n" : "/>\n";
      continue;
    }
    if (c.errored) {
      o += ">\n      <error message=\"" + xml_escape(c.message) + "\">" + xml_escape(c.message) + "</error>\n    </testcase>\n";
      continue;
    }
    o += ">\n      <failure message=\"" + xml_escape(c.message) + "\">" + xml_escape(c.report.empty() ? c.message : c.report) +
         "</failure>\n    </testcase>\n";
  }
  o += "  </testsuite>\n</testsuites>\n";
  return o;
}

}  // namespace lockstep::verify
