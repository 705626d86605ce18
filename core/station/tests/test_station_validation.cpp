// External validation of the station model: RiMEA 4.1.1 tests 4, 9 and 12
// (issue 7; criteria as public suites use them, /work/shared/references/crowd.md).
// Scenarios: tools/make-station-rimea -> fixtures/station/rimea4_*, rimea9_*,
// rimea12.json. Set-ups, bands and measured results: docs/validation.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "corridor_series.h"
#include "math_reference.h"
#include "station_test_util.h"

using namespace station_test;

namespace ref = lockstep::test_support::ref;

namespace {

// When LOCKSTEP_VALIDATION_OUT names a directory, the tests also write their
// measurements there as CSV (tools/plot-station-validation draws them).
std::string out_path(const char* name) {
  const char* dir = std::getenv("LOCKSTEP_VALIDATION_OUT");
  return dir && *dir ? std::string(dir) + "/" + name : std::string();
}

// Weidmann's fundamental diagram (crowd.md): v0 1.34 m/s, gamma 1.913 m^-2, rho_max 5.4 /m^2.
double weidmann(double rho) {
  const double v = 1.34 * (1.0 - ref::exp(-1.913 * (1.0 / rho - 1.0 / 5.4)));
  return v > 0 ? v : 0.0;
}

struct FdPoint {
  double nominal = 0, density = 0, speed = 0, mean_desired = 0;
};

// RiMEA 4's measurement: the area's density and mean speed averaged over
// 10..12 s (ticks 200..239) after the walkers start from their lattice.
FdPoint measure_fd(double rho, const char* file) {
  auto m = make(fixture(std::string("station/") + file), file);
  FdPoint p;
  p.nominal = rho;
  for (const auto& w : m.state().walkers) p.mean_desired += w.desired_speed;
  p.mean_desired /= static_cast<double>(m.state().walkers.size());
  int n = 0;
  for (int k = 0; k < 240; ++k) {
    m.step({});
    if (k >= 200) {
      p.density += m.state().areas[0].density;
      p.speed += m.state().areas[0].mean_speed;
      ++n;
    }
  }
  p.density /= n;
  p.speed /= n;
  return p;
}

// Ticks until every walker is done (RiMEA 9's evacuation time), or -1; the
// done count each tick goes to `done`.
int evacuate(const char* file, int max_ticks, std::vector<uint32_t>& done) {
  auto m = make(fixture(std::string("station/") + file), file);
  const auto n = m.state().walkers.size();
  for (int k = 1; k <= max_ticks; ++k) {
    m.step({});
    done.push_back(m.state().stats.done);
    if (m.state().stats.done == n) return k;
  }
  return -1;
}

void rimea9_ratio(const char* four, const char* two, const char* csv) {
  std::vector<uint32_t> d4, d2;
  const int t4 = evacuate(four, 12000, d4);
  const int t2 = evacuate(two, 12000, d2);
  std::printf("RiMEA 9 (%s): four exits %.2f s, two exits %.2f s, ratio %.3f\n", four, t4 * 0.05, t2 * 0.05,
              t4 > 0 ? static_cast<double>(t2) / t4 : -1.0);
  if (const auto path = out_path(csv); !path.empty()) {
    std::ofstream f(path);
    f << "t_s,done_four,done_two\n";
    for (std::size_t k = 0; k < std::max(d4.size(), d2.size()); ++k)
      f << (k + 1) * 0.05 << "," << (k < d4.size() ? d4[k] : d4.back()) << "," << (k < d2.size() ? d2[k] : d2.back())
        << "\n";
  }
  INFO("four exits: " << t4 * 0.05 << " s, two exits: " << t2 * 0.05 << " s");
  REQUIRE(t4 > 0);  // everyone got out
  REQUIRE(t2 > 0);
  const double ratio = static_cast<double>(t2) / t4;
  INFO("ratio " << ratio);
  CHECK(ratio >= 1.6);
  CHECK(ratio <= 2.4);
}

}  // namespace

// The RiMEA 4 criteria (docs/validation.md). One test case, not two, so that
// ctest (one process per test case) runs the seven corridors once.
TEST_CASE("RiMEA 4 - fundamental diagram: monotone, free speed, near Weidmann",
          "[station][rimea][validation]") {
  // Reference: Weidmann (crowd.md). Scenarios: rimea4_d050..d600.json, seeds 4050..4600.
  const double rhos[] = {0.5, 1, 2, 3, 4, 5, 6};
  const char* files[] = {"rimea4_d050.json", "rimea4_d100.json", "rimea4_d200.json", "rimea4_d300.json",
                         "rimea4_d400.json", "rimea4_d500.json", "rimea4_d600.json"};
  std::vector<FdPoint> fd;
  for (int i = 0; i < 7; ++i) fd.push_back(measure_fd(rhos[i], files[i]));
  for (const auto& p : fd)
    std::printf("RiMEA 4: placed %.1f /m2  measured %.3f /m2  speed %.3f m/s  (mean desired %.3f)  Weidmann %.3f m/s\n",
                p.nominal, p.density, p.speed, p.mean_desired, weidmann(p.density));
  if (const auto path = out_path("rimea4.csv"); !path.empty()) {
    std::ofstream f(path);
    f << "nominal,density,speed,mean_desired,weidmann\n";
    for (const auto& p : fd)
      f << p.nominal << "," << p.density << "," << p.speed << "," << p.mean_desired << "," << weidmann(p.density) << "\n";
  }

  // The set-up holds (RiMEA 4's method: a long corridor, measured in a central
  // area after 10 s): up to 4 /m^2 the area's mean density over 10..12 s is
  // the placed one (+-15 %), so each point is at the density it claims.
  for (int i = 0; i < 5; ++i) {
    INFO("placed " << fd[i].nominal << " measured " << fd[i].density);
    CHECK(std::fabs(fd[i].density - fd[i].nominal) <= 0.15 * fd[i].nominal);
  }

  // Free flow: at 0.5 /m^2 the walkers keep their desired speeds (Weidmann
  // itself is 3 % below v0 there): within -10 % / +5 % of the mean desired speed.
  CHECK(fd[0].speed >= 0.9 * fd[0].mean_desired);
  CHECK(fd[0].speed <= 1.05 * fd[0].mean_desired);

  // Speed falls with density, allowing 0.05 m/s of noise between neighbours,
  // within each body size: 0.25 m bodies at 0.5..4 /m^2, 0.2 m ones at 5 and 6
  // (0.25 m discs cannot be placed that densely; the smaller bodies have more
  // room at 5 /m^2 than the larger ones at 4, so 4 -> 5 is not compared).
  for (int i = 1; i < 7; ++i) {
    if (i == 5) continue;
    INFO("placed " << fd[i - 1].nominal << " -> " << fd[i].nominal << ": " << fd[i - 1].speed << " -> " << fd[i].speed);
    CHECK(fd[i].speed <= fd[i - 1].speed + 0.05);
  }
  CHECK(fd[6].speed < 0.5 * fd[0].speed);  // and it really falls

  // The band of the published data, up to 4 /m^2: within 0.3 m/s of Weidmann
  // at the measured density (empirical diagrams spread by about that much),
  // or within the 10th..90th percentile of the Wuppertal/Juelich corridor
  // series at that density, either branch (a released crowd is neither an
  // inflow nor a queue; docs/validation.md, "The corridor series").
  using lockstep::corridor_series::Branch;
  for (const auto& p : fd) {
    if (p.nominal > 4) continue;  // the 0.2 m bodies: plotted, not asserted (docs/validation.md)
    double lo = weidmann(p.density) - 0.3, hi = weidmann(p.density) + 0.3;
    for (Branch br : {Branch::Inflow, Branch::Queue})
      if (const auto* b = lockstep::corridor_series::bin_at(br, p.density)) {
        lo = std::min(lo, b->p10);
        hi = std::max(hi, b->p90);
      }
    INFO("placed " << p.nominal << " measured " << p.density << " /m2: " << p.speed << " m/s vs Weidmann "
                   << weidmann(p.density) << ", band " << lo << " .. " << hi);
    CHECK(p.speed >= lo);
    CHECK(p.speed <= hi);
  }
}

TEST_CASE("RiMEA 9 - quarter room 250 walkers: two exits take 1.6-2.4x as long", "[station][rimea][validation]") {
  // The CI variant of RiMEA 9 (15 x 10 m, 250 walkers, four 1 m exits, then two;
  // seed 9, each walker's nearest open exit named by tools/make-station-rimea).
  // Reference: crowd.md, public suites accept a ratio of 1.6..2.4.
  rimea9_ratio("rimea9_small_four.json", "rimea9_small_two.json", "rimea9_small.csv");
}

TEST_CASE("RiMEA 9 - 1000 walkers in 30 x 20 m: two exits take 1.6-2.4x as long", "[station][rimea][validation][slow]") {
  // The full RiMEA 9 (seed 9), about 33 s CPU: ctest runs it beside the
  // determinism matrix; docs/validation.md.
  rimea9_ratio("rimea9_four.json", "rimea9_two.json", "rimea9.csv");
}

TEST_CASE("RiMEA 12 - 150 walkers: a jam forms only before the bottleneck", "[station][rimea][validation]") {
  // rimea12.json, seed 12; reference: crowd.md (RiMEA 12), Fruin's LOS F for "jam".
  // Areas (2 x 2 m each): 0 before the bottleneck, 1 the corridor's end, 2 room 2 past the corridor.
  auto m = make(fixture("station/rimea12.json"), "rimea12.json");
  // A jam: density above 2 /m^2 (Fruin's walkway LOS F, under 0.5 m^2 a person).
  const float jam = 2.0f;
  int jam_ticks[3] = {0, 0, 0};
  float peak[3] = {0, 0, 0};
  std::ofstream csv;
  if (const auto path = out_path("rimea12.csv"); !path.empty()) {
    csv.open(path);
    csv << "t_s,before,corridor,after,done\n";
  }
  int k = 0;
  for (; k < 3600 && m.state().stats.done < 150u; ++k) {
    m.step({});
    if (csv.is_open())
      csv << (k + 1) * 0.05 << "," << m.state().areas[0].density << "," << m.state().areas[1].density << ","
          << m.state().areas[2].density << "," << m.state().stats.done << "\n";
    for (int a = 0; a < 3; ++a) {
      const float d = m.state().areas[a].density;
      peak[a] = std::max(peak[a], d);
      if (d > jam) ++jam_ticks[a];
    }
  }
  INFO("all out after " << k * 0.05 << " s; peaks " << peak[0] << ", " << peak[1] << ", " << peak[2]
                        << " /m2; jammed ticks " << jam_ticks[0] << ", " << jam_ticks[1] << ", " << jam_ticks[2]);
  std::printf("RiMEA 12: out after %.2f s; peak density before %.2f, corridor %.2f, after %.2f /m2; "
              "ticks above 2 /m2: %d, %d, %d\n",
              k * 0.05, peak[0], peak[1], peak[2], jam_ticks[0], jam_ticks[1], jam_ticks[2]);
  REQUIRE(m.state().stats.done == 150u);
  CHECK(jam_ticks[0] >= 200);  // a jam of at least 10 s before the bottleneck
  CHECK(jam_ticks[1] == 0);    // none after it
  CHECK(jam_ticks[2] == 0);
}
