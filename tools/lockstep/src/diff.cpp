// lockstep diff A.lsr B.lsr: the first divergent tick, subsystem and field of two recordings.
#include <cctype>
#include <cstdio>
#include <fstream>
#include "lockstep/verify/rundiff.h"

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/replay/lsr.h"

namespace lockstep::cli {

namespace {

struct DiffArgs {
  std::string a, b;
  bool all = false, json = false;
  std::vector<std::string> ignore;
  std::string ignore_file;
};

int cmd_diff(DiffArgs a) {
  if (!a.ignore_file.empty()) {
    std::ifstream in(a.ignore_file);
    if (!in) throw lockstep::InputError(a.ignore_file, "", "cannot open the ignore list");
    std::string line;
    while (std::getline(in, line)) {
      const auto hash = line.find('#');
      if (hash != std::string::npos) line.resize(hash);
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
      std::size_t s = 0;
      while (s < line.size() && std::isspace(static_cast<unsigned char>(line[s]))) ++s;
      if (s < line.size()) a.ignore.push_back(line.substr(s));
    }
  }
  const auto ra = lockstep::lsr::Recording::open(a.a);
  const auto rb = lockstep::lsr::Recording::open(a.b);
  for (const auto* r : {&ra, &rb})
    if (r->damage()) print_damage(*r);
  lockstep::verify::DiffOptions opt;
  opt.all = a.all;
  opt.ignore = a.ignore;
  const auto d = lockstep::verify::diff_recordings(ra, rb, opt);
  // Either input damaged: bad input, after what could be compared is printed.
  const bool damaged = ra.damage() || rb.damage();
  const int status = damaged ? kExitBadInput : !d.same() ? kExitDiffer : kExitOk;
  if (a.json) {
    JsonOut j = json_result("diff", status == kExitOk);
    j["same"] = d.same();
    j["common_ticks"] = d.common_ticks;
    j["ticks_a"] = d.ticks_a;
    j["ticks_b"] = d.ticks_b;
    j["notes"] = d.notes;
    if (d.hash_tick) j["first_hash_divergence"] = *d.hash_tick;
    if (d.tick) {
      j["tick"] = *d.tick;
      j["subsystems"] = d.subsystems;
      JsonOut fields = JsonOut::array();
      for (const auto& f : d.fields) {
        JsonOut o{{"path", f.path}, {"subsystem", f.subsystem}};
        if (f.is_size) {
          o["size_a"] = f.size_a;
          o["size_b"] = f.size_b;
        } else {
          char ab[24], bb[24];
          std::snprintf(ab, sizeof ab, "%016llx", static_cast<unsigned long long>(f.a.bits));
          std::snprintf(bb, sizeof bb, "%016llx", static_cast<unsigned long long>(f.b.bits));
          o["a"] = f.a.text;
          o["b"] = f.b.text;
          o["a_bits"] = ab;
          o["b_bits"] = bb;
          if (auto u = lockstep::ulp_distance(f.a, f.b)) o["ulps"] = *u;
        }
        fields.push_back(std::move(o));
      }
      j["fields"] = std::move(fields);
      j["not_reproduced"] = d.not_reproduced;
      j["keyframe_tick"] = json_or_null(d.keyframe_tick);
      j["ignored_fields"] = d.ignored_fields;
      // Each recording's input at that tick, as the JSON object it is (input_json), not as text.
      j["input_a"] = d.input_a.empty() ? JsonOut(nullptr) : JsonOut::parse(d.input_a);
      j["input_b"] = d.input_b.empty() ? JsonOut(nullptr) : JsonOut::parse(d.input_b);
    }
    print_json(j);
    return status;
  }
  std::fputs(lockstep::verify::report_text(d, ra, rb).c_str(), stdout);
  return status;
}

class Diff final : public Command {
 public:
  explicit Diff(CLI::App& app) {
    sub = app.add_subcommand("diff", "Compare two recordings: the first divergent tick, subsystem and field");
    sub->add_option("a", a_.a, "The first recording")->required()->check(CLI::ExistingFile);
    sub->add_option("b", a_.b, "The second recording")->required()->check(CLI::ExistingFile);
    sub->add_flag("--all", a_.all, "List every divergent field at the first divergent tick");
    sub->add_option("--ignore", a_.ignore, "Field-path globs declared harmless (e.g. 'entities[*].smoke_played')");
    sub->add_option("--ignore-file", a_.ignore_file, "A file of such globs, one per line, # comments")->check(CLI::ExistingFile);
    add_json_flag(sub, a_.json);
    sub->footer("\nExample:\n  lockstep diff a.lsr b.lsr --all\n\n"
                "Scans both hash chains for the first divergent tick, rebuilds both states there (nearest\n"
                "keyframe, then each recording's own inputs) and walks the fields in listing order.\n"
                "Exit 0 same, 1 divergent (or of different lengths), 2 bad input.");
  }
  int run() override { return cmd_diff(a_); }

 private:
  DiffArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_diff(CLI::App& app) { return std::make_unique<Diff>(app); }

}  // namespace lockstep::cli
