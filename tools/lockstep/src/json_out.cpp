#include "json_out.h"

#include <cstdio>

namespace lockstep::cli {

JsonOut json_result(const std::string& command, bool ok) {
  JsonOut j = JsonOut::object();
  j["schema"] = "lockstep." + command + "/" + std::to_string(kJsonSchemaVersion);
  j["ok"] = ok;
  return j;
}

void print_json(const JsonOut& j) {
  // Invalid UTF-8 in a string (a path, a message quoting a damaged file) is replaced, never thrown on.
  const std::string text = j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
}

}  // namespace lockstep::cli
