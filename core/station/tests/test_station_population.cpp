// seed 002, Population, Spawn and arrival, Route (lanes): who appears, where
// they go, when they appear and when they are done.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "station_test_util.h"

using namespace station_test;

TEST_CASE("seed 002 Population - desired speed is mean x (1 + u x jitter) with the jitter a fraction of the mean",
          "[station][population]") {
  PopulationSpec pop;
  pop.desired_speed = 1.34f;
  pop.speed_jitter = 0.2f;
  // u = -1, 0, 1: the ends and the mean (the seed's formula, evaluated here in float).
  CHECK(sample_body(pop, -1.0f).desired_speed == 1.34f * (1.0f + -1.0f * 0.2f));
  CHECK(sample_body(pop, 0.0f).desired_speed == 1.34f);
  CHECK(sample_body(pop, 1.0f).desired_speed == 1.34f * (1.0f + 1.0f * 0.2f));
  CHECK(sample_body(pop, 0.5f).desired_speed == Approx(1.34 * 1.1).epsilon(1e-6));
}

TEST_CASE("seed 002 Population - speed_jitter is clamped to 0..0.9 and the speed floor is 0.2 m/s",
          "[station][population]") {
  PopulationSpec pop;
  pop.desired_speed = 1.34f;
  pop.speed_jitter = 1.5f;  // clamped to 0.9
  CHECK(sample_body(pop, 1.0f).desired_speed == 1.34f * (1.0f + 0.9f));
  // 1.34 x 0.1 = 0.134 m/s is below the floor
  CHECK(sample_body(pop, -1.0f).desired_speed == 0.2f);
  pop.speed_jitter = -0.3f;  // clamped to 0: no jitter at all
  CHECK(sample_body(pop, -1.0f).desired_speed == 1.34f);
  CHECK(sample_body(pop, 1.0f).desired_speed == 1.34f);
  pop.desired_speed = 0.1f;  // a mean below the floor
  pop.speed_jitter = 0.0f;
  CHECK(sample_body(pop, 0.0f).desired_speed == 0.2f);
}

TEST_CASE("seed 002 Population - radius is base x (0.9 + 0.1 x ratio), ratio clamped 0.8..1.2, never below 0.12 m",
          "[station][population]") {
  PopulationSpec pop;
  pop.desired_speed = 1.0f;
  pop.radius = 0.25f;
  pop.speed_jitter = 0.0f;
  CHECK(sample_body(pop, 0.0f).radius == 0.25f * (0.9f + 0.1f * 1.0f));
  pop.speed_jitter = 0.5f;  // ratios 0.5 and 1.5 clamp to 0.8 and 1.2: 0.98 and 1.02 of the base
  CHECK(sample_body(pop, -1.0f).radius == 0.25f * (0.9f + 0.1f * 0.8f));
  CHECK(sample_body(pop, 1.0f).radius == 0.25f * (0.9f + 0.1f * 1.2f));
  CHECK(sample_body(pop, -1.0f).radius == Approx(0.245));
  CHECK(sample_body(pop, 1.0f).radius == Approx(0.255));
  pop.radius = 0.1f;  // 0.098..0.102 raised to the 0.12 m minimum
  CHECK(sample_body(pop, 0.0f).radius == 0.12f);
  CHECK(sample_body(pop, 1.0f).radius == 0.12f);
}

TEST_CASE("seed 002 Route - lane shares run from -1 to 1 spread evenly over spawns", "[station][lanes]") {
  // S5: van der Corput of n + 1 mapped to -1..1.
  const float want[] = {0.0f, -0.5f, 0.5f, -0.75f, 0.25f, -0.25f, 0.75f};
  for (uint32_t n = 0; n < 7; ++n) CHECK(lane_share_of(n) == want[n]);
  // Every prefix of 2^k - 1 spawns covers the width evenly: exactly {-1 + 2m / 2^k}, m = 1 .. 2^k - 1.
  for (uint32_t k = 1; k <= 10; ++k) {
    const uint32_t count = (1u << k) - 1u;
    std::set<float> got;
    for (uint32_t n = 0; n < count; ++n) got.insert(lane_share_of(n));
    REQUIRE(got.size() == count);
    uint32_t m = 1;
    for (float s : got) CHECK(s == -1.0f + 2.0f * static_cast<float>(m++) / static_cast<float>(1u << k));
  }
  for (uint32_t n = 0; n < 5000; ++n) {
    CHECK(lane_share_of(n) > -1.0f);
    CHECK(lane_share_of(n) < 1.0f);
  }
}

namespace {
// A 40 x 30 m hall: a spawning street portal at the left, three exits at the right.
Json exits_hall(uint32_t count) {
  Json j = hall(40, 30);
  j["portals"] = Json::array({
      Json{{"id", "street_in"}, {"polygon", rect(0, 5, 6, 25)}, {"mode", "spawn"}, {"count", count}, {"rate_per_min", 0}},
      Json{{"id", "p1"}, {"polygon", rect(38, 0, 40, 8)}, {"mode", "despawn"}},
      Json{{"id", "p2"}, {"polygon", rect(38, 10, 40, 18)}, {"mode", "both"}},
      Json{{"id", "street_out"}, {"polygon", rect(38, 22, 40, 30)}, {"mode", "despawn"}},
  });
  return j;
}
}  // namespace

TEST_CASE("seed 002 Population - exits are drawn from the weights at spawn and never change", "[station][population]") {
  Json j = exits_hall(300);
  j["portals"][0]["targets"] = Json::array({Json{{"portal", "p1"}, {"weight", 1}}, Json{{"portal", "p2"}, {"weight", 3}},
                                            Json{{"portal", "street_out"}, {"weight", 0}}});
  auto m = make(j);
  run(m, 100);  // rate 0: spawned as fast as clear spots allow
  const auto& ws = m.state().walkers;
  REQUIRE(ws.size() > 150);
  std::vector<uint32_t> drawn;
  int p1 = 0, p2 = 0;
  for (const auto& w : ws) {
    drawn.push_back(w.destination);
    CHECK(w.destination != 3u);  // weight 0 is never drawn
    (w.destination == 1 ? p1 : p2)++;
  }
  // 1 : 3 within a wide binomial margin (about 5 standard deviations).
  const double share = static_cast<double>(p2) / static_cast<double>(p1 + p2);
  CHECK(share > 0.62);
  CHECK(share < 0.88);
  run(m, 100);
  for (std::size_t i = 0; i < drawn.size(); ++i) CHECK(m.state().walkers[i].destination == drawn[i]);
  // The stream is the scenario seed: another seed draws other exits.
  Json j2 = j;
  j2["seed"] = 99;
  auto m2 = make(j2);
  run(m2, 100);
  bool differ = false;
  for (std::size_t i = 0; i < std::min(drawn.size(), m2.state().walkers.size()); ++i)
    differ = differ || m2.state().walkers[i].destination != drawn[i];
  CHECK(differ);
}

TEST_CASE("seed 002 Population - a named target sends every spawn there", "[station][population]") {
  Json j = exits_hall(20);
  j["portals"][0]["target"] = "street_out";
  auto m = make(j);
  run(m, 5);
  REQUIRE(m.state().walkers.size() == 20);
  for (const auto& w : m.state().walkers) CHECK(w.destination == 3u);
}

TEST_CASE("seed 002 Population - otherwise destinations rotate through the portals on the trip's side",
          "[station][population]") {
  // Spawned at a street portal: Board, heading for the non-street portals that accept arrivals: p1, p2, p1, ...
  auto m = make(exits_hall(12));
  run(m, 3);
  const auto& ws = m.state().walkers;
  REQUIRE(ws.size() == 12);
  for (std::size_t i = 0; i < ws.size(); ++i) {
    CHECK(ws[i].trip == Trip::Board);
    CHECK(ws[i].destination == (i % 2 == 0 ? 1u : 2u));
  }
  // Spawned at a platform portal: Alight, heading for the street portals.
  Json j = exits_hall(0);
  j["portals"][2]["count"] = 6;
  auto a = make(j);
  run(a, 3);
  REQUIRE(a.state().walkers.size() == 6);
  for (const auto& w : a.state().walkers) {
    CHECK(w.trip == Trip::Alight);
    CHECK(w.destination == 3u);  // street_out (street_in only spawns)
  }
}

TEST_CASE("seed 002 Population - a spawn retried for want of a clear spot keeps its turn in the rotation (S11)",
          "[station][population]") {
  // A street portal 1.2 m square dumps 12 walkers (rate 0): only a few fit at
  // once, so most spawns fail and are retried on later ticks. The rotation
  // still alternates p1, p2, p1, ... in spawn order.
  Json j = exits_hall(12);
  j["portals"][0]["polygon"] = rect(1, 14, 2.2f, 15.2f);
  auto m = make(j);
  run(m, 400);
  const auto& ws = m.state().walkers;
  REQUIRE(ws.size() == 12);
  CHECK(m.state().portals[0].failed > 0);  // spawns did fail
  for (std::size_t i = 0; i < ws.size(); ++i) {
    INFO("walker " << i);
    CHECK(ws[i].destination == (i % 2 == 0 ? 1u : 2u));
  }
  CHECK(m.state().portals[0].rotation == 12u);
}

TEST_CASE("seed 002 Population - p_impaired and p_disable are two independent rolls", "[station][population]") {
  Json j = exits_hall(400);
  j["population"] = Json{{"p_impaired", 0.5}, {"p_disable", 0.5}};
  auto m = make(j);
  run(m, 200);
  const auto& ws = m.state().walkers;
  REQUIRE(ws.size() >= 300);
  double n = static_cast<double>(ws.size()), imp = 0, dis = 0, both = 0;
  for (const auto& w : ws) {
    imp += w.prefers_lift_impaired;
    dis += w.prefers_lift_disable;
    both += w.prefers_lift_impaired && w.prefers_lift_disable;
  }
  CHECK(imp / n == Approx(0.5).margin(0.1));
  CHECK(dis / n == Approx(0.5).margin(0.1));
  CHECK(both / n == Approx(0.25).margin(0.08));  // independent: the product
  Json z = exits_hall(50);
  z["population"] = Json{{"p_impaired", 0.0}, {"p_disable", 1.0}};
  auto mz = make(z);
  run(mz, 20);
  for (const auto& w : mz.state().walkers) {
    CHECK_FALSE(w.prefers_lift_impaired);
    CHECK(w.prefers_lift_disable);
  }
}

TEST_CASE("seed 002 Spawn and arrival - rate_per_min spaces spawns 60 / rate seconds apart", "[station][spawn]") {
  Json j = exits_hall(5);
  j["portals"][0]["rate_per_min"] = 60;  // one a second: ticks 0, 20, 40, 60, 80
  auto m = make(j);
  std::vector<uint64_t> at;
  for (int k = 0; k < 200; ++k) {
    const auto before = m.state().walkers.size();
    m.step({});
    if (m.state().walkers.size() > before) at.push_back(m.state().tick - 1);
  }
  CHECK(at == std::vector<uint64_t>{0, 20, 40, 60, 80});
  CHECK(m.state().portals[0].emitted == 5u);
  // 40 a minute: 1.5 s = 30 ticks apart.
  j["portals"][0]["rate_per_min"] = 40;
  j["portals"][0]["start_s"] = 1.0;
  auto m2 = make(j);
  at.clear();
  for (int k = 0; k < 200; ++k) {
    const auto before = m2.state().walkers.size();
    m2.step({});
    if (m2.state().walkers.size() > before) at.push_back(m2.state().tick - 1);
  }
  CHECK(at == std::vector<uint64_t>{20, 50, 80, 110, 140});
  // Times that are not exact in binary are due on their own tick, not one late
  // (S11): start_s 1.1 is the float 1.1000000238, due at tick 22; 0.3 at tick 6.
  for (const auto& [start, tick] : {std::pair<double, uint64_t>{1.1, 22}, {0.3, 6}, {1.2, 24}}) {
    INFO("start_s " << start);
    j["portals"][0]["start_s"] = start;
    auto m3 = make(j);
    uint64_t first = 0;
    for (int k = 0; k < 40 && m3.state().walkers.empty(); ++k) {
      m3.step({});
      first = m3.state().tick - 1;
    }
    CHECK(first == tick);
  }
}

TEST_CASE("seed 002 Spawn and arrival - rate 0 dumps the count as fast as clear spots allow, never overlapping",
          "[station][spawn]") {
  Json j = hall(30, 10);
  j["portals"] = Json::array({Json{{"id", "a"}, {"polygon", rect(1, 1, 3, 3)}, {"mode", "spawn"}, {"count", 40}},
                              Json{{"id", "b"}, {"polygon", rect(28, 0, 30, 10)}, {"mode", "despawn"}}});
  j["floors"][0]["obstacles"] = Json::array({rect(1.8, 1.8, 2.2, 2.2)});
  auto m = make(j);
  m.step({});
  const auto first = m.state().walkers.size();
  // A 2 x 2 m portal (less a column) holds far fewer than 40 bodies of 0.25 m at once.
  CHECK(first >= 3);
  CHECK(first < 40);
  CHECK(m.state().portals[0].failed == 1u);  // the tick's last spawn found no spot in 48 tries
  for (std::size_t i = 0; i < first; ++i)
    for (std::size_t k = 0; k < i; ++k) {
      const auto& a = m.state().walkers[i];
      const auto& b = m.state().walkers[k];
      CHECK(length(a.pos - b.pos) >= a.radius + b.radius);
    }
  for (const auto& w : m.state().walkers) CHECK_FALSE(inside(m.scenario().floors[0].obstacles[0], w.pos));
  run(m, 600);
  CHECK(m.state().portals[0].emitted == 40u);  // the rest came as the first walked off
}

TEST_CASE("seed 002 Spawn and arrival - inside the destination portal the walker is Done and keeps its slot",
          "[station][spawn]") {
  auto m = make(fixture("station/corridor.json"));
  run(m, 800);
  const auto& w = m.state().walkers[0];
  REQUIRE(w.phase == Phase::Done);
  CHECK(inside(m.scenario().portals[0].polygon, w.pos));
  CHECK(m.state().walkers.size() == 1u);
  CHECK(m.state().portals[0].arrived == 1u);
  const V2 at = w.pos;
  run(m, 20);
  CHECK(m.state().walkers[0].pos == at);  // out of the run: not moved any more
}

TEST_CASE("seed 002 Spawn and arrival - crossing another despawn portal is not arriving (S13)", "[station][spawn]") {
  Json j = hall(30, 4);
  j["portals"] = Json::array({Json{{"id", "mid"}, {"polygon", rect(10, 0, 12, 4)}, {"mode", "despawn"}},
                              Json{{"id", "end"}, {"polygon", rect(28, 0, 30, 4)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({Json{{"position", {1, 2}}, {"destination", "end"}}});
  auto m = make(j);
  run(m, 200);  // about 13 m in 10 s: past the middle portal
  CHECK(m.state().walkers[0].pos.x > 12.5f);
  CHECK(m.state().walkers[0].phase == Phase::Walking);
  run(m, 600);
  CHECK(m.state().walkers[0].phase == Phase::Done);
  CHECK(m.state().portals[1].arrived == 1u);
}

TEST_CASE("seed 002 Route - each portal's spawns spread their lane shares over -1..1 (S5)", "[station][lanes]") {
  // Two portals spawning in turn, 15 walkers each. With one counter over all
  // portals, one portal drew the even terms of the sequence (0, 1/2, 1/4, ...
  // all >= 0) and the other the odd ones (all < 0): both streams on one side.
  Json j = hall(60, 30);
  j["portals"] = Json::array({Json{{"id", "a"}, {"polygon", rect(2, 2, 6, 28)}, {"mode", "spawn"}, {"count", 15}, {"rate_per_min", 60}, {"target", "z"}},
                              Json{{"id", "b"}, {"polygon", rect(10, 2, 14, 28)}, {"mode", "spawn"}, {"count", 15}, {"rate_per_min", 60}, {"target", "z"}},
                              Json{{"id", "z"}, {"polygon", rect(58, 2, 60, 28)}, {"mode", "despawn"}}});
  auto m = make(j);
  run(m, 15 * 20);
  REQUIRE(m.state().stats.spawned == 30u);
  for (int32_t p : {0, 1}) {
    std::vector<float> shares;
    for (const auto& w : m.state().walkers)
      if (w.origin == p) shares.push_back(w.lane_share);
    REQUIRE(shares.size() == 15u);
    // The portal's own sequence: the first 15 terms, in spawn order.
    for (uint32_t n = 0; n < 15; ++n) CHECK(shares[n] == lane_share_of(n));
    // Spread evenly: 7 below 0, 7 above, one 0; every quarter of -1..1 holds 3 or 4.
    int below = 0, above = 0, quarter[4] = {0, 0, 0, 0};
    for (float s : shares) {
      below += s < 0.0f ? 1 : 0;
      above += s > 0.0f ? 1 : 0;
      ++quarter[std::min(3, static_cast<int>((s + 1.0f) * 2.0f))];
    }
    CHECK(below == 7);
    CHECK(above == 7);
    for (int q : quarter) CHECK((q >= 3 && q <= 4));
  }
}

TEST_CASE("seed 002 Route - spawned walkers aim their share of the slack off the line; placed walkers keep share 0",
          "[station][lanes]") {
  // Open floor: the slack is the widest shift, 1.5 m (capped), on each side.
  Json j = hall(60, 30);
  j["portals"] = Json::array({Json{{"id", "street_in"}, {"polygon", rect(2, 13, 4, 17)}, {"mode", "spawn"}, {"count", 3}},
                              Json{{"id", "p"}, {"polygon", rect(58, 13, 60, 17)}, {"mode", "despawn"}}});
  j["walkers"] = Json::array({Json{{"position", {10, 5}}, {"destination", "p"}}});
  auto m = make(j);
  m.step({});
  const auto& ws = m.state().walkers;
  REQUIRE(ws.size() == 4u);
  CHECK(ws[0].lane_share == 0.0f);
  for (std::size_t i = 1; i < 4; ++i) {
    CHECK(ws[i].lane_share == lane_share_of(static_cast<uint32_t>(i - 1)));
    CHECK(ws[i].slack_left == 1.5f);
    CHECK(ws[i].slack_right == 1.5f);
    // The drive point lies share x 1.5 m to the left of the goal point, across the leg.
    const auto& rt = m.state().routes[i];
    const V2 goal = m.portal_goal(ws[i].destination, ws[i].pos);
    const V2 u = unit(rt.waypoints[rt.next] - rt.leg_start);
    CHECK(dot(ws[i].drive - goal, left_of(u)) == Approx(ws[i].lane_share * 1.5f).margin(0.02));
  }
  // In a 1.4 m corridor no shift keeps the body and the comfort gap off the walls: no slack.
  Json c = hall(40, 1.4f);
  c["portals"] = Json::array({Json{{"id", "street_in"}, {"polygon", rect(0, 0, 3, 1.4f)}, {"mode", "spawn"}, {"count", 3}},
                              Json{{"id", "p"}, {"polygon", rect(38, 0, 40, 1.4f)}, {"mode", "despawn"}}});
  auto mc = make(c);
  run(mc, 2);
  REQUIRE(mc.state().walkers.size() == 3u);
  for (const auto& w : mc.state().walkers) {
    CHECK(w.slack_left == 0.0f);
    CHECK(w.slack_right == 0.0f);
  }
}

TEST_CASE("station lanes - with someone coming the other way, spawned walkers take the keep side's half (S25)", "[station][lanes]") {
  // The flow suite's 4 x 50 m corridor fed from both ends at 100 /min each
  // (tools/make-station-flows, counter_r100_s1). From 60 s to 120 s at least
  // 80 % of the walkers in x 10 .. 40 walk on the keep side, for either
  // convention. Without S25 this seed's lanes formed on the wrong side (12 %
  // on the keep side for keep right). A one-way stream has nobody coming and
  // keeps the whole width.
  for (const char* keep : {"right", "left"}) {
    INFO("keep " << keep);
    Json j = fixture("station/flows/counter_r100_s1.json");
    j["keep"] = keep;
    auto m = make(j);
    const uint32_t east_out = 3;  // west_in, west_out, east_in, east_out
    REQUIRE(m.scenario().portals[east_out].id == "east_out");
    int on_keep = 0, counted = 0;
    for (int k = 0; k < 120 * 20; ++k) {
      m.step({});
      if (k < 60 * 20 || k % 10) continue;
      for (const auto& w : m.state().walkers) {
        if (w.phase != Phase::Walking || w.pos.x < 10 || w.pos.x > 40) continue;
        const bool east = w.destination == east_out;
        const bool right_of_heading = east ? w.pos.y < 2 : w.pos.y > 2;
        on_keep += right_of_heading == (std::string(keep) == "right") ? 1 : 0;
        ++counted;
      }
    }
    REQUIRE(counted > 1000);
    CHECK(on_keep >= 0.8 * counted);
  }
  // One way: the east-bound stream alone; its drive points spread to both sides of the centre line.
  Json j = fixture("station/flows/counter_r100_s1.json");
  j["portals"][2]["count"] = 0;  // east_in spawns nobody
  auto m = make(j);
  int left = 0, right = 0;
  for (int k = 0; k < 40 * 20; ++k) {
    m.step({});
    if (k % 20) continue;
    for (const auto& w : m.state().walkers)
      if (w.phase == Phase::Walking && w.pos.x > 10 && w.pos.x < 40) {
        left += w.drive.y > 2.05f ? 1 : 0;
        right += w.drive.y < 1.95f ? 1 : 0;
      }
  }
  CHECK(left > 20);
  CHECK(right > 20);
}

TEST_CASE("station lanes - in a passage with someone coming, a spawned walker aims into its keep-side band (S29)",
          "[station][lanes]") {
  // A 4 x 40 m corridor whose goal strip lies against the far wall: every
  // shift of the goal point comes within the comfort gap of that wall, so the
  // leg has no slack and S25's keep-side half of the slack moves nobody (issue
  // 14: lanes in the flow suite's corridors came from sidesteps alone). With
  // a placed walker coming the other way, the spawned walker aims 1 m ahead
  // into its band: for keep right (heading east: y below 2) from its body off
  // the wall to 0.2 m short of the middle; the turn at most 1 m in 1 m.
  for (const char* keep : {"right", "left"}) {
    INFO("keep " << keep);
    const bool right = std::string(keep) == "right";
    Json j = hall(40, 4);
    j["keep"] = keep;
    // Spawned on the wrong side for the convention: north for keep right.
    j["portals"] = Json::array({Json{{"id", "west_in"}, {"polygon", right ? rect(1, 2.9f, 3, 3.5f) : rect(1, 0.5f, 3, 1.1f)},
                                     {"mode", "spawn"}, {"count", 1}},
                                Json{{"id", "west_out"}, {"polygon", rect(0, 0, 0.5f, 4)}, {"mode", "despawn"}},
                                Json{{"id", "east_out"}, {"polygon", rect(39.5f, 0, 40, 4)}, {"mode", "despawn"}}});
    j["portals"][0]["target"] = "east_out";
    Json alone = j;
    j["walkers"] = Json::array({Json{{"position", {18, 2}}, {"destination", "west_out"}}});
    auto m = make(j);
    auto a = make(alone);
    // Tick 1 spawns and gives the placed walker its direction; tick 2 sees it coming.
    run(m, 2);
    run(a, 2);
    REQUIRE(m.state().walkers.size() == 2u);
    REQUIRE(a.state().walkers.size() == 1u);
    const auto& w = m.state().walkers[1];
    REQUIRE(w.origin == 0);
    CHECK(w.slack_left == 0.0f);
    CHECK(w.slack_right == 0.0f);
    // The aim: 1 m ahead along the leg, 1 m across toward the band (the cap: the band is 1.1 m or more away).
    const auto& rt = m.state().routes[1];
    const V2 u = unit(rt.waypoints[rt.next] - rt.leg_start);
    CHECK(dot(w.drive - w.pos, u) == Approx(1.0f).margin(0.01));
    CHECK(dot(w.drive - w.pos, left_of(u)) == Approx(right ? -1.0f : 1.0f).margin(0.01));
    // Alone (nobody coming) it drives for the goal point (S6) on the far wall.
    const auto& wa = a.state().walkers[0];
    const V2 goal = a.portal_goal(wa.destination, wa.pos);
    CHECK(wa.drive.x == Approx(goal.x).margin(0.01));
    CHECK(wa.drive.y == Approx(goal.y).margin(0.01));
    // 3 s on (still 8 m apart, beyond sight's 4 m) it walks in its band.
    run(m, 60);
    run(a, 60);
    const float y = m.state().walkers[1].pos.y;
    if (right) CHECK(y < 1.8f);
    else CHECK(y > 2.2f);
    CHECK(std::abs(a.state().walkers[0].pos.y - wa.pos.y) < 0.1f);
  }
  // A corner near ahead that the path goes on past nearly straight (one the
  // crowd's cost can put in a passage) does not close the band; one where it
  // turns by more than 45 degrees does, and the walker drives for it. Keep
  // right, heading east: the corner 1.5 m ahead on the north side (the
  // oncoming lane), then on east (a turn of 11 degrees) or south (84 degrees).
  for (const bool straight : {true, false}) {
    INFO((straight ? "the path goes on straight past the corner" : "the path turns at the corner"));
    Json j = hall(40, 4);
    j["portals"] = Json::array({Json{{"id", "west_in"}, {"polygon", rect(1, 2.9f, 3, 3.5f)}, {"mode", "spawn"}, {"count", 1}, {"target", "east_out"}},
                                Json{{"id", "west_out"}, {"polygon", rect(0, 0, 0.5f, 4)}, {"mode", "despawn"}},
                                Json{{"id", "east_out"}, {"polygon", rect(39.5f, 0, 40, 4)}, {"mode", "despawn"}}});
    j["walkers"] = Json::array({Json{{"position", {18, 2}}, {"destination", "west_out"}}});
    auto m = make(j);
    run(m, 2);
    REQUIRE(m.state().walkers.size() == 2u);
    auto st = m.state();
    const V2 p = st.walkers[1].pos;
    const V2 corner{p.x + 1.5f, 3.3f};
    const V2 after = straight ? V2{corner.x + 5.0f, 3.3f - 1.0f} : V2{corner.x + 0.2f, 1.2f};
    st.routes[1].waypoints = {corner, after};
    st.routes[1].next = 0;
    st.routes[1].leg_start = p;
    m.set_state(st);
    run(m, 1);
    const auto& w = m.state().walkers[1];
    const auto& rt = m.state().routes[1];
    REQUIRE(rt.next == 0u);
    const V2 u = unit(rt.waypoints[0] - rt.leg_start);
    if (straight) {
      // The band's aim from where the tick began: 1 m ahead along the leg and 1 m toward its band (the cap), not the corner.
      CHECK(dot(w.drive - p, u) == Approx(1.0f).margin(1e-4));
      CHECK(dot(w.drive - p, left_of(u)) == Approx(-1.0f).margin(1e-4));
    } else {
      CHECK(w.drive.x == Approx(corner.x).margin(1e-4));
      CHECK(w.drive.y == Approx(corner.y).margin(1e-4));
    }
  }
  // In a hall (no wall within 4 m to one side) the band does not apply: the lane's drive point stands.
  Json h = hall(40, 30);
  h["portals"] = Json::array({Json{{"id", "west_in"}, {"polygon", rect(1, 14, 3, 16)}, {"mode", "spawn"}, {"count", 1}, {"target", "east_out"}},
                              Json{{"id", "west_out"}, {"polygon", rect(0, 0, 0.5f, 30)}, {"mode", "despawn"}},
                              Json{{"id", "east_out"}, {"polygon", rect(39.5f, 0, 40, 30)}, {"mode", "despawn"}}});
  h["walkers"] = Json::array({Json{{"position", {18, 15}}, {"destination", "west_out"}}});
  auto mh = make(h);
  run(mh, 2);
  REQUIRE(mh.state().walkers.size() == 2u);
  CHECK(mh.state().walkers[1].drive.x > 30.0f);
}
