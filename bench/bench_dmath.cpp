// Benchmarks: ns per call of lockstep::dmath versus the platform's std::
// functions (which are NOT deterministic across platforms; shown only for
// scale). bench/main.cpp is the main (no BENCHMARK_MAIN here).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "lockstep/core/angle.h"
#include "lockstep/core/dmath.h"

namespace {

namespace dm = lockstep::dmath;

constexpr std::size_t kN = 4096;  // inputs per batch; fits in L1

// Deterministic inputs uniform in [lo, hi] (splitmix64).
std::vector<float> inputs(double lo, double hi, std::uint64_t seed) {
  std::vector<float> v(kN);
  std::uint64_t s = seed;
  for (float& x : v) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const double u = static_cast<double>(z >> 11) * 0x1p-53;
    x = static_cast<float>(lo + (hi - lo) * u);
  }
  return v;
}

template <class F>
void run_unary(benchmark::State& state, const std::vector<float>& in, F f) {
  for (auto _ : state) {
    for (const float x : in) {
      benchmark::DoNotOptimize(f(x));
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(in.size()));
}

const std::vector<float>& small_angles() {
  static const std::vector<float> v = inputs(-6.3, 6.3, 1);  // typical headings
  return v;
}
const std::vector<float>& large_angles() {
  static const std::vector<float> v = inputs(-1e30, 1e30, 2);  // Payne-Hanek path
  return v;
}
const std::vector<float>& unit_interval() {
  static const std::vector<float> v = inputs(-1.0, 1.0, 3);
  return v;
}
const std::vector<float>& wide() {
  static const std::vector<float> v = inputs(-100.0, 100.0, 4);
  return v;
}

void BM_dmath_sin(benchmark::State& s) { run_unary(s, small_angles(), [](float x) { return dm::sin(x); }); }
void BM_std_sin(benchmark::State& s) { run_unary(s, small_angles(), [](float x) { return std::sin(x); }); }
void BM_dmath_sin_huge(benchmark::State& s) { run_unary(s, large_angles(), [](float x) { return dm::sin(x); }); }
void BM_std_sin_huge(benchmark::State& s) { run_unary(s, large_angles(), [](float x) { return std::sin(x); }); }
void BM_dmath_cos(benchmark::State& s) { run_unary(s, small_angles(), [](float x) { return dm::cos(x); }); }
void BM_std_cos(benchmark::State& s) { run_unary(s, small_angles(), [](float x) { return std::cos(x); }); }
void BM_dmath_tan(benchmark::State& s) { run_unary(s, small_angles(), [](float x) { return dm::tan(x); }); }
void BM_std_tan(benchmark::State& s) { run_unary(s, small_angles(), [](float x) { return std::tan(x); }); }
void BM_dmath_asin(benchmark::State& s) { run_unary(s, unit_interval(), [](float x) { return dm::asin(x); }); }
void BM_std_asin(benchmark::State& s) { run_unary(s, unit_interval(), [](float x) { return std::asin(x); }); }
void BM_dmath_acos(benchmark::State& s) { run_unary(s, unit_interval(), [](float x) { return dm::acos(x); }); }
void BM_std_acos(benchmark::State& s) { run_unary(s, unit_interval(), [](float x) { return std::acos(x); }); }
void BM_dmath_atan(benchmark::State& s) { run_unary(s, wide(), [](float x) { return dm::atan(x); }); }
void BM_std_atan(benchmark::State& s) { run_unary(s, wide(), [](float x) { return std::atan(x); }); }
void BM_dmath_sqrt(benchmark::State& s) { run_unary(s, wide(), [](float x) { return dm::sqrt(x < 0.0f ? -x : x); }); }
void BM_std_sqrt(benchmark::State& s) { run_unary(s, wide(), [](float x) { return std::sqrt(x < 0.0f ? -x : x); }); }
// exp over the station force law's arguments (gap / range: a gap of up to 1 m at 0.08 m).
const std::vector<float>& force_args() {
  static const std::vector<float> v = inputs(-12.5, 0.0, 5);
  return v;
}
void BM_dmath_exp(benchmark::State& s) { run_unary(s, force_args(), [](float x) { return dm::exp(x); }); }
void BM_dmath_exp_reference(benchmark::State& s) { run_unary(s, force_args(), [](float x) { return dm::exp_reference(x); }); }
void BM_std_exp(benchmark::State& s) { run_unary(s, force_args(), [](float x) { return std::exp(x); }); }
void BM_angle_wrap_pi(benchmark::State& s) { run_unary(s, wide(), [](float x) { return lockstep::angle::wrap_pi(x); }); }

void BM_dmath_sincos(benchmark::State& state) {
  const auto& in = small_angles();
  for (auto _ : state) {
    for (const float x : in) {
      float sv = 0.0f;
      float cv = 0.0f;
      dm::sincos(x, &sv, &cv);
      benchmark::DoNotOptimize(sv);
      benchmark::DoNotOptimize(cv);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(in.size()));
}

void atan2_loop(benchmark::State& state, int which) {
  const auto& ys = wide();
  const auto xs = inputs(-100.0, 100.0, 5);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kN; ++i) {
      if (which == 1) {
        benchmark::DoNotOptimize(dm::atan2(ys[i], xs[i]));
      } else if (which == 2) {
        benchmark::DoNotOptimize(dm::atan2_fast(ys[i], xs[i]));
      } else {
        benchmark::DoNotOptimize(std::atan2(ys[i], xs[i]));
      }
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(kN));
}
void BM_dmath_atan2(benchmark::State& s) { atan2_loop(s, 1); }
void BM_dmath_atan2_fast(benchmark::State& s) { atan2_loop(s, 2); }
void BM_std_atan2(benchmark::State& s) { atan2_loop(s, 0); }

}  // namespace

BENCHMARK(BM_dmath_sin);
BENCHMARK(BM_std_sin);
BENCHMARK(BM_dmath_sin_huge);
BENCHMARK(BM_std_sin_huge);
BENCHMARK(BM_dmath_cos);
BENCHMARK(BM_std_cos);
BENCHMARK(BM_dmath_sincos);
BENCHMARK(BM_dmath_tan);
BENCHMARK(BM_std_tan);
BENCHMARK(BM_dmath_asin);
BENCHMARK(BM_std_asin);
BENCHMARK(BM_dmath_acos);
BENCHMARK(BM_std_acos);
BENCHMARK(BM_dmath_atan);
BENCHMARK(BM_std_atan);
BENCHMARK(BM_dmath_atan2);
BENCHMARK(BM_dmath_atan2_fast);
BENCHMARK(BM_std_atan2);
BENCHMARK(BM_dmath_sqrt);
BENCHMARK(BM_std_sqrt);
BENCHMARK(BM_dmath_exp);
BENCHMARK(BM_dmath_exp_reference);
BENCHMARK(BM_std_exp);
BENCHMARK(BM_angle_wrap_pi);
