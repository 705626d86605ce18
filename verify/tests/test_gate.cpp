// lockstep gate: scenarios against golden recordings, JUnit XML, --update, shards.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "fixtures.h"
#include "lockstep/core/json_load.h"
#include "lockstep/core/model.h"
#include "lockstep/verify/gate.h"

using namespace lockstep;
namespace fs = std::filesystem;

namespace {

struct TempGate {
  fs::path dir = fs::temp_directory_path() / ("lockstep-gate-test-" + std::to_string(::getpid()));
  std::string file = (dir / "gate.json").string();
  explicit TempGate(const std::vector<std::string>& scenarios, uint64_t ticks = 300) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    Json g = {{"name", "test gate"}, {"keyframe_every", 60}, {"scenarios", Json::array()}};
    for (const auto& s : scenarios)
      g["scenarios"].push_back({{"scenario", fixtures::path(s)}, {"ticks", ticks}, {"golden", "golden/" + fs::path(s).stem().string() + ".lsr"}});
    std::ofstream(file) << g.dump(2);
  }
  ~TempGate() { fs::remove_all(dir); }
};

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
