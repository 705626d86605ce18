// station routing grid (core/station/grid.h): paths per second across a
// 100 m x 60 m hall with 50 columns (~12,000 cells of 0.7 m), the size the
// seed's stations reach. One iteration is one find_path between two points of
// a fixed pseudo-random sequence (the same on every run), for a 0.25 m body;
// "crowd" adds a soft cost on a fifth of the cells. Also the grid's build time.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "station/grid.h"

using namespace lockstep::station;

namespace {

GridPolygon rect(float x0, float y0, float x1, float y1) { return {{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}; }

GridInput hall() {
  GridInput in;
  in.walkable.push_back(rect(0, 0, 100, 60));
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 5; ++j) {
      const float cx = 8.0f + 9.5f * static_cast<float>(i), cy = 8.0f + 11.0f * static_cast<float>(j);
      in.blockers.push_back(rect(cx - 0.4f, cy - 0.4f, cx + 0.4f, cy + 0.4f));
    }
  return in;
}

struct Lcg {
  uint32_t s = 12345;
  float next() {
    s = s * 1664525u + 1013904223u;
    return static_cast<float>(s >> 8) / 16777216.0f;
  }
};

void BM_StationGridBuild(benchmark::State& st) {
  const GridInput in = hall();
  for (auto _ : st) {
    NavGrid g(in);
    benchmark::DoNotOptimize(g.cell_count());
  }
}
BENCHMARK(BM_StationGridBuild)->Unit(benchmark::kMillisecond);

void BM_StationGridFindPath(benchmark::State& st) {
  const NavGrid g(hall());
  const bool crowd_on = st.range(0) != 0;
  Lcg rng;
  std::vector<float> crowd(static_cast<std::size_t>(g.cell_count()), 0.0f);
  for (auto& c : crowd)
    if (rng.next() < 0.2f) c = 2.5f * rng.next();
  std::size_t points = 0;
  int64_t expanded = 0;
  for (auto _ : st) {
    const Vec2 a{0.5f + 99.0f * rng.next(), 0.5f + 59.0f * rng.next()};
    const Vec2 b{0.5f + 99.0f * rng.next(), 0.5f + 59.0f * rng.next()};
    const auto path = g.find_path(a, b, 0.25f, crowd_on ? &crowd : nullptr);
    points += path.size();
    expanded += g.last_stats().expanded;
    benchmark::DoNotOptimize(path.data());
  }
  st.SetItemsProcessed(st.iterations());
  st.counters["points"] = benchmark::Counter(static_cast<double>(points), benchmark::Counter::kAvgIterations);
  st.counters["expanded"] = benchmark::Counter(static_cast<double>(expanded), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_StationGridFindPath)->Arg(0)->Arg(1)->ArgName("crowd");

void BM_StationGridSegmentClear(benchmark::State& st) {
  const NavGrid g(hall());
  Lcg rng;
  int64_t clear = 0;
  for (auto _ : st) {
    const Vec2 a{0.5f + 99.0f * rng.next(), 0.5f + 59.0f * rng.next()};
    const Vec2 b{a.x + 6.0f * rng.next() - 3.0f, a.y + 6.0f * rng.next() - 3.0f};
    clear += g.segment_clear(a, b, 0.25f) ? 1 : 0;
  }
  benchmark::DoNotOptimize(clear);
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_StationGridSegmentClear);

}  // namespace
