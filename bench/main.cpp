// The benchmarks' main: the bundled models registered (scenarios are loaded by name), then
// Google Benchmark's own (JSON with --benchmark_format=json; tools/dev bench).
#include <benchmark/benchmark.h>

#include "lockstep/models/bundled.h"

int main(int argc, char** argv) {
  lockstep::register_bundled_models();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
