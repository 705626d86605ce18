// lockstep inspect RUN.lsr: a recording's header, build, ticks, chunks, keyframes, sizes and damage.
#include <cmath>
#include <cstdio>
#include "lockstep/replay/replay.h"

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/replay/lsr.h"

namespace lockstep::cli {

namespace {

struct InspectArgs {
  std::string path;
  bool json = false;
};

int cmd_inspect(const InspectArgs& a) {
  const std::string& path = a.path;
  const bool json = a.json;
  const auto r = lockstep::lsr::Recording::open(path);
  const auto inputs = lockstep::replay::check_inputs(r);
  const bool bad = r.damage() || inputs.error;
  const auto& h = r.header();
  uint64_t compressed = 0;
  for (const auto& c : r.frames()) compressed += c.compressed;
  const double ratio = compressed ? static_cast<double>(r.raw_bytes()) / static_cast<double>(compressed) : 0.0;
  if (json) {
    JsonOut j = json_result("inspect", !bad);
    j["recording"] = path;
    j["format"] = std::to_string(h.major) + "." + std::to_string(h.minor);
    j["model"] = h.model;
    j["model_version"] = h.model_version;
    j["tick_rate_hz"] = h.tick_rate_hz;
    j["seed"] = h.seed;
    j["first_tick"] = h.first_tick;
    j["ticks"] = r.ticks();
    j["chunks"] = r.chunk_count();
    j["keyframes"] = r.keyframe_count();
    j["chunk_ticks"] = h.chunk_ticks;
    j["keyframe_every"] = h.keyframe_every;
    j["subsystem_hash_bytes"] = h.sub_hash_bytes;
    j["subsystems"] = h.subsystems;
    j["build"] = JsonOut{{"compiler", h.build.compiler}, {"flags", h.build.flags}, {"arch", h.build.arch},
                         {"revision", h.build.revision}, {"fp_env", h.build.fp_env}};
    j["file_bytes"] = r.file_bytes();
    j["raw_bytes"] = r.raw_bytes();
    j["compression_ratio"] = std::round(ratio * 1000.0) / 1000.0;
    j["index"] = r.index_used();
    if (r.damage())
      j["damage"] = JsonOut{{"offset", r.damage()->offset}, {"kind", r.damage()->kind}, {"where", r.damage()->where},
                            {"what", r.damage()->what}, {"truncated", r.damage()->truncated}};
    else
      j["damage"] = nullptr;
    j["inputs"] = JsonOut{{"checked", inputs.checked}, {"stored", inputs.stored},
                          {"error", inputs.error ? JsonOut(*inputs.error) : JsonOut(nullptr)}};
    print_json(j);
    return bad ? kExitBadInput : kExitOk;
  }
  std::printf("recording   %s\n", path.c_str());
  std::printf("format      %u.%u\n", h.major, h.minor);
  std::printf("model       %s v%u at %u Hz, seed %llu\n", h.model.c_str(), h.model_version, h.tick_rate_hz,
              static_cast<unsigned long long>(h.seed));
  std::printf("build       %s, %s, revision %s\n", h.build.compiler.c_str(), h.build.arch.c_str(), h.build.revision.c_str());
  std::printf("fp mode     %s\n", h.build.fp_env.empty() ? "not recorded (format 1.0)" : h.build.fp_env.c_str());
  std::printf("flags       %s\n", h.build.flags.c_str());
  std::printf("ticks       %llu (from tick %llu, %.2f s of game time)\n", static_cast<unsigned long long>(r.ticks()),
              static_cast<unsigned long long>(h.first_tick), h.tick_rate_hz ? static_cast<double>(r.ticks()) / h.tick_rate_hz : 0.0);
  std::printf("chunks      %llu of up to %u ticks; %llu keyframes, one every %u ticks\n",
              static_cast<unsigned long long>(r.chunk_count()), h.chunk_ticks,
              static_cast<unsigned long long>(r.keyframe_count()), h.keyframe_every);
  std::printf("subsystems  %s (%u bytes of each hash per tick)\n", join(h.subsystems).c_str(), h.sub_hash_bytes);
  std::printf("size        %llu bytes on disk, %llu raw, compression %.2fx; %.1f bytes per tick with keyframes\n",
              static_cast<unsigned long long>(r.file_bytes()), static_cast<unsigned long long>(r.raw_bytes()), ratio,
              r.ticks() ? static_cast<double>(r.file_bytes()) / static_cast<double>(r.ticks()) : 0.0);
  std::printf("index       %s\n", r.index_used() ? "present" : "absent: chunks found by walking the frames");
  if (!inputs.checked)
    std::printf("inputs      not checked: %s\n", inputs.note.c_str());
  else if (inputs.error)
    std::printf("inputs      BAD: %s\n", inputs.error->c_str());
  else
    std::printf("inputs      %llu stored, each decodes and is finite\n", static_cast<unsigned long long>(inputs.stored));
  if (inputs.error) std::fprintf(stderr, "lockstep: %s\n", inputs.error->c_str());
  if (r.damage()) {
    std::printf("damage      byte %llu, %s: %s [%s, %s]\n", static_cast<unsigned long long>(r.damage()->offset),
                r.damage()->where.c_str(), r.damage()->what.c_str(), r.damage()->kind.c_str(),
                r.damage()->truncated ? "cut off" : "a wrong byte");
    print_damage(r);
    return kExitBadInput;
  }
  std::printf("damage      none\n");
  return bad ? kExitBadInput : kExitOk;
}

class Inspect final : public Command {
 public:
  explicit Inspect(CLI::App& app) {
    sub = app.add_subcommand("inspect", "Show a recording's header, build, ticks, chunks, keyframes, sizes and damage");
    add_recording_arg(sub, a_.path);
    add_json_flag(sub, a_.json);
    sub->footer("\nExample:\n  lockstep inspect yard.lsr\n"
                "Keyframes counts the full-state snapshots the file holds: the first state's, then one every\n"
                "keyframe_every ticks (a 600-tick run with one every 60 holds 11); replay checks each of them.\n\n"
                "Exit 0 for a whole recording, 2 for a damaged or unreadable one (where and what the damage is,\n"
                "and how many ticks come before it) or one with an input its model cannot step.");
  }
  int run() override { return cmd_inspect(a_); }

 private:
  InspectArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_inspect(CLI::App& app) { return std::make_unique<Inspect>(app); }

}  // namespace lockstep::cli
