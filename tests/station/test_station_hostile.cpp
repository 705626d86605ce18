// Hostile inputs to the station model (issue 13): a scenario, an input or a
// restored state that cannot be used is an InputError naming its place, never
// a crash, a hang or undefined behaviour. Limits: docs/station.md, "Limits";
// spec note S23. Each case is made by a small generator here.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>

#include "lockstep/core/model.h"
#include "station_test_util.h"

using namespace station_test;

namespace {

// The error message for a scenario, or "" when it loads.
std::string load_error(const Json& j) {
  try {
    JsonReader r("bad.json");
    (void)StationModel::load_scenario(j, r);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A 20 x 10 m hall: a street portal spawning into a despawn portal, one placed walker, an area.
Json base() {
  Json j = hall(20, 10);
  j["portals"] = Json::array({Json{{"id", "street_a"}, {"polygon", rect(0, 0, 2, 10)}, {"mode", "both"}, {"count", 5},
                                   {"rate_per_min", 60}},
                              Json{{"id", "b"}, {"polygon", rect(18, 0, 20, 10)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({Json{{"position", {5, 5}}, {"destination", "b"}}});
  j["areas"] = Json::array({Json{{"id", "mid"}, {"polygon", rect(8, 2, 12, 8)}}});
  return j;
}

template <class Edit>
Json with(Edit edit) {
  Json j = base();
  edit(j);
  return j;
}

std::vector<uint8_t> encode(const Input& in) {
  ByteSink sink;
  write_canonical(sink, in);
  return std::move(sink.out);
}

Input one_event(uint32_t walker, EventKind kind, V2 value) {
  Input in;
  in.events.push_back(Event{walker, kind, value});
  return in;
}

std::string step_error(Model& m, const Input& in, const std::string& source) {
  try {
    m.step(encode(in), source);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

constexpr float kHuge = 3e38f;  // finite, and a float

const StationModel& station_of(const Model& m) { return dynamic_cast<const ModelAdapter<StationModel>&>(m).model(); }

}  // namespace

// ---------------------------------------------------------------- integer conversions

TEST_CASE("station hostile - the walker and wall grids clip any coordinate however far to a cell of the grid",
          "[station][hostile]") {
  // CellGrid::cx/cy converted (x - x0) / cell to an int before clipping: a
  // position of 3e38 was an out-of-range conversion (INT_MIN on x86-64, then a
  // negative cell index and a write before the walker grid: the crash).
  CellGrid g;
  g.x0 = -1.0f, g.y0 = -1.0f, g.cell = 2.0f, g.nx = 5, g.ny = 3;
  // Read at run time (a constant would let the compiler fold the conversion its own way).
  volatile float far = kHuge, nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  volatile float beyond = 3e9f;  // beyond int32
  CHECK(g.cx(far) == 4);
  CHECK(g.cx(-far) == 0);
  CHECK(g.cy(far) == 2);
  CHECK(g.cy(-far) == 0);
  CHECK(g.cx(nan) == 0);
  CHECK(g.cx(inf) == 4);
  CHECK(g.cx(beyond) == 4);
  // Inside the grid, the cell it always was: the truncation of (x - x0) / cell.
  CHECK(g.cx(-1.0f) == 0);
  CHECK(g.cx(0.99f) == 0);
  CHECK(g.cx(1.0f) == 1);
  CHECK(g.cx(7.99f) == 4);
  CHECK(g.cx(9.0f) == 4);
  CHECK(g.cy(2.5f) == 1);
  const CellGrid::Box b = g.box(-far, -far, far, far);
  CHECK(b.x0 == 0);
  CHECK(b.x1 == 4);
  CHECK(b.y0 == 0);
  CHECK(b.y1 == 2);
}

TEST_CASE("station hostile - the force sums cannot overflow (a pile of 2600 bodies pushes the walker beside it away)",
          "[station][hostile][forces]") {
  // Every pair term is clamped at 1e6 m/s^2 (2^52 fixed-point units); an int64
  // sum overflowed after 2,048 of them (undefined behaviour; on x86-64 it
  // wrapped, and the pile pulled the walker into itself). A scenario may place
  // that many bodies in a pile (distinct spots is all it asks).
  Json j = hall(20, 10);
  j["portals"] = Json::array({Json{{"id", "west"}, {"polygon", rect(0, 0, 2, 10)}, {"mode", "despawn"}}});
  Json ws = Json::array({Json{{"position", {5, 5}}, {"destination", "west"}, {"radius", 1.0}}});
  for (int a = 0; a < 51; ++a)
    for (int b = 0; b < 51; ++b)  // 0.4 x 0.8 m just east of the walker: every pair term is at the clamp
      ws.push_back(Json{{"position", {5.05 + 0.008 * a, 4.6 + 0.016 * b}}, {"destination", "west"}, {"radius", 1.0}});
  j["walkers"] = ws;
  auto m = make(j);
  REQUIRE(m.state().walkers.size() == 2602u);
  m.step({});
  const Walker& w = m.state().walkers[0];
  CHECK(w.vel.x < 0.0f);  // pushed west, away from the pile (the wrapped sum pushed it east, into the pile)
  CHECK(w.pos.x < 5.0f);
  CHECK(length(w.vel) <= 1.3f * w.desired_speed * 1.0001f);
}

TEST_CASE("station hostile - a floor of coordinates near 3e38 is refused by its span with the message's numbers in range",
          "[station][hostile][scenario]") {
  // The span message converted the span (6e38 m) to an int64: out of range.
  const std::string e = load_error(with([](Json& j) {
    j["floors"][0]["walkable"][0] = Json::array({{-kHuge, -kHuge}, {kHuge, -kHuge}, {kHuge, kHuge}, {-kHuge, kHuge}});
  }));
  CHECK_THAT(e, Catch::StartsWith("bad.json: $.floors[0].walkable: the floor spans more than 10^15 x more than 10^15 m"));
  // The grid's own check, for its other users.
  GridInput gi;
  gi.walkable.push_back(GridPolygon{{{-kHuge, -kHuge}, {kHuge, -kHuge}, {kHuge, kHuge}, {-kHuge, kHuge}}});
  CHECK_THROWS_WITH(NavGrid(gi), Catch::Contains("the floor needs more than 10^15 cells"));
}

// ---------------------------------------------------------------- scenarios

TEST_CASE("station hostile - scenario values that loaded and then crashed or overflowed are refused at their JSON path",
          "[station][hostile][scenario]") {
  struct Case {
    const char* what;
    Json j;
    const char* needle;
  };
  const double t63 = 9223372036854775808.0;  // 2^63
  std::vector<Case> cases;
  cases.push_back({"impulse of 3e38 (crashed the neighbour grid)", with([](Json& j) {
                     j["script"] = Json::array({Json{{"tick", 3}, {"walker", 0}, {"value", {kHuge, kHuge}}}});
                   }),
                   "bad.json: $.script[0].value: an impulse is a velocity change of at most 50 m/s in x and in y, got [3e+38, 3e+38]"});
  cases.push_back({"impulse just beyond 50 m/s", with([](Json& j) {
                     j["script"] = Json::array({Json{{"tick", 3}}, Json{{"tick", 3}, {"walker", 0}, {"value", {0, -50.01}}}});
                   }),
                   "bad.json: $.script[1].value: an impulse"});
  cases.push_back({"a script tick of 2^63", with([&](Json& j) {
                     j["script"] = Json::array({Json{{"tick", static_cast<uint64_t>(t63)}, {"walker", 0}}});
                   }),
                   "bad.json: $.script[0].tick: expected a tick below 4294967295"});
  cases.push_back({"a run of 2^63 ticks", with([&](Json& j) { j["ticks"] = static_cast<uint64_t>(t63); }),
                   "bad.json: $.ticks: a run is at most 4294967295 ticks"});
  cases.push_back({"a population radius beyond the grid's 1 m (failed at the first spawn)",
                   with([](Json& j) { j["population"] = Json{{"radius", 1.5}}; }), "bad.json: $.population.radius: the largest sampled body"});
  cases.push_back({"a base radius whose sampled bodies pass 1 m (0.99 x 1.02)",
                   with([](Json& j) { j["population"] = Json{{"radius", 0.99}}; }), "bad.json: $.population.radius"});
  cases.push_back({"a population speed of 20 m/s", with([](Json& j) { j["population"] = Json{{"desired_speed", 20}}; }),
                   "bad.json: $.population.desired_speed: with speed_jitter 0.2 the fastest walker would want 24 m/s; at most 10 m/s"});
  cases.push_back({"a mean of 6 m/s with jitter 0.9 (11.4 m/s)",
                   with([](Json& j) { j["population"] = Json{{"desired_speed", 6}, {"speed_jitter", 0.9}}; }),
                   "bad.json: $.population.desired_speed"});
  cases.push_back({"a placed walker's radius beyond 1 m (failed in the model's construction)",
                   with([](Json& j) { j["walkers"][0]["radius"] = 1.5; }), "bad.json: $.walkers[0].radius: expected a radius 0 .. 1 m"});
  cases.push_back({"a placed walker's desired speed of 3e38 (its recovery kick overflowed)",
                   with([](Json& j) { j["walkers"][0]["desired_speed"] = kHuge; }),
                   "bad.json: $.walkers[0].desired_speed: expected a speed 0 .. 10 m/s"});
  cases.push_back({"a placed walker's velocity of 3e38 (crashed like the impulse)",
                   with([](Json& j) { j["walkers"][0]["velocity"] = {0, kHuge}; }),
                   "bad.json: $.walkers[0].velocity: expected at most 50 m/s in x and in y"});
  cases.push_back({"a waypoint at 3e38", with([](Json& j) { j["walkers"][0]["waypoints"] = Json::array({{10, 5}, {kHuge, 5}}); }),
                   "bad.json: $.walkers[0].waypoints[1]: a coordinate must lie within +-10000 m of the origin"});
  cases.push_back({"an extra wall to 3e38 (the wall grid's cell conversion)",
                   with([](Json& j) { j["floors"][0]["walls"] = Json::array({{0, 0, kHuge, kHuge}}); }),
                   "bad.json: $.floors[0].walls[0]: a coordinate must lie within"});
  cases.push_back({"an obstacle corner at -3e38",
                   with([](Json& j) { j["floors"][0]["obstacles"] = Json::array({Json::array({{8, 8}, {9, 8}, {-kHuge, 9}})}); }),
                   "bad.json: $.floors[0].obstacles[0][2]: a coordinate"});
  cases.push_back({"a portal corner at 3e38 (its goal point overflowed)",
                   with([](Json& j) { j["portals"][1]["polygon"][1] = {kHuge, 0}; }), "bad.json: $.portals[1].polygon[1]: a coordinate"});
  cases.push_back({"an area corner at 20 km", with([](Json& j) { j["areas"][0]["polygon"][0] = {20000, 2}; }),
                   "bad.json: $.areas[0].polygon[0]: a coordinate"});
  cases.push_back({"target weights whose sum overflows", with([](Json& j) {
                     j["portals"][0]["targets"] = Json::array({Json{{"portal", "b"}, {"weight", kHuge}}, Json{{"portal", "b"}, {"weight", kHuge}}});
                   }),
                   "bad.json: $.portals[0].targets[0].weight: expected a weight 0 .. 1e+06"});
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK_THAT(load_error(c.j), Catch::Contains(c.needle));
  }
}

TEST_CASE("station hostile - values at the limits load and run", "[station][hostile][scenario]") {
  const Json sc = with([](Json& j) {
    j["population"] = Json{{"radius", 0.98}, {"desired_speed", 5}, {"speed_jitter", 0.9}};  // the largest sampled: 0.9996 m, 9.5 m/s
    j["walkers"][0]["radius"] = 1.0;                                         // the routing grid's largest body
    j["walkers"][0]["desired_speed"] = 10.0;
    j["walkers"][0]["velocity"] = {-50, 50};
    j["walkers"][0]["waypoints"] = Json::array({{10, 5}});
    j["floors"][0]["walls"] = Json::array({{-10000, -10000, 10000, -10000}});
    j["script"] = Json::array();
    for (int t = 0; t < 60; ++t)  // the hardest shove, every tick
      j["script"].push_back(Json{{"tick", t}, {"walker", 0}, {"value", {t % 2 ? 50 : -50, t % 3 ? -50 : 50}}});
    j["ticks"] = 4294967295u;
  });
  REQUIRE(load_error(sc).empty());
  auto m = make(sc);
  CHECK(m.scenario().ticks == kMaxTicks);
  for (int k = 0; k < 200; ++k) {
    m.step(m.scripted_input());
    for (const Walker& w : m.state().walkers) {
      REQUIRE(std::isfinite(w.pos.x));
      REQUIRE(std::isfinite(w.pos.y));
      REQUIRE(length(w.vel) <= 1.3f * w.desired_speed * 1.0001f);
      REQUIRE(w.pos.x > 0.0f);  // on the floor: the shoves are refused at the walls
      REQUIRE(w.pos.x < 20.0f);
      REQUIRE(w.pos.y > 0.0f);
      REQUIRE(w.pos.y < 10.0f);
    }
  }
  CHECK(m.state().stats.spawned >= 1u);
}

// ---------------------------------------------------------------- inputs

TEST_CASE("station hostile - a recorded input the model cannot step is refused by its field before anything changes",
          "[station][hostile][input]") {
  auto m = make_model(base(), "base.json");
  for (int k = 0; k < 40; ++k) m->step_scripted();  // a few spawned walkers
  const uint64_t n = station_of(*m).state().walkers.size();
  REQUIRE(n >= 2u);
  const StateHashes before = m->hashes();
  struct Case {
    const char* what;
    Input in;
    const char* needle;
  };
  std::vector<Case> cases;
  // NaN and infinities: the adapter's generic check (validate.h); they crashed the replay.
  cases.push_back({"NaN impulse", one_event(0, EventKind::Impulse, {std::nanf(""), std::nanf("")}),
                   "rec.lsr chunk 2: input.events[0].value.x: not a finite number"});
  cases.push_back({"infinite impulse", one_event(0, EventKind::Impulse, {0, std::numeric_limits<float>::infinity()}),
                   "rec.lsr chunk 2: input.events[0].value.y: not a finite number"});
  // The rest: StationModel::check_input.
  cases.push_back({"impulse of 3e38", one_event(1, EventKind::Impulse, {kHuge, kHuge}),
                   "rec.lsr chunk 2: input.events[0].value: an impulse is a velocity change of at most 50 m/s in x and in y, got [3e+38, 3e+38]"});
  cases.push_back({"impulse of 50.001", one_event(1, EventKind::Impulse, {0, 50.001f}), "rec.lsr chunk 2: input.events[0].value: an impulse"});
  cases.push_back({"unknown kind", one_event(0, static_cast<EventKind>(7), {}),
                   "rec.lsr chunk 2: input.events[0].kind: unknown event kind 7 (0 impulse, 1 remove)"});
  cases.push_back({"negative kind", one_event(0, static_cast<EventKind>(-1), {}), "rec.lsr chunk 2: input.events[0].kind"});
  cases.push_back({"walker the world does not have", one_event(static_cast<uint32_t>(n), EventKind::Remove, {}),
                   "rec.lsr chunk 2: input.events[0].walker: no walker"});
  {
    Input in = one_event(0, EventKind::Impulse, {1, 0});  // a good event first: still nothing applied
    in.events.push_back(Event{4000000000u, EventKind::Impulse, {}});
    cases.push_back({"the second event bad", in, "rec.lsr chunk 2: input.events[1].walker: no walker 4000000000 at tick 40"});
  }
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK_THAT(step_error(*m, c.in, "rec.lsr chunk 2"), Catch::StartsWith(c.needle));
    CHECK(m->hashes() == before);
  }
  // At the limit it steps.
  CHECK(step_error(*m, one_event(0, EventKind::Impulse, {-50, 50}), "rec.lsr chunk 2").empty());
}

TEST_CASE("station hostile - a scripted event for a walker that spawns later names the scenario file and tick and the script entry",
          "[station][hostile][input]") {
  // It passes loading (the scenario can have 6 walkers); at tick 5 only the placed walker and 0-1 spawned exist.
  Json j = base();
  j["script"] = Json::array({Json{{"tick", 9}, {"walker", 0}, {"value", {1, 0}}}, Json{{"tick", 5}, {"walker", 0}, {"value", {1, 0}}},
                             Json{{"tick", 5}, {"walker", 4}, {"kind", "remove"}}});
  auto m = make_model(j, "later.json");
  std::string e;
  try {
    for (int k = 0; k < 10; ++k) m->step_scripted();
  } catch (const InputError& err) {
    e = err.what();
  }
  CHECK(m->tick() == 5u);
  CHECK_THAT(e, Catch::StartsWith("later.json (its script at tick 5): input.events[1].walker: no walker 4 at tick 5 (the world has "));
  CHECK_THAT(e, Catch::EndsWith("; the scenario's $.script[2] names a walker that has not spawned by then"));
}

TEST_CASE("station hostile - events for a done or removed walker do nothing", "[station][hostile][input]") {
  auto m = make(base());
  m.step(one_event(0, EventKind::Remove, {}));
  REQUIRE(m.state().walkers[0].phase == Phase::Removed);
  const V2 pos = m.state().walkers[0].pos;
  m.step(one_event(0, EventKind::Impulse, {50, 50}));
  m.step(one_event(0, EventKind::Remove, {}));
  CHECK(m.state().walkers[0].vel == V2{});
  CHECK(m.state().walkers[0].pos == pos);
  CHECK(m.state().walkers[0].done_tick == 0u);
  CHECK(m.state().stats.removed == 1u);
}
