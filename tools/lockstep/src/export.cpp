// lockstep export RUN.lsr --fields ...: per-tick values of chosen fields, re-simulated from a recording.
#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include "lockstep/replay/replay.h"
#include "progress.h"

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/replay/lsr.h"

namespace lockstep::cli {

namespace {

struct ExportArgs {
  std::string path;
  std::vector<std::string> fields;
  std::string format = "csv";
  long long from = -1, to = -1;
  bool hex = false;
};

std::string leaf_text(lockstep::ConstLeafRef ref, bool hex) {
  const auto v = lockstep::read_leaf(ref);
  if (hex && (ref.kind == lockstep::LeafKind::F32 || ref.kind == lockstep::LeafKind::F64)) return lockstep::hex_bits(v);
  return v.text;
}

int cmd_export(const ExportArgs& a) {
  const auto r = lockstep::lsr::Recording::open(a.path);
  if (r.damage()) print_damage(r);
  const uint64_t end = r.first_tick() + r.ticks();
  const uint64_t from = a.from >= 0 ? static_cast<uint64_t>(a.from) : r.first_tick();
  const uint64_t to = a.to >= 0 ? std::min<uint64_t>(static_cast<uint64_t>(a.to), end) : end;
  check_tick_range(a.path, a.from, a.to);
  if (from > end)
    throw lockstep::InputError(a.path, "--from", "tick " + std::to_string(from) + " is past the recording's end (" + std::to_string(end) + ")");
  auto m = lockstep::replay::state_at(r, from);
  std::vector<std::size_t> pick;
  std::vector<std::string> names;
  {
    const auto leaves = m->leaves();
    for (std::size_t i = 0; i < leaves.size(); ++i)
      for (const auto& pat : a.fields)
        if (lockstep::path_matches(pat, leaves[i].path)) {
          pick.push_back(i);
          names.push_back(leaves[i].path);
          break;
        }
    for (const auto& pat : a.fields) {
      bool any = false;
      for (const auto& n : names) any = any || lockstep::path_matches(pat, n);
      if (!any) throw lockstep::InputError(a.path, "--fields " + pat, "matches no field of the " + m->info().name + " state (e.g. " + (leaves.empty() ? std::string("none") : leaves.front().path) + ")");
    }
  }
  const bool csv = a.format == "csv";
  if (csv) {
    std::printf("tick");
    for (const auto& n : names) std::printf(",%s", n.c_str());
    std::printf("\n");
  }
  // A state with vectors (station's walkers) changes its leaf list as it runs: columns are found again by
  // path at every tick, and a field that is gone at a tick (or not there yet) prints empty.
  std::unordered_map<std::string, std::size_t> at;
  auto emit = [&] {
    const auto leaves = m->leaves();
    at.clear();
    for (std::size_t i = 0; i < leaves.size(); ++i) at.emplace(leaves[i].path, i);
    for (std::size_t k = 0; k < names.size(); ++k) {
      const auto it = at.find(names[k]);
      pick[k] = it == at.end() ? SIZE_MAX : it->second;
    }
    if (csv) {
      std::printf("%llu", static_cast<unsigned long long>(m->tick()));
      for (auto i : pick) std::printf(",%s", i < leaves.size() ? leaf_text(leaves[i].ref, a.hex).c_str() : "");
      std::printf("\n");
    } else {
      // One line per tick, written by the one JSON writer (a data stream, not a --json result: no envelope).
      JsonOut line = JsonOut::object();
      line["tick"] = m->tick();
      for (std::size_t k = 0; k < pick.size(); ++k) {
        const auto i = pick[k];
        if (i >= leaves.size()) continue;
        const auto kind = leaves[i].ref.kind;
        // Floats (and 64-bit integers) as strings keep them exact: a JSON number may be read back as a
        // double and printed differently.
        const bool quote = a.hex || kind == lockstep::LeafKind::String || kind == lockstep::LeafKind::F32 ||
                           kind == lockstep::LeafKind::F64 || kind == lockstep::LeafKind::U64 || kind == lockstep::LeafKind::I64;
        const std::string t = leaf_text(leaves[i].ref, a.hex);
        // A state field named "tick" (most models keep their tick count as one) must not overwrite the
        // row's own tick: it is written as "state.tick".
        line[names[k] == "tick" ? std::string("state.tick") : names[k]] = quote ? JsonOut(t) : JsonOut::parse(t);
      }
      print_json(line);
    }
  };
  emit();
  Progress progress("export", "tick", to > from ? to - from : 0);
  uint64_t done = 0;
  r.scan(from, to, [&](const lockstep::lsr::TickRecord& t) {
    m->step(t.input, a.path + " tick " + std::to_string(t.tick));
    emit();
    progress.update(++done);
  }, nullptr);
  return r.damage() ? kExitBadInput : kExitOk;
}

class Export final : public Command {
 public:
  explicit Export(CLI::App& app) {
    sub = app.add_subcommand("export", "Per-tick values of chosen fields, re-simulated from a recording");
    add_recording_arg(sub, a_.path);
    sub->add_option("--fields,-f", a_.fields, "Field paths or globs: entities[*].position, entities[3].yaw, rng, **.hitwall")
        ->required();
    sub->add_option("--format", a_.format, "csv or jsonl")->check(CLI::IsMember({"csv", "jsonl"}));
    add_tick_range(sub, a_.from, a_.to, "First tick", "Last tick (inclusive)");
    sub->add_flag("--hex", a_.hex, "Floats as hex bits (0x3f800000) instead of shortest exact decimals");
    sub->footer("\nExample:\n  lockstep export yard.lsr --fields 'entities[0].position' entities[0].forcemove --from 100 --to 200\n"
                "Floats print as the shortest decimal that reads back to the same bits.");
  }
  int run() override { return cmd_export(a_); }

 private:
  ExportArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_export(CLI::App& app) { return std::make_unique<Export>(app); }

}  // namespace lockstep::cli
