// PedPy's measures as tests/flows/measures.h computes them, on walks
// made by hand whose answers are known exactly (docs/validation.md, "Flows").
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "measures.h"

using namespace flows;

namespace {
// n agents walking +x at speed v from x = x0 - k * spacing (agent k), at y = 1, for `frames` frames at 20 fps.
Trajectory file_of(int n, double v, double spacing, int frames) {
  Trajectory t;
  t.frame_rate = 20;
  for (int f = 0; f < frames; ++f) {
    std::vector<Agent> fr;
    for (int k = 0; k < n; ++k) fr.push_back(Agent{static_cast<uint32_t>(k), v * f / 20.0 - k * spacing, 1.0});
    t.frames.push_back(fr);
  }
  return t;
}
}  // namespace

TEST_CASE("flow measures - N-t: each agent counted once, at the frame its step crosses the line", "[station][flows]") {
  // 1 m/s, 0.5 m apart: agent k reaches x = 2.525 at 2.525 + 0.5 k s, i.e. in the step to frame 51 + 10 k.
  auto t = file_of(5, 1.0, 0.5, 200);
  // Walking back over the line does not count again.
  for (int f = 150; f < 200; ++f) t.frames[f][0].x = 2.0;
  const auto c = crossing_frames(t, P2{2.525, 0}, P2{2.525, 2});
  REQUIRE(c.size() == 5u);
  for (std::size_t k = 0; k < 5; ++k) CHECK(c[k] == 51 + 10 * k);
  // A line segment beside the walk (y 1.5 .. 3; the walkers keep y = 1): nobody crosses it.
  CHECK(crossing_frames(t, P2{2.525, 1.5}, P2{2.525, 3}).empty());
  // The flow: one agent every 0.5 s, 2 /s, over any window of the crossings.
  CHECK(flow_between(c, 20, 0.0, 1.0) == Approx(2.0));
  CHECK(flow_between(c, 20, 0.25, 0.75) == Approx(2.0));
}

TEST_CASE("flow measures - classic density and individual speed", "[station][flows]") {
  std::vector<Agent> f;
  for (int k = 0; k < 8; ++k) f.push_back(Agent{static_cast<uint32_t>(k), 0.25 + 0.5 * k, 0.5});
  f.push_back(Agent{99, 10, 10});  // outside
  CHECK(classic_density(f, box(0, 0, 4, 1)) == Approx(2.0));
  // Centred difference over +-5 frames: 1.2 m/s wherever both ends exist (BORDER_EXCLUDE).
  const auto t = file_of(2, 1.2, 1.0, 40);
  const auto s = individual_speeds(t, 5);
  for (std::size_t k = 0; k < 40; ++k)
    for (double v : s.at[k]) {
      if (k < 5 || k >= 35) CHECK(std::isnan(v));
      else CHECK(v == Approx(1.2));
    }
}

TEST_CASE("flow measures - Voronoi density of a square lattice is 1 / spacing^2", "[station][flows]") {
  // Agents every 0.5 m over a 10 x 10 m box: each cell a 0.5 m square (well
  // inside the 1 m cut-off), 4 /m^2 in any area away from the box's edge.
  for (double a : {0.5, 0.625}) {  // both divide the box: every cell a square
    INFO("spacing " << a);
    std::vector<Agent> f;
    std::vector<double> v;
    uint32_t id = 0;
    for (double x = a / 2; x < 10; x += a)
      for (double y = a / 2; y < 10; y += a) f.push_back(Agent{id++, x, y}), v.push_back(0.8 + 0.001 * (id % 2));
    const Poly bounds = box(0, 0, 10, 10);
    const auto cells = voronoi_cells(f, bounds, 1.0);
    for (const auto& c : cells) CHECK(area_of(c) == Approx(a * a).epsilon(1e-9));
    const auto m = voronoi_measure(f, v, bounds, box(3, 3, 7, 7), 1.0);
    CHECK(m.density == Approx(1.0 / (a * a)).epsilon(1e-9));
    CHECK(m.speed == Approx(0.8005).epsilon(1e-3));  // the area-weighted mean of 0.800 and 0.801
  }
  // A lone agent: its cell is the cut-off 12-gon (area 3 r^2), wholly inside a 4 x 4 m area.
  const std::vector<Agent> one{Agent{0, 5, 5}};
  const auto c = voronoi_cells(one, box(0, 0, 10, 10), 1.0);
  CHECK(area_of(c[0]) == Approx(3.0));
  CHECK(voronoi_measure(one, {1.3}, box(0, 0, 10, 10), box(3, 3, 7, 7), 1.0).density == Approx(1.0 / 16.0));
  CHECK(voronoi_measure(one, {1.3}, box(0, 0, 10, 10), box(3, 3, 7, 7), 1.0).speed == Approx(1.3));
}

TEST_CASE("flow measures - line fit, Weidmann and the band", "[station][flows]") {
  const auto f = fit_line({0.8, 1.0, 1.6, 2.4}, {1.5, 1.9, 3.1, 4.7});  // 2 b - 0.1
  CHECK(f.b == Approx(2.0));
  CHECK(f.a == Approx(-0.1));
  CHECK(f.r2 == Approx(1.0));
  CHECK(fit_line({1, 2, 3, 4}, {1, 1, 2, 1}).r2 < 0.5);
  // crowd.md: v0 1.34, gamma 1.913, rho_max 5.4.
  CHECK(weidmann(1.0) == Approx(1.34 * (1 - std::exp(-1.913 * (1 - 1 / 5.4)))));
  CHECK(weidmann(6.0) == 0.0);
  using lockstep::corridor_series::Branch;
  using lockstep::corridor_series::bin_at;
  for (double rho = 0.5; rho <= 3.0; rho += 0.25) {
    for (Branch br : {Branch::Inflow, Branch::Queue}) {
      CHECK(band_lo(rho, br) < weidmann(rho));
      CHECK(band_hi(rho, br) > weidmann(rho));
      // The series' own spread is inside the band wherever it has the bin.
      if (const auto* b = bin_at(br, rho)) {
        CHECK(band_lo(rho, br) <= b->p10);
        CHECK(band_hi(rho, br) >= std::min(1.5, b->p90));
      }
    }
  }
  // At 2.1 /m2 the inflow runs walk 0.76 .. 1.00 m/s, above Weidmann's
  // 0.57 + 0.15, so the series widens the band there; the queue runs
  // (0.43 .. 0.66) do not.
  CHECK(band_hi(2.1, Branch::Inflow) == Approx(1.00));
  CHECK(band_hi(2.1, Branch::Queue) == Approx(weidmann(2.1) + 0.15));
  // Where the series has too few frames (above 2.5 /m2 inflow), Weidmann's band alone.
  CHECK(bin_at(Branch::Inflow, 2.6) == nullptr);
  CHECK(band_hi(2.6, Branch::Inflow) == Approx(weidmann(2.6) + 0.15));
}

TEST_CASE("corridor series - the table is ordered and speeds fall with density", "[station][flows]") {
  using lockstep::corridor_series::Branch;
  using lockstep::corridor_series::kBins;
  const lockstep::corridor_series::Bin* prev = nullptr;
  for (const auto& b : kBins) {
    INFO(b.rho_lo << " .. " << b.rho_hi);
    CHECK(b.rho_hi == Approx(b.rho_lo + 0.25));
    CHECK(b.frames >= 100);
    CHECK(b.p10 <= b.p50);
    CHECK(b.p50 <= b.p90);
    if (prev && prev->branch == b.branch) {
      CHECK(b.rho_lo == Approx(prev->rho_hi));
      // The medians fall with density (0.03 m/s of noise between bins).
      CHECK(b.p50 <= prev->p50 + 0.03);
    }
    prev = &b;
  }
}

namespace {
// A series of `n` samples: level + noise, the noise an AR(1) process (lag-1 autocorrelation
// `acf`, standard deviation `sd`) from a fixed linear congruential generator.
std::vector<double> ar_series(std::size_t n, double level, double sd, double acf, uint64_t seed) {
  std::vector<double> x(n);
  double e = 0;
  for (std::size_t k = 0; k < n; ++k) {
    double u = 0;  // Irwin-Hall: the sum of 12 uniforms less 6 is near normal, sd 1
    for (int j = 0; j < 12; ++j) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      u += static_cast<double>(seed >> 11) / 9007199254740992.0;
    }
    e = acf * e + std::sqrt(1 - acf * acf) * (u - 6.0);
    x[k] = level + sd * e;
  }
  return x;
}
}  // namespace

TEST_CASE("steady state - the CUSUM threshold: 1 for independent samples, higher the longer the memory", "[station][flows]") {
  // Independent samples: the statistic is a walk reflected at 0 that steps up with p = P(|z| > q)
  // = 0.02; its stationary law is geometric with ratio r = p / (1 - p) = 0.0204, so
  // P(s <= 0) = 0.980 < 0.99 <= P(s <= 1) = 0.9996: the threshold is 1.
  CHECK(cusum_threshold(0.0) == 1);
  // With memory, an excursion past q lasts: the statistic climbs further under the same law.
  int last = 1;
  for (double acf : {0.5, 0.9, 0.97, 0.99}) {
    const int t = cusum_threshold(acf);
    CHECK(t >= last);
    last = t;
  }
  CHECK(last > 5);
  CHECK(last < kCusumMax);
}

TEST_CASE("steady state - a level after a transient is found, within the statistic's reaction time", "[station][flows]") {
  // 600 samples ramping 0 -> 2, then 1400 at 2 with noise (sd 0.1, acf 0.8).
  std::vector<double> x = ar_series(2000, 2.0, 0.1, 0.8, 7);
  for (std::size_t k = 0; k < 600; ++k) x[k] = 2.0 * static_cast<double>(k) / 600.0 + (x[k] - 2.0);
  const auto s = steady_intervals(x, 2000 / 3, 4000 / 3);
  REQUIRE(!s.empty());
  // Steady from where the ramp comes within the noise of the level (~2.33 sd = 0.23 below it:
  // sample 530), give or take the reaction time; to the end less the lag.
  CHECK(s.front().begin >= 500);
  CHECK(s.front().begin <= 640);
  CHECK(s.back().end >= 2000 - kCusumMax);
  std::size_t covered = 0;
  for (const auto& i : s) covered += i.end - i.begin + 1;
  CHECK(covered >= 1200);
  CHECK(std::fabs(drift_of(x, s)) < 0.02);
}

TEST_CASE("steady state - a step in the middle splits the run, a ramp is steady only by its middle third", "[station][flows]") {
  // 1000 samples at 1, 1000 at 1.5 (noise sd 0.05): against a reference in the first level
  // the second is not steady.
  std::vector<double> x = ar_series(2000, 1.0, 0.05, 0.5, 11);
  for (std::size_t k = 1000; k < 2000; ++k) x[k] += 0.5;
  const auto s = steady_intervals(x, 200, 800);
  REQUIRE(s.size() == 1u);
  CHECK(s[0].begin <= 10u);  // from the start, give or take a sample past q in the first hundred
  CHECK(s[0].end < 1000u);
  CHECK(s[0].end >= 1000u - 2 * static_cast<std::size_t>(kCusumMax));
  // A pure ramp 1 -> 4 against its own middle third: its spread makes the whole middle
  // "steady", but its density drifts by far more than a fifth over those samples.
  std::vector<double> ramp(3000);
  for (std::size_t k = 0; k < ramp.size(); ++k) ramp[k] = 1.0 + 3.0 * static_cast<double>(k) / 3000.0;
  const auto r = steady_intervals(ramp, 1000, 2000);
  REQUIRE(!r.empty());
  CHECK(std::fabs(drift_of(ramp, r)) > kSteadyMaxDrift);
  // Intersections: only what both keep.
  const auto both = intersect({Interval{0, 10}, Interval{20, 30}}, {Interval{5, 25}});
  REQUIRE(both.size() == 2u);
  CHECK((both[0].begin == 5 && both[0].end == 10 && both[1].begin == 20 && both[1].end == 25));
}
