// Traces, maps and verification (docs/traces.md).
#include <catch2/catch.hpp>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <unistd.h>

#include "fixtures.h"
#include "lockstep/traces/trace.h"

using namespace lockstep;
using namespace lockstep::traces;

namespace {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/lockstep-traces-XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp");
    dir_ = tmpl;
  }
  ~TempDir() { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string p = dir_ + "/" + name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

std::string fx(const std::string& rel) { return fixtures::path("traces/" + rel); }

Map reference_map() { return load_map(fx("wander_setup.map.json")); }

VerifyResult verify_file(const std::string& trace, const Map& map, const std::string& scenario = "") {
  auto model = load_scenario_file(scenario.empty() ? map.scenario : scenario);
  return verify_trace(*model, trace, map);
}

Map map_text(const TempDir& t, const std::string& json) {
  const std::string p = t.write("m.map.json", json);
  return load_map(p);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* kSetupMap = R"({"model": "wander", "scenario": "SCENARIO", "columns": [
  {"column": "ac", "field": "entities[0].actioncooldown", "type": "f32"},
  {"column": "tries", "field": "entities[0].trycount", "type": "i32"}]})";

std::string setup_map(const std::string& extra = "") {
  std::string s = kSetupMap;
  s.replace(s.find("SCENARIO"), 8, fx("wander_setup.json"));
  if (!extra.empty()) s.insert(s.size() - 1, ", " + extra);
  return s;
}

}  // namespace

// ---------------------------------------------------------------- values

TEST_CASE("trace values: decimals, f32 and f64 hex bits, integer ranges, bools", "[traces][values]") {
  CHECK(parse_value("120", ValueType::F32).bits == 0x42f00000u);
  CHECK(parse_value("0x42f00000", ValueType::F32).bits == 0x42f00000u);
  CHECK(parse_value(" 0x3F800000 ", ValueType::F32).as_double() == 1.0);
  CHECK(parse_value("0.1", ValueType::F32).bits == std::bit_cast<uint32_t>(0.1f));  // rounded once, to f32
  CHECK(parse_value("0.1", ValueType::F64).bits == std::bit_cast<uint64_t>(0.1));
  CHECK(parse_value("0x3fb999999999999a", ValueType::F64).as_double() == 0.1);
  CHECK(parse_value("+1e-3", ValueType::F64).as_double() == 1e-3);
  CHECK(parse_value("-0", ValueType::F32).bits == 0x80000000u);
  CHECK(parse_value("-128", ValueType::I8).as_double() == -128);
  CHECK(parse_value("0xff", ValueType::I8).as_double() == -1);
  CHECK(parse_value("0xff", ValueType::U8).as_double() == 255);
  CHECK(parse_value("18446744073709551615", ValueType::U64).bits == UINT64_MAX);
  CHECK(parse_value("-9223372036854775808", ValueType::I64).text() == "-9223372036854775808");
  CHECK(parse_value("true", ValueType::Bool).bits == 1);
  CHECK(parse_value("0", ValueType::Bool).bits == 0);
  CHECK_THROWS_WITH(parse_value("-129", ValueType::I8), Catch::Contains("out of the range of an i8"));
  CHECK_THROWS_WITH(parse_value("256", ValueType::U8), Catch::Contains("out of the range of a u8"));
  CHECK_THROWS_WITH(parse_value("-1", ValueType::U32), Catch::Contains("negative"));
  CHECK_THROWS_WITH(parse_value("1.5", ValueType::I32), Catch::Contains("not an integer"));
  CHECK_THROWS_WITH(parse_value("0x123456789", ValueType::F32), Catch::Contains("more than 8 hex digits"));
  CHECK_THROWS_WITH(parse_value("1e39", ValueType::F32), Catch::Contains("range of an f32"));
  CHECK_THROWS_WITH(parse_value("fast", ValueType::F32), Catch::Contains("not a number"));
  CHECK_THROWS_WITH(parse_value("2", ValueType::Bool), Catch::Contains("0, 1, true or false"));
  CHECK(value_from_memory(0xfffe, ValueType::I16).text() == "-2");
  CHECK(value_from_memory(0x1fffe, ValueType::U16).text() == "65534");
  CHECK(value_from_memory(2, ValueType::Bool).bits == 1);
}

// ---------------------------------------------------------------- maps

TEST_CASE("map: the reference map loads and its scenario resolves beside it", "[traces][map]") {
  const Map m = reference_map();
  CHECK(m.model == "wander");
  CHECK(m.scenario == fx("wander_setup.json"));
  CHECK(m.ticks_per_step == 1);
  CHECK(m.tick_offset == 0);
  REQUIRE(m.columns.size() == 3);
  CHECK(m.columns[0].name == "actioncooldown");
  CHECK(m.columns[0].type == ValueType::F32);
  CHECK(m.columns[0].tolerance.exact());
  CHECK(m.columns[2].field == "entities[0].maxtries");
}

TEST_CASE("map: every key is checked and errors name the JSON path", "[traces][map]") {
  TempDir t;
  auto err = [&](const std::string& json) { return error_of([&] { map_text(t, json); }); };
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"column": "a", "field": "tick", "type": "u64", "tolerence": "exact"}]})"),
             Catch::Contains("m.map.json: $.columns[0].tolerence: unknown key"));
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"column": "a", "field": "tick", "type": "float"}]})"),
             Catch::Contains("$.columns[0].type: unknown type \"float\""));
  CHECK_THAT(err(R"({"model": "chess", "columns": []})"), Catch::Contains("$.model: unknown model \"chess\" (known: station, wander"));
  CHECK_THAT(err(R"({"model": "wander", "columns": []})"), Catch::Contains("$.columns: expected a non-empty array"));
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"column": "a", "type": "u64"}]})"), Catch::Contains("$.columns[0].field: missing"));
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"field": "tick", "type": "u64"}]})"),
             Catch::Contains("$.columns[0]: a column needs \"column\""));
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"column": "a", "field": "tick", "type": "u64"},
                                                    {"column": "a", "field": "tick", "type": "u64"}]})"),
             Catch::Contains("$.columns[1].column: column \"a\" is already mapped by $.columns[0]"));
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"column": "a", "field": "tick", "type": "f32", "tolerance": {"abs": -1}}]})"),
             Catch::Contains("$.columns[0].tolerance.abs: expected a tolerance >= 0"));
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"column": "a", "field": "tick", "type": "f32", "tolerance": {"modulo": "pi"}}]})"),
             Catch::Contains("$.columns[0].tolerance.modulo: expected a period"));
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"column": "a", "field": "tick", "type": "f32", "scale": "deg"}]})"),
             Catch::Contains("$.columns[0].scale: expected a number, \"deg_to_rad\" or \"rad_to_deg\""));
  CHECK_THAT(err(R"({"model": "wander", "ticks_per_step": 0, "columns": [{"column": "a", "field": "tick", "type": "u64"}]})"),
             Catch::Contains("$.ticks_per_step: expected an integer from 1"));
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"column": "a", "address": "714b10", "field": "tick", "type": "u64"}]})"),
             Catch::Contains("$.columns[0].address: expected a 32-bit address such as \"0x00714b10\""));
  CHECK_THAT(err(R"({"model": "wander", "capture": {"counter_type": "f32"}, "columns": [{"column": "a", "field": "tick", "type": "u64"}]})"),
             Catch::Contains("$.capture.counter_type: the update counter is an integer"));
  CHECK_THAT(err(R"({"model": "wander", "first_step": 5, "last_step": 4, "columns": [{"column": "a", "field": "tick", "type": "u64"}]})"),
             Catch::Contains("$.last_step"));
  CHECK_THAT(err(R"({"model": "wander", "columns": [{"column": "a", "field": "tick", "type": "u64"}], )"),
             Catch::Contains("m.map.json: line 1, column"));
  // A column named by its address only.
  const Map m = map_text(t, R"({"model": "wander", "columns": [{"address": "0x714B10", "field": "tick", "type": "u64"}],
                                "capture": {"counter_address": "0x005104f4", "ticks_per_update": 2}})");
  CHECK(m.columns[0].name == "0x00714b10");
  CHECK(*m.columns[0].address == 0x00714b10u);
  CHECK(*m.capture.counter_address == 0x005104f4u);
  CHECK(m.capture.ticks_per_update == 2);
}

TEST_CASE("map binding: an unknown field path names the map's JSON path and the closest paths", "[traces][map]") {
  TempDir t;
  auto model = load_scenario_file(fx("wander_setup.json"));
  auto bind_err = [&](const std::string& field) {
    const Map m = map_text(t, R"({"model": "wander", "columns": [{"column": "x", "type": "f32", "field": ")" + field + "\"}]}");
    return error_of([&] { bind_map(m, *model); });
  };
  const std::string typo = bind_err("entities[0].actioncoldown");
  CHECK_THAT(typo, Catch::Contains("m.map.json: $.columns[0].field: no field \"entities[0].actioncoldown\" in the wander state"));
  CHECK_THAT(typo, Catch::Contains("closest: entities[0].actioncooldown"));
  CHECK_THAT(bind_err("entities[3].yaw"), Catch::Contains("closest: entities[0].yaw"));
  CHECK_THAT(bind_err("entities[0].position"), Catch::Contains("entities[0].position.x"));
  CHECK_THAT(bind_err("rng.wander_key"), Catch::StartsWith("(no error)"));
}

TEST_CASE("map binding: integers and bools compare exactly, strings not at all", "[traces][map]") {
  TempDir t;
  auto model = load_scenario_file(fx("wander_setup.json"));
  const Map m = map_text(t, R"({"model": "wander", "columns": [
      {"column": "x", "field": "entities[0].trycount", "type": "i32", "tolerance": {"abs": 1}}]})");
  CHECK_THAT(error_of([&] { bind_map(m, *model); }),
             Catch::Contains("$.columns[0].tolerance: entities[0].trycount is an i32: integers and bools compare exactly"));
}

TEST_CASE("similar_paths puts the asked indices back when that leaf exists", "[traces][map]") {
  auto model = load_scenario_file(fixtures::path("wander/yard.json"));
  const auto leaves = model->leaves();
  const auto near = similar_paths("entities[7].walkcoldown", leaves, 3);
  REQUIRE(!near.empty());
  CHECK(near[0] == "entities[7].walkcooldown");
  const auto far = similar_paths("entities[99].yaw", leaves, 1);
  REQUIRE(far.size() == 1);
  CHECK(far[0] == "entities[0].yaw ... entities[39].yaw");
}

// ---------------------------------------------------------------- the reference traces (seed 004)

TEST_CASE("seed 004 reference trace: the wander model matches every value of the CSV", "[traces][verify][seed004]") {
  const Map m = reference_map();
  const auto r = verify_file(fx("wander_setup.csv"), m);
  CHECK(r.ok());
  CHECK(r.rows == 231);
  CHECK(*r.first_step == 0);
  CHECK(*r.last_step == 230);
  CHECK(r.last_tick == 230);
  CHECK(r.ticks_stepped == 230);
  REQUIRE(r.columns.size() == 3);
  CHECK(r.columns[0].compared == 170);  // steps 0-169: then the cooldown is a random draw, left blank
  CHECK(r.columns[1].compared == 231);
  CHECK(r.columns[2].compared == 231);
  for (const auto& c : r.columns) {
    CHECK(c.outside == 0);
    CHECK(c.max_error == 0);
  }
}

TEST_CASE("seed 004 reference trace: the JSON lines copy verifies the same", "[traces][verify][seed004]") {
  const Map m = reference_map();
  const auto r = verify_file(fx("wander_setup.jsonl"), m);
  CHECK(r.format == TraceFormat::JsonLines);
  CHECK(r.ok());
  CHECK(r.rows == 231);
  CHECK(r.columns[0].compared == 170);
}

TEST_CASE("seed 004 perturbed: one ulp at step 60 is reported at exactly that step and column", "[traces][verify][seed004]") {
  const auto r = verify_file(fx("wander_setup.ulp.csv"), reference_map());
  REQUIRE(!r.ok());
  const auto& d = *r.first;
  CHECK(d.step == 60);
  CHECK(d.tick == 60);
  CHECK(d.line == 64);  // two comment lines, the header, then step s on line 4 + s
  CHECK(d.column_name == "actioncooldown");
  CHECK(d.field == "entities[0].actioncooldown");
  CHECK(d.trace_text == "0x42700001");
  CHECK(d.expected.bits == 0x42700001u);
  CHECK(d.actual.bits == 0x42700000u);
  CHECK(d.actual.text == "60");
  REQUIRE(d.ulps);
  CHECK(*d.ulps == 1);
  CHECK(d.error == std::ldexp(1.0, -18));
  REQUIRE(d.before.size() == 3);
  CHECK(d.before[0].step == 57);
  CHECK(d.before[2].step == 59);
  CHECK(d.before[2].cells[0].trace == "61");  // step 59: 120 - 59
  CHECK(d.before[2].cells[0].model == "61");
  CHECK(d.before[2].cells[1].model == "0");
  CHECK(r.columns[0].outside == 1);
  CHECK(*r.columns[0].first_step == 60);
  CHECK(*r.columns[0].max_step == 60);
  CHECK(*r.columns[0].max_ulps == 1);
  CHECK(r.columns[1].outside == 0);
  CHECK(r.columns[2].outside == 0);
  const std::string text = report_text(r);
  CHECK_THAT(text, Catch::Contains("DIVERGED    at step 60 (tick 60, line 64): column actioncooldown, field entities[0].actioncooldown"));
  CHECK_THAT(text, Catch::Contains("  model     60 (0x42700000)"));
  CHECK_THAT(text, Catch::Contains("1 ulp (tolerance: exact)"));
  const auto j = report_json(r);
  CHECK(j["match"] == false);
  CHECK(j["first_divergence"]["step"] == 60);
  CHECK(j["first_divergence"]["column"] == "actioncooldown");
  CHECK(j["first_divergence"]["ulps"] == 1);
  CHECK(j["first_divergence"]["context"].size() == 3);
  CHECK(j["columns"][0]["first_step"] == 60);
}

TEST_CASE("seed 004 perturbed: a trycount one too high at step 150 is reported at exactly that step", "[traces][verify][seed004]") {
  const auto r = verify_file(fx("wander_setup.count.csv"), reference_map());
  REQUIRE(!r.ok());
  const auto& d = *r.first;
  CHECK(d.step == 150);
  CHECK(d.column_name == "trycount");
  CHECK(d.field == "entities[0].trycount");
  CHECK(d.expected.text == "31");
  CHECK(d.actual.text == "30");
  CHECK(d.error == 1.0);
  CHECK(!d.ulps);
  CHECK(r.columns[1].outside == 1);
  CHECK(r.columns[0].outside == 0);
  const auto j = report_json(r);
  CHECK(j["first_divergence"]["step"] == 150);
  CHECK(j["first_divergence"]["row"]["cells"]["trycount"]["outside"] == true);
}

// ---------------------------------------------------------------- alignment, units, tolerances

TEST_CASE("alignment: step s is the state at tick s x ticks_per_step + tick_offset", "[traces][verify]") {
  TempDir t;
  std::string csv = "step,ac,tries\n";
  for (int s = 0; s < 50; ++s) csv += std::to_string(s) + "," + std::to_string(119 - 2 * s) + ",0\n";
  const std::string trace = t.write("t.csv", csv);
  const Map m = map_text(t, setup_map("\"ticks_per_step\": 2, \"tick_offset\": 1"));
  const auto r = verify_file(trace, m);
  CHECK(r.ok());
  CHECK(r.first_tick == 1);
  CHECK(r.last_tick == 99);
  // Off by one tick: every row is one frame out.
  const auto r0 = verify_file(trace, map_text(t, setup_map("\"ticks_per_step\": 2")));
  REQUIRE(!r0.ok());
  CHECK(r0.first->step == 0);
  CHECK(r0.first->error == 1.0);
  CHECK(r0.columns[0].outside == 50);
  // A row before the model's first tick.
  CHECK_THAT(error_of([&] { verify_file(trace, map_text(t, setup_map("\"tick_offset\": -1"))); }),
             Catch::Contains("t.csv: line 2: step 0 is tick -1, before the model's first tick 0"));
  // ... unless first_step skips it.
  const auto r2 = verify_file(trace, map_text(t, setup_map("\"ticks_per_step\": 2, \"tick_offset\": 1, \"first_step\": 10, \"last_step\": 19")));
  CHECK(r2.ok());
  CHECK(r2.rows == 10);
  CHECK(r2.skipped == 40);
}

TEST_CASE("units and headings: deg_to_rad, modulo 2pi and an abs tolerance", "[traces][verify]") {
  TempDir t;
  const std::string scen = t.write("s.json", R"({"model": "wander", "grounds": [{"x0": -9, "z0": -9, "x1": 9, "z1": 9}],
      "entities": [{"position": [0, 0, 0], "radiuslimit": 0, "yaw": 3.0}]})");
  std::string csv = "step,heading\n";
  const double deg = static_cast<double>(3.0f) * 180.0 / std::numbers::pi;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9f", deg + 360.0);  // a whole turn more, in degrees
  for (int s = 0; s < 5; ++s) csv += std::to_string(s) + "," + buf + "\n";
  const std::string trace = t.write("h.csv", csv);
  auto m = [&](const std::string& tol) {
    return map_text(t, R"({"model": "wander", "columns": [{"column": "heading", "field": "entities[0].yaw", "type": "f64",
        "scale": "deg_to_rad", "tolerance": )" + tol + "}]}");
  };
  const auto r = verify_file(trace, m(R"({"abs": 1e-6, "modulo": "2pi"})"), scen);
  CHECK(r.ok());
  CHECK(r.columns[0].max_error < 1e-6);
  const auto r2 = verify_file(trace, m(R"({"abs": 1e-6})"), scen);
  REQUIRE(!r2.ok());
  CHECK(std::fabs(r2.first->error - 2.0 * std::numbers::pi) < 1e-5);
  const auto r3 = verify_file(trace, m(R"({"ulps": 4})"), scen);
  CHECK(!r3.ok());
  // 360 degrees in the model's units: rad_to_deg the other way round.
  const std::string rad = t.write("r.csv", "step,heading\n0,3\n");
  const auto r4 = verify_file(rad, map_text(t, R"({"model": "wander", "columns": [{"column": "heading", "field": "entities[0].yaw",
      "type": "f32"}]})"), scen);
  CHECK(r4.ok());
}

TEST_CASE("trace files: blank cells are not compared, ignored columns and comments are allowed", "[traces][verify]") {
  TempDir t;
  const std::string trace = t.write("b.csv", "# a comment\nstep,ac,clip,tries\n0,120,17,0\n1,,18,\n2,118,19,0\n\n");
  const auto r = verify_file(trace, map_text(t, setup_map("\"ignore\": [\"clip\"]")));
  CHECK(r.ok());
  CHECK(r.rows == 3);
  CHECK(r.columns[0].compared == 2);
  CHECK(r.columns[1].compared == 2);
  // Steps may skip (a capture that missed updates).
  const std::string gaps = t.write("g.csv", "step,ac,tries\n0,120,0\n7,113,0\n100,20,0\n");
  CHECK(verify_file(gaps, map_text(t, setup_map())).ok());
}

TEST_CASE("trace errors name the file, the line and the column", "[traces][verify]") {
  TempDir t;
  const Map m = map_text(t, setup_map("\"ignore\": [\"clip*\"]"));
  auto err = [&](const std::string& name, const std::string& text) {
    const std::string p = t.write(name, text);
    return error_of([&] { verify_file(p, m); });
  };
  CHECK_THAT(err("a.csv", "step,ac,tries\n0,120,0\n1,119,x\n"),
             Catch::Contains("a.csv: line 3, column \"tries\": expected an i32 value") && Catch::Contains("got \"x\""));
  CHECK_THAT(err("b.csv", "step,ac,tries,speed\n0,120,0,1\n"),
             Catch::Contains("b.csv: line 1, column \"speed\": not in the map") && Catch::Contains("mapped: ac, tries"));
  CHECK_THAT(err("c.csv", "step,ac\n0,120\n"), Catch::Contains("c.csv: line 1 (the header): no column \"tries\""));
  CHECK_THAT(err("d.csv", "ac,tries\n120,0\n"), Catch::Contains("d.csv: line 1 (the header): no \"step\" column"));
  CHECK_THAT(err("e.csv", "step,ac,tries\n0,120,0\n2,118,0\n1,119,0\n"),
             Catch::Contains("e.csv: line 4, column \"step\": step 1 after step 2 (line 3): steps must rise"));
  CHECK_THAT(err("f.csv", "step,ac,tries\n0,120\n"), Catch::Contains("f.csv: line 2: 2 values, the header has 3 columns"));
  CHECK_THAT(err("g.csv", "step,ac,tries\n-1,120,0\n"), Catch::Contains("g.csv: line 2, column \"step\": expected the step"));
  CHECK_THAT(err("h.csv", ""), Catch::Contains("h.csv: empty trace"));
  CHECK_THAT(err("h2.csv", "# only a comment\n\n"), Catch::Contains("h2.csv: empty trace"));
  CHECK(verify_file(t.write("bom.csv", "\xEF\xBB\xBFstep,ac,tries\r\n0,120,0\r\n"), m).ok());
  CHECK_THAT(err("i.csv", "step,ac,tries\n"), Catch::Contains("i.csv: no rows to compare"));
  CHECK_THAT(err("j.csv", "step,ac,ac,tries\n"), Catch::Contains("column \"ac\" appears twice"));
  CHECK_THAT(err("k.jsonl", "{\"step\":0,\"ac\":120,\"tries\":0}\n{\"step\":1,\"ac\":119,\"tries\":0,\n"),
             Catch::Contains("k.jsonl: line 2, byte") && Catch::Contains("invalid JSON"));
  CHECK_THAT(err("l.jsonl", "{\"step\":0,\"ac\":120,\"tries\":0,\"hp\":3}\n"), Catch::Contains("l.jsonl: line 1, column \"hp\": not in the map"));
  CHECK_THAT(err("m.jsonl", "{\"step\":0,\"ac\":120}\n"), Catch::Contains("m.jsonl: no row holds the mapped column tries"));
  CHECK_THAT(err("n.jsonl", "{\"ac\":120,\"tries\":0}\n"), Catch::Contains("n.jsonl: line 1: no \"step\" key"));
  CHECK_THAT(err("o.jsonl", "{\"step\":0,\"ac\":[1],\"tries\":0}\n"), Catch::Contains("line 1, column \"ac\": expected a number, a string or null"));
  CHECK_THAT(err("p.csv", "step,ac,tries,clip_a\n0,\"120,0\n"), Catch::Contains("p.csv: line 2: a quoted value is not closed"));
  // JSON lines take numbers, strings (hex bits) and null; ignored keys may be anything.
  const std::string ok = t.write("q.jsonl", "{\"step\":0,\"ac\":\"0x42f00000\",\"tries\":0,\"clip_x\":[1,2]}\n{\"step\":1,\"ac\":null,\"tries\":0}\n");
  CHECK(verify_file(ok, m).ok());
}

TEST_CASE("verify: a long trace streams (100000 rows)", "[traces][verify]") {
  TempDir t;
  {
    std::ofstream out(t.dir() + "/long.csv");
    out << "step,t\n";
    for (int s = 0; s < 100000; ++s) out << s << ',' << s << '\n';
  }
  const Map m = map_text(t, R"({"model": "wander", "columns": [{"column": "t", "field": "tick", "type": "u64"}]})");
  // A scenario that runs that long: verify steps no further than its scenario's "ticks".
  const std::string scen = t.write("long.json", R"({"model": "wander", "ticks": 99999,
      "grounds": [{"x0": -50, "z0": -50, "x1": 50, "z1": 50}], "entities": [{"position": [0, 0, 0], "radiuslimit": 0}]})");
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = verify_file(t.dir() + "/long.csv", m, scen);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.ok());
  CHECK(r.rows == 100000);
  WARN("100000 rows verified in " << secs << " s");
}

// ---------------------------------------------------------------- hostile traces and maps

TEST_CASE("verify steps no further than the scenario runs: a row beyond its ticks is refused, not stepped", "[traces][verify][limits]") {
  TempDir t;
  auto err = [&](const std::string& name, const std::string& text, const std::string& extra = "") {
    const std::string p = t.write(name, text);
    return error_of([&] { verify_file(p, map_text(t, setup_map(extra))); });
  };
  // wander_setup.json runs 230 ticks: step 230 is the last one a trace may ask for (the bundled trace ends there).
  CHECK_THAT(err("ok.csv", "step,ac,tries\n0,120,0\n230,,0\n"), Catch::StartsWith("(no error)"));
  REQUIRE_THAT(err("a.csv", "step,ac,tries\n0,120,0\n231,,0\n"),
               Catch::Contains("a.csv: line 3: step 231 is tick 231, beyond the scenario's run length of 230 ticks") &&
                   Catch::Contains("raise \"ticks\" in the scenario"));
  // Far beyond: refused as quickly (these would step the model for hours).
  CHECK_THAT(err("b.csv", "step,ac,tries\n0,120,0\n1000000000000,,0\n"),
             Catch::Contains("b.csv: line 3: step 1000000000000 is tick 1000000000000, beyond the scenario's run length of 230 ticks"));
  CHECK_THAT(err("c.jsonl", "{\"step\":9223372036854775807,\"ac\":1,\"tries\":0}\n"),
             Catch::Contains("c.jsonl: line 1: step 9223372036854775807 is tick 9223372036854775807, beyond the scenario's run length"));
  CHECK_THAT(err("d.csv", "step,ac,tries\n0,,0\n1,,0\n", "\"ticks_per_step\": 1048576"),
             Catch::Contains("d.csv: line 3: step 1 is tick 1048576, beyond the scenario's run length of 230 ticks"));
  // A map whose offset alone is beyond the run length is refused when it is bound, at $.tick_offset.
  auto model = load_scenario_file(fx("wander_setup.json"));
  CHECK_THAT(error_of([&] { bind_map(map_text(t, setup_map("\"tick_offset\": 230")), *model); }), Catch::StartsWith("(no error)"));
  CHECK_THAT(error_of([&] { bind_map(map_text(t, setup_map("\"tick_offset\": 231")), *model); }),
             Catch::Contains("m.map.json: $.tick_offset: tick_offset 231 is beyond the scenario's run length of 230 ticks"));
  CHECK_THAT(error_of([&] { verify_file(t.write("e.csv", "step,ac,tries\n0,1,0\n"), map_text(t, setup_map("\"tick_offset\": 1000000000000000"))); }),
             Catch::Contains("$.tick_offset: tick_offset 1000000000000000 is beyond the scenario's run length of 230 ticks"));
}

TEST_CASE("trace header: 200,000 columns are checked in time linear in the header", "[traces][verify][limits]") {
  TempDir t;
  constexpr int kColumns = 200000;
  std::string header = "step,ac,tries", row0 = "0,120,0", row1 = "1,119,0";
  std::string names;
  for (int i = 0; i < kColumns; ++i) {
    const std::string n = "x" + std::to_string(i);
    header += "," + n;
    row0 += ",7";
    row1 += ",8";
    names += std::string(names.empty() ? "" : ",") + "\"" + n + "\"";
  }
  const std::string trace = t.write("wide.csv", header + "\n" + row0 + "\n" + row1 + "\n");
  // Every extra column ignored by name (a hash look-up each), then by one glob.
  const auto by_name = verify_file(trace, map_text(t, setup_map("\"ignore\": [" + names + "]")));
  CHECK(by_name.ok());
  CHECK(by_name.rows == 2);
  CHECK(by_name.columns[0].compared == 2);
  const auto by_glob = verify_file(trace, map_text(t, setup_map("\"ignore\": [\"x*\"]")));
  CHECK(by_glob.ok());
  CHECK(by_glob.rows == 2);
  // One column left out of the ignore list is still found, by name.
  std::string all_but_last = names.substr(0, names.rfind(','));
  CHECK_THAT(error_of([&] { verify_file(trace, map_text(t, setup_map("\"ignore\": [" + all_but_last + "]"))); }),
             Catch::Contains("wide.csv: line 1, column \"x199999\": not in the map"));
  // The same names as JSON lines' keys.
  std::string jl = "{\"step\":0,\"ac\":120,\"tries\":0";
  for (int i = 0; i < kColumns; ++i) jl += ",\"x" + std::to_string(i) + "\":1";
  const auto by_key = verify_file(t.write("wide.jsonl", jl + "}\n"), map_text(t, setup_map("\"ignore\": [" + names + "]")));
  CHECK(by_key.ok());
}

TEST_CASE("map ignore: globs match any run of characters, at most 64 globs of at most 64 characters", "[traces][map][limits]") {
  TempDir t;
  Map m;
  m.ignore = {"clip*", "*_raw", "a*b*c", "pad", "*a*a*a*a*a*a*a*a*a*a*a*a*b"};
  CHECK(m.ignored("clip"));
  CHECK(m.ignored("clip_a"));
  CHECK(m.ignored("clip.x[2]"));  // a trace column is a name, not a field path: * crosses . and [
  CHECK(m.ignored("speed_raw"));
  CHECK(m.ignored("_raw"));
  CHECK(m.ignored("aXXbYYc"));
  CHECK(m.ignored("abc"));
  CHECK(m.ignored("pad"));
  CHECK(!m.ignored("pad2"));
  CHECK(!m.ignored("acb"));
  CHECK(!m.ignored("cli"));
  CHECK(!m.ignored("speed_raw2"));
  CHECK(!m.ignored(std::string(100000, 'a')));  // no backtracking: one pass
  CHECK(m.ignored(std::string(100000, 'a') + "b"));
  // A glob of exactly 64 characters, its last one a star, and one ending in a literal.
  const std::string g64 = std::string(63, 'q') + "*";
  const std::string l64 = "*" + std::string(63, 'r');
  m.ignore = {g64, l64};
  CHECK(m.ignored(std::string(63, 'q')));
  CHECK(m.ignored(std::string(70, 'q')));
  CHECK(!m.ignored(std::string(62, 'q')));
  CHECK(m.ignored("x" + std::string(63, 'r')));
  CHECK(!m.ignored(std::string(62, 'r')));
  // A Map made by hand may hold a longer glob (parse_map refuses it): it matches nothing, its exact name still does.
  const std::string g65 = std::string(64, 'z') + "*";
  m.ignore = {g65};
  CHECK(!m.ignored(std::string(70, 'z')));
  CHECK(m.ignored(g65));

  auto err = [&](const std::string& extra) { return error_of([&] { map_text(t, setup_map(extra)); }); };
  auto globs = [](int n, const std::string& tail = "") {
    std::string o = "\"ignore\": [\"plain\"";
    for (int i = 0; i < n; ++i) o += ",\"g" + std::to_string(i) + "*\"";
    return o + tail + "]";
  };
  CHECK_THAT(err(globs(64)), Catch::StartsWith("(no error)"));
  CHECK_THAT(err(globs(65)), Catch::Contains("m.map.json: $.ignore: more than 64 globs"));
  CHECK_THAT(err("\"ignore\": [\"" + g64 + "\"]"), Catch::StartsWith("(no error)"));
  CHECK_THAT(err("\"ignore\": [\"x\", \"" + g64 + "q\"]"), Catch::Contains("m.map.json: $.ignore[1]: a glob of 65 characters: at most 64"));
  // Names without a star are not limited.
  std::string many;
  for (int i = 0; i < 1000; ++i) many += std::string(many.empty() ? "" : ",") + "\"n" + std::to_string(i) + "\"";
  CHECK_THAT(err("\"ignore\": [" + many + "]"), Catch::StartsWith("(no error)"));
}

TEST_CASE("trace lines: a line longer than 16 MiB is refused naming its line", "[traces][verify][limits]") {
  TempDir t;
  const Map m = map_text(t, setup_map());
  CHECK(kMaxTraceLineBytes == std::size_t{16} << 20);
  auto with_comment = [&](const std::string& name, std::size_t bytes, const char* eol) {
    return t.write(name, "step,ac,tries\n#" + std::string(bytes - 1, 'c') + eol + "0,120,0\n");
  };
  // A comment line of exactly the limit is read (and skipped), with LF or CRLF.
  CHECK(verify_file(with_comment("max.csv", kMaxTraceLineBytes, "\n"), m).ok());
  CHECK(verify_file(with_comment("maxcr.csv", kMaxTraceLineBytes, "\r\n"), m).ok());
  CHECK_THAT(error_of([&] { verify_file(with_comment("over.csv", kMaxTraceLineBytes + 1, "\n"), m); }),
             Catch::Contains("over.csv: line 2: a line longer than 16 MiB (16777216 bytes)"));
  // A file with no line break at all: refused at its first line, in JSON lines too.
  CHECK_THAT(error_of([&] { verify_file(t.write("flat.jsonl", "{\"step\":0,\"x\":\"" + std::string(kMaxTraceLineBytes, ' ')), m); }),
             Catch::Contains("flat.jsonl: line 1: a line longer than 16 MiB"));
}

TEST_CASE("JSON lines: a number beyond a double, and nesting too deep, are input errors with their place", "[traces][verify][limits]") {
  TempDir t;
  const Map m = map_text(t, setup_map());
  auto err = [&](const std::string& name, const std::string& text) {
    const std::string p = t.write(name, text);
    return error_of([&] { verify_file(p, m); });
  };
  CHECK_THAT(err("a.jsonl", "{\"step\":0,\"ac\":120,\"tries\":0}\n{\"step\":1,\"ac\":1e999,\"tries\":0}\n"),
             Catch::Contains("a.jsonl: line 2, byte 16: invalid JSON: a number beyond the range of a double (1e999)"));
  CHECK_THAT(err("b.jsonl", "{\"step\":0,\"ac\":120,\"tries\":0,\"deep\":" + std::string(300, '[') + std::string(300, ']') + "}\n"),
             Catch::Contains("b.jsonl: line 1, byte ") && Catch::Contains("nested deeper than 256 levels"));
}

TEST_CASE("map: a scenario path with a NUL or another control character is refused, shown escaped", "[traces][map][limits]") {
  TempDir t;
  auto err = [&](const std::string& scen) {
    return error_of([&] { map_text(t, R"({"model": "wander", "scenario": ")" + scen + R"(", "columns": [
        {"column": "a", "field": "tick", "type": "u64"}]})"); });
  };
  CHECK(err("\\u0000") == t.dir() + "/m.map.json: $.scenario: a scenario path with a control character in it: \"\\u0000\"");
  CHECK_THAT(err("a\\u001b[31mb.json"), Catch::Contains("$.scenario: a scenario path with a control character in it: \"a\\u001b[31mb.json\""));
  CHECK_THAT(err("tab\\there.json"), Catch::Contains("\"tab\\there.json\""));
  CHECK_THAT(err("wander_setup.json"), Catch::StartsWith("(no error)"));
}

TEST_CASE("trace errors show a name with control characters escaped", "[traces][verify][limits]") {
  TempDir t;
  const Map m = map_text(t, setup_map());
  const std::string p = t.write("c.csv", std::string("step,ac,tries,b\x01") + "ad\n0,120,0,1\n");
  CHECK_THAT(error_of([&] { verify_file(p, m); }), Catch::Contains("c.csv: line 1, column \"b\\u0001ad\": not in the map"));
  const std::string v = t.write("v.csv", std::string("step,ac,tries\n0,12\x1b") + "0,0\n");
  CHECK_THAT(error_of([&] { verify_file(v, m); }), Catch::Contains("got \"12\\u001b0\""));
}

TEST_CASE("map binding: a field path of 100,000 characters gets no suggestions and a message cut short", "[traces][map][limits]") {
  TempDir t;
  auto model = load_scenario_file(fx("wander_setup.json"));
  const std::string field = "entities[0]." + std::string(100000, 'y');
  const Map m = map_text(t, R"({"model": "wander", "columns": [{"column": "x", "type": "f32", "field": ")" + field + "\"}]}");
  const std::string e = error_of([&] { bind_map(m, *model); });
  CHECK_THAT(e, Catch::Contains("$.columns[0].field: no field \"entities[0].yyyy") && Catch::Contains("\"... (100012 bytes) in the wander state"));
  CHECK_THAT(e, !Catch::Contains("closest"));
  CHECK(e.size() < 1000);
  // A short typo still gets them (the limit is 256 characters).
  const std::string near = "entities[0].actioncooldow" + std::string(256 - 25, 'n');
  CHECK(similar_paths(near, model->leaves()).size() == 5);
  CHECK(similar_paths(near + "n", model->leaves()).empty());
}
