#include "json_out.h"

#include <cstdio>

#include "lockstep/core/model.h"
#include "lockstep/core/hash.h"

namespace lockstep::cli {

JsonOut json_result(const std::string& command, bool ok) {
  JsonOut j = JsonOut::object();
  j["schema"] = "lockstep." + command + "/" + std::to_string(kJsonSchemaVersion);
  j["ok"] = ok;
  return j;
}

void add_state_hashes(JsonOut& j, const Model& m) {
  const auto h = m.hashes();
  const auto& info = m.info();
  j["ticks"] = m.tick();
  j["final_hash"] = hex64(h.whole);
  j["model"] = info.name;
  j["model_version"] = info.version;
  JsonOut subs = JsonOut::object();
  for (uint32_t i = 0; i < h.count; ++i) subs[info.subsystems[i]] = hex64(h.sub[i]);
  j["subsystems"] = subs;
}

void print_json(const JsonOut& j) {
  // Invalid UTF-8 in a string (a path, a message quoting a damaged file) is replaced, never thrown on.
  const std::string text = j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
}

}  // namespace lockstep::cli
