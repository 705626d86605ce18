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
  /// The golden manifest (a text file, relative to the gate file's folder): one line per golden recording
  /// saying what it holds. Empty: no manifest (docs/verify.md, "The golden manifest").
  std::string manifest;
  std::vector<GateScenario> scenarios;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"name"}, s.name);
    v(FieldInfo{"keyframe_every"}, s.keyframe_every);
    v(FieldInfo{"manifest"}, s.manifest);
    v(FieldInfo{"scenarios"}, s.scenarios);
  }
};

/// One line of a golden manifest: what a golden recording holds. Tab-separated, in this order.
struct ManifestLine {
  std::string golden;    ///< the golden recording's path as the gate file gives it (the line's key)
  std::string scenario;  ///< the scenario's path as the gate file gives it
  uint64_t ticks = 0;
  std::string model;
  uint32_t model_version = 0;
  std::string final_hash;  ///< the whole-state hash after the last tick, 16 hex digits
  std::string revision;    ///< the source revision of the build that made the golden (its header's)
  std::size_t line = 0;    ///< 1-based line number in the manifest (0: not read from a file)
  std::string text() const;  ///< the line as written (tab-separated, no newline)
};

/// The manifest line describing a golden recording (its header and last tick), for the gate file's `golden`
/// and `scenario` paths. InputError when the recording is damaged.
ManifestLine describe_golden(const std::string& golden_file, const std::string& golden, const std::string& scenario);

struct GateOptions {
  bool update = false;      ///< write golden recordings that are missing or differ (and their manifest lines)
  bool update_all = false;  ///< rewrite every golden recording from this build, even when its behaviour is the same
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
  std::string expected;  ///< the case's manifest line, "MANIFEST:N: line", logged before the case runs
};

/// Read and check a gate file; errors are InputError naming the JSON path.
GateFile load_gate(const std::string& path);
/// Run a gate. InputError for a bad gate file; a scenario that does not load or a damaged golden
/// is an errored case (the rest still run).
std::vector<GateCase> run_gate(const std::string& path, const GateOptions& opt);
/// JUnit XML of a gate's results: one test case per scenario. A shard (shards > 1) is named in the test
/// suite's name ("NAME (shard 2/4)") and its properties (shard, shards).
std::string junit_xml(const std::string& suite, const std::vector<GateCase>& cases, uint32_t shard = 1, uint32_t shards = 1);

}  // namespace lockstep::verify
