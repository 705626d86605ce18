// lockstep export RUN.lsr --fields ...: per-tick values of chosen fields, re-simulated from a recording.
#include <algorithm>
#include <cstdio>
#include <string>
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
  // The columns: each --fields entry names one field (a plain path), or several (a struct: each
  // field under it; a glob, or a list: every field it matches that the state holds at --from). A
  // plain path that the state's type can hold but the state does not hold at a tick (an element of
  // a list that grows later: a walker that spawns later) prints an empty cell (CSV) or null (JSON
  // lines) there; one the type can never hold (a misspelt name) is refused.
  struct Column {
    std::string name;
    std::vector<lockstep::PathStep> steps;
  };
  std::vector<Column> cols;
  auto add = [&](const std::string& name) {
    for (const auto& c : cols)
      if (c.name == name) return;
    auto steps = lockstep::parse_path(name);
    if (!steps) throw lockstep::InputError(a.path, "--fields " + name, "not a field path");
    cols.push_back({name, std::move(*steps)});
  };
  const auto example = [&] {
    const auto leaves = m->leaves();
    return leaves.empty() ? std::string("none") : leaves.front().path;
  };
  const std::string at_from = "at tick " + std::to_string(m->tick());
  for (const auto& pat : a.fields) {
    const auto steps = lockstep::parse_path(pat);
    if (steps) {
      const auto found = m->find_leaf(*steps);
      if (found.status == lockstep::LeafLookup::Found || found.status == lockstep::LeafLookup::Absent) {
        add(pat);
        continue;
      }
      if (found.status == lockstep::LeafLookup::Never)
        throw lockstep::InputError(a.path, "--fields " + pat,
                                   "no such field in the " + m->info().name + " state (e.g. " + example() + "; `lockstep fields` lists them)");
      // A struct (walkers[40].pos: its x and y), held now or not yet: a column for each leaf under it.
      if (!found.under.empty()) {
        for (const auto& sub : found.under) add(pat + (sub.front() == '[' ? "" : ".") + sub);
        continue;
      }
    }
    // A glob, or a list: the fields it matches that the state holds at --from.
    bool any = false;
    for (const auto& l : m->leaves())
      if (lockstep::path_matches(pat, l.path)) {
        add(l.path);
        any = true;
      }
    if (!any)
      throw lockstep::InputError(a.path, "--fields " + pat,
                                 steps ? "names a struct or list that holds no field " + at_from + " (name a field under it, e.g. " + example() + ")"
                                       : "matches no field of the " + m->info().name + " state " + at_from + " (e.g. " + example() + ")");
  }
  const bool csv = a.format == "csv";
  if (csv) {
    std::printf("tick");
    for (const auto& c : cols) std::printf(",%s", c.name.c_str());
    std::printf("\n");
  }
  // Each column is looked up by its path at every tick, visiting only the fields on that path (a
  // state with lists changes its layout as it runs; listing every leaf every tick cost 100x replay).
  std::string row;  // a CSV row is built whole and written once (a write per cell cost more than the lookups)
  auto emit = [&] {
    if (csv) {
      row = std::to_string(m->tick());
      for (const auto& c : cols) {
        row += ',';
        const auto f = m->find_leaf(c.steps);
        if (f.status == lockstep::LeafLookup::Found) row += leaf_text(f.ref, a.hex);
      }
      row += '\n';
      std::fwrite(row.data(), 1, row.size(), stdout);
    } else {
      // One line per tick, written by the one JSON writer (a data stream, not a --json result: no envelope).
      JsonOut line = JsonOut::object();
      line["tick"] = m->tick();
      for (const auto& c : cols) {
        // A state field named "tick" (most models keep their tick count as one) must not overwrite the
        // row's own tick: it is written as "state.tick".
        auto& cell = line[c.name == "tick" ? std::string("state.tick") : c.name];
        const auto f = m->find_leaf(c.steps);
        if (f.status != lockstep::LeafLookup::Found) {
          cell = nullptr;
          continue;
        }
        const auto kind = f.ref.kind;
        // Floats (and 64-bit integers) as strings keep them exact: a JSON number may be read back as a
        // double and printed differently.
        const bool quote = a.hex || kind == lockstep::LeafKind::String || kind == lockstep::LeafKind::F32 ||
                           kind == lockstep::LeafKind::F64 || kind == lockstep::LeafKind::U64 || kind == lockstep::LeafKind::I64;
        const std::string t = leaf_text(f.ref, a.hex);
        cell = quote ? JsonOut(t) : JsonOut::parse(t);
      }
      print_json(line);
    }
  };
  emit();
  Progress progress("export", "tick", to > from ? to - from : 0, Progress::Data::Streamed);
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
                "Floats print as the shortest decimal that reads back to the same bits. A field the state does not\n"
                "hold at a tick (a walker that spawns later) prints an empty cell (CSV) or null (JSON lines).\n\n"
                "Exit 0 when every row is written, 2 for a damaged recording (after the rows before the damage), a\n"
                "field the model's state can never hold, or a bad range.");
  }
  int run() override { return cmd_export(a_); }

 private:
  ExportArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_export(CLI::App& app) { return std::make_unique<Export>(app); }

}  // namespace lockstep::cli
