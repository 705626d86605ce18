#include "lockstep/verify/gate.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "lockstep/core/hash.h"
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
    for (std::size_t j = 0; j < i; ++j)
      if (g.scenarios[j].golden == s.golden)
        r.fail(at + ".golden", "the golden recording of $.scenarios[" + std::to_string(j) + "] too: each case needs its own");
  }
  return g;
}

std::string ManifestLine::text() const {
  return golden + '\t' + scenario + '\t' + std::to_string(ticks) + '\t' + model + '\t' + std::to_string(model_version) +
         '\t' + final_hash + '\t' + revision;
}

ManifestLine describe_golden(const std::string& golden_file, const std::string& golden, const std::string& scenario) {
  const auto rec = lsr::Recording::open(golden_file);
  if (rec.damage())
    throw InputError(golden_file, "byte " + std::to_string(rec.damage()->offset),
                     "the golden recording is damaged: " + rec.damage()->what);
  ManifestLine m;
  m.golden = golden;
  m.scenario = scenario;
  m.ticks = rec.ticks();
  m.model = rec.header().model;
  m.model_version = rec.header().model_version;
  m.revision = rec.header().build.revision;
  uint64_t last = 0;
  if (m.ticks > 0) {
    const uint64_t end = rec.first_tick() + m.ticks;
    rec.scan(end - 1, end, [&](const lsr::TickRecord& t) { last = t.whole; }, nullptr);
  } else if (const auto k = rec.keyframe_at_or_before(rec.first_tick())) {
    last = k->hashes.whole;
  }
  m.final_hash = hex64(last);
  return m;
}

namespace {

/// A golden manifest as read: its good lines by golden path, and the lines that are not good (line, what).
struct Manifest {
  std::string file;  ///< as the gate names it, resolved against the gate file's folder
  std::vector<ManifestLine> lines;
  std::vector<std::pair<std::size_t, std::string>> bad;
  const ManifestLine* find(const std::string& golden) const {
    for (const auto& l : lines)
      if (l.golden == golden) return &l;
    return nullptr;
  }
};

const char* const kManifestHead =
    "# The golden recordings of this gate and what each holds: written by `lockstep gate --update`, checked by\n"
    "# the gate (docs/verify.md). One line per golden recording, tab-separated; paths as the gate file gives them.\n"
    "# golden\tscenario\tticks\tmodel\tversion\tfinal_hash\trevision\n";

bool all_of(const std::string& s, const char* chars) {
  return !s.empty() && s.find_first_not_of(chars) == std::string::npos;
}

/// Read a manifest (a missing file has no lines). Lines that cannot be read are kept in `bad`, not thrown:
/// each becomes an errored case, and the other cases still run.
Manifest read_manifest(const std::string& file) {
  Manifest m;
  m.file = file;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    if (fs::exists(file)) throw InputError(file, "", "cannot read the golden manifest");
    return m;
  }
  std::string text;
  std::size_t n = 0;
  while (std::getline(in, text)) {
    ++n;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty() || text[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(text);
    for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
    if (!text.empty() && text.back() == '\t') f.emplace_back();
    if (f.size() != 7) {
      m.bad.emplace_back(n, "expected 7 tab-separated fields (golden, scenario, ticks, model, version, final_hash, "
                            "revision), found " + std::to_string(f.size()));
      continue;
    }
    const char* digits = "0123456789";
    std::string what;
    if (f[0].empty()) what = "the golden recording's path is empty";
    else if (f[1].empty()) what = "the scenario's path is empty";
    else if (!all_of(f[2], digits) || f[2].size() > 19) what = "ticks '" + f[2] + "' is not a tick count";
    else if (f[3].empty()) what = "the model's name is empty";
    else if (!all_of(f[4], digits) || f[4].size() > 9) what = "version '" + f[4] + "' is not a model version";
    else if (f[5].size() != 16 || !all_of(f[5], "0123456789abcdef"))
      what = "final_hash '" + f[5] + "' is not 16 lowercase hex digits";
    else if (f[6].empty()) what = "the revision is empty";
    else if (const auto* first = m.find(f[0]))
      what = "a second line for " + f[0] + " (the first is line " + std::to_string(first->line) + ")";
    if (!what.empty()) {
      m.bad.emplace_back(n, what);
      continue;
    }
    ManifestLine l;
    l.golden = f[0];
    l.scenario = f[1];
    l.ticks = std::stoull(f[2]);
    l.model = f[3];
    l.model_version = static_cast<uint32_t>(std::stoul(f[4]));
    l.final_hash = f[5];
    l.revision = f[6];
    l.line = n;
    m.lines.push_back(std::move(l));
  }
  return m;
}

/// Check a case's golden recording against its manifest line before the case runs: InputError naming the
/// manifest's line, or the golden, when they disagree or one is missing.
void check_manifest(const Manifest& m, const GateScenario& s, const std::string& golden_file) {
  const ManifestLine* want = m.find(s.golden);
  const bool exists = fs::exists(golden_file);
  if (!want) {
    if (exists)
      throw InputError(golden_file, "", "this golden recording has no line in the golden manifest " + m.file +
                                            " (run the gate with --update to write it)");
    return;  // neither: the case fails as a missing golden does
  }
  const std::string at = "line " + std::to_string(want->line);
  if (!exists)
    throw InputError(m.file, at, "names the golden recording " + s.golden + ", which does not exist (" + golden_file + ")");
  const ManifestLine got = describe_golden(golden_file, s.golden, s.scenario);
  std::string diff;
  auto field = [&](const char* name, const std::string& a, const std::string& b, const char* where = "in the golden") {
    if (a != b) diff += std::string(diff.empty() ? "" : "; ") + name + " " + a + " in the manifest, " + b + " " + where;
  };
  field("scenario", want->scenario, got.scenario, "in the gate file");
  field("ticks", std::to_string(want->ticks), std::to_string(got.ticks));
  field("model", want->model, got.model);
  field("version", std::to_string(want->model_version), std::to_string(got.model_version));
  field("final_hash", want->final_hash, got.final_hash);
  field("revision", want->revision, got.revision);
  if (!diff.empty())
    throw InputError(m.file, at, "disagrees with the golden recording " + golden_file + ": " + diff +
                                     " (a golden changed without its manifest line, or the line without the golden: "
                                     "regenerate both with the gate's --update)");
}

/// Write the manifest: a line for each of the gate's goldens that has one, in the gate file's order. Only
/// when the text changes; through a temporary file, so a reader never sees half of it.
void write_manifest(const std::string& file, const GateFile& g, const std::map<std::string, ManifestLine>& lines) {
  std::string text = kManifestHead;
  for (const auto& s : g.scenarios)
    if (const auto it = lines.find(s.golden); it != lines.end()) text += it->second.text() + "\n";
  {
    std::ifstream in(file, std::ios::binary);
    std::stringstream old;
    old << in.rdbuf();
    if (in && old.str() == text) return;
  }
  if (!fs::path(file).parent_path().empty()) fs::create_directories(fs::path(file).parent_path());
  const std::string tmp = file + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw InputError(tmp, "", "cannot write the golden manifest");
  }
  fs::rename(tmp, file);
}

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
    if (opt.update_all) adopt("rewritten from this build, the behaviour unchanged");
    else c.passed = true;
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

std::vector<GateCase> run_gate(const std::string& path, const GateOptions& options) {
  GateOptions opt = options;
  opt.update = opt.update || opt.update_all;
  if (opt.shards == 0 || opt.shard == 0 || opt.shard > opt.shards)
    throw InputError("--shard", std::to_string(options.shard) + "/" + std::to_string(options.shards),
                     "expected K/N, shard K of N with 1 <= K <= N");
  const GateFile g = load_gate(path);
  if (!opt.keep.empty()) {
    std::error_code ec;
    fs::create_directories(opt.keep, ec);
    if (ec || !fs::is_directory(opt.keep)) throw InputError(opt.keep, "--keep", "cannot make the folder: " + ec.message());
  }
  const bool with_manifest = !g.manifest.empty();
  const Manifest manifest = with_manifest ? read_manifest(resolve(path, g.manifest)) : Manifest{};
  std::map<std::string, ManifestLine> lines;  // --update: the manifest to write
  for (const auto& l : manifest.lines) lines[l.golden] = l;
  const fs::path work = fs::temp_directory_path() / ("lockstep-gate-" + std::to_string(::getpid()));
  fs::create_directories(work);
  std::vector<GateCase> cases;
  auto log_case = [&](const GateCase& c) {
    if (opt.log)
      opt.log((c.errored ? "ERR  " : c.passed ? (c.updated ? "upd  " : "ok   ") : "FAIL ") + c.name +
              (c.errored ? "" : " (" + std::to_string(c.ticks) + " ticks)") + (c.message.empty() ? "" : ": " + c.message));
  };
  for (std::size_t i = 0; i < g.scenarios.size(); ++i) {
    if (i % opt.shards != opt.shard - 1) continue;
    const auto& s = g.scenarios[i];
    GateCase c;
    c.name = s.scenario;
    const std::string golden = resolve(path, s.golden);
    if (const ManifestLine* l = manifest.find(s.golden)) {
      // What the case expects, before it runs: a CI log shows it even when the case then fails or hangs.
      std::string text = l->text();
      for (char& ch : text)
        if (ch == '\t') ch = ' ';
      c.expected = manifest.file + ":" + std::to_string(l->line) + ": " + text;
      if (opt.log) opt.log("---- " + c.name + " expects " + c.expected);
    }
    const auto t0 = std::chrono::steady_clock::now();
    // Recorded under the name it keeps when kept, so that the report names the file that exists.
    const std::string fresh = opt.keep.empty() ? (work / ("case" + std::to_string(i) + ".lsr")).string()
                                               : (fs::path(opt.keep) / kept_name(i, s.scenario)).string();
    try {
      if (with_manifest && !opt.update) check_manifest(manifest, s, golden);
      judge(c, g, s, path, fresh, opt);
      if (with_manifest && opt.update && fs::exists(golden)) {
        ManifestLine now = describe_golden(golden, s.golden, s.scenario);
        const auto it = lines.find(s.golden);
        if (it == lines.end() || it->second.text() != now.text()) {
          if (!c.updated) c.message = "wrote its line in the golden manifest " + manifest.file;
          c.updated = true;
          lines[s.golden] = std::move(now);
        }
      }
    } catch (const std::exception& e) {
      const std::string expected = c.expected;
      c = GateCase{};
      c.name = s.scenario;
      c.expected = expected;
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
    log_case(c);
    cases.push_back(std::move(c));
  }
  std::error_code ec;
  fs::remove_all(work, ec);
  if (with_manifest && opt.update) {
    // Lines of goldens the gate no longer lists, and lines that could not be read, are dropped.
    std::map<std::string, ManifestLine> keep;
    for (const auto& s : g.scenarios)
      if (const auto it = lines.find(s.golden); it != lines.end()) keep.insert(*it);
    write_manifest(manifest.file, g, keep);
  } else if (with_manifest && opt.shard == 1) {
    // The manifest's own faults belong to no scenario: errored cases of the first shard (so that the
    // shards together report each once), named by the manifest's file and line.
    std::vector<std::pair<std::size_t, std::string>> faults = manifest.bad;
    for (const auto& l : manifest.lines) {
      bool listed = false;
      for (const auto& s : g.scenarios) listed = listed || s.golden == l.golden;
      if (!listed)
        faults.emplace_back(l.line, "names the golden recording " + l.golden + ", which the gate file " + path +
                                        " does not list (remove the line, or regenerate the manifest with --update)");
    }
    std::sort(faults.begin(), faults.end());
    for (const auto& [line, what] : faults) {
      GateCase c;
      c.name = manifest.file + ":" + std::to_string(line);
      c.errored = true;
      c.message = InputError(manifest.file, "line " + std::to_string(line), what).what();
      log_case(c);
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

std::string junit_xml(const std::string& suite, const std::vector<GateCase>& cases, uint32_t shard, uint32_t shards) {
  std::size_t failures = 0, errors = 0;
  double total = 0;
  for (const auto& c : cases) {
    failures += c.passed || c.errored ? 0 : 1;
    errors += c.errored ? 1 : 0;
    total += c.seconds;
  }
  const std::string name =
      shards > 1 ? suite + " (shard " + std::to_string(shard) + "/" + std::to_string(shards) + ")" : suite;
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<testsuites tests=\"" + std::to_string(cases.size()) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
       std::to_string(errors) + "\">\n";
  o += "  <testsuite name=\"" + xml_escape(name) + "\" tests=\"" + std::to_string(cases.size()) + "\" failures=\"" +
       std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" time=\"" + std::to_string(total) + "\">\n";
  if (shards > 1)
    o += "    <properties>\n      <property name=\"shard\" value=\"" + std::to_string(shard) +
         "\"/>\n      <property name=\"shards\" value=\"" + std::to_string(shards) + "\"/>\n    </properties>\n";
  for (const auto& c : cases) {
    o += "    <testcase classname=\"lockstep.gate\" name=\"" + xml_escape(c.name) + "\" time=\"" + std::to_string(c.seconds) + "\"";
    std::string body;
    if (c.errored)
      body += "      <error message=\"" + xml_escape(c.message) + "\">" + xml_escape(c.message) + "</error>\n";
    else if (!c.passed)
      body += "      <failure message=\"" + xml_escape(c.message) + "\">" + xml_escape(c.report.empty() ? c.message : c.report) +
              "</failure>\n";
    std::string out;
    if (!c.expected.empty()) out += "expected: " + c.expected;
    if (c.passed && c.updated) out += (out.empty() ? "" : "\n") + c.message;
    if (!out.empty()) body += "      <system-out>" + xml_escape(out) + "</system-out>\n";
    o += body.empty() ? "/>\n" : ">\n" + body + "    </testcase>\n";
  }
  o += "  </testsuite>\n</testsuites>\n";
  return o;
}

}  // namespace lockstep::verify
