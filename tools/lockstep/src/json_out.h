// The one JSON writer of the command line: every `--json` result is one object on one line of
// stdout, built with nlohmann's ordered_json (keys in the order written), and starts with the
// same two keys:
//   "schema"  "lockstep.<command>/<version>": what the rest of the object holds (docs/cli.md)
//   "ok"      true when the command passed (exit 0), false when it found a divergence or damage
// A tool can read any command's result the same way and check "ok" without knowing the command.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace lockstep {
class Model;
}

namespace lockstep::cli {

using JsonOut = nlohmann::ordered_json;

/// The version of every command's result layout: raised when a key changes meaning or goes.
constexpr int kJsonSchemaVersion = 1;

/// {"schema": "lockstep.<command>/1", "ok": ok}: add the command's own keys after these.
JsonOut json_result(const std::string& command, bool ok);
/// The model's state after its last step, as `run` and `record` give it: "ticks", "final_hash",
/// "model", "model_version" and "subsystems" (each subsystem's hash by name).
void add_state_hashes(JsonOut& j, const Model& m);
/// Print the object on one line of stdout.
void print_json(const JsonOut& j);
/// A value or null.
inline JsonOut json_or_null(const std::optional<uint64_t>& v) { return v ? JsonOut(*v) : JsonOut(nullptr); }

}  // namespace lockstep::cli
