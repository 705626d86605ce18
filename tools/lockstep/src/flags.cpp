// The flags several commands share, and the output helpers they share.
#include <cstdio>

#include "command.h"
#include "lockstep/replay/lsr.h"

namespace lockstep::cli {

CLI::Option* add_scenario_arg(CLI::App* sub, std::string& path) {
  return sub->add_option("scenario", path, "A scenario JSON file (its \"model\" key picks the model)")
      ->required()
      ->check(CLI::ExistingFile);
}

CLI::Option* add_recording_arg(CLI::App* sub, std::string& path) {
  return sub->add_option("recording", path, "A .lsr recording")->required()->check(CLI::ExistingFile);
}

CLI::Option* add_ticks_option(CLI::App* sub, long long& ticks) {
  return sub->add_option("--ticks,-n", ticks, "How many ticks to step (default: the scenario's \"ticks\")")
      ->check(CLI::NonNegativeNumber);
}

CLI::Option* add_output_option(CLI::App* sub, std::string& path, const std::string& what) {
  return sub->add_option("-o,--output", path, what);
}

void add_tick_range(CLI::App* sub, long long& from, long long& to, const std::string& from_what, const std::string& to_what) {
  sub->add_option("--from", from, from_what)->check(CLI::NonNegativeNumber);
  sub->add_option("--to", to, to_what)->check(CLI::NonNegativeNumber);
}

CLI::Option* add_json_flag(CLI::App* sub, bool& json) {
  return sub->add_flag("--json", json, "Print the result as JSON, for tools");
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string o;
  for (const auto& s : v) o += (o.empty() ? "" : sep) + s;
  return o;
}

void print_damage(const lsr::Recording& r) {
  if (!r.damage()) return;
  const auto& d = *r.damage();
  std::fprintf(stderr, "lockstep: %s: byte %llu, %s: %s [%s, %s]\n", r.source().c_str(), static_cast<unsigned long long>(d.offset),
               d.where.c_str(), d.what.c_str(), d.kind.c_str(), d.truncated ? "cut off" : "a wrong byte");
  std::fprintf(stderr, "lockstep: %s: %llu complete ticks recovered (%llu chunks, %llu keyframes) before the damage\n",
               r.source().c_str(), static_cast<unsigned long long>(r.ticks()),
               static_cast<unsigned long long>(r.chunk_count()), static_cast<unsigned long long>(r.keyframe_count()));
}

uint64_t ticks_or(long long given, uint64_t model_default) {
  return given >= 0 ? static_cast<uint64_t>(given) : model_default;
}

}  // namespace lockstep::cli
