// lockstep gate: scenarios against golden recordings, JUnit XML, --update, shards.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fixtures.h"
#include "lockstep/core/json_load.h"
#include "lockstep/core/model.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/verify/gate.h"

using namespace lockstep;
namespace fs = std::filesystem;

namespace {

struct TempGate {
  fs::path dir = fs::temp_directory_path() / ("lockstep-gate-test-" + std::to_string(::getpid()));
  std::string file = (dir / "gate.json").string();
  std::string manifest = (dir / "golden" / "MANIFEST.tsv").string();
  explicit TempGate(const std::vector<std::string>& scenarios, uint64_t ticks = 300, bool with_manifest = false) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    Json g = {{"name", "test gate"}, {"keyframe_every", 60}, {"scenarios", Json::array()}};
    if (with_manifest) g["manifest"] = "golden/MANIFEST.tsv";
    for (const auto& s : scenarios)
      g["scenarios"].push_back({{"scenario", fixtures::path(s)}, {"ticks", ticks}, {"golden", "golden/" + fs::path(s).stem().string() + ".lsr"}});
    std::ofstream(file) << g.dump(2);
  }
  ~TempGate() { fs::remove_all(dir); }
};

std::vector<std::string> read_lines(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

void write_lines(const std::string& file, const std::vector<std::string>& lines) {
  std::ofstream out(file);
  for (const auto& l : lines) out << l << "\n";
}

/// The 1-based number of the manifest line for a golden (its first field), 0 if none.
std::size_t line_of(const std::vector<std::string>& lines, const std::string& golden) {
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].rfind(golden + "\t", 0) == 0) return i + 1;
  return 0;
}

/// Replace the field'th tab-separated field of a line.
std::string with_field(const std::string& line, std::size_t field, const std::string& value) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
  f.at(field) = value;
  std::string o;
  for (std::size_t i = 0; i < f.size(); ++i) o += (i ? "\t" : "") + f[i];
  return o;
}

}  // namespace

TEST_CASE("gate: a missing golden fails until --update writes it, then the gate passes", "[gate]") {
  TempGate t({"wander/yard.json", "wander/setpath.json"});
  auto cases = verify::run_gate(t.file, {});
  REQUIRE(cases.size() == 2);
  CHECK_FALSE(cases[0].passed);
  CHECK(cases[0].message.find("--update") != std::string::npos);
  verify::GateOptions upd;
  upd.update = true;
  cases = verify::run_gate(t.file, upd);
  CHECK(cases[0].passed);
  CHECK(cases[0].updated);
  CHECK(fs::exists(t.dir / "golden" / "yard.lsr"));
  cases = verify::run_gate(t.file, {});
  CHECK(cases[0].passed);
  CHECK_FALSE(cases[0].updated);
  CHECK(cases[1].passed);
  const std::string xml = verify::junit_xml("test gate", cases);
  CHECK(xml.find("<testsuite name=\"test gate\" tests=\"2\" failures=\"0\"") != std::string::npos);
  CHECK(xml.find("<testcase classname=\"lockstep.gate\" name=\"" + fixtures::path("wander/yard.json") + "\"") != std::string::npos);
}

TEST_CASE("gate: a changed behaviour fails with the divergence report, in JUnit too", "[gate]") {
  TempGate t({"wander/yard.json"});
  verify::GateOptions upd;
  upd.update = true;
  verify::run_gate(t.file, upd);
  // Make the golden from a scenario whose entity 9 is warped at tick 150: the real scenario now differs.
  auto j = parse_json_file(fixtures::path("wander/yard.json"));
  j["script"].push_back({{"tick", 150}, {"entity", 9}, {"kind", "warp"}, {"value", {1, 0, 1}}});
  const auto other = (t.dir / "other.json").string();
  std::ofstream(other) << j.dump();
  Json g = parse_json_file(t.file);
  g["scenarios"][0]["scenario"] = other;
  std::ofstream(t.file) << g.dump();
  verify::run_gate(t.file, upd);  // the golden now holds the warped run
  g["scenarios"][0]["scenario"] = fixtures::path("wander/yard.json");
  std::ofstream(t.file) << g.dump();
  const auto cases = verify::run_gate(t.file, {});
  REQUIRE(cases.size() == 1);
  CHECK_FALSE(cases[0].passed);
  CHECK(cases[0].message == "diverges from its golden recording at tick 150 in entities[9].position.x");
  CHECK(cases[0].report.find("DIVERGED    at tick 150") != std::string::npos);
  const std::string xml = verify::junit_xml("g", cases);
  CHECK(xml.find("<failure message=\"diverges from its golden recording at tick 150 in entities[9].position.x\">") !=
        std::string::npos);
}

TEST_CASE("gate: shards split the scenarios by index", "[gate]") {
  TempGate t({"wander/yard.json", "wander/setpath.json", "wander/teleport.json"}, 60);
  verify::GateOptions o;
  o.update = true;
  o.shard = 1;
  o.shards = 2;
  auto cases = verify::run_gate(t.file, o);
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].name.find("yard.json") != std::string::npos);
  CHECK(cases[1].name.find("teleport.json") != std::string::npos);
  o.shard = 2;
  cases = verify::run_gate(t.file, o);
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].name.find("setpath.json") != std::string::npos);
  o.shard = 3;
  CHECK_THROWS_AS(verify::run_gate(t.file, o), InputError);
}

TEST_CASE("gate files are checked by JSON path", "[gate]") {
  TempGate t({"wander/yard.json"});
  std::ofstream(t.file) << R"({"scenarios": [{"scenario": "", "golden": "x.lsr"}]})";
  CHECK_THROWS_WITH(verify::load_gate(t.file), Catch::Contains("$.scenarios[0].scenario: expected the scenario's path"));
  std::ofstream(t.file) << R"({"scenarios": []})";
  CHECK_THROWS_WITH(verify::load_gate(t.file), Catch::Contains("$.scenarios: a gate needs at least one scenario"));
  // Two cases writing one golden (and one manifest line) would each judge the other's recording.
  std::ofstream(t.file) << R"({"scenarios": [{"scenario": "a.json", "golden": "g.lsr"}, {"scenario": "b.json", "golden": "g.lsr"}]})";
  CHECK_THROWS_WITH(verify::load_gate(t.file),
                    Catch::Contains("$.scenarios[1].golden: the golden recording of $.scenarios[0] too: each case needs its own"));
}

TEST_CASE("gate: a broken scenario or a damaged golden is an errored case, and the other cases still run", "[gate]") {
  TempGate t({"wander/yard.json", "wander/setpath.json", "wander/teleport.json"}, 60);
  verify::GateOptions upd;
  upd.update = true;
  REQUIRE(verify::run_gate(t.file, upd).size() == 3);
  // Case 0: a scenario file that is gone. Case 1: its golden cut to half (the header survives,
  // the index does not: damage). Case 2 is untouched and must still pass.
  Json g = parse_json_file(t.file);
  g["scenarios"][0]["scenario"] = (t.dir / "gone.json").string();
  std::ofstream(t.file) << g.dump();
  const fs::path golden1 = t.dir / "golden" / "setpath.lsr";
  fs::resize_file(golden1, fs::file_size(golden1) / 2);
  const auto cases = verify::run_gate(t.file, {});
  REQUIRE(cases.size() == 3);
  CHECK(cases[0].errored);
  CHECK_FALSE(cases[0].passed);
  CHECK(cases[0].message.find("gone.json") != std::string::npos);
  CHECK(cases[1].errored);
  CHECK(cases[1].message.find("setpath.lsr") != std::string::npos);
  CHECK(cases[1].message.find("damaged") != std::string::npos);
  CHECK(cases[2].passed);
  CHECK_FALSE(cases[2].errored);
  const std::string xml = verify::junit_xml("g", cases);
  CHECK(xml.find("tests=\"3\" failures=\"0\" errors=\"2\"") != std::string::npos);
  CHECK(xml.find("<error message=\"" ) != std::string::npos);
  CHECK(xml.find("<failure") == std::string::npos);
}

TEST_CASE("gate --keep keeps each failing run's recording and the report names it; without it nothing names a gone file", "[gate]") {
  TempGate t({"wander/yard.json", "wander/setpath.json"}, 200);
  verify::GateOptions upd;
  upd.update = true;
  verify::run_gate(t.file, upd);
  // The first golden made from a run whose entity 9 is warped at tick 150; the second stays right.
  auto j = parse_json_file(fixtures::path("wander/yard.json"));
  j["script"].push_back({{"tick", 150}, {"entity", 9}, {"kind", "warp"}, {"value", {1, 0, 1}}});
  const auto warped = (t.dir / "warped.json").string();
  std::ofstream(warped) << j.dump();
  Json g = parse_json_file(t.file);
  const Json real = g["scenarios"][0]["scenario"];
  g["scenarios"][0]["scenario"] = warped;
  std::ofstream(t.file) << g.dump();
  verify::run_gate(t.file, upd);
  g["scenarios"][0]["scenario"] = real;
  std::ofstream(t.file) << g.dump();

  auto cases = verify::run_gate(t.file, {});
  REQUIRE(cases.size() == 2);
  REQUIRE_FALSE(cases[0].passed);
  CHECK(cases[0].kept.empty());
  CHECK(cases[0].report.find("case0.lsr") == std::string::npos);  // the temporary recording is gone
  CHECK(cases[0].report.find("--keep DIR") != std::string::npos);

  verify::GateOptions keep;
  keep.keep = (t.dir / "kept").string();
  cases = verify::run_gate(t.file, keep);
  REQUIRE_FALSE(cases[0].passed);
  REQUIRE_FALSE(cases[0].kept.empty());
  CHECK(fs::exists(cases[0].kept));
  CHECK(cases[0].report.find(cases[0].kept) != std::string::npos);
  CHECK(cases[0].message.find(cases[0].kept) != std::string::npos);
  CHECK(cases[1].passed);
  CHECK(cases[1].kept.empty());
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(keep.keep)) ++files;
  CHECK(files == 1);  // a passing run's recording is not kept
}

namespace {
// A toy model in two versions under one name: version 2 counts by twos. The gate must not compare a v1 golden
// tick by tick with a v2 run (its state may have changed shape), but say so and let --update adopt the new run.
template <uint32_t V>
struct Counter {
  struct Scenario {
    std::string model = "gate_counter";
    template <class S, class F>
    static void fields(S& s, F&& f) {
      f(FieldInfo{"model"}, s.model);
    }
  };
  struct Input {
    int32_t push = 0;
    template <class S, class F>
    static void fields(S& s, F&& f) {
      f(FieldInfo{"push"}, s.push);
    }
  };
  struct State {
    uint64_t tick = 0;
    int64_t value = 0;
    template <class S, class F>
    static void fields(S& s, F&& f) {
      f(FieldInfo{"tick"}, s.tick);
      f(FieldInfo{"value"}, s.value);
    }
  };
  static constexpr std::string_view kName = "gate_counter";
  static constexpr uint32_t kVersion = V;
  static constexpr uint32_t kTickRateHz = 10;
  static Scenario load_scenario(const Json& j, const JsonReader& r) {
    Scenario s;
    r.read(j, s, "$");
    return s;
  }
  explicit Counter(Scenario) {}
  void step(const Input& in) {
    state_.value += in.push * static_cast<int64_t>(V);
    ++state_.tick;
  }
  Input scripted_input() const { return Input{1}; }
  uint64_t tick() const { return state_.tick; }
  const State& state() const { return state_; }
  void set_state(const State& s) { state_ = s; }
  State state_;
};
}  // namespace

TEST_CASE("gate, a golden made by another model version fails by name until --update adopts the new run", "[gate]") {
  const fs::path dir = fs::temp_directory_path() / ("lockstep-gate-version-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  struct Cleanup {  // also when a REQUIRE fails: the directory, and the toy model other tests would list
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
      unregister_model("gate_counter");
    }
  } cleanup{dir};
  std::ofstream((dir / "counter.json").string()) << R"({"model": "gate_counter"})";
  const std::string file = (dir / "gate.json").string();
  std::ofstream(file) << Json{{"name", "versions"},
                              {"scenarios", {{{"scenario", (dir / "counter.json").string()}, {"ticks", 30}, {"golden", "c.lsr"}}}}}
                             .dump();
  verify::GateOptions upd;
  upd.update = true;
  register_model_type<Counter<1>>();
  REQUIRE(verify::run_gate(file, upd)[0].passed);  // the v1 golden
  REQUIRE(verify::run_gate(file, {})[0].passed);

  register_model_type<Counter<2>>();  // a new build: the model is now version 2
  auto cases = verify::run_gate(file, {});
  REQUIRE(cases.size() == 1);
  CHECK_FALSE(cases[0].passed);
  CHECK(cases[0].message ==
        "the golden recording was made by gate_counter v1, this build runs gate_counter v2 (review the change, then run the "
        "gate with --update)");
  CHECK(cases[0].report.empty());  // no tick-by-tick report across versions
  cases = verify::run_gate(file, upd);
  CHECK(cases[0].passed);
  CHECK(cases[0].updated);
  CHECK(cases[0].message.find("the golden recording was made by gate_counter v1, this build runs gate_counter v2: wrote ") == 0);
  CHECK(verify::run_gate(file, {})[0].passed);  // the v2 golden now passes
  register_model_type<Counter<1>>();  // and an old build fails against it the same way
  CHECK(verify::run_gate(file, {})[0].message.find("made by gate_counter v2, this build runs gate_counter v1") !=
        std::string::npos);
}

TEST_CASE("gate --update writes a manifest line per golden: scenario, ticks, model, version, final hash, revision", "[gate]") {
  TempGate t({"wander/yard.json", "wander/setpath.json"}, 90, true);
  verify::GateOptions upd;
  upd.update = true;
  auto cases = verify::run_gate(t.file, upd);
  REQUIRE(cases.size() == 2);
  const auto lines = read_lines(t.manifest);
  const std::size_t n = line_of(lines, "golden/yard.lsr");
  REQUIRE(n > 0);
  REQUIRE(line_of(lines, "golden/setpath.lsr") == n + 1);  // in the gate file's order
  // The final hash computed independently: the scenario stepped here through the model contract.
  auto m = load_scenario_file(fixtures::path("wander/yard.json"));
  for (int k = 0; k < 90; ++k) m->step(m->scripted_input());
  CHECK(lines[n - 1] == "golden/yard.lsr\t" + fixtures::path("wander/yard.json") + "\t90\twander\t" +
                            std::to_string(m->info().version) + "\t" + hex64(m->hashes().whole) + "\t" +
                            lsr::this_build().revision);
  // The gate passes against it, and says what each case expects before its result.
  std::vector<std::string> log;
  verify::GateOptions o;
  o.log = [&](const std::string& l) { log.push_back(l); };
  cases = verify::run_gate(t.file, o);
  CHECK(cases[0].passed);
  CHECK(cases[1].passed);
  CHECK(cases[0].expected == t.manifest + ":" + std::to_string(n) + ": golden/yard.lsr " + fixtures::path("wander/yard.json") +
                                 " 90 wander " + std::to_string(m->info().version) + " " + hex64(m->hashes().whole) + " " +
                                 lsr::this_build().revision);
  REQUIRE(log.size() == 4);
  CHECK(log[0] == "---- " + fixtures::path("wander/yard.json") + " expects " + cases[0].expected);
  CHECK(log[1].rfind("ok   " + fixtures::path("wander/yard.json"), 0) == 0);
  CHECK(verify::junit_xml("g", cases).find("<system-out>expected: " + cases[0].expected) != std::string::npos);
}

TEST_CASE("gate: a golden whose final hash or header disagrees with its manifest line is an errored case naming the line",
          "[gate]") {
  TempGate t({"wander/yard.json", "wander/setpath.json"}, 60, true);
  verify::GateOptions upd;
  upd.update = true;
  verify::run_gate(t.file, upd);
  const auto good = read_lines(t.manifest);
  const std::size_t n = line_of(good, "golden/yard.lsr");
  REQUIRE(n > 0);
  auto lines = good;
  SECTION("the final hash") {
    lines[n - 1] = with_field(lines[n - 1], 5, "0123456789abcdef");
    write_lines(t.manifest, lines);
    const auto cases = verify::run_gate(t.file, {});
    REQUIRE(cases.size() == 2);
    CHECK(cases[0].errored);
    CHECK(cases[0].message.find(t.manifest + ": line " + std::to_string(n) + ": disagrees with the golden recording") == 0);
    CHECK(cases[0].message.find("final_hash 0123456789abcdef in the manifest") != std::string::npos);
    CHECK(cases[1].passed);  // the other case still runs
  }
  SECTION("the header: model version and revision") {
    lines[n - 1] = with_field(with_field(lines[n - 1], 4, "999"), 6, "v0.0-elsewhere");
    write_lines(t.manifest, lines);
    const auto cases = verify::run_gate(t.file, {});
    CHECK(cases[0].errored);
    CHECK(cases[0].message.find(t.manifest + ": line " + std::to_string(n) + ": ") == 0);
    CHECK(cases[0].message.find("version 999 in the manifest") != std::string::npos);
    CHECK(cases[0].message.find("revision v0.0-elsewhere in the manifest") != std::string::npos);
  }
  SECTION("the golden replaced by another run, the manifest line kept") {
    auto j = parse_json_file(fixtures::path("wander/yard.json"));
    j["script"].push_back({{"tick", 30}, {"entity", 9}, {"kind", "warp"}, {"value", {1, 0, 1}}});
    const auto warped = (t.dir / "warped.json").string();
    std::ofstream(warped) << j.dump();
    // Another gate file, without a manifest, writes the warped run over the same golden.
    const auto other = (t.dir / "other.json").string();
    std::ofstream(other) << Json{{"keyframe_every", 60},
                                 {"scenarios", {{{"scenario", warped}, {"ticks", 60}, {"golden", "golden/yard.lsr"}}}}}
                                .dump();
    REQUIRE(verify::run_gate(other, upd)[0].updated);
    REQUIRE(read_lines(t.manifest) == good);
    const auto cases = verify::run_gate(t.file, {});
    CHECK(cases[0].errored);
    CHECK(cases[0].message.find(t.manifest + ": line " + std::to_string(n) + ": disagrees") == 0);
    CHECK(cases[0].message.find("final_hash") != std::string::npos);
  }
  // --update makes them agree again.
  verify::run_gate(t.file, upd);
  CHECK(read_lines(t.manifest) == good);
  const auto cases = verify::run_gate(t.file, {});
  CHECK(cases[0].passed);
  CHECK(cases[1].passed);
}

TEST_CASE("gate: a golden with no manifest line, or a line with no golden, is an errored case naming the file and line",
          "[gate]") {
  TempGate t({"wander/yard.json", "wander/setpath.json", "wander/teleport.json"}, 30, true);
  verify::GateOptions upd;
  upd.update = true;
  verify::run_gate(t.file, upd);
  const auto good = read_lines(t.manifest);
  const std::size_t yard = line_of(good, "golden/yard.lsr"), setpath = line_of(good, "golden/setpath.lsr");
  REQUIRE(yard > 0);
  REQUIRE(setpath > 0);
  SECTION("a golden with no line") {
    auto lines = good;
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(yard - 1));
    write_lines(t.manifest, lines);
    const auto cases = verify::run_gate(t.file, {});
    REQUIRE(cases.size() == 3);
    CHECK(cases[0].errored);
    CHECK(cases[0].message.find((t.dir / "golden" / "yard.lsr").string() + ": this golden recording has no line in the golden "
                                "manifest " + t.manifest) == 0);
    CHECK(cases[1].passed);
    CHECK(cases[2].passed);
  }
  SECTION("a line whose golden is gone") {
    fs::remove(t.dir / "golden" / "setpath.lsr");
    const auto cases = verify::run_gate(t.file, {});
    REQUIRE(cases.size() == 3);
    CHECK(cases[1].errored);
    CHECK(cases[1].message == t.manifest + ": line " + std::to_string(setpath) + ": names the golden recording golden/setpath.lsr, "
                              "which does not exist (" + (t.dir / "golden" / "setpath.lsr").string() + ")");
    CHECK(cases[0].passed);
  }
  SECTION("a line for a golden the gate file does not list, and a line that cannot be read") {
    auto lines = good;
    lines.push_back(with_field(good[yard - 1], 0, "golden/old.lsr"));
    lines.push_back("golden/x.lsr\tonly three\tfields");
    write_lines(t.manifest, lines);
    const auto cases = verify::run_gate(t.file, {});
    REQUIRE(cases.size() == 5);
    for (std::size_t i = 0; i < 3; ++i) CHECK(cases[i].passed);
    CHECK(cases[3].errored);
    CHECK(cases[3].name == t.manifest + ":" + std::to_string(lines.size() - 1));
    CHECK(cases[3].message.find(t.manifest + ": line " + std::to_string(lines.size() - 1) +
                                ": names the golden recording golden/old.lsr, which the gate file") == 0);
    CHECK(cases[4].errored);
    CHECK(cases[4].message.find(t.manifest + ": line " + std::to_string(lines.size()) + ": expected 7 tab-separated fields") == 0);
    // They belong to the first shard only, so that the shards together report each once.
    verify::GateOptions o;
    o.shard = 2;
    o.shards = 2;
    CHECK(verify::run_gate(t.file, o).size() == 1);
    // --update drops them.
    verify::run_gate(t.file, upd);
    CHECK(read_lines(t.manifest) == good);
  }
}

TEST_CASE("gate --update-all rewrites every golden from this build, saying whether the behaviour changed", "[gate]") {
  TempGate t({"wander/yard.json"}, 30, true);
  verify::GateOptions upd;
  upd.update = true;
  verify::run_gate(t.file, upd);
  const fs::path golden = t.dir / "golden" / "yard.lsr";
  const auto before = fs::last_write_time(golden);
  CHECK_FALSE(verify::run_gate(t.file, upd)[0].updated);  // --update leaves a golden of the same behaviour
  CHECK(fs::last_write_time(golden) == before);
  verify::GateOptions all;
  all.update_all = true;
  const auto cases = verify::run_gate(t.file, all);
  CHECK(cases[0].passed);
  CHECK(cases[0].updated);
  CHECK(cases[0].message.find("rewritten from this build, the behaviour unchanged: wrote ") == 0);
}

TEST_CASE("gate: the JUnit report of a shard names the shard", "[gate]") {
  std::vector<verify::GateCase> cases(1);
  cases[0].name = "a.json";
  cases[0].passed = true;
  const std::string xml = verify::junit_xml("bundled", cases, 2, 3);
  CHECK(xml.find("<testsuite name=\"bundled (shard 2/3)\"") != std::string::npos);
  CHECK(xml.find("<property name=\"shard\" value=\"2\"/>") != std::string::npos);
  CHECK(xml.find("<property name=\"shards\" value=\"3\"/>") != std::string::npos);
  CHECK(verify::junit_xml("bundled", cases).find("<testsuite name=\"bundled\"") != std::string::npos);
}
TEST_CASE("the shipped golden recordings name a clean revision, and the manifest agrees", "[gate]") {
  // A golden made from an uncommitted tree names a revision nobody can check out ("-dirty"), and every later
  // failure would note "revisions differ": regenerate from a committed build (docs/verify.md).
  const auto gate = verify::load_gate(fixtures::path("gate.json"));
  REQUIRE_FALSE(gate.manifest.empty());
  std::size_t n = 0;
  for (const auto& s : gate.scenarios) {
    const auto rec = lsr::Recording::open(fixtures::path(s.golden));
    const std::string& rev = rec.header().build.revision;
    INFO(s.golden << ": revision " << rev);
    CHECK_FALSE(rev.empty());
    CHECK(rev != "unknown");
    CHECK_FALSE((rev.size() >= 6 && rev.compare(rev.size() - 6, 6, "-dirty") == 0));
    ++n;
  }
  CHECK(n == 31);  // every scenario of fixtures/gate.json (19, the nine warriors crowd scenarios of issue 18, the stairs, escalators and demo station of issue 19)
  for (const auto& l : read_lines(fixtures::path(gate.manifest)))
    if (!l.empty() && l[0] != '#') {
      INFO(l);
      CHECK(l.find("-dirty") == std::string::npos);
    }
}
