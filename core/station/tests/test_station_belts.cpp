// seed 002, "A different floor inserts a connector": escalators, the belt
// (issue 19), and the stair-or-escalator choice in seconds.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <map>
#include <set>
#include <vector>

#include "station_test_util.h"

using namespace station_test;

namespace {

// Two floors joined by a 10 m escalator 1 m wide running up (two_floors; dir
// along): the belt x 10..20, y 1.5..2.5, its entry at x = 10 on ground, its
// exit at x = 20 on upper.
Json belt_world(const std::string& dir = "along", float belt_speed = 0.5f) {
  return two_floors(Json{{"id", "esc"}, {"kind", "escalator"}, {"pair_id", "e"}, {"floor", "ground"}, {"to_floor", "upper"},
                         {"polygon", Json::array({{10, 2.5}, {10, 1.5}, {20, 1.5}, {20, 2.5}})}, {"dir", dir}, {"belt_speed", belt_speed}});
}

// One walker's ride, tick by tick.
struct Ride {
  int boarded = -1, off = -1;
  V2 board_pos, off_pos, off_vel;
  float max_across_step = 0;   // the largest sideways move in a tick on the belt
  float along_step_lo = 99, along_step_hi = -99;  // along moves per tick on the belt, after the first
  int ticks_to_centre = -1;    // ticks on the belt until |y - 2| < 1e-4
  uint32_t off_floor = 0;
};

Ride ride(StationModel& m, uint32_t i, int ticks = 1200) {
  Ride r;
  const auto& w = m.state().walkers[i];
  for (int k = 0; k < ticks && w.phase == Phase::Walking && r.off < 0; ++k) {
    const V2 before = w.pos;
    const int32_t was = w.flight;
    m.step(m.scripted_input());
    if (was < 0 && w.flight == 0 && r.boarded < 0) r.boarded = k, r.board_pos = w.pos;
    if (was == 0 && w.flight == 0) {
      r.max_across_step = std::max(r.max_across_step, std::fabs(w.pos.y - before.y));
      r.along_step_lo = std::min(r.along_step_lo, w.pos.x - before.x);
      r.along_step_hi = std::max(r.along_step_hi, w.pos.x - before.x);
      if (r.ticks_to_centre < 0 && std::fabs(w.pos.y - 2.0f) < 1e-4f) r.ticks_to_centre = k - r.boarded;
    }
    if (was == 0 && w.flight != 0) r.off = k, r.off_pos = w.pos, r.off_vel = w.vel, r.off_floor = w.floor;
  }
  return r;
}

}  // namespace

TEST_CASE("seed 002 Escalator - boards within 0.3 m of the entry edge, carried at belt speed, steps off just past the end", "[station][belts]") {
  // "The walker walks onto the belt and boards within 0.3 m of the entry edge.
  // Boarding does not move them; the belt draws them sideways onto the
  // centreline at 0.9 m/s while it carries them ... At the exit they step off
  // where the belt's last step leaves them, just past the end edge, at belt speed."
  Json j = belt_world();
  j["walkers"].push_back(placed_walker({2, 2.3f}, "ground", "high"));
  auto m = make(j);
  const Ride r = ride(m, 0);
  REQUIRE(r.boarded >= 0);
  REQUIRE(r.off > r.boarded);
  // Boarded before the edge, within 0.3 m of it (walking 1.34 m/s: 0.067 m a tick).
  CHECK(r.board_pos.x >= 10.0f - 0.3f);
  CHECK(r.board_pos.x < 10.0f - 0.3f + 1.3f * 1.34f * 0.05f);
  // Carried at 0.5 m/s: 2.5 cm a tick along, every tick (nobody ahead).
  CHECK(r.along_step_lo == Approx(0.025f).margin(1e-5));
  CHECK(r.along_step_hi == Approx(0.025f).margin(1e-5));
  // The crossing: from the boarding point to the end edge at belt speed.
  CHECK((r.off - r.boarded) == static_cast<int>(std::ceil((20.0f - r.board_pos.x) / 0.025f - 1e-3f)));
  // Drawn onto the centreline (y = 2) at 0.9 m/s at most: 4.5 cm a tick.
  CHECK(r.max_across_step <= 0.045f + 1e-5f);
  CHECK(r.ticks_to_centre >= 0);
  CHECK(r.ticks_to_centre <= static_cast<int>(std::ceil(std::fabs(r.board_pos.y - 2.0f) / 0.045f)) + 1);
  // Off: on the upper floor, 5 cm past the end edge (S41), at belt speed along the travel.
  CHECK(r.off_floor == 1u);
  CHECK(r.off_pos.x == Approx(20.05f).margin(1e-4));
  CHECK(r.off_pos.y == Approx(2.0f).margin(1e-4));
  CHECK(r.off_vel.x == Approx(0.5f).margin(1e-6));
  CHECK(r.off_vel.y == Approx(0.0f).margin(1e-6));
  // Then the first leg 1.8 m straight out (as off a flight), and on to the exit.
  const auto& w = m.state().walkers[0];
  CHECK(w.step_off.x == Approx(21.8f).margin(1e-4));
  run(m, 600);
  CHECK(w.phase == Phase::Done);
  CHECK(w.unsticks == 0u);
}

TEST_CASE("seed 002 Escalator - drawn sideways onto the centreline at 0.9 m/s", "[station][belts]") {
  // A walker placed at the entry edge 0.3 m off the centreline boards at
  // once and is drawn 4.5 cm a tick (0.9 m/s) until on the line.
  Json j = belt_world();
  j["walkers"].push_back(placed_walker({9.8f, 2.3f}, "ground", "high"));
  auto m = make(j);
  const Ride r = ride(m, 0);
  REQUIRE(r.boarded == 0);
  CHECK(r.board_pos.y > 2.25f);
  CHECK(r.max_across_step == Approx(0.045f).margin(1e-5));
  // Full draws, then the rest: 0.3 m less the first tick's walk takes 6 or 7.
  CHECK(r.ticks_to_centre >= static_cast<int>(std::floor((r.board_pos.y - 2.0f) / 0.045f)));
  CHECK(r.ticks_to_centre <= static_cast<int>(std::ceil((r.board_pos.y - 2.0f) / 0.045f)));
}

TEST_CASE("seed 002 Escalator - dir against runs from to_floor down to floor, boarded only there", "[station][belts]") {
  Json j = belt_world("against");
  j["walkers"].push_back(placed_walker({28, 2}, "upper", "low"));
  auto m = make(j);
  const auto& w = m.state().walkers[0];
  Ride r = ride(m, 0);
  REQUIRE(r.boarded >= 0);
  CHECK(r.board_pos.x <= 20.3f);
  CHECK(r.off_floor == 0u);
  CHECK(r.off_pos.x == Approx(9.95f).margin(1e-4));
  CHECK(r.off_vel.x == Approx(-0.5f).margin(1e-6));
  run(m, 600);
  CHECK(w.phase == Phase::Done);
  // Only boarded on the entry floor: up an escalator that runs down there is no way.
  Json up = belt_world("against");
  up["walkers"].push_back(placed_walker({2, 2}, "ground", "high"));
  CHECK_THAT(scenario_error(up), Catch::Contains("$.walkers[0].destination") && Catch::Contains("no stair or escalator"));
}

TEST_CASE("seed 002 Escalator - social forces are not applied on the belt", "[station][belts]") {
  // A shove on a rider (an impulse) and a body pressing from behind change
  // nothing of its ride: the belt alone moves it.
  Json j = belt_world();
  j["walkers"].push_back(placed_walker({2, 2}, "ground", "high"));
  auto plain = make(j);
  const Ride a = ride(plain, 0);
  Json k = j;
  k["script"] = Json::array({Json{{"tick", a.boarded + 20}, {"walker", 0}, {"kind", "impulse"}, {"value", {3.0, 2.0}}}});
  auto shoved = make(k);
  const Ride b = ride(shoved, 0);
  CHECK(b.boarded == a.boarded);
  CHECK(b.off == a.off);
  CHECK(bits(b.off_pos.x) == bits(a.off_pos.x));
  CHECK(bits(b.off_pos.y) == bits(a.off_pos.y));
}

TEST_CASE("seed 002 Escalator - one file: a boarder waits for a gap of one spacing behind the last to board", "[station][belts]") {
  // "A walker waits at the mouth until the belt has a gap of about one body
  // spacing"; "At the head of a line they keep one spacing behind the last
  // person to go through"; the belt carries them "one file, held off the
  // person ahead" (S40: the spacing at an escalator is 0.6 m, seed 002's Queues).
  Json j = belt_world();
  j["floors"][0]["walkable"] = Json::array({rect(0, 0, 10, 8)});
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 4; ++c) j["walkers"].push_back(placed_walker({7.5f - 0.7f * c, 0.8f + 1.4f * r}, "ground", "high"));
  auto m = make(j);
  const auto n = static_cast<uint32_t>(m.state().walkers.size());
  std::vector<int> boarded(n, -1);
  float closest = 99;   // the least gap along the belt between two riders
  uint32_t unsticks = 0;
  for (int k = 0; k < 3000; ++k) {
    m.step(m.scripted_input());
    std::vector<float> riders;
    for (uint32_t i = 0; i < n; ++i) {
      const auto& w = m.state().walkers[i];
      if (w.phase == Phase::Walking && w.flight == 0) {
        riders.push_back(w.pos.x);
        if (boarded[i] < 0) boarded[i] = k;
      }
    }
    std::sort(riders.begin(), riders.end());
    for (std::size_t q = 1; q < riders.size(); ++q) closest = std::min(closest, riders[q] - riders[q - 1]);
  }
  for (const auto& w : m.state().walkers) {
    CHECK(w.phase == Phase::Done);
    unsticks += w.unsticks;
  }
  CHECK(closest >= 0.6f - 1e-4f);  // never closer than one spacing on the belt
  CHECK(unsticks == 0u);           // waiting in line is not being stuck (S42)
  // One at a time: each boarder a spacing behind the one before at belt speed, 1.2 s at least.
  std::sort(boarded.begin(), boarded.end());
  int least = 1 << 30;
  for (std::size_t q = 1; q < boarded.size(); ++q) least = std::min(least, boarded[q] - boarded[q - 1]);
  CHECK(least >= 24);
  const double per_min = 60.0 * (n - 1) / ((boarded.back() - boarded.front()) * 0.05);
  std::printf("escalator at 0.5 m/s, one file: %u boarders, %.1f /min (%.0f /h)\n", n, per_min, per_min * 60.0);
  CHECK(per_min <= 50.0 + 1e-6);  // belt speed over spacing: 0.5 / 0.6 m = 50 /min at most
}

TEST_CASE("seed 002 Escalator - the head of the line keeps one spacing behind the last to board", "[station][belts]") {
  // Two walkers in a column on the belt's axis: the second follows the first
  // onto the belt one spacing (0.6 m) behind, never nearer, and boards once
  // the gap is there.
  Json j = belt_world();
  j["walkers"].push_back(placed_walker({8.5f, 2.0f}, "ground", "high"));
  j["walkers"].push_back(placed_walker({7.8f, 2.0f}, "ground", "high"));
  auto m = make(j);
  const auto& a = m.state().walkers[0];
  const auto& b = m.state().walkers[1];
  float nearest = 99;
  int a_on = -1, b_on = -1;
  for (int k = 0; k < 400 && b.floor == 0; ++k) {
    m.step(m.scripted_input());
    if (a.flight == 0 && a_on < 0) a_on = k;
    if (b.flight == 0 && b_on < 0) b_on = k;
    if (a.flight == 0) nearest = std::min(nearest, a.pos.x - b.pos.x);
  }
  REQUIRE(a_on >= 0);
  REQUIRE(b_on > a_on);
  CHECK(nearest >= 0.6f - 1e-3f);
  // And closes up to about that: the headway's lag at belt speed, v T = 0.5 m/s
  // x 0.42 s (S62), and 2 cm for the driving term's relaxation.
  CHECK(nearest <= 0.6f + 0.5f * 0.42f + 0.02f);
}

TEST_CASE("seed 002 Stairs and escalators - chosen in seconds: the escalator at about equal walks, the stair once its queue costs more", "[station][belts]") {
  // "With nobody waiting, the nearest mouth wins, and the escalator is
  // preferred when the walk to each is about the same. Once an escalator
  // queue costs more than the stair beside it, newcomers take the stair"
  // (the wait: 1.3 s per person bound for it and nearer its mouth, an
  // escalator one lane; S43: walks within 2 s are about the same).
  // Going down: the escalator (against) from upper at x = 20, y 1.5..2.5; a
  // stair 2 m wide from upper at x = 20, y 8..10. By seconds alone the stair
  // down wins wherever the walks are near: 10 / 0.67 + 2 = 16.9 s against the
  // belt's 20 s.
  Json j = belt_world("against");
  j["floors"][0]["walkable"] = Json::array({rect(0, 0, 10, 12)});
  j["floors"][1]["walkable"] = Json::array({rect(20, 0, 30, 12)});
  j["zones"].push_back(Json{{"id", "stair"}, {"kind", "stair"}, {"pair_id", "s"}, {"floor", "ground"}, {"to_floor", "upper"},
                            {"polygon", Json::array({{10, 10}, {10, 8}, {20, 8}, {20, 10}})}});
  // From (24, 6): walks 5.66 m (4.22 s) to the escalator, 5 m (3.73 s) to the stair.
  j["walkers"].push_back(placed_walker({24, 6}, "upper", "low"));
  {
    auto m = make(j);
    CHECK(m.state().walkers[0].via == 0);  // the escalator: walks within 2 s of each other
  }
  // From (24, 9): 8.06 m (6.0 s) against 4 m (3.0 s): the nearest mouth wins.
  j["walkers"][0]["position"] = {24, 9};
  {
    auto m = make(j);
    CHECK(m.state().walkers[0].via == 1);
  }
  // A line of 12 bound for the escalator, nearer its mouth than a newcomer at
  // (29, 2): the escalator costs 6.7 s walk + (15.6 - 6.7) s wait + 20 s = 35.6
  // s, the stair 8.5 + 14.9 + 2 = 25.4 s. With the line gone (nobody waiting)
  // the walks, 6.7 and 8.5 s, are about the same and the escalator wins.
  j["walkers"] = Json::array();
  for (int k = 0; k < 12; ++k) j["walkers"].push_back(placed_walker({20.7f + 0.55f * k, 2.0f}, "upper", "low"));
  j["walkers"].push_back(placed_walker({29.0f, 2.0f}, "upper", "low"));
  auto m = make(j);
  CHECK(m.state().walkers[12].via == 0);  // planned before anyone counted
  for (int k = 0; k < 12; ++k) CHECK(m.state().walkers[static_cast<std::size_t>(k)].via == 0);
  // The newcomer re-weighs within 20 ticks (S33) and switches: the stair saves more than 3 s.
  run(m, 20);
  CHECK(m.state().walkers[12].via == 1);
}

TEST_CASE("seed 002 Escalator - a restored state's belt fields are checked by path", "[station][belts][scenario]") {
  Json j = belt_world();
  j["walkers"].push_back(placed_walker({12, 2}, "ground", "high"));
  auto m = make(j);
  StationModel::State s = m.state();
  s.walkers[0].flight = 0;
  s.walkers[0].floor = 1;
  s.walkers[0].via = -1;
  s.walkers[0].sense = 1;
  CHECK_THROWS_WITH(m.set_state(s), Catch::Contains("walkers[0].flight") && Catch::Contains("boarded on floor 0 only"));
  // A rider rides its belt's way; a walker off a belt has no way.
  s.walkers[0].floor = 0;
  s.walkers[0].sense = -1;
  CHECK_THROWS_WITH(m.set_state(s), Catch::Contains("walkers[0].sense") && Catch::Contains("expected 1, got -1"));
  s.walkers[0].flight = -1;
  CHECK_THROWS_WITH(m.set_state(s), Catch::Contains("walkers[0].sense: expected 0 for a walker not on a belt"));
  s.walkers[0].sense = 0;
  // A place in a line beyond the walkers; a gate that is no gate; a stop past 60 s; a zone that held it twice.
  StationModel::State t = s;
  t.walkers[0].line = 1;
  CHECK_THROWS_WITH(m.set_state(t), Catch::Contains("walkers[0].line") && Catch::Contains("0 .. 0, got 1"));
  t = s;
  t.walkers[0].gate = 0;  // zone 0 is the escalator
  CHECK_THROWS_WITH(m.set_state(t), Catch::Contains("walkers[0].gate: no gate 0"));
  t = s;
  t.walkers[0].hold_s = 61.0f;
  CHECK_THROWS_WITH(m.set_state(t), Catch::Contains("walkers[0].hold_s: expected 0 .. 60 s"));
  t = s;
  t.routes[0].stopped = {0, 0};
  CHECK_THROWS_WITH(m.set_state(t), Catch::Contains("routes[0].stopped[0]") && Catch::Contains("each once"));
  m.set_state(s);  // and the state they were changed from is taken
}

TEST_CASE("seed 002 Route - an escalator's mouth apron is free for those who will board it within 10 m", "[station][belts]") {
  // "Someone heading for that mouth ignores its apron: within 10 m of a gate
  // or escalator they will board, or 2 m of a stair mouth."
  Json j = belt_world();
  j["floors"][0]["walkable"] = Json::array({rect(-6, 0, 10, 4)});
  j["portals"][0]["polygon"] = rect(-6, 0, -4, 4);
  j["walkers"] = Json::array({placed_walker({1.5f, 2}, "ground", "high"), placed_walker({-1.5f, 2}, "ground", "high"),
                              placed_walker({1.5f, 3}, "ground", "low")});
  auto m = make(j);
  const auto* near = m.apron_view(0);    // 8.5 m from the mouth, bound through it
  const auto* far = m.apron_view(1);     // 11.5 m
  const auto* passer = m.apron_view(2);  // not bound through it
  REQUIRE(near != nullptr);
  CHECK(far == passer);  // every apron
  CHECK(near != far);    // without its own escalator's
}

namespace {

// A hall x 0..20, y 0..10 split at x = 10 by a thin wall with a bank of four
// fare gates in it, each 0.8 m wide and 1 m long (x 9.5..10.5), mouth 0 on
// the west: g0 y 3.0..3.8, g1 4.3..5.1, g2 5.6..6.4, g3 6.9..7.7. Portals:
// "west" (x 0..1.5) and "east" (x 18.5..20).
Json gate_world(const std::string& dir = "along") {
  Json j;
  j["model"] = "station";
  const float ys[4][2] = {{3.0f, 3.8f}, {4.3f, 5.1f}, {5.6f, 6.4f}, {6.9f, 7.7f}};
  Json zones = Json::array();
  for (int k = 0; k < 4; ++k)
    zones.push_back(Json{{"id", "g" + std::to_string(k)}, {"kind", "gate"}, {"floor", "hall"}, {"dir", dir},
                         {"polygon", Json::array({{9.5, ys[k][1]}, {9.5, ys[k][0]}, {10.5, ys[k][0]}, {10.5, ys[k][1]}})}});
  j["floors"] = Json::array({Json{{"id", "hall"},
                                  {"walkable", Json::array({rect(0, 0, 20, 10)})},
                                  {"walls", Json::array({Json::array({10, 0, 10, 3.0}), Json::array({10, 3.8, 10, 4.3}),
                                                         Json::array({10, 5.1, 10, 5.6}), Json::array({10, 6.4, 10, 6.9}),
                                                         Json::array({10, 7.7, 10, 10})})}}});
  j["zones"] = zones;
  j["portals"] = Json::array({Json{{"id", "west"}, {"floor", "hall"}, {"polygon", rect(0, 1, 1.5f, 9)}, {"mode", "despawn"}},
                              Json{{"id", "east"}, {"floor", "hall"}, {"polygon", rect(18.5f, 1, 20, 9)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array();
  return j;
}

}  // namespace

TEST_CASE("seed 002 Gates - the same belt on one floor: chosen within 12 m, boarded at the mouth, stepped off past the far edge", "[station][belts][gates]") {
  // "Same-floor fare gates (kind: "gate") are the same one-file conveyor as an
  // escalator, without a floor change ... steps off just past the far edge";
  // "Within 12 m of the mouths a walker weighs each gate that serves the crossing".
  Json j = gate_world();
  j["floors"][0]["walkable"] = Json::array({rect(-4, 0, 20, 10)});
  j["walkers"].push_back(placed_walker({-3.0f, 4.7f}, "hall", "east"));  // 12.5 m from the mouths: no gate yet
  auto m = make(j);
  const auto& w = m.state().walkers[0];
  int chosen = -1, boarded = -1, off = -1;
  float board_x = 0, lo = 99, hi = -99, off_x = 0, off_vx = 0;
  for (int k = 0; k < 800 && w.phase == Phase::Walking; ++k) {
    const V2 before = w.pos;
    const int32_t was = w.flight;
    m.step(m.scripted_input());
    if (chosen < 0 && w.gate >= 0) {
      chosen = k;
      CHECK(10.0f - 0.5f - w.pos.x <= 12.0f + 0.1f);  // within 12 m of the mouths (a tick's walk)
      CHECK(w.gate == 1);                              // the gate straight ahead
    }
    if (was < 0 && w.flight >= 0) boarded = k, board_x = w.pos.x;
    if (was >= 0 && w.flight >= 0) lo = std::min(lo, w.pos.x - before.x), hi = std::max(hi, w.pos.x - before.x);
    if (was >= 0 && w.flight < 0) off = k, off_x = w.pos.x, off_vx = w.vel.x;
  }
  REQUIRE(chosen >= 0);
  REQUIRE(boarded > chosen);
  REQUIRE(off > boarded);
  CHECK(board_x >= 9.5f - 0.3f);
  CHECK(lo == Approx(0.025f).margin(1e-5));
  CHECK(hi == Approx(0.025f).margin(1e-5));
  // Past the far edge with the body clear of its mouth, 5 cm on (S45), on the same floor: the belt's last move.
  CHECK(off_x >= 10.5f + 0.25f + 0.05f);
  CHECK(off_x <= 10.5f + 0.25f + 0.05f + 0.025f + 1e-4f);
  CHECK(off_vx == Approx(0.5f).margin(1e-6));
  CHECK(w.floor == 0u);
  CHECK(w.gate == -1);
  CHECK(w.phase == Phase::Done);
  CHECK(w.unsticks == 0u);
}

TEST_CASE("seed 002 Gates - a bank is shared: a crowd fans out over the gates, one file a spacing apart in each", "[station][belts][gates]") {
  // "A bank of gates side by side is shared ... Equal gates are split by a
  // small per-walker offset, so a crowd fans out across the bank rather than
  // stacking on the nearest lane"; 0.75 m spacing at a gate (S40).
  Json j = gate_world();
  j["portals"].push_back(Json{{"id", "in"}, {"floor", "hall"}, {"polygon", rect(0, 4, 1.5f, 6)}, {"mode", "spawn"}, {"count", 60},
                              {"rate_per_min", 60}, {"target", "east"}});
  auto m = make(j);
  std::map<int32_t, std::set<uint32_t>> riders_of;
  float closest = 99;
  for (int k = 0; k < 2400; ++k) {
    m.step(m.scripted_input());
    std::map<int32_t, std::vector<float>> on;
    const auto& ws = m.state().walkers;
    for (uint32_t i = 0; i < ws.size(); ++i)
      if (ws[i].phase == Phase::Walking && ws[i].flight >= 0) {
        riders_of[ws[i].flight].insert(i);
        on[ws[i].flight].push_back(ws[i].pos.x);
      }
    for (auto& [g, xs] : on) {
      std::sort(xs.begin(), xs.end());
      for (std::size_t q = 1; q < xs.size(); ++q) closest = std::min(closest, xs[q] - xs[q - 1]);
    }
  }
  uint32_t done = 0, unsticks = 0;
  for (const auto& w : m.state().walkers) done += w.phase == Phase::Done ? 1 : 0, unsticks += w.unsticks;
  CHECK(done == 60u);
  CHECK(unsticks == 0u);
  CHECK(closest >= 0.75f - 1e-4f);
  for (int32_t g = 0; g < 4; ++g) {
    INFO("gate " << g);
    CHECK(riders_of[g].size() >= 10u);  // spread over the bank: a quarter would be 15
  }
  std::printf("gates: a crowd of 60 in one stream took g0..g3 %zu / %zu / %zu / %zu times\n", riders_of[0].size(), riders_of[1].size(),
              riders_of[2].size(), riders_of[3].size());
}

TEST_CASE("seed 002 Gates - the walk plus 1.5 m for every person bound for a gate and nearer its mouth; a switch for 1.6 m", "[station][belts][gates]") {
  // "the walk to its mouth, plus 1.5 m for every person already bound for it
  // and closer to the mouth, or riding it. They settle on the cheapest,
  // re-weigh about once a second, and switch only when another gate is at
  // least 1.6 m cheaper." Walkers re-weigh on the ticks where tick + index is
  // a multiple of 20 (S33).
  Json j = gate_world();
  j["walkers"].push_back(placed_walker({9.0f, 4.7f}, "hall", "east"));  // walker 0 stands at g1's mouth: re-weighs at tick 0
  j["walkers"].push_back(placed_walker({4.0f, 4.7f}, "hall", "east"));  // walker 1, straight in front of g1, 5.5 m out: tick 19
  {
    auto m = make(j);
    run(m, 20);
    CHECK(m.state().walkers[0].gate == 1);
    // g1: 5.5 m + 1.5 m (walker 0, nearer, bound or riding) = 7.0; g0, g2: 5.65 m. The first of the two.
    CHECK(m.state().walkers[1].gate == 0);
  }
  // Alone, the newcomer takes the gate straight ahead.
  {
    Json k = j;
    k["walkers"].erase(0);
    auto m = make(k);
    run(m, 20);
    CHECK(m.state().walkers[0].gate == 1);
  }
  // Held first (the newcomer re-weighs at tick 0, before walker 1 takes g1 at
  // tick 19): at tick 20 g1 costs about 1.3 m more than its neighbours, under
  // 1.6 m, and the newcomer keeps it.
  Json k = gate_world();
  k["walkers"].push_back(placed_walker({4.0f, 4.7f}, "hall", "east"));
  k["walkers"].push_back(placed_walker({9.0f, 4.7f}, "hall", "east"));
  auto m = make(k);
  run(m, 1);
  CHECK(m.state().walkers[0].gate == 1);
  run(m, 20);
  CHECK(m.state().walkers[1].gate == 1);
  CHECK(m.state().walkers[0].gate == 1);
}

TEST_CASE("seed 002 Gates - dir: one way gates serve their way only; a two-way gate held by someone coming stands 0.55 m short", "[station][belts][gates]") {
  // "Default dir is one-way along the rise; against flips it and both serves
  // either mouth"; "If their gate is busy they slow to a stand 0.55 m short of
  // the mouth" (S45: busy = someone rides it the other way).
  {
    Json j = gate_world();
    j["zones"][1]["dir"] = "against";  // g1 runs west only
    j["walkers"].push_back(placed_walker({6.0f, 4.7f}, "hall", "east"));
    auto m = make(j);
    bool rode_g1 = false, in_g1 = false;
    for (int k = 0; k < 600; ++k) {
      m.step(m.scripted_input());
      const V2 p = m.state().walkers[0].pos;
      rode_g1 = rode_g1 || m.state().walkers[0].flight == 1;
      in_g1 = in_g1 || (p.x > 9.5f && p.x < 10.5f && p.y > 4.3f && p.y < 5.1f);
    }
    CHECK_FALSE(rode_g1);
    CHECK_FALSE(in_g1);  // nor walked through it: a gate's mouths are walls to all but its own walkers (S45)
    CHECK(m.state().walkers[0].phase == Phase::Done);
  }
  Json j = gate_world("both");
  j["zones"] = Json::array({j["zones"][1]});  // one gate, g1's place, both ways; the other openings walled
  j["floors"][0]["walls"] = Json::array({Json::array({10, 0, 10, 4.3}), Json::array({10, 5.1, 10, 10})});
  j["walkers"].push_back(placed_walker({9.22f, 4.7f}, "hall", "east"));  // at mouth 0: boards at once
  j["walkers"].push_back(placed_walker({12.0f, 4.7f}, "hall", "west"));
  auto m = make(j);
  const auto& a = m.state().walkers[0];
  const auto& b = m.state().walkers[1];
  float least = 99;  // b's least distance before mouth 2 (x = 10.5) while a rides
  bool both = false;
  for (int k = 0; k < 800; ++k) {
    m.step(m.scripted_input());
    if (a.flight == 0 && b.flight < 0 && b.gate == 0) least = std::min(least, b.pos.x - 10.5f);
    both = both || (a.flight == 0 && b.flight == 0);
  }
  CHECK_FALSE(both);               // never riding it both ways at once
  CHECK(least >= 0.55f - 0.02f);   // stood 0.55 m short
  CHECK(least <= 0.55f + 0.1f);    // and came up to about there
  CHECK(a.phase == Phase::Done);
  CHECK(b.phase == Phase::Done);
}

TEST_CASE("seed 002 Gates - one gate's throughput with a crowd waiting: one spacing at belt speed at most", "[station][belts][gates]") {
  // One gate (g1's place, the other openings walled), 20 walkers waiting in
  // front of it: the gate passes at most belt speed over its spacing, 0.5 m/s
  // over 0.75 m = 40 /min.
  Json j = gate_world();
  j["zones"] = Json::array({j["zones"][1]});
  j["floors"][0]["walls"] = Json::array({Json::array({10, 0, 10, 4.3}), Json::array({10, 5.1, 10, 10})});
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 4; ++c) j["walkers"].push_back(placed_walker({8.4f - 0.7f * c, 3.3f + 0.7f * r}, "hall", "east"));
  auto m = make(j);
  std::vector<int> boarded(20, -1);
  for (int k = 0; k < 2400; ++k) {
    m.step(m.scripted_input());
    for (uint32_t i = 0; i < 20; ++i)
      if (boarded[i] < 0 && m.state().walkers[i].flight == 0) boarded[i] = k;
  }
  uint32_t done = 0, unsticks = 0;
  for (const auto& w : m.state().walkers) done += w.phase == Phase::Done ? 1 : 0, unsticks += w.unsticks;
  CHECK(done == 20u);
  CHECK(unsticks == 0u);
  std::sort(boarded.begin(), boarded.end());
  REQUIRE(boarded.front() >= 0);
  const double per_min = 60.0 * 19 / ((boarded.back() - boarded.front()) * 0.05);
  std::printf("one gate at 0.5 m/s, spacing 0.75 m, 20 waiting: %.1f /min\n", per_min);
  CHECK(per_min <= 40.0 + 1e-6);
  CHECK(per_min >= 20.0);  // and the line keeps it fed: at least half of that
}

TEST_CASE("seed 002 Queues - a line forms behind the mouth: on the axis, a spacing apart, sight yaw off", "[station][belts][queues]") {
  // "Everyone in the line behind the head holds a spacing behind the person in
  // front: ... 0.6 m at an escalator. They ease into that spot and stand,
  // rather than closing up into a blob"; "In line, sight yaw (lanes, follow)
  // is off; the heading is the queue axis." (S47)
  Json j = belt_world();
  j["floors"][0]["walkable"] = Json::array({rect(0, 0, 10, 8)});
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) j["walkers"].push_back(placed_walker({3.0f + 0.8f * c, 1.2f + 1.6f * r}, "ground", "high"));
  auto m = make(j);
  std::size_t longest = 0;
  float most_off = 0;
  std::vector<float> steps;  // along the axis from each member to the one in front, once settled
  for (int k = 0; k < 1600; ++k) {
    m.step(m.scripted_input());
    std::vector<std::pair<int32_t, V2>> line;
    for (const auto& w : m.state().walkers)
      if (w.phase == Phase::Walking && w.line >= 0) {
        line.emplace_back(w.line, w.pos);
        CHECK(w.sight_yaw == 0.0f);
      }
    std::sort(line.begin(), line.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t q = 0; q < line.size(); ++q) {
      CHECK(line[q].first == static_cast<int32_t>(q));  // places 0, 1, 2, ... head first
      most_off = std::max(most_off, std::fabs(line[q].second.y - 2.0f));
      if (q > 0) {
        CHECK(plan_length(line[q].second - line[q - 1].second) <= 1.3f + 0.1f);  // the chain's 1.3 m (as the tick started; a tick's walk since)
        if (k > 400) steps.push_back(line[q - 1].second.x - line[q].second.x);
      }
    }
    longest = std::max(longest, line.size());
  }
  CHECK(longest >= 6u);
  CHECK(most_off <= 0.5f + 0.15f + 0.1f);  // inside the strip: half the width (0.5 m), plus 0.15 (and a tick's walk)
  std::sort(steps.begin(), steps.end());
  REQUIRE(steps.size() > 100u);
  const float p10 = steps[steps.size() / 10], p50 = steps[steps.size() / 2];
  std::printf("queue at an escalator: spacing along the axis p10 %.2f m, median %.2f m\n", p10, p50);
  CHECK(p50 >= 0.6f - 0.05f);  // a spacing apart along the axis once settled, not a blob
  CHECK(p50 <= 0.6f + 0.3f);
  CHECK(p10 >= 0.6f - 0.05f);  // straight: one at its spot off the axis shuffles back onto it (S48)
  for (const auto& w : m.state().walkers) CHECK(w.phase == Phase::Done);
}

TEST_CASE("seed 002 Queues - the first in line within 1.4 m of the mouth, or 3 m once in line", "[station][belts][queues]") {
  // "provided ... the first is within 1.4 m of the mouth. For someone already
  // in the line that first gap may be up to 3 m, so the line does not dissolve
  // each time its head steps on." A rider on the belt holds the walker 2 m
  // short (one spacing behind it).
  Json j = belt_world();
  j["walkers"].push_back(placed_walker({8.0f, 2.0f}, "ground", "high"));
  auto m = make(j);
  for (const int32_t was : {-1, 0}) {
    INFO("in line the tick before: " << was);
    StationModel::State s = m.state();
    s.walkers[0].line = was;
    s.walkers[0].via = 0;
    m.set_state(s);
    auto copy = m;
    copy.step(copy.scripted_input());
    CHECK(copy.state().walkers[0].line == (was == 0 ? 0 : -1));  // 2 m out: a line only for one already in it
  }
}

TEST_CASE("seed 002 Queues - a zone's stop_delay_s holds the walker once, the first time it enters", "[station][belts][gates]") {
  // "A zone stop_delay_s holds the walker once, the first time they enter,
  // then sets a bit so the same zone does not stop them again" (S49: entering
  // a belt is boarding it). One two-way gate with a 1 s stop; a walker goes
  // east through it to a waypoint and back west through it to its goal.
  Json j = gate_world("both");
  j["zones"] = Json::array({j["zones"][1]});
  j["zones"][0]["stop_delay_s"] = 1.0;
  j["floors"][0]["walls"] = Json::array({Json::array({10, 0, 10, 4.3}), Json::array({10, 5.1, 10, 10})});
  Json w = placed_walker({6.0f, 4.7f}, "hall", "west");
  w["waypoints"] = Json::array({{14.0, 4.7}});
  j["walkers"].push_back(w);
  auto m = make(j);
  const auto& wk = m.state().walkers[0];
  int rides = 0, held = 0, boarded = -1, first_move = -1;
  int32_t was = -1;
  for (int k = 0; k < 1600 && wk.phase == Phase::Walking; ++k) {
    const V2 before = wk.pos;
    m.step(m.scripted_input());
    if (was < 0 && wk.flight == 0) ++rides, boarded = k;
    if (was == 0 && wk.flight == 0) {
      if (wk.pos.x == before.x) ++held;
      else if (rides == 1 && first_move < 0) first_move = k;
    }
    was = wk.flight;
  }
  CHECK(rides == 2);                     // through it and back
  CHECK(held == 20);                     // 1 s at 20 Hz, the first time only
  CHECK(wk.phase == Phase::Done);
  CHECK(m.state().routes[0].stopped == std::vector<uint32_t>{0});
  CHECK(wk.unsticks == 0u);
  (void)boarded, (void)first_move;
  // Out of range: refused by path.
  j["zones"][0]["stop_delay_s"] = -1.0;
  CHECK_THAT(scenario_error(j), Catch::Contains("$.zones[0].stop_delay_s"));
}

TEST_CASE("seed 002 Queues - stop_delay_s on a stair holds the walker where it steps on", "[station][stairs]") {
  Json j = two_floors(Json{{"id", "stair"}, {"kind", "stair"}, {"pair_id", "s"}, {"floor", "ground"}, {"to_floor", "upper"},
                           {"polygon", Json::array({{10, 3}, {10, 1}, {20, 1}, {20, 3}})}, {"stop_delay_s", 2.0}});
  j["walkers"].push_back(placed_walker({6.0f, 2.0f}, "ground", "high"));
  auto m = make(j);
  const auto& wk = m.state().walkers[0];
  int on = -1, slow = 0;
  for (int k = 0; k < 1200 && wk.phase == Phase::Walking; ++k) {
    m.step(m.scripted_input());
    if (on < 0 && wk.flight == 0) on = k;
    if (wk.flight == 0 && length(wk.vel) < 0.05f) ++slow;
  }
  REQUIRE(on >= 0);
  CHECK(slow >= 36);  // stood the 2 s (40 ticks) less the slowing down, plus the setting off
  CHECK(slow <= 50);
  CHECK(wk.phase == Phase::Done);
  CHECK(wk.unsticks == 0u);
}

TEST_CASE("seed 002 Gates - a destination only beyond gates that run the other way is refused by path", "[station][belts][gates][scenario]") {
  // A gate is passed only the way its dir allows (S45): walkers spawned west
  // of a bank that runs west only could never reach an exit east of it.
  Json j = gate_world("against");
  j["portals"].push_back(Json{{"id", "in"}, {"floor", "hall"}, {"polygon", rect(0, 4, 1.5f, 6)}, {"mode", "spawn"}, {"count", 5},
                              {"target", "east"}});
  CHECK_THAT(scenario_error(j), Catch::Contains("$.portals[2].target") && Catch::Contains("through a fare gate the other way"));
  // One gate of the bank the right way, or the bank both ways: it loads.
  j["zones"][2]["dir"] = "along";
  CHECK(scenario_error(j).empty());
  Json k = gate_world("both");
  k["portals"] = j["portals"];
  CHECK(scenario_error(k).empty());
}

TEST_CASE("seed 002 Queues - every state the demo station makes restores, lines and cars included", "[station][belts][lifts][scenario]") {
  // A line is the place form_lines gives as the tick starts (S47); by the
  // tick's end its walker may have boarded, switched gate or walked on. The
  // restore check once refused such a state: 21 of the demo station's 261
  // keyframes could not be read back. Every tick's state must restore.
  StationModel m = make(fixture("station/station.json"));
  StationModel twin = make(fixture("station/station.json"));
  int lines = 0, riders = 0;
  for (int k = 0; k < 1500; ++k) {
    m.step(m.scripted_input());
    for (const auto& w : m.state().walkers) lines += w.line >= 0 ? 1 : 0, riders += w.phase == Phase::Riding ? 1 : 0;
    INFO("tick " << m.tick());
    REQUIRE_NOTHROW(twin.set_state(m.state()));
  }
  CHECK(lines > 0);   // lines formed
  CHECK(riders > 0);  // and the car carried someone
  bool label = false;  // the car drawn where it is
  for (const auto& sh : m.tick_drawing().shapes)
    label = label || (sh.kind == DrawShape::Kind::Label && sh.text.rfind("car", 0) == 0);
  CHECK(label);
}

namespace {

// A 12 x 10 m ground floor with an escalator up at its east side (entry edge x = 12, y 4.5 .. 5.5, a
// 0.3 m/s belt) to an upper floor, a line of `in_line` walkers bound up standing on its axis 0.6 m apart
// from x = 11.6 back, and portals "low" (ground, x 5.5 .. 7.5 along its south edge) and "high" (upper).
Json line_world(int in_line) {
  Json j;
  j["model"] = "station";
  j["floors"] = Json::array({Json{{"id", "ground"}, {"z", 0}, {"walkable", Json::array({rect(0, 0, 12, 10)})}},
                             Json{{"id", "upper"}, {"z", 5}, {"walkable", Json::array({rect(22, 0, 32, 10)})}}});
  j["zones"] = Json::array({Json{{"id", "esc"}, {"kind", "escalator"}, {"pair_id", "e"}, {"floor", "ground"}, {"to_floor", "upper"},
                                 {"polygon", Json::array({{12, 5.5}, {12, 4.5}, {22, 4.5}, {22, 5.5}})}, {"belt_speed", 0.3}}});
  j["portals"] = Json::array({Json{{"id", "low"}, {"floor", "ground"}, {"polygon", rect(5.5, 0, 7.5, 1)}, {"mode", "despawn"}},
                              Json{{"id", "high"}, {"floor", "upper"}, {"polygon", rect(30, 0, 32, 10)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array();
  for (int k = 0; k < in_line; ++k) j["walkers"].push_back(placed_walker({11.6f - 0.6f * static_cast<float>(k), 5.0f}, "ground", "high"));
  return j;
}

}  // namespace

TEST_CASE("seed 002 Queues - from off the side behind the back, or 2.5 m out, a walker walks round the line to its back", "[station][belts][queues]") {
  // "Someone heading for an escalator with a formed line, from off to the
  // side of it and behind its back, or more than 2.5 m out to the side, walks
  // to the back of the line first and only then follows the line to the
  // mouth. That leg goes round the line, not along it ... Someone already
  // level with the line or ahead of its back, within 2.5 m of it, is never
  // sent back" (S56).
  Json j = line_world(8);
  j["walkers"].push_back(placed_walker({9.5f, 9.0f}, "ground", "high"));   // 4 m out to the side: round to the back
  j["walkers"].push_back(placed_walker({10.5f, 6.8f}, "ground", "high"));  // level with the line, 1.8 m out: never sent back
  StationModel m = make(j);
  const auto& far = m.state().walkers[8];
  const auto& near = m.state().walkers[9];
  const auto& rt = m.state().routes[8];
  int round_at = -1, at_back = -1;
  bool near_sent_back = false, crossed = false;
  float back_x = 0.0f;
  for (int k = 0; k < 300; ++k) {
    m.step(m.scripted_input());
    if (round_at < 0 && rt.back_k >= 0) round_at = k, back_x = rt.back.x;
    if (round_at >= 0 && at_back < 0 && rt.back_k < 0) at_back = k;
    // On the way round, never inside the band of the line (0.6 m either side of its axis, ahead of the back).
    if (round_at >= 0 && at_back < 0 && far.pos.x > back_x + 0.3f && std::fabs(far.pos.y - 5.0f) < 0.6f) crossed = true;
    near_sent_back = near_sent_back || m.state().routes[9].back_k >= 0;
  }
  REQUIRE(round_at >= 0);
  CHECK(round_at <= 20);                           // decided at its first re-check (the line forms as the first tick starts)
  CHECK(back_x == Approx(11.6f - 0.6f * 7.0f - 0.6f).margin(0.3));  // a spacing behind the tail
  CHECK(at_back > round_at);
  CHECK_FALSE(crossed);
  CHECK_FALSE(near_sent_back);
  // It ends in the line, behind the one who was its tail.
  CHECK(far.line >= 1);
  CHECK(far.line > m.state().walkers[7].line);
  (void)near;
}

TEST_CASE("seed 002 Route - a queue line's band costs 7 times its length, so passers go round the tail and its own walkers do not", "[station][belts][queues]") {
  // "A formed line behind a gate or escalator mouth (1.8 m or longer) ...
  // marks a band 0.6 m either side of it. Walking through that band costs 7
  // times its length, so someone passing goes round the tail ... The walker's
  // own queue costs nothing." A passer-by from (6.5, 9.5) to the portal on
  // the south edge below it (clear of the escalator's mouth apron, which
  // reaches 4 m out to x = 8): with no line its path runs straight down
  // x = 6.5; across a line of 12 (x 5 .. 12) it bends round the tail (S57).
  auto after = [](int in_line) {
    Json j = line_world(in_line);
    j["walkers"].push_back(placed_walker({6.5f, 9.5f}, "ground", "low"));
    StationModel m = make(j);
    run(m, 41);  // the line forms as the first tick starts; the passer-by re-plans at its 2 s crowd check
    return m;
  };
  auto path = [](const StationModel& m, std::size_t i) {
    std::vector<V2> p{m.state().walkers[i].pos};
    const Route& rt = m.state().routes[i];
    for (std::size_t k = rt.next; k < rt.waypoints.size(); ++k) p.push_back(rt.waypoints[k]);
    return p;
  };
  // Where a path crosses the line's axis y = 5 inside the line, beyond half a routing cell past its tail
  // (x 5.35 .. 12): the band walked through.
  auto through = [](const std::vector<V2>& p) {
    bool in = false;
    for (std::size_t k = 0; k + 1 < p.size(); ++k) {
      const V2 a = p[k], b = p[k + 1];
      if ((a.y - 5.0f) * (b.y - 5.0f) > 0.0f || a.y == b.y) continue;
      const float x = a.x + (b.x - a.x) * (5.0f - a.y) / (b.y - a.y);
      in = in || (x > 5.35f && x < 12.0f);
    }
    return in;
  };
  const StationModel open = after(0);
  CHECK(through(path(open, 0)));  // no line: straight down x = 6.5
  const StationModel lined = after(12);
  CHECK_FALSE(through(path(lined, 12)));
  // Its own walkers walk their queue free: the tail's path to the mouth runs along the axis.
  const Route& tail = lined.state().routes[11];
  for (std::size_t k = tail.next; k < tail.waypoints.size(); ++k) CHECK(std::fabs(tail.waypoints[k].y - 5.0f) < 0.5f);
}

TEST_CASE("seed 002 Recovery - on a one-file belt the stuck timer is cleared and the belt spacing left in charge (S58)", "[station][belts]") {
  // "On a one-file belt, the stuck timer is cleared and the belt spacing is
  // left in charge." Every belt of seed 002 is one file, so no zone kind is
  // the "wide connector" of the rule between (S58).
  Json j = belt_world();
  j["walkers"].push_back(placed_walker({8, 2}, "ground", "high"));
  auto m = make(j);
  for (int k = 0; k < 200 && m.state().walkers[0].flight != 0; ++k) m.step(m.scripted_input());
  REQUIRE(m.state().walkers[0].flight == 0);
  auto s = m.state();
  s.walkers[0].stuck_s = m.scenario().unstick_s - 0.01f;  // one tick more without progress would recover
  s.walkers[0].progress_ref = 0.0f;
  m.set_state(s);
  const V2 before = m.state().walkers[0].pos;
  m.step(m.scripted_input());
  const auto& w = m.state().walkers[0];
  CHECK(w.stuck_s == 0.0f);
  CHECK(w.unsticks == 0u);
  CHECK(w.ignore_blocker == -1);
  CHECK(w.pos.x - before.x == Approx(0.5f * 0.05f).margin(1e-4));  // carried on at belt speed, no kick
}
