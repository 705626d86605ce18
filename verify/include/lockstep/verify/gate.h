// The CI gate: bundled scenarios against golden recordings (docs/verify.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lockstep/core/reflect.h"

namespace lockstep::verify {

struct GateScenario {
  std::string scenario;  ///< scenario JSON, relative to the gate file's folder (or absolute)
  uint64_t ticks = 0;    ///< 0: the scenario's own "ticks"
  std::string golden;    ///< the golden recording (.lsr), relative to the gate file's folder
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"scenario"}, s.scenario);
    v(FieldInfo{"ticks"}, s.ticks);
    v(FieldInfo{"golden"}, s.golden);
  }
};

struct GateFile {
  std::string name = "lockstep gate";
  uint32_t keyframe_every = 600;  ///< keyframes in golden recordings (they show the fields of a failure)
  std::vector<GateScenario> scenarios;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"name"}, s.name);
    v(FieldInfo{"keyframe_every"}, s.keyframe_every);
    v(FieldInfo{"scenarios"}, s.scenarios);
  }
};

struct GateOptions {
  bool update = false;      ///< write golden recordings that are missing or differ
  uint32_t shard = 1;       ///< run the scenarios i with i % shards == shard - 1
  uint32_t shards = 1;
  std::string keep;         ///< when set, a folder: each failing run's recording is kept there (and named)
  std::function<void(const std::string&)> log;  ///< one line per scenario as it finishes
};

struct GateCase {
  std::string name;     ///< the scenario path as the gate file gives it
  bool passed = false;
  bool updated = false;  ///< --update wrote its golden recording
  bool errored = false;  ///< bad input (the scenario, the golden): the case could not be judged
  double seconds = 0;
  uint64_t ticks = 0;
  std::string message;  ///< the failure, or what --update did
  std::string report;   ///< the divergence report (lockstep diff's), when it failed
  std::string kept;     ///< the failing run's recording, when GateOptions::keep asked for it
};

/// Read and check a gate file; errors are InputError naming the JSON path.
GateFile load_gate(const std::string& path);
/// Run a gate. InputError for a bad gate file; a scenario that does not load or a damaged golden
/// is an errored case (the rest still run).
std::vector<GateCase> run_gate(const std::string& path, const GateOptions& opt);
/// JUnit XML of a gate's results: one test case per scenario.
std::string junit_xml(const std::string& suite, const std::vector<GateCase>& cases);

}  // namespace lockstep::verify
