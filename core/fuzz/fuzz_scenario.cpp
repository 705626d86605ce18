// libFuzzer target: scenario JSON for every model (docs/fuzzing.md). Text is
// parsed, the model its "model" key names is built, and it steps a few ticks
// with its own script. A finding is a crash, a sanitizer report, a hang, an
// out-of-memory, or an exception other than lockstep::InputError: a scenario
// that cannot be run must be refused with the file and its JSON path.
//
// Seeds: the bundled scenarios (tools/fuzz writes a dictionary of their keys).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "lockstep/models/bundled.h"
#include "lockstep/core/model.h"

using namespace lockstep;

#ifndef LOCKSTEP_FIXTURES_DIR
#error "LOCKSTEP_FIXTURES_DIR names the bundled fixtures (the seeds)"
#endif

namespace {
constexpr int kSteps = 12;
constexpr std::uintmax_t kMaxSeedBytes = 16384;  ///< larger scenarios step too slowly to fuzz

/// Seeds: the bundled scenarios up to 16 KiB; and DIR.dict, every key they use, for -dict.
int make_seeds(const std::string& dir) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  std::set<std::string> keys;
  int n = 0;
  for (const auto& e : fs::recursive_directory_iterator(LOCKSTEP_FIXTURES_DIR)) {
    if (!e.is_regular_file() || e.path().extension() != ".json" || e.file_size() > kMaxSeedBytes) continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    if (text.find("\"model\"") == std::string::npos) continue;
    std::ofstream(dir + "/" + e.path().parent_path().filename().string() + "-" + e.path().filename().string()) << text;
    ++n;
    for (std::size_t at = text.find('"'); at != std::string::npos; at = text.find('"', at + 1)) {
      const std::size_t end = text.find('"', at + 1);
      if (end == std::string::npos) break;
      if (text.compare(end + 1, 1, ":") == 0 && end - at < 40) keys.insert(text.substr(at, end - at + 1));
      at = end;
    }
  }
  std::ofstream dict(dir + ".dict");
  for (const auto& k : keys) {
    std::string esc;
    for (char c : k) esc += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    dict << '"' << esc << "\"\n";
  }
  std::printf("fuzz_scenario: %d seeds in %s, %zu keys in %s.dict\n", n, dir.c_str(), keys.size(), dir.c_str());
  return 0;
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  lockstep::register_bundled_models();
  if (*argc == 3 && std::strcmp((*argv)[1], "--make-seeds") == 0) std::exit(make_seeds((*argv)[2]));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::unique_ptr<Model> m;
  try {
    m = load_scenario_text(text, "fuzz.json");
  } catch (const InputError&) {
    return 0;
  }
  try {
    for (int k = 0; k < kSteps; ++k) m->step_scripted();
    (void)m->hashes();
    (void)m->snapshot();
  } catch (const InputError&) {
  }
  return 0;
}
