// The flags several commands share, and the output helpers they share.
#include <cstdio>
#include <string>

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

CLI::Validator tick_count() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        // Digits only (no sign, no spaces), at most ten of them, then the bound.
        if (v.empty() || v.size() > 10 || v.find_first_not_of("0123456789") != std::string::npos || std::stoull(v) > kMaxTicks)
          return "expected a whole number of ticks from 0 to " + std::to_string(kMaxTicks) + " (what a recording can hold), got '" + v + "'";
        return {};
      },
      "TICKS");
}

CLI::Option* add_ticks_option(CLI::App* sub, long long& ticks) {
  return sub->add_option("--ticks,-n", ticks, "How many ticks to step (default: the scenario's \"ticks\")")->check(tick_count());
}

CLI::Option* add_threads_option(CLI::App* sub, unsigned& threads) {
  return sub
      ->add_option("--threads", threads,
                   "Threads to step on, for a model that can use several (default 0: every core); the same "
                   "results on any number")
      ->check(CLI::Range(0u, 256u));
}

CLI::Option* add_output_option(CLI::App* sub, std::string& path, const std::string& what) {
  return sub->add_option("-o,--output", path, what);
}

void add_tick_range(CLI::App* sub, long long& from, long long& to, const std::string& from_what, const std::string& to_what) {
  sub->add_option("--from", from, from_what)->check(tick_count());
  sub->add_option("--to", to, to_what)->check(tick_count());
}

void check_tick_range(const std::string& file, long long from, long long to) {
  if (from >= 0 && to >= 0 && from > to)
    throw lockstep::InputError(file, "--from " + std::to_string(from) + " --to " + std::to_string(to),
                               "the range is empty: --from is after --to (both are inclusive)");
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
