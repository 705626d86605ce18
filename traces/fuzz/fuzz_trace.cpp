// libFuzzer target for traces and maps (docs/traces.md, "Fuzzing"): a map's
// JSON and a trace's bytes, bound to a small bundled scenario and verified. A
// finding is a crash, a sanitizer report, a leak, a hang, or an exception
// other than lockstep::InputError.
//
// An input is the map's JSON, a NUL byte, then the trace (CSV, or JSON lines
// when it starts with `{`: the trace is read from a file without an
// extension, so the format comes from its content). The map is bound to
// fixtures/traces/wander_setup.json (one NPC, 230 ticks: verify steps at most
// that many); the map's own "scenario" is only parsed. Then verify_trace
// runs, and both reports are made of its result. (The warriors runtime case
// would reach other leaf kinds, but its 28,000 leaves listed for every row
// make a run take seconds under the sanitizers.)
//
// The fixtures come from $LOCKSTEP_FIXTURES_DIR, else the compile definition
// LOCKSTEP_FIXTURES_DIR. The ordinary build makes it in build/fuzz (cmake/fuzz.cmake); tools/fuzz runs
// it (docs/fuzzing.md), or by hand, in build/fuzz:
//
//   ./fuzz_trace --make-seeds seeds && ./fuzz_trace -max_total_time=300 corpus seeds
//
// Besides the libFuzzer flags, the binary takes (as its first argument):
//   --make-seeds DIR   write seed inputs made from the bundled reference traces
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "lockstep/models/bundled.h"
#include "lockstep/core/model.h"
#include "lockstep/traces/trace.h"

using namespace lockstep;
using namespace lockstep::traces;

namespace {

std::string fixtures_dir() {
  const char* env = std::getenv("LOCKSTEP_FIXTURES_DIR");
  if (env && *env) return env;
#ifdef LOCKSTEP_FIXTURES_DIR
  return LOCKSTEP_FIXTURES_DIR;
#else
  std::fprintf(stderr, "fuzz_trace: set LOCKSTEP_FIXTURES_DIR to the fixtures folder\n");
  std::exit(2);
#endif
}

std::string read_file(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz_trace: cannot read %s\n", p.c_str());
    std::exit(2);
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const Model& scenario() {
  static const std::unique_ptr<Model> m = load_scenario_file(fixtures_dir() + "/traces/wander_setup.json");
  return *m;
}

/// The trace's bytes in a file in memory, named by its /proc path (no extension).
class MemFile {
 public:
  MemFile() {
    fd_ = ::memfd_create("fuzz-trace", 0);
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::exit(2);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  void set(const uint8_t* data, std::size_t size) {
    if (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) != 0) std::abort();
    while (size > 0) {
      const ssize_t n = ::write(fd_, data, size);
      if (n <= 0) std::abort();
      data += n;
      size -= static_cast<std::size_t>(n);
    }
  }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

void make_seeds(const std::string& dir) {
  std::filesystem::create_directories(dir);
  const std::string fx = fixtures_dir() + "/traces/";
  const struct {
    const char* name;
    const char* map;
    const char* trace;
  } seeds[] = {
      {"wander-csv", "wander_setup.map.json", "wander_setup.csv"},
      {"wander-jsonl", "wander_setup.map.json", "wander_setup.jsonl"},
      {"wander-ulp", "wander_setup.map.json", "wander_setup.ulp.csv"},
      {"wander-count", "wander_setup.map.json", "wander_setup.count.csv"},
  };
  for (const auto& s : seeds) {
    std::ofstream(dir + "/" + s.name, std::ios::binary) << read_file(fx + s.map) << '\0' << read_file(fx + s.trace);
  }
  // Shorter ones: maps with every kind of key, a few rows.
  std::ofstream(dir + "/keys", std::ios::binary)
      << R"({"model": "wander", "scenario": "x.json", "ticks_per_step": 2, "tick_offset": 1, "first_step": 0, "last_step": 50,
  "ignore": ["clip*", "gait"], "capture": {"counter_address": "0x005104f4", "counter_type": "u32", "ticks_per_update": 2},
  "columns": [{"column": "ac", "field": "entities[0].actioncooldown", "type": "f32", "tolerance": {"abs": 1e-3, "modulo": "2pi"}},
              {"column": "yaw", "address": "0x00714b10", "field": "entities[0].yaw", "type": "f64", "scale": "deg_to_rad", "offset": 0.5,
               "tolerance": {"ulps": 4}},
              {"column": "tries", "field": "entities[0].trycount", "type": "i16"},
              {"column": "on", "field": "entities[0].onground", "type": "bool"}]})"
      << '\0' << "step,ac,yaw,tries,on,clip_a,gait\n0,119,0x4000000000000000,0,1,x,y\n1,\"117\",,0,true,,\n# c\n\n9,101,1e-3,0xff,0,,\r\n";
  std::ofstream(dir + "/keys-jsonl", std::ios::binary)
      << R"({"model": "wander", "ignore": ["x*"], "columns": [{"column": "ac", "field": "entities[0].actioncooldown", "type": "f32"},
  {"column": "t", "field": "tick", "type": "u64"}]})"
      << '\0' << "{\"step\":0,\"ac\":\"0x42f00000\",\"t\":0,\"x1\":[1,{}]}\n{\"step\":3,\"ac\":null,\"t\":3}\n\n{\"step\":4,\"ac\":116,\"t\":4.0}\n";
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  lockstep::register_bundled_models();
  if (*argc >= 3 && std::strcmp((*argv)[1], "--make-seeds") == 0) {
    make_seeds((*argv)[2]);
    std::exit(0);
  }
  (void)scenario();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static MemFile trace;
  const auto* nul = static_cast<const uint8_t*>(std::memchr(data, 0, size));
  const std::size_t map_size = nul ? static_cast<std::size_t>(nul - data) : size;
  const std::string map_text(reinterpret_cast<const char*>(data), map_size);
  if (nul)
    trace.set(nul + 1, size - map_size - 1);
  else
    trace.set(data, 0);
  try {
    const Map map = parse_map(parse_json_text(map_text, "fuzz.map.json"), "fuzz.map.json", "/fuzz");
    std::unique_ptr<Model> model = scenario().clone();
    VerifyResult r = verify_trace(*model, trace.path(), map);
    r.scenario = "fuzz scenario";
    const std::string text = report_text(r),
                      json = report_json(r).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    // The JSON report must be JSON (a failure here is a finding, not bad input).
    Json parsed;
    JsonSyntaxError err;
    if (!try_parse_json(json, parsed, err) || !parsed.is_object() || text.empty()) {
      std::fprintf(stderr, "fuzz_trace: FINDING: the JSON report does not parse (%s at byte %zu):\n%s\n", err.what.c_str(), err.byte,
                   json.c_str());
      std::abort();
    }
  } catch (const InputError&) {
    // Expected: bad input named with its place.
  }
  return 0;
}
