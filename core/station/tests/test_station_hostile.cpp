// Hostile inputs to the station model (issue 13): a scenario, an input or a
// restored state that cannot be used is an InputError naming its place, never
// a crash, a hang or undefined behaviour. Limits: docs/station.md, "Limits";
// spec note S23. Each case is made by a small generator here.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>

#include "lockstep/core/model.h"
#include "state_of.h"
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
  const uint64_t n = lockstep::test::state_of<State>(*m).walkers.size();
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

// ---------------------------------------------------------------- restored states

namespace {

// The small hall fixture 25 s in: placed walkers, spawned walkers walking, and some done.
const StationModel& hall_world() {
  static const StationModel m = [] {
    StationModel x = make(fixture("station/hall.json"));
    run(x, 500);
    return x;
  }();
  return m;
}

std::string set_state_error(const StationModel& m, const State& s) {
  StationModel b = m;
  try {
    b.set_state(s);
  } catch (const InputError& e) {
    CHECK(hash_state(b.state()) == hash_state(m.state()));  // refused: nothing changed
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("station hostile - a keyframe with a walker at x = 3e38 is refused by the snapshot's name and the field",
          "[station][hostile][state]") {
  // It passed set_state, and `replay --from` a later tick crashed in the neighbour grid.
  auto a = make_model(fixture("station/hall.json"), "hall.json");
  for (int k = 0; k < 100; ++k) a->step_scripted();
  State s = lockstep::test::state_of<State>(*a);
  s.walkers[0].pos.x = kHuge;
  auto b = make_model(fixture("station/hall.json"), "hall.json");
  const StateHashes before = b->hashes();
  CHECK_THROWS_WITH(b->restore(snapshot_bytes(s), "hall.lsr keyframe at tick 100"),
                    Catch::StartsWith("hall.lsr keyframe at tick 100: state.walkers[0].pos.x: 3e+38 m is off floor 0 (0 .. 24 m, and 1 m beyond)"));
  CHECK(b->hashes() == before);
}

TEST_CASE("station hostile - set_state refuses every value the model could never have made and names the field",
          "[station][hostile][state]") {
  const StationModel& m = hall_world();
  const State& s0 = m.state();
  const std::size_t placed = m.scenario().walkers.size();
  // A spawned walker still walking, one done, one placed.
  std::size_t sp = 0, done = 0;
  for (std::size_t i = placed; i < s0.walkers.size(); ++i) {
    if (!sp && s0.walkers[i].phase == Phase::Walking) sp = i;
    if (!done && s0.walkers[i].phase == Phase::Done) done = i;
  }
  REQUIRE(sp >= placed);
  REQUIRE(done >= placed);
  REQUIRE(set_state_error(m, s0).empty());  // the state as made passes
  const std::string S = "walkers[" + std::to_string(sp) + "]", R = "routes[" + std::to_string(sp) + "]";
  const std::string D = "walkers[" + std::to_string(done) + "]";
  struct Case {
    std::string needle;
    std::function<void(State&)> edit;
  };
  const std::vector<Case> cases = {
      {"tick: a run is at most 4294967295 ticks", [](State& s) { s.tick = kMaxTicks + 1; }},
      {"rng.key: not the scenario's spawn stream", [](State& s) { s.rng.key ^= 1; }},
      {"routes: expected one route per walker", [](State& s) { s.routes.pop_back(); }},
      {"portals: expected 3 portals", [](State& s) { s.portals.pop_back(); }},
      {"areas: expected 1 areas", [](State& s) { s.areas.clear(); }},
      {"crowd: expected 1 crowd fields", [](State& s) { s.crowd.push_back(s.crowd[0]); }},
      {"crowd[0]: expected", [](State& s) { s.crowd[0].vy.pop_back(); }},
      {"crowd[0].moving[5]: expected a count of bodies", [](State& s) { s.crowd[0].moving[5] = -1.0f; }},
      {"crowd[0].standing[7]: expected a count of bodies", [](State& s) { s.crowd[0].standing[7] = kHuge; }},
      {"crowd[0].vx[3]: expected a sum", [](State& s) { s.crowd[0].vx[3] = -kHuge; }},
      {"walkers: expected the scenario's 2 placed walkers", [](State& s) { s.walkers.resize(1), s.routes.resize(1); }},
      {"spawn_serial: expected the number of spawned walkers", [](State& s) { ++s.spawn_serial; }},
      {"stats.spawned: expected the number of spawned walkers", [](State& s) { ++s.stats.spawned; }},
      {"walkers[0].pos.x: 3e+38 m is off floor 0", [](State& s) { s.walkers[0].pos.x = kHuge; }},
      {"walkers[1].pos.y: -1.5 m is off floor 0 (0 .. 14 m, and 1 m beyond)", [](State& s) { s.walkers[1].pos.y = -1.5f; }},
      {S + ".vel.x: expected at most 50 m/s", [&](State& s) { s.walkers[sp].vel.x = kHuge; }},
      {S + ".vel.y: expected at most 50 m/s", [&](State& s) { s.walkers[sp].vel.y = -50.5f; }},
      {S + ".desired_speed: expected a sampled speed", [&](State& s) { s.walkers[sp].desired_speed = 1e6f; }},
      {S + ".radius: expected a sampled radius", [&](State& s) { s.walkers[sp].radius = 5.0f; }},
      {"walkers[0].desired_speed: not its desired speed (walker 0 is the scenario's $.walkers[0])",
       [](State& s) { s.walkers[0].desired_speed = 1.0f; }},
      {"walkers[1].radius: not its radius", [](State& s) { s.walkers[1].radius = 0.3f; }},
      {"walkers[0].lane_share: expected 0", [](State& s) { s.walkers[0].lane_share = 0.5f; }},
      {S + ".lane_share: not the lane share of portal", [&](State& s) { s.walkers[sp].lane_share += 0.125f; }},
      {S + ".floor: no floor 7", [&](State& s) { s.walkers[sp].floor = 7; }},
      {S + ".destination: no portal 99", [&](State& s) { s.walkers[sp].destination = 99; }},
      {S + ".destination: portal", [&](State& s) { s.walkers[sp].destination = static_cast<uint32_t>(s.walkers[sp].origin); }},
      {S + ".origin: expected the portal that spawned it", [&](State& s) { s.walkers[sp].origin = 5; }},
      {S + ".origin: expected the portal that spawned it", [&](State& s) { s.walkers[sp].origin = 2; }},  // despawn only
      {S + ".origin: expected the portal that spawned it", [&](State& s) { s.walkers[sp].origin = -1; }},
      {"walkers[0].origin: expected -1", [](State& s) { s.walkers[0].origin = 0; }},
      {S + ".trip: not the trip its portal", [&](State& s) {
         s.walkers[sp].trip = s.walkers[sp].trip == Trip::Board ? Trip::Alight : Trip::Board;
       }},
      {S + ".trip: unknown trip 7", [&](State& s) { s.walkers[sp].trip = static_cast<Trip>(7); }},
      {S + ".phase: unknown phase 9", [&](State& s) { s.walkers[sp].phase = static_cast<Phase>(9); }},
      {S + ".dir: expected a unit direction or zero", [&](State& s) { s.walkers[sp].dir = V2{3, 0}; }},
      {S + ".drive: expected a point within the plan's 10 km", [&](State& s) { s.walkers[sp].drive.x = kHuge; }},
      {S + ".slack_left: expected 0 .. 1.5 m", [&](State& s) { s.walkers[sp].slack_left = 2.0f; }},
      {S + ".slack_right: expected 0 .. 1.5 m", [&](State& s) { s.walkers[sp].slack_right = -0.1f; }},
      {S + ".sight_yaw: expected -0.6 .. 0.6 rad", [&](State& s) { s.walkers[sp].sight_yaw = 3.0f; }},
      {S + ".headway: expected 0 .. 3 m", [&](State& s) { s.walkers[sp].headway = 1e30f; }},
      {S + ".progress_ref: expected a distance", [&](State& s) { s.walkers[sp].progress_ref = -1.0f; }},
      {S + ".stuck_s: expected 0 .. unstick_s (3 s)", [&](State& s) { s.walkers[sp].stuck_s = 1e30f; }},
      {S + ".recheck_s: expected 0 .. 0.5 s", [&](State& s) { s.walkers[sp].recheck_s = -1.0f; }},
      {S + ".ignore_s: expected 0 .. 1.6 s", [&](State& s) { s.walkers[sp].ignore_s = 100.0f; }},
      {S + ".crowd_check_s: expected 0 .. 2 s", [&](State& s) { s.walkers[sp].crowd_check_s = 1e9f; }},
      {S + ".crowd_ref: expected 0 .. 75 m", [&](State& s) { s.walkers[sp].crowd_ref = 1e9f; }},
      {S + ".ignore_blocker: no blocker -7", [&](State& s) { s.walkers[sp].ignore_blocker = -7; }},
      {S + ".ignore_blocker: no blocker 1 on floor 0", [&](State& s) { s.walkers[sp].ignore_blocker = 1; }},
      {S + ".done_tick: expected 0 for a walking walker", [&](State& s) { s.walkers[sp].done_tick = 5; }},
      {"stats.unsticks: expected the sum of the walkers' unsticks", [&](State& s) { ++s.walkers[sp].unsticks; }},
      {D + ".vel: expected 0: a done or removed walker stands", [&](State& s) { s.walkers[done].vel = V2{1, 0}; }},
      {D + ".done_tick: expected a tick before the state's 500", [&](State& s) { s.walkers[done].done_tick = 500; }},
      {"stats.done: expected the", [](State& s) { ++s.stats.done; }},
      {R + ".waypoints: expected at least one corner", [&](State& s) { s.routes[sp].waypoints.clear(), s.routes[sp].next = 0; }},
      {R + ".next: corner", [&](State& s) { s.routes[sp].next = static_cast<uint32_t>(s.routes[sp].waypoints.size()); }},
      {R + ".next_anchor: anchor 3 of 0", [&](State& s) { s.routes[sp].next_anchor = 3; }},
      {R + ".anchors: spawned walkers have no waypoints of their own", [&](State& s) { s.routes[sp].anchors.push_back(V2{5, 5}); }},
      {"routes[0].anchors: not its waypoints", [](State& s) { s.routes[0].anchors.push_back(V2{5, 5}); }},
      {R + ".leg_start: off floor 0", [&](State& s) { s.routes[sp].leg_start.x = kHuge; }},
      {R + ".waypoints[0]: expected a point within the plan's 10 km", [&](State& s) { s.routes[sp].waypoints[0].y = -kHuge; }},
      {"portals[0].emitted: expected the", [](State& s) { ++s.portals[0].emitted; }},
      {"portals[1].arrived: expected the", [](State& s) { ++s.portals[1].arrived; }},
      {"portals[0].rotation: more turns than spawns", [](State& s) { s.portals[0].rotation = s.portals[0].emitted + 1; }},
      {"portals[0].failed: more failed spawns than ticks", [](State& s) { s.portals[0].failed = 501; }},
      {"stats.removed: expected the 0 removed walkers", [](State& s) { ++s.stats.removed; }},
      {"areas[0].count: more than the", [](State& s) { s.areas[0].count = 1000000000; }},
      {"areas[0].density: expected a density >= 0", [](State& s) { s.areas[0].density = -1.0f; }},
      {"areas[0].los: expected 0 (A) .. 5 (F)", [](State& s) { s.areas[0].los = static_cast<Los>(9); }},
      {"areas[0].los_peak: below this tick's level of service", [](State& s) { s.areas[0].los = Los::F, s.areas[0].los_peak = Los::E; }},
      {"areas[0].ticks_above_bc: more ticks than the state's 500", [](State& s) { s.areas[0].ticks_above_bc = 501; }},
  };
  for (const auto& c : cases) {
    INFO(c.needle);
    State s = s0;
    c.edit(s);
    CHECK_THAT(set_state_error(m, s), Catch::StartsWith("state: " + c.needle));
  }
}

TEST_CASE("station hostile - every state the bundled scenarios make passes set_state", "[station][hostile][state]") {
  // The other side of the checks above: no state the model makes is refused
  // (keyframes of every tick, replay --from, bisect).
  struct Run {
    const char* fixture;
    int ticks;
  };
  for (const Run r : {Run{"station/hall.json", 1200}, Run{"station/corridor.json", 800}, Run{"station/rimea6.json", 1200},
                      Run{"station/rimea12.json", 400}, Run{"station/rimea4_d050.json", 240},
                      Run{"station/rimea9_small_four.json", 600}}) {
    INFO(r.fixture);
    StationModel m = make(fixture(r.fixture));
    StationModel fresh = make(fixture(r.fixture));
    for (int k = 0; k <= r.ticks; ++k) {
      if (k % 10 == 0 || k < 5) {
        INFO("tick " << k);
        REQUIRE_NOTHROW(fresh.set_state(m.state()));
        REQUIRE(hash_state(fresh.state()) == hash_state(m.state()));
      }
      m.step(m.scripted_input());
    }
  }
}
