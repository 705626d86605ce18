// seed 002, "A different floor inserts a connector", Elevator (issue 19):
// one car per pair_id, its landings, boarding, the ride, stepping out.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <tuple>
#include <string>
#include <vector>

#include "station_test_util.h"

using namespace station_test;

namespace {

// A building of three floors, each the hall x 0..20, y 0..10: "ground" (z 0),
// "upper" (z 4), "top" (z 8), with a portal at each one's west end ("low",
// "mid", "high"). One car serves every floor from a landing x 16..17.6,
// y 5 -/+ half the door width, its door (edge 0) on x = 16 facing west.
Json building(float door_w = 1.1f, bool door = true, float hold_s = 2.0f, float delay_s = 3.0f) {
  const float y0 = 5.0f - 0.5f * door_w, y1 = 5.0f + 0.5f * door_w;
  Json j;
  j["model"] = "station";
  j["floors"] = Json::array();
  j["zones"] = Json::array();
  const char* ids[3] = {"ground", "upper", "top"};
  const char* portals[3] = {"low", "mid", "high"};
  j["portals"] = Json::array();
  for (int f = 0; f < 3; ++f) {
    j["floors"].push_back(Json{{"id", ids[f]}, {"z", 4 * f}, {"walkable", Json::array({rect(0, 0, 20, 10)})}});
    j["zones"].push_back(Json{{"id", std::string("lift_") + ids[f]}, {"kind", "elevator"}, {"pair_id", "car"}, {"floor", ids[f]},
                              {"polygon", Json::array({{16, y1}, {16, y0}, {17.6, y0}, {17.6, y1}})}, {"door", door},
                              {"hold_s", hold_s}, {"delay_s", delay_s}});
    j["portals"].push_back(Json{{"id", portals[f]}, {"floor", ids[f]}, {"polygon", rect(0, 3, 1, 7)}, {"mode", "despawn"}});
  }
  j["walkers"] = Json::array();
  return j;
}

// How far p stands in front of the door line x = 16 (the landing's edge 0).
float in_front(V2 p) { return 16.0f - p.x; }

const CarState& car0(const StationModel& m) { return m.state().cars[0]; }

bool listed(const StationModel& m, uint32_t i) {
  for (const auto& b : m.bodies())
    if (b.id == static_cast<int64_t>(i)) return true;
  return false;
}

}  // namespace

TEST_CASE("seed 002 Elevator - boards at the door, the car leaves hold_s after, rides delay_s per storey, only to called floors", "[station][lifts]") {
  // "A walker who reaches the landing while the car stands there with room
  // boards and stands still inside the car"; "The car leaves ... hold_s after
  // the last person boarded if nobody else is waiting"; "The ride takes
  // delay_s per storey"; "It only runs to a floor that has a call ... or a
  // rider whose destination is that floor; it does not cycle through quiet
  // floors." With no stair, everyone takes the car (S54).
  Json j = building();
  j["walkers"].push_back(placed_walker({8, 5}, "ground", "high"));
  StationModel m = make(j);
  const auto& w = m.state().walkers[0];
  CHECK(w.lift == 0);
  V2 before{};
  int boarded = -1, left = -1, out = -1;
  std::set<uint32_t> stops;
  for (int k = 0; k < 2000 && out < 0; ++k) {
    before = w.pos;
    const Phase was = w.phase;
    m.step(m.scripted_input());
    if (was == Phase::Walking && w.phase == Phase::Riding) {
      boarded = k;
      // Within 0.3 m of the door line (a body's radius and 0.3 m of its centre) after this tick's move
      // (at most 1.3 v0 dt), in front of the doorway.
      CHECK(in_front(before) >= 0.0f);
      CHECK(in_front(before) <= w.radius + 0.3f + 1.3f * w.desired_speed * 0.05f);
      CHECK(std::fabs(before.y - 5.0f) <= 0.55f);
      CHECK(w.vel == V2{});
      CHECK_FALSE(listed(m, 0));  // out of the crowd: no body
    }
    if (boarded >= 0 && left < 0 && car0(m).run_ticks > 0) left = k;
    if (car0(m).run_ticks == 0) stops.insert(car0(m).at);
    if (was == Phase::Riding && w.phase == Phase::Walking) out = k;
  }
  REQUIRE(boarded >= 0);
  REQUIRE(left >= 0);
  REQUIRE(out >= 0);
  CHECK(left - boarded == 40);    // hold_s 2 s
  CHECK(out - left == 2 * 60);    // two storeys at delay_s 3 s
  CHECK(stops == std::set<uint32_t>{0, 2});  // never stood at the quiet upper floor
  // Drawn: the car's label in front of its door on the floor it stands at (its riders have no body).
  bool label = false;
  for (const auto& sh : m.tick_drawing().shapes) label = label || (sh.kind == DrawShape::Kind::Label && sh.text == "car: 0 aboard" && sh.floor == 2);
  CHECK(label);
  CHECK(w.floor == 2);
  // Out in front of the door, walking away from it, locked out of the car for teleport_lock_s (0.75 s).
  CHECK(in_front(w.pos) == Approx(w.radius + 0.05f).margin(1e-4));
  CHECK(w.vel.x < 0.0f);
  CHECK(w.lock_ticks == 15);
  CHECK(w.lift == -1);
  m.step(m.scripted_input());
  CHECK(w.lock_ticks == 14);
  run(m, 400);
  CHECK(w.phase == Phase::Done);
}

TEST_CASE("seed 002 Elevator - a full car leaves at once; the others stand about 1.4 m back, not stuck, and go on the next trip", "[station][lifts]") {
  // "The car leaves when it is full"; "While the car is away, full or
  // unloading, walkers headed for it stand about 1.4 m back from the door".
  Json j = building();
  for (auto& z : j["zones"]) z["capacity"] = 3;
  for (int k = 0; k < 6; ++k) j["walkers"].push_back(placed_walker({13.0f, 2.0f + 1.2f * k}, "ground", "mid"));
  StationModel m = make(j);
  int full_tick = -1, left = -1;
  bool inside_shaft = false;
  for (int k = 0; k < 600 && left < 0; ++k) {
    m.step(m.scripted_input());
    if (full_tick < 0 && car0(m).riders == 3) full_tick = k;
    if (car0(m).run_ticks > 0) left = k;
    for (const auto& w : m.state().walkers)
      if (w.phase == Phase::Walking && w.floor == 0 && w.pos.x > 16.0f && w.pos.x < 17.6f && std::fabs(w.pos.y - 5.0f) < 0.55f)
        inside_shaft = true;
  }
  REQUIRE(full_tick >= 0);
  CHECK(left == full_tick);  // full: no hold
  CHECK_FALSE(inside_shaft);  // a door landing is the car's shaft: solid to walkers
  run(m, 90);  // 4.5 s on: the car rode 3 s up and stands there; the three left have backed off and stand
  REQUIRE(car0(m).at == 1);
  int waiting = 0;
  for (const auto& w : m.state().walkers) {
    if (w.phase != Phase::Walking || w.floor != 0) continue;  // (the three who rode are out on upper)
    ++waiting;
    CHECK(in_front(w.pos) == Approx(1.4f).margin(0.35f));
    CHECK(length(w.vel) < 0.15f);
    CHECK(w.stuck_s == 0.0f);
  }
  CHECK(waiting == 3);
  run(m, 900);
  int done = 0, unsticks = 0;
  for (const auto& w : m.state().walkers) done += w.phase == Phase::Done ? 1 : 0, unsticks += static_cast<int>(w.unsticks);
  CHECK(done == 6);
  CHECK(unsticks == 0);
}

TEST_CASE("seed 002 Elevator - riders step out a row at a time, as many abreast as the door fits; nobody boards before the last is out", "[station][lifts]") {
  // "riders step out a row at a time, as many abreast as the doorway fits
  // (0.55 m each, at most 3), each row once the one before has walked clear
  // (or after 2 s). Nobody boards until the last rider for this floor is out."
  for (const auto& [door_w, abreast] : std::vector<std::pair<float, uint32_t>>{{0.65f, 1}, {1.1f, 2}, {2.0f, 3}}) {
    Json j = building(door_w);
    for (auto& z : j["zones"]) z["capacity"] = 5;
    for (int k = 0; k < 5; ++k) j["walkers"].push_back(placed_walker({13.0f, 1.5f + 1.5f * k}, "ground", "mid"));
    j["walkers"].push_back(placed_walker({6, 5}, "upper", "low"));  // waits on upper for the car to come down
    StationModel m = make(j);
    const auto& waiter = m.state().walkers[5];
    std::vector<std::pair<int, uint32_t>> rows;  // (tick, riders out)
    int last_out = -1, boarded = -1;
    for (int k = 0; k < 3000 && boarded < 0; ++k) {
      const uint32_t riders = car0(m).riders;
      m.step(m.scripted_input());
      const bool standing_up = car0(m).run_ticks == 0 && car0(m).at == 1;  // arrived this tick or before
      if (standing_up && car0(m).riders < riders && waiter.phase != Phase::Riding) rows.emplace_back(k, riders - car0(m).riders), last_out = k;
      if (waiter.phase == Phase::Riding && boarded < 0) boarded = k;
    }
    INFO("door " << door_w << " m");
    REQUIRE(rows.size() >= 2);
    uint32_t total = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      total += rows[r].second;
      CHECK(rows[r].second == std::min<uint32_t>(abreast, 5 - (total - rows[r].second)));
      if (r > 0) CHECK(rows[r].first - rows[r - 1].first <= 40);  // the next row within 2 s
      if (r > 0) CHECK(rows[r].first - rows[r - 1].first >= 1);
    }
    CHECK(total == 5);
    REQUIRE(boarded >= 0);
    CHECK(boarded > last_out);
  }
}

TEST_CASE("seed 002 Elevator - only riders for this floor step out; an empty car goes to the nearest called floor", "[station][lifts]") {
  // "On arrival only riders bound for that floor step out; the rest stay aboard."
  {
    Json j = building();
    j["walkers"].push_back(placed_walker({13, 4}, "ground", "mid"));
    j["walkers"].push_back(placed_walker({13, 6}, "ground", "high"));
    StationModel m = make(j);
    const auto& a = m.state().walkers[0];
    const auto& b = m.state().walkers[1];
    bool checked = false;
    for (int k = 0; k < 1500 && !checked; ++k) {
      m.step(m.scripted_input());
      if (a.phase == Phase::Walking && a.floor == 1 && a.lock_ticks > 0) {
        CHECK(b.phase == Phase::Riding);
        CHECK(car0(m).riders == 1);
        checked = true;
      }
    }
    CHECK(checked);
    run(m, 900);
    CHECK(b.phase == Phase::Done);
  }
  // "An empty car goes to the nearest called floor": waiting on upper and on top, the car at ground.
  {
    Json j = building();
    j["walkers"].push_back(placed_walker({12, 3}, "top", "low"));
    j["walkers"].push_back(placed_walker({12, 7}, "upper", "low"));
    StationModel m = make(j);
    int first = -1;
    for (int k = 0; k < 600 && first < 0; ++k) {
      m.step(m.scripted_input());
      if (car0(m).run_ticks > 0) first = static_cast<int>(car0(m).at);
    }
    CHECK(first == 1);
  }
}

TEST_CASE("seed 002 Elevator - someone walking up holds the car, but never past 3 x hold_s", "[station][lifts]") {
  // "someone still walking up holds it, but never past 3 × hold_s" (S52:
  // walking up = bound for the car within 10 m of its landing, not yet waiting).
  auto departure = [](bool slow_walker) {
    Json j = building();
    j["walkers"].push_back(placed_walker({15, 5}, "ground", "mid"));
    if (slow_walker) {
      Json s = placed_walker({7.5, 5}, "ground", "mid");  // 8.5 m from the door at 0.2 m/s: 40 s away
      s["desired_speed"] = 0.2;
      j["walkers"].push_back(s);
    }
    StationModel m = make(j);
    int boarded = -1;
    for (int k = 0; k < 600; ++k) {
      m.step(m.scripted_input());
      if (boarded < 0 && m.state().walkers[0].phase == Phase::Riding) boarded = k;
      if (car0(m).run_ticks > 0) return boarded >= 0 ? k - boarded : -1;
    }
    return -1;
  };
  CHECK(departure(false) == 40);
  CHECK(departure(true) == 3 * 40);
}

TEST_CASE("seed 002 Elevator - a landing without a door: entered from any edge, riders step out together, spread across it", "[station][lifts]") {
  // "A landing without a door is entered from any edge, and those getting off step out together, spread across it."
  Json j = building(2.0f, false);
  for (int k = 0; k < 4; ++k) j["walkers"].push_back(placed_walker({19.0f, 1.0f + 2.5f * k}, "ground", "mid"));  // east of the landing
  StationModel m = make(j);
  int stepped = -1;
  for (int k = 0; k < 1500 && stepped < 0; ++k) {
    const uint32_t riders = car0(m).riders;
    m.step(m.scripted_input());
    const bool up = car0(m).run_ticks == 0 && car0(m).at == 1;
    if (up && riders > 0 && car0(m).riders < riders) {
      CHECK(car0(m).riders == 0);  // all at once
      stepped = k;
      std::set<std::pair<float, float>> spots;
      for (const auto& w : m.state().walkers) {
        CHECK(w.phase == Phase::Walking);
        CHECK(w.floor == 1);
        CHECK(w.pos.x >= 16.0f);
        CHECK(w.pos.x <= 17.6f);
        CHECK(std::fabs(w.pos.y - 5.0f) <= 1.0f);
        spots.insert({w.pos.x, w.pos.y});
      }
      CHECK(spots.size() == 4);
    }
  }
  CHECK(stepped >= 0);
}

TEST_CASE("the load check follows the way through an elevator: a landing walled off on either floor refuses the target", "[station][lifts]") {
  // A portal on the ground floor spawning walkers for the top floor, whose only
  // way there is the car. Before, a landing cut off by walls (on the floor the
  // walkers start on or on the one they go to) loaded, and its walkers stood at
  // the wall for the whole run.
  auto with_spawner = [](Json j) {
    j["portals"][0]["mode"] = "both";
    j["portals"][0]["count"] = 3;
    j["portals"][0]["target"] = "high";
    return j;
  };
  CHECK(scenario_error(with_spawner(building())).empty());
  CHECK(scenario_error(with_spawner(building(1.1f, false))).empty());  // a doorless landing: reached at its middle
  for (const int floor : {0, 2}) {
    for (const bool door : {true, false}) {
      INFO("the wall on floor " << floor << (door ? ", a door" : ", no door"));
      Json j = with_spawner(building(1.1f, door));
      j["floors"][static_cast<std::size_t>(floor)]["obstacles"] = Json::array({rect(12, 0, 12.3f, 10)});  // x 12: the landing's side cut off
      CHECK_THAT(scenario_error(j), Catch::Contains("$.portals[0].target: portal \"high\" on floor \"top\" cannot be reached from "
                                                    "portal \"low\" on floor \"ground\"") &&
                                        Catch::Contains("stairs, escalators and elevators"));
    }
  }
  // Walled off on the middle floor only: the car rides past it.
  Json j = with_spawner(building());
  j["floors"][1]["obstacles"] = Json::array({rect(12, 0, 12.3f, 10)});
  CHECK(scenario_error(j).empty());
}

TEST_CASE("seed 002 Population - the lift is taken by those who prefer it, or by everyone on an elevator route", "[station][lifts]") {
  // "p_impaired and p_disable are independent chances, at spawn, that the
  // walker prefers an elevator over a stair. A scenario-wide elevator route
  // forces that preference for everyone." A stair joins ground and upper too.
  auto with_stair = [](const std::string& route, float p_impaired) {
    Json j = building();
    j["zones"].push_back(Json{{"id", "stair"}, {"pair_id", "s"}, {"floor", "ground"}, {"to_floor", "upper"},
                              {"polygon", Json::array({{8, 10}, {8, 8.5}, {12, 8.5}, {12, 10}})}});
    j["route"] = route;
    j["population"] = Json{{"p_impaired", p_impaired}};
    j["portals"].push_back(Json{{"id", "street_in"}, {"floor", "ground"}, {"polygon", rect(3, 0, 5, 2)}, {"mode", "spawn"}, {"count", 6},
                                {"target", "mid"}});
    return make(j);
  };
  for (const auto& [route, p, lift] : std::vector<std::tuple<std::string, float, bool>>{
           {"stair", 0.0f, false}, {"stair", 1.0f, true}, {"elevator", 0.0f, true}}) {
    StationModel m = with_stair(route, p);
    run(m, 10);
    INFO("route " << route << ", p_impaired " << p);
    REQUIRE(m.state().walkers.size() >= 1);
    for (const auto& w : m.state().walkers) {
      CHECK(w.prefers_lift_impaired == (p == 1.0f));
      CHECK((w.lift == 0) == lift);
      CHECK((w.via >= 0) == !lift);
    }
  }
}

TEST_CASE("seed 002 Elevator - scenario and restored state checks name the field", "[station][lifts][scenario]") {
  auto err = [](const std::function<void(Json&)>& edit) {
    Json j = building();
    edit(j);
    return scenario_error(j);
  };
  CHECK_THAT(err([](Json& j) { j["zones"] = Json::array({j["zones"][0]}); }),
             Catch::Contains("$.zones[0].pair_id") && Catch::Contains("two or more landings"));
  CHECK_THAT(err([](Json& j) { j["zones"][1]["floor"] = "ground"; }), Catch::Contains("$.zones[1].floor") && Catch::Contains("one landing per floor"));
  CHECK_THAT(err([](Json& j) { j["zones"][0]["to_floor"] = "upper"; }), Catch::Contains("$.zones[0].to_floor"));
  CHECK_THAT(err([](Json& j) { j["zones"][2]["hold_s"] = 5; }), Catch::Contains("$.zones[2]") && Catch::Contains("same hold_s"));
  CHECK_THAT(err([](Json& j) { for (auto& z : j["zones"]) z["delay_s"] = 0; }), Catch::Contains("$.zones[0].delay_s"));
  CHECK_THAT(err([](Json& j) { j["route"] = "lift"; }), Catch::Contains("$.route"));
  CHECK_THAT(err([](Json& j) { j["teleport_lock_s"] = -1; }), Catch::Contains("$.teleport_lock_s"));
  CHECK_THAT(err([](Json& j) { j["zones"][0]["kind"] = "stair"; j["zones"][0]["to_floor"] = "top"; }),
             Catch::Contains("pair_id") && Catch::Contains("elevator zones only"));
  // The door must open onto the floor.
  CHECK_THAT(err([](Json& j) { j["floors"][0]["walkable"] = Json::array({rect(16.5, 0, 20, 10)}); }),
             Catch::Contains("$.zones[0].polygon") && Catch::Contains("door"));
  CHECK_THAT(err([](Json& j) { j["zones"][0]["dir"] = "along"; }), Catch::Contains("$.zones[0].dir") && Catch::Contains("leave dir out"));
  CHECK_THAT(err([](Json& j) { for (auto& z : j["zones"]) z["hold_s"] = 61; }), Catch::Contains("$.zones[0].hold_s"));
  CHECK_THAT(err([](Json& j) { for (auto& z : j["zones"]) z["capacity"] = 101; }), Catch::Contains("$.zones[0].capacity"));
  CHECK_THAT(err([](Json& j) { for (auto& z : j["zones"]) z.erase("pair_id"); }),
             Catch::Contains("$.zones[0].pair_id") && Catch::Contains("needs the pair_id of its car"));
  // A landing without a door lies on open floor (a solid under it is refused).
  CHECK_THAT(err([](Json& j) {
               for (auto& z : j["zones"]) z["door"] = false;
               j["floors"][0]["obstacles"] = Json::array({rect(16.2f, 4.6f, 17.4f, 5.4f)});
             }),
             Catch::Contains("$.zones[0].polygon"));
  CHECK(err([](Json&) {}).empty());

  // A restored state: riders counted, a rider standing, the car's landing and way.
  Json j = building();
  j["walkers"].push_back(placed_walker({15, 5}, "ground", "mid"));
  StationModel m = make(j);
  for (int k = 0; k < 200 && m.state().walkers[0].phase != Phase::Riding; ++k) m.step(m.scripted_input());
  REQUIRE(m.state().walkers[0].phase == Phase::Riding);
  auto refused = [&](const std::function<void(State&)>& edit) {
    State s = m.state();
    edit(s);
    try {
      m.set_state(s);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refused([](State&) {}).empty());
  CHECK_THAT(refused([](State& s) { s.cars[0].riders = 2; }), Catch::Contains("cars[0].riders"));
  CHECK_THAT(refused([](State& s) { s.cars[0].at = 3; }), Catch::Contains("cars[0].at"));
  CHECK_THAT(refused([](State& s) { s.cars[0].going = 2; }), Catch::Contains("cars[0].going"));
  CHECK_THAT(refused([](State& s) { s.cars.clear(); }), Catch::Contains("cars"));
  CHECK_THAT(refused([](State& s) { s.walkers[0].vel = V2{1, 0}; }), Catch::Contains("walkers[0].vel"));
  CHECK_THAT(refused([](State& s) { s.walkers[0].lift = 1; }), Catch::Contains("walkers[0].lift"));
  CHECK_THAT(refused([](State& s) { s.walkers[0].lock_ticks = 16; }), Catch::Contains("walkers[0].lock_ticks"));
  CHECK_THAT(refused([](State& s) { s.walkers[0].phase = static_cast<Phase>(4); }), Catch::Contains("walkers[0].phase"));
}

TEST_CASE("seed 002 Elevator - one car's throughput with a crowd waiting, full trips, a cycle of two rides, a hold and the doors", "[station][lifts]") {
  // Two floors, the car's defaults (hold_s 3 s, delay_s 5 s a storey, a 1.1 x 1.6 m landing: 7 riders
  // at 0.25 m² each, S50), 30 walkers bound up standing near the ground floor's door. Each trip leaves
  // full (no hold: "The car leaves when it is full"), and the cycle between two departures is the two
  // rides (200 ticks), the hold at the top after the last rider is out (60 ticks, nobody waits there)
  // and the doors: the rows out and the boarders in (docs/validation.md, "Elevators").
  Json j = building(1.1f, true, 3.0f, 5.0f);
  j["floors"].erase(2);
  j["zones"].erase(2);
  j["portals"].erase(2);
  for (int k = 0; k < 30; ++k)
    j["walkers"].push_back(placed_walker({8.0f + 1.2f * static_cast<float>(k % 6), 1.5f + 1.4f * static_cast<float>(k / 6)}, "ground", "mid"));
  StationModel m = make(j);
  std::vector<int> departures;
  for (int k = 0; k < 3000 && departures.size() < 4; ++k) {
    const bool standing = car0(m).run_ticks == 0 && car0(m).at == 0;
    m.step(m.scripted_input());
    if (standing && car0(m).run_ticks > 0) {
      CHECK(car0(m).riders == 7u);
      departures.push_back(k);
    }
  }
  REQUIRE(departures.size() == 4);
  for (std::size_t k = 1; k < departures.size(); ++k) {
    const int cycle = departures[k] - departures[k - 1];
    INFO("cycle " << cycle << " ticks");
    CHECK(cycle > 2 * 100 + 60);          // two rides and the hold
    CHECK(cycle <= 2 * 100 + 60 + 160);   // the doors: 4 rows out (at most 2 s apart) and the boarding
  }
  const double per_min = 7.0 * 60.0 / ((departures[3] - departures[1]) / 2.0 * 0.05);
  std::printf("Elevator: 7 riders a trip, cycles %d and %d ticks, %.1f /min\n", departures[2] - departures[1],
              departures[3] - departures[2], per_min);
}
