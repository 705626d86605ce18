// lockstep: the command line. Exit status as cmp(1): 0 same or pass,
// 1 divergent or fail, 2 bad usage or bad input.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <cctype>
#include <fstream>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>
#include <unordered_map>

#include "lockstep/core/fpenv.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/trajectory/sqlite.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/replay/replay.h"
#include "lockstep/traces/commands.h"
#include "lockstep/verify/bisect.h"
#include "lockstep/verify/gate.h"
#include "lockstep/verify/rundiff.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitDiffer = 1;
constexpr int kExitBadInput = 2;

using lockstep::json_escape;

/// Progress on a terminal for long work; silent when stderr is not a terminal.
class Progress {
 public:
  Progress(const char* what, uint64_t total) : what_(what), total_(total), on_(isatty(2) != 0 && total >= 20000) {}
  void update(uint64_t done) {
    if (!on_ || (done & 0x3ff) != 0) return;
    std::fprintf(stderr, "\r%s: tick %llu of %llu (%3.0f%%)", what_, static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total_), 100.0 * static_cast<double>(done) / static_cast<double>(total_));
  }
  ~Progress() {
    if (on_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  const char* what_;
  uint64_t total_;
  bool on_;
};

/// `lockstep fields`: every leaf of a scenario's state with its type and where the original keeps it.
int cmd_fields(const std::string& scenario_path, const std::vector<std::string>& globs, bool json) {
  auto model = lockstep::load_scenario_file(scenario_path);
  const auto leaves = model->leaves();
  std::size_t shown = 0;
  if (json) std::printf("[");
  for (const auto& l : leaves) {
    bool want = globs.empty();
    for (const auto& g : globs) want = want || lockstep::path_matches(g, l.path);
    if (!want) continue;
    const char* kind = lockstep::leaf_kind_name(l.ref.kind);
    if (json) {
      std::printf("%s{\"path\":\"%s\",\"type\":\"%s\",\"original\":\"%s\"}", shown ? "," : "",
                  json_escape(l.path).c_str(), kind, json_escape(l.original).c_str());
    } else {
      std::printf("%-48s %-4s %s\n", l.path.c_str(), kind, l.original.c_str());
    }
    ++shown;
  }
  if (json) std::printf("]\n");
  if (shown == 0) {
    std::string what;
    for (const auto& g : globs) what += (what.empty() ? "" : " ") + g;
    throw lockstep::InputError(scenario_path, "--fields", "no field matches " + what + " (try without a pattern)");
  }
  return kExitOk;
}

/// `lockstep trajectory`: a run's bodies, frame by frame, in JuPedSim's SQLite layout (PedPy reads it); any
/// model with the contract's body view (the bundled station model has one).
struct TrajectoryArgs {
  std::string scenario, out, floor;
  long long ticks = -1;
  long long every = 2;
};

int cmd_trajectory(const TrajectoryArgs& a) {
  namespace tj = lockstep::trajectory;
  auto model = lockstep::load_scenario_file(a.scenario);
  // The model contract's body view (body_view.h): any model that offers one.
  const std::vector<lockstep::FloorView> floors = model->floors();
  if (floors.empty())
    throw lockstep::InputError(a.scenario, "$.model", "trajectories need a model with a body view (floors and bodies); " +
                                                          model->info().name + " has none");
  // The floor: by id, or the first.
  uint32_t floor = 0;
  if (!a.floor.empty()) {
    bool found = false;
    std::string ids;
    for (std::size_t f = 0; f < floors.size(); ++f) {
      ids += (ids.empty() ? "" : ", ") + floors[f].id;
      if (floors[f].id == a.floor) floor = static_cast<uint32_t>(f), found = true;
    }
    if (!found) throw lockstep::InputError(a.scenario, "--floor", "no floor \"" + a.floor + "\" (floors: " + ids + ")");
  }
  // The run length: --ticks, else the scenario's own.
  const uint64_t ticks = a.ticks >= 0 ? static_cast<uint64_t>(a.ticks) : model->default_ticks();
  // The walkable area: the floor's outlines minus its solids.
  const auto& fl = floors[floor];
  auto ring = [](const std::vector<lockstep::FloorPoint>& poly) {
    tj::Ring r;
    for (const auto& p : poly) r.emplace_back(p.x, p.y);
    return r;
  };
  std::vector<tj::Ring> walkable, solids;
  for (const auto& p : fl.walkable) walkable.push_back(ring(p));
  for (const auto& p : fl.solids) solids.push_back(ring(p));
  std::string wkt;
  try {
    wkt = tj::wkt_floor(walkable, solids);
  } catch (const std::invalid_argument& e) {
    throw lockstep::InputError(a.scenario, "$.floors[" + std::to_string(floor) + "]", e.what());
  }
  const double fps = static_cast<double>(model->info().tick_rate_hz) / static_cast<double>(a.every);
  tj::SqliteTrajectoryWriter w(a.out, fps, wkt);
  std::vector<tj::TrajectoryRow> rows;
  auto frame = [&](uint64_t n) {
    rows.clear();
    for (const lockstep::BodyView& b : model->bodies())
      if (b.floor == floor) rows.push_back(tj::TrajectoryRow{b.id, b.x, b.y, b.hx, b.hy});
    w.write_frame(n, rows);
  };
  {
    Progress progress("trajectory", ticks);
    frame(0);
    for (uint64_t k = 1; k <= ticks; ++k) {
      model->step_scripted();
      if (k % static_cast<uint64_t>(a.every) == 0) frame(k / static_cast<uint64_t>(a.every));
      progress.update(k);
    }
  }
  w.close();
  std::printf("wrote %s: %llu frames at %g fps, %llu rows, floor \"%s\"\n", a.out.c_str(),
              static_cast<unsigned long long>(w.frames_written()), fps, static_cast<unsigned long long>(w.rows_written()),
              fl.id.c_str());
  return kExitOk;
}

int cmd_run(const std::string& scenario_path, long long ticks_opt, bool json) {
  auto model = lockstep::load_scenario_file(scenario_path);
  uint64_t ticks = 0;
  if (ticks_opt >= 0) {
    ticks = static_cast<uint64_t>(ticks_opt);
  } else {
    ticks = model->default_ticks();  // the scenario's own run length
  }
  const auto t0 = std::chrono::steady_clock::now();
  {
    Progress progress("run", ticks);
    for (uint64_t k = 0; k < ticks; ++k) {
      model->step_scripted();
      progress.update(k + 1);
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto h = model->hashes();
  const auto& info = model->info();
  if (json) {
    std::printf("{\"ticks\":%llu,\"final_hash\":\"%s\",\"model\":\"%s\",\"model_version\":%u,\"subsystems\":{",
                static_cast<unsigned long long>(model->tick()), lockstep::hex64(h.whole).c_str(),
                json_escape(info.name).c_str(), info.version);
    for (uint32_t i = 0; i < h.count; ++i)
      std::printf("%s\"%s\":\"%s\"", i ? "," : "", json_escape(info.subsystems[i]).c_str(),
                  lockstep::hex64(h.sub[i]).c_str());
    std::printf("}}\n");
    return kExitOk;
  }
  const double game_secs = static_cast<double>(ticks) / info.tick_rate_hz;
  std::printf("scenario    %s (model %s v%u)\n", scenario_path.c_str(), info.name.c_str(), info.version);
  std::printf("ticks       %llu (%.2f s of game time at %u Hz)\n", static_cast<unsigned long long>(model->tick()),
              game_secs, info.tick_rate_hz);
  std::printf("final hash  %s\n", lockstep::hex64(h.whole).c_str());
  for (uint32_t i = 0; i < h.count; ++i)
    std::printf("  %-9s %s\n", info.subsystems[i].c_str(), lockstep::hex64(h.sub[i]).c_str());
  std::printf("took        %.3f s (%.0fx real time)\n", secs, secs > 0 ? game_secs / secs : 0.0);
  std::printf("recording   none (lockstep record ... -o RUN.lsr makes one)\n");
  return kExitOk;
}


std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string o;
  for (const auto& s : v) o += (o.empty() ? "" : sep) + s;
  return o;
}

struct RecordArgs {
  std::string scenario, out;
  long long ticks = -1;
  uint32_t keyframe_every = 0, chunk_ticks = 0;
  int sub_bytes = 2;
  bool fsync = false, json = false;
};

int cmd_record(const RecordArgs& a) {
  auto model = lockstep::load_scenario_file(a.scenario);
  const uint64_t ticks = a.ticks >= 0 ? static_cast<uint64_t>(a.ticks) : model->default_ticks();
  lockstep::lsr::RecorderOptions opt;
  opt.keyframe_every = a.keyframe_every;
  opt.chunk_ticks = a.chunk_ticks;
  opt.sub_hash_bytes = static_cast<uint8_t>(a.sub_bytes);
  opt.fsync = a.fsync;
  lockstep::lsr::Recorder rec(a.out, *model, opt);
  {
    Progress progress("record", ticks);
    for (uint64_t k = 0; k < ticks; ++k) {
      const auto in = model->scripted_input();
      model->step(in);
      rec.tick(in, *model);
      progress.update(k + 1);
    }
  }
  rec.finish();
  const auto h = model->hashes();
  if (a.json) {
    std::printf("{\"ticks\":%llu,\"final_hash\":\"%s\",\"recording\":\"%s\",\"bytes\":%llu}\n",
                static_cast<unsigned long long>(model->tick()), lockstep::hex64(h.whole).c_str(),
                json_escape(a.out).c_str(), static_cast<unsigned long long>(rec.bytes_written()));
    return kExitOk;
  }
  std::printf("scenario    %s (model %s v%u)\n", a.scenario.c_str(), model->info().name.c_str(), model->info().version);
  std::printf("ticks       %llu\n", static_cast<unsigned long long>(model->tick()));
  std::printf("final hash  %s\n", lockstep::hex64(h.whole).c_str());
  std::printf("recording   %s (%llu bytes, %.1f bytes per tick with keyframes)\n", a.out.c_str(),
              static_cast<unsigned long long>(rec.bytes_written()),
              ticks ? static_cast<double>(rec.bytes_written()) / static_cast<double>(ticks) : 0.0);
  return kExitOk;
}

void print_damage(const lockstep::lsr::Recording& r) {
  if (!r.damage()) return;
  const auto& d = *r.damage();
  std::fprintf(stderr, "lockstep: %s: byte %llu, %s: %s [%s, %s]\n", r.source().c_str(), static_cast<unsigned long long>(d.offset),
               d.where.c_str(), d.what.c_str(), d.kind.c_str(), d.truncated ? "cut off" : "a wrong byte");
  std::fprintf(stderr, "lockstep: %s: %llu complete ticks recovered (%llu chunks, %llu keyframes) before the damage\n",
               r.source().c_str(), static_cast<unsigned long long>(r.ticks()),
               static_cast<unsigned long long>(r.chunk_count()), static_cast<unsigned long long>(r.keyframe_count()));
}

int cmd_inspect(const std::string& path, bool json) {
  const auto r = lockstep::lsr::Recording::open(path);
  const auto inputs = lockstep::replay::check_inputs(r);
  const bool bad = r.damage() || inputs.error;
  const auto& h = r.header();
  uint64_t compressed = 0;
  for (const auto& c : r.frames()) compressed += c.compressed;
  const double ratio = compressed ? static_cast<double>(r.raw_bytes()) / static_cast<double>(compressed) : 0.0;
  if (json) {
    std::printf("{\"recording\":\"%s\",\"format\":\"%u.%u\",\"model\":\"%s\",\"model_version\":%u,\"tick_rate_hz\":%u,\"seed\":%llu,"
                "\"first_tick\":%llu,\"ticks\":%llu,\"chunks\":%llu,\"keyframes\":%llu,\"chunk_ticks\":%u,"
                "\"keyframe_every\":%u,\"subsystem_hash_bytes\":%u,\"subsystems\":[",
                json_escape(path).c_str(), h.major, h.minor, json_escape(h.model).c_str(), h.model_version, h.tick_rate_hz,
                static_cast<unsigned long long>(h.seed), static_cast<unsigned long long>(h.first_tick),
                static_cast<unsigned long long>(r.ticks()), static_cast<unsigned long long>(r.chunk_count()),
                static_cast<unsigned long long>(r.keyframe_count()), h.chunk_ticks, h.keyframe_every, h.sub_hash_bytes);
    for (std::size_t i = 0; i < h.subsystems.size(); ++i) std::printf("%s\"%s\"", i ? "," : "", json_escape(h.subsystems[i]).c_str());
    std::printf("],\"build\":{\"compiler\":\"%s\",\"flags\":\"%s\",\"arch\":\"%s\",\"revision\":\"%s\",\"fp_env\":\"%s\"},"
                "\"file_bytes\":%llu,\"raw_bytes\":%llu,\"compression_ratio\":%.3f,\"index\":%s,\"damage\":",
                json_escape(h.build.compiler).c_str(), json_escape(h.build.flags).c_str(), json_escape(h.build.arch).c_str(),
                json_escape(h.build.revision).c_str(), json_escape(h.build.fp_env).c_str(), static_cast<unsigned long long>(r.file_bytes()),
                static_cast<unsigned long long>(r.raw_bytes()), ratio, r.index_used() ? "true" : "false");
    if (r.damage())
      std::printf("{\"offset\":%llu,\"kind\":\"%s\",\"where\":\"%s\",\"what\":\"%s\",\"truncated\":%s}",
                  static_cast<unsigned long long>(r.damage()->offset), json_escape(r.damage()->kind).c_str(),
                  json_escape(r.damage()->where).c_str(), json_escape(r.damage()->what).c_str(),
                  r.damage()->truncated ? "true" : "false");
    else
      std::printf("null");
    std::printf(",\"inputs\":{\"checked\":%s,\"stored\":%llu,\"error\":", inputs.checked ? "true" : "false",
                static_cast<unsigned long long>(inputs.stored));
    if (inputs.error) std::printf("\"%s\"}}\n", json_escape(*inputs.error).c_str());
    else std::printf("null}}\n");
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

struct ReplayArgs {
  std::string path;
  long long from = -1, to = -1;
  bool synctest = false, json = false, allow_truncated = false;
};

int cmd_replay(const ReplayArgs& a) {
  const auto r = lockstep::lsr::Recording::open(a.path);
  const bool damaged = r.damage().has_value();
  if (damaged) print_damage(r);
  if (damaged && !(r.damage()->truncated && a.allow_truncated)) {
    if (r.ticks() == 0) return kExitBadInput;
  }
  lockstep::replay::Options opt;
  if (a.from >= 0) opt.from = static_cast<uint64_t>(a.from);
  if (a.to >= 0) opt.to = static_cast<uint64_t>(a.to);
  opt.synctest = a.synctest;
  const uint64_t end = r.first_tick() + r.ticks();
  if (opt.from > end)
    throw lockstep::InputError(a.path, "--from", "tick " + std::to_string(opt.from) + " is past the recording's end (" +
                                                     std::to_string(end) + ")");
  Progress progress("replay", opt.to.value_or(end) - opt.from);
  opt.progress = [&](uint64_t done, uint64_t) { progress.update(done); };
  const auto res = lockstep::replay::run(r, opt);
  // A damaged recording is bad input whatever its good part says (a cut-off one may be allowed).
  const int status = damaged && !(r.damage()->truncated && a.allow_truncated) ? kExitBadInput : !res.ok() ? kExitDiffer : kExitOk;
  if (a.json) {
    std::printf("{\"checked\":%llu,\"keyframes_checked\":%llu,\"match\":%s", static_cast<unsigned long long>(res.checked),
                static_cast<unsigned long long>(res.keyframes_checked), res.ok() ? "true" : "false");
    if (res.first) {
      std::printf(",\"first_divergent_tick\":%llu,\"recorded\":\"%s\",\"replayed\":\"%s\",\"subsystems\":[",
                  static_cast<unsigned long long>(res.first->tick), lockstep::hex64(res.first->recorded).c_str(),
                  lockstep::hex64(res.first->replayed).c_str());
      for (std::size_t i = 0; i < res.first->subsystems.size(); ++i)
        std::printf("%s\"%s\"", i ? "," : "", json_escape(res.first->subsystems[i]).c_str());
      std::printf("],\"divergent_ticks\":%llu,\"reconverged_at\":", static_cast<unsigned long long>(res.divergent_ticks));
      if (res.reconverged_at && !res.divergent_at_end) std::printf("%llu", static_cast<unsigned long long>(*res.reconverged_at));
      else std::printf("null");
    }
    if (res.sync) {
      std::printf(",\"synctest_failed_at\":%llu,\"synctest_fields\":[", static_cast<unsigned long long>(res.sync->tick));
      for (std::size_t i = 0; i < res.sync->fields.size(); ++i)
        std::printf("%s\"%s\"", i ? "," : "", json_escape(res.sync->fields[i].path).c_str());
      std::printf("]");
    }
    std::printf(",\"damaged\":%s}\n", damaged ? "true" : "false");
    return status;
  }
  if (!res.model_note.empty()) std::printf("note        %s\n", res.model_note.c_str());
  const auto& mine = lockstep::lsr::this_build();
  const auto& theirs = r.header().build;
  if (mine.compiler != theirs.compiler || mine.arch != theirs.arch || mine.flags != theirs.flags)
    std::printf("note        recorded by %s on %s, replayed by %s on %s\n", theirs.compiler.c_str(), theirs.arch.c_str(),
                mine.compiler.c_str(), mine.arch.c_str());
  if (!theirs.fp_env.empty() && theirs.fp_env != mine.fp_env)
    std::printf("note        recorded in floating-point mode %s, replayed in %s (every model step runs in the IEEE default)\n",
                theirs.fp_env.c_str(), mine.fp_env.c_str());
  std::printf("checked     %llu ticks and %llu keyframes of %s\n", static_cast<unsigned long long>(res.checked),
              static_cast<unsigned long long>(res.keyframes_checked), a.path.c_str());
  if (res.first) {
    std::printf("DIVERGED    at tick %llu: recorded %s, replayed %s\n", static_cast<unsigned long long>(res.first->tick),
                lockstep::hex64(res.first->recorded).c_str(), lockstep::hex64(res.first->replayed).c_str());
    std::printf("subsystems  %s\n", res.first->subsystems.empty() ? "(their stored hashes match: see the whole hash)"
                                                                   : join(res.first->subsystems).c_str());
    if (res.divergent_at_end)
      std::printf("afterwards  still divergent at the end (%llu divergent ticks)\n", static_cast<unsigned long long>(res.divergent_ticks));
    else if (res.reconverged_at)
      std::printf("afterwards  re-converged at tick %llu (%llu divergent ticks in all)\n",
                  static_cast<unsigned long long>(*res.reconverged_at), static_cast<unsigned long long>(res.divergent_ticks));
    std::printf("next        lockstep diff, or lockstep export %s --fields ... around tick %llu\n", a.path.c_str(),
                static_cast<unsigned long long>(res.first->tick));
  }
  if (res.sync) {
    std::printf("SYNCTEST    a world restored from the snapshot before tick %llu parted after one step\n",
                static_cast<unsigned long long>(res.sync->tick));
    std::printf("subsystems  %s\n", join(res.sync->subsystems).c_str());
    for (const auto& f : res.sync->fields)
      std::printf("  %s: %s vs %s (restored)\n", f.path.c_str(), f.a.text.c_str(), f.b.text.c_str());
  }
  if (res.ok()) std::printf("result      every tick matches%s\n", a.synctest ? ", and every snapshot restores to the same bits" : "");
  return status;
}

struct ExportArgs {
  std::string path;
  std::vector<std::string> fields;
  std::string format = "csv";
  long long from = -1, to = -1;
  bool hex = false;
};

std::string leaf_text(lockstep::LeafRef ref, bool hex) {
  const auto v = lockstep::read_leaf(lockstep::ConstLeafRef{ref.kind, ref.ptr});
  if (hex && (ref.kind == lockstep::LeafKind::F32 || ref.kind == lockstep::LeafKind::F64)) return lockstep::hex_bits(v);
  return v.text;
}

int cmd_export(const ExportArgs& a) {
  const auto r = lockstep::lsr::Recording::open(a.path);
  if (r.damage()) print_damage(r);
  const uint64_t end = r.first_tick() + r.ticks();
  const uint64_t from = a.from >= 0 ? static_cast<uint64_t>(a.from) : r.first_tick();
  const uint64_t to = a.to >= 0 ? std::min<uint64_t>(static_cast<uint64_t>(a.to), end) : end;
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
      std::printf("{\"tick\":%llu", static_cast<unsigned long long>(m->tick()));
      for (std::size_t k = 0; k < pick.size(); ++k) {
        const auto i = pick[k];
        if (i >= leaves.size()) continue;
        const auto kind = leaves[i].ref.kind;
        const bool quote = a.hex || kind == lockstep::LeafKind::String || kind == lockstep::LeafKind::F32 || kind == lockstep::LeafKind::F64 ||
                           kind == lockstep::LeafKind::U64 || kind == lockstep::LeafKind::I64;
        const std::string t = leaf_text(leaves[i].ref, a.hex);
        // Floats as strings keep them exact (a JSON number may be read back as a double and printed differently).
        std::printf(",\"%s\":%s%s%s", json_escape(names[k]).c_str(), quote ? "\"" : "", json_escape(t).c_str(), quote ? "\"" : "");
      }
      std::printf("}\n");
    }
  };
  emit();
  Progress progress("export", to > from ? to - from : 0);
  uint64_t done = 0;
  r.scan(from, to, [&](const lockstep::lsr::TickRecord& t) {
    m->step(t.input, a.path + " tick " + std::to_string(t.tick));
    emit();
    progress.update(++done);
  }, nullptr);
  return r.damage() ? kExitBadInput : kExitOk;
}


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
    std::printf("{\"same\":%s,\"common_ticks\":%llu,\"ticks_a\":%llu,\"ticks_b\":%llu,\"notes\":[", d.same() ? "true" : "false",
                static_cast<unsigned long long>(d.common_ticks), static_cast<unsigned long long>(d.ticks_a),
                static_cast<unsigned long long>(d.ticks_b));
    for (std::size_t i = 0; i < d.notes.size(); ++i) std::printf("%s\"%s\"", i ? "," : "", json_escape(d.notes[i]).c_str());
    std::printf("]");
    if (d.hash_tick) std::printf(",\"first_hash_divergence\":%llu", static_cast<unsigned long long>(*d.hash_tick));
    if (d.tick) {
      std::printf(",\"tick\":%llu,\"subsystems\":[", static_cast<unsigned long long>(*d.tick));
      for (std::size_t i = 0; i < d.subsystems.size(); ++i) std::printf("%s\"%s\"", i ? "," : "", json_escape(d.subsystems[i]).c_str());
      std::printf("],\"fields\":[");
      for (std::size_t i = 0; i < d.fields.size(); ++i) {
        const auto& f = d.fields[i];
        std::printf("%s{\"path\":\"%s\",\"subsystem\":\"%s\"", i ? "," : "", json_escape(f.path).c_str(), json_escape(f.subsystem).c_str());
        if (f.is_size) {
          std::printf(",\"size_a\":%zu,\"size_b\":%zu}", f.size_a, f.size_b);
          continue;
        }
        std::printf(",\"a\":\"%s\",\"b\":\"%s\",\"a_bits\":\"%016llx\",\"b_bits\":\"%016llx\"", json_escape(f.a.text).c_str(),
                    json_escape(f.b.text).c_str(), static_cast<unsigned long long>(f.a.bits), static_cast<unsigned long long>(f.b.bits));
        if (auto u = lockstep::ulp_distance(f.a, f.b)) std::printf(",\"ulps\":%llu", static_cast<unsigned long long>(*u));
        std::printf("}");
      }
      std::printf("],\"not_reproduced\":[");
      for (std::size_t i = 0; i < d.not_reproduced.size(); ++i) std::printf("%s\"%s\"", i ? "," : "", d.not_reproduced[i].c_str());
      std::printf("],\"keyframe_tick\":");
      if (d.keyframe_tick) std::printf("%llu", static_cast<unsigned long long>(*d.keyframe_tick));
      else std::printf("null");
      std::printf(",\"ignored_fields\":%zu,\"input_a\":%s,\"input_b\":%s", d.ignored_fields,
                  d.input_a.empty() ? "null" : ("\"" + json_escape(d.input_a) + "\"").c_str(),
                  d.input_b.empty() ? "null" : ("\"" + json_escape(d.input_b) + "\"").c_str());
    }
    std::printf("}\n");
    return status;
  }
  std::fputs(lockstep::verify::report_text(d, ra, rb).c_str(), stdout);
  if (!d.tick) return status;
  return status;
}


struct GateArgs {
  std::string file, junit, shard = "1/1";
  bool update = false, json = false;
};

int cmd_gate(const GateArgs& a) {
  lockstep::verify::GateOptions opt;
  opt.update = a.update;
  {
    const auto slash = a.shard.find('/');
    char* e1 = nullptr;
    char* e2 = nullptr;
    const std::string i = a.shard.substr(0, slash), n = slash == std::string::npos ? "" : a.shard.substr(slash + 1);
    const unsigned long si = std::strtoul(i.c_str(), &e1, 10), sn = std::strtoul(n.c_str(), &e2, 10);
    if (slash == std::string::npos || i.empty() || n.empty() || *e1 || *e2 || si == 0 || sn == 0 || si > sn || sn > 100000)
      throw lockstep::InputError("", "--shard " + a.shard, "expected I/N with 1 <= I <= N, e.g. 2/4");
    opt.shard = static_cast<uint32_t>(si);
    opt.shards = static_cast<uint32_t>(sn);
  }
  if (!a.json) opt.log = [](const std::string& line) { std::printf("%s\n", line.c_str()); std::fflush(stdout); };
  const auto g = lockstep::verify::load_gate(a.file);
  const auto cases = lockstep::verify::run_gate(a.file, opt);
  std::size_t failed = 0;
  for (const auto& c : cases) failed += c.passed ? 0 : 1;
  if (!a.junit.empty()) {
    std::ofstream out(a.junit, std::ios::binary);
    if (!out) throw lockstep::InputError(a.junit, "", "cannot write the JUnit report");
    out << lockstep::verify::junit_xml(g.name, cases);
  }
  if (a.json) {
    std::printf("{\"passed\":%zu,\"failed\":%zu,\"cases\":[", cases.size() - failed, failed);
    for (std::size_t i = 0; i < cases.size(); ++i)
      std::printf("%s{\"scenario\":\"%s\",\"passed\":%s,\"updated\":%s,\"ticks\":%llu,\"message\":\"%s\"}", i ? "," : "",
                  json_escape(cases[i].name).c_str(), cases[i].passed ? "true" : "false", cases[i].updated ? "true" : "false",
                  static_cast<unsigned long long>(cases[i].ticks), json_escape(cases[i].message).c_str());
    std::printf("]}\n");
  } else {
    for (const auto& c : cases)
      if (!c.passed && !c.report.empty()) std::printf("\n%s:\n%s", c.name.c_str(), c.report.c_str());
    std::printf("gate: %zu passed, %zu failed\n", cases.size() - failed, failed);
  }
  return failed ? kExitDiffer : kExitOk;
}


// ---- plumbing for bisect across builds: one build's view of a recording

// A test build (lockstep-planted) nudges one state leaf by one ulp after a
// given tick, standing in for a build that computes differently.
void plant([[maybe_unused]] lockstep::Model& m) {
#ifdef LOCKSTEP_PLANT_DIVERGENCE
  static const std::string spec = LOCKSTEP_PLANT_DIVERGENCE;
  const auto colon = spec.find(':');
  if (m.tick() != std::stoull(spec.substr(0, colon))) return;
  for (auto& leaf : m.leaves())
    if (leaf.path == spec.substr(colon + 1)) lockstep::nudge_leaf(leaf.ref);
#endif
}

int cmd_chain(const std::string& path) {
  const auto r = lockstep::lsr::Recording::open(path);
  if (r.damage()) print_damage(r);
  auto m = lockstep::replay::model_for(r);
  std::printf("# chain %s model %s v%u\n", path.c_str(), m->info().name.c_str(), m->info().version);
  std::printf("# fp %s\n", lockstep::process_fp_env().text().c_str());
  r.scan(r.first_tick(), UINT64_MAX, [&](const lockstep::lsr::TickRecord& t) {
    m->step(t.input, path + " tick " + std::to_string(t.tick));
    plant(*m);
    std::printf("%llu %s\n", static_cast<unsigned long long>(t.tick), lockstep::hex64(m->hashes().whole).c_str());
  }, nullptr);
  return r.damage() ? kExitBadInput : kExitOk;
}

int cmd_state(const std::string& path, long long tick, const std::string& out, bool json) {
  const auto r = lockstep::lsr::Recording::open(path);
  if (r.damage()) print_damage(r);
  const int ok = r.damage() ? kExitBadInput : kExitOk;  // a damaged recording is bad input, after what it could give
  const uint64_t end = r.first_tick() + r.ticks();
  if (tick < static_cast<long long>(r.first_tick()) || static_cast<uint64_t>(tick) > end)
    throw lockstep::InputError(path, "--tick", "expected a tick from " + std::to_string(r.first_tick()) + " to " + std::to_string(end));
#ifdef LOCKSTEP_PLANT_DIVERGENCE
  // The planted build re-simulates from the start so its planted change is in the state.
  auto m = lockstep::replay::model_for(r);
  r.scan(r.first_tick(), static_cast<uint64_t>(tick), [&](const lockstep::lsr::TickRecord& t) {
    m->step(t.input, path);
    plant(*m);
  }, nullptr);
#else
  auto m = lockstep::replay::state_at(r, static_cast<uint64_t>(tick));
#endif
  if (json) {
    std::printf("%s\n", m->state_json().c_str());
    return ok;
  }
  const auto bytes = m->snapshot();
  std::FILE* f = std::fopen(out.c_str(), "wb");
  if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
    if (f) std::fclose(f);
    throw lockstep::InputError(out, "", "cannot write the state");
  }
  std::fclose(f);
  return ok;
}

struct BisectArgs {
  bool ticks = false;
  std::string exe_a, exe_b, repo = ".", run_cmd;
  std::vector<std::string> git;
  std::vector<std::string> files;
  bool json = false;
};

void print_fields(const std::vector<lockstep::FieldDiff>& fields, std::size_t most = 8) {
  for (std::size_t i = 0; i < fields.size() && i < most; ++i) {
    const auto& f = fields[i];
    if (f.is_size) {
      std::printf("field       %s: %zu vs %zu elements\n", f.path.c_str(), f.size_a, f.size_b);
      continue;
    }
    std::printf("field       %s: %s vs %s", f.path.c_str(), f.a.text.c_str(), f.b.text.c_str());
    if (auto u = lockstep::ulp_distance(f.a, f.b)) std::printf(" (%llu ulps)", static_cast<unsigned long long>(*u));
    std::printf("\n");
  }
  if (fields.size() > most) std::printf("            ... and %zu more fields\n", fields.size() - most);
}

int cmd_bisect(const BisectArgs& a) {
  const int modes = (a.ticks ? 1 : 0) + (!a.exe_a.empty() || !a.exe_b.empty() ? 1 : 0) + (!a.git.empty() ? 1 : 0);
  if (modes != 1) throw lockstep::InputError("", "bisect", "choose one of --ticks, --exe-a/--exe-b or --git");
  if (a.ticks) {
    if (a.files.size() != 2) throw lockstep::InputError("", "bisect --ticks", "expected two recordings A.lsr B.lsr");
    const auto ra = lockstep::lsr::Recording::open(a.files[0]);
    const auto rb = lockstep::lsr::Recording::open(a.files[1]);
    for (const auto* r : {&ra, &rb}) print_damage(*r);
    const int damaged = ra.damage() || rb.damage() ? kExitBadInput : 0;  // bad input, after what could be compared
    const auto r = lockstep::verify::bisect_ticks(ra, rb);
    std::printf("keyframes   %zu common; the search read %llu pairs\n", r.keyframes.size(), static_cast<unsigned long long>(r.keyframes_read));
    if (!r.first_bad) {
      std::printf("result      every common keyframe matches\n");
      return damaged ? damaged : kExitOk;
    }
    std::printf("bracket     keyframe %s matches, keyframe %llu differs\n",
                r.last_good ? std::to_string(*r.last_good).c_str() : "(none)", static_cast<unsigned long long>(*r.first_bad));
    if (r.tick) std::printf("DIVERGED    at tick %llu (re-simulated from the matching keyframe with each recording's inputs)\n",
                            static_cast<unsigned long long>(*r.tick));
    else std::printf("DIVERGED    between them: this build re-simulates both alike (the builds differ); fields at keyframe %llu:\n",
                     static_cast<unsigned long long>(*r.first_bad));
    print_fields(r.fields);
    return damaged ? damaged : kExitDiffer;
  }
  if (!a.git.empty()) {
    if (a.git.size() != 2 || a.files.size() != 1) throw lockstep::InputError("", "bisect --git", "expected --git GOOD BAD RUN.lsr");
    namespace fs = std::filesystem;
    // The recording must outlive every checkout: use an absolute copy.
    const fs::path tmp = fs::temp_directory_path() / ("lockstep-gitbisect-" + std::to_string(::getpid()));
    fs::create_directories(tmp);
    const std::string rec = (tmp / "run.lsr").string();
    fs::copy_file(a.files[0], rec, fs::copy_options::overwrite_existing);
    std::string cmd = a.run_cmd;
    if (cmd.empty()) {
      const std::string b = (tmp / "build").string();
      cmd = "cmake -S . -B '" + b + "' -DLOCKSTEP_TESTS=OFF -DLOCKSTEP_BENCH=OFF >/dev/null 2>&1 && cmake --build '" + b +
            "' --target lockstep -j2 >/dev/null 2>&1 || exit 125; '" + b + "/lockstep' replay '" + rec +
            "' >/dev/null 2>&1; s=$?; [ $s -eq 2 ] && exit 125; exit $s";
    } else {
      setenv("LOCKSTEP_RECORDING", rec.c_str(), 1);
    }
    std::fprintf(stderr, "bisect: git bisect run between %s (good) and %s (bad)...\n", a.git[0].c_str(), a.git[1].c_str());
    lockstep::verify::CommitBisect r;
    try {
      r = lockstep::verify::bisect_commits(a.repo, a.git[0], a.git[1], cmd);
    } catch (...) {
      fs::remove_all(tmp);
      throw;
    }
    fs::remove_all(tmp);
    std::printf("first bad   %s %s\n", r.first_bad.c_str(), r.subject.c_str());
    return kExitDiffer;
  }
  if (a.exe_a.empty() || a.exe_b.empty() || a.files.size() != 1)
    throw lockstep::InputError("", "bisect", "expected --exe-a PATH --exe-b PATH RUN.lsr");
  const auto r = lockstep::verify::bisect_builds(a.exe_a, a.exe_b, a.files[0], [](const std::string& line) {
    std::fprintf(stderr, "bisect: %s\n", line.c_str());
  });
  std::printf("compared    %llu ticks of %s under two builds\n", static_cast<unsigned long long>(r.ticks_compared), a.files[0].c_str());
  if (r.a_fp_env != r.b_fp_env) {
    const std::string da = lockstep::fp_env_difference(r.a_fp_env), db = lockstep::fp_env_difference(r.b_fp_env);
    std::printf("note        %s (every model step runs in the IEEE default)\n",
                !db.empty() && da.empty()   ? ("build b " + db + " (" + r.b_fp_env + "); build a: " + r.a_fp_env).c_str()
                : !da.empty() && db.empty() ? ("build a " + da + " (" + r.a_fp_env + "); build b: " + r.b_fp_env).c_str()
                                            : ("floating-point modes differ: " + r.a_fp_env + " and " + r.b_fp_env).c_str());
  }
  if (!r.tick) {
    std::printf("result      the two builds compute the same hash chain\n");
    return kExitOk;
  }
  std::printf("DIVERGED    at tick %llu: a %s, b %s\n", static_cast<unsigned long long>(*r.tick), lockstep::hex64(r.hash_a).c_str(),
              lockstep::hex64(r.hash_b).c_str());
  print_fields(r.fields);
  return kExitDiffer;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "lockstep: deterministic game-AI simulation. Step a model tick by tick and prove every build\n"
      "computes the same bits.\n\n"
      "Exit status as cmp(1): 0 same or pass, 1 divergent or fail, 2 bad usage or bad input.",
      "lockstep"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  app.set_version_flag("--version", std::string("lockstep ") + lockstep::lsr::this_build().revision + " (" +
                                        lockstep::lsr::this_build().compiler + ", " + lockstep::lsr::this_build().arch +
                                        ", floating point: " + lockstep::process_fp_env().text() + ")");
  // A host that changed the floating-point mode (a program linked with -ffast-math sets
  // flush-to-zero before main): say so; the model steps put the IEEE default back (fpenv.h).
  if (const auto fp = lockstep::process_fp_env(); !fp.ieee_default())
    std::fprintf(stderr, "lockstep: note: this process started with %s (as a program linked with -ffast-math does); "
                         "every model step runs in the IEEE default and puts this mode back after it\n", fp.text().c_str());

  std::string scenario;
  long long ticks = -1;
  bool json = false;
  auto* run = app.add_subcommand("run", "Step a scenario and print the tick count and the final state hash");
  run->add_option("scenario", scenario, "Scenario JSON file (its \"model\" key picks the model)")
      ->required()
      ->check(CLI::ExistingFile);
  run->add_option("--ticks,-n", ticks, "How many ticks to step (default: the scenario's \"ticks\")")
      ->check(CLI::NonNegativeNumber);
  run->add_flag("--json", json, "Print {\"ticks\":N,\"final_hash\":\"...\"} for tools");
  run->footer(
      "\nExample:\n  lockstep run fixtures/wander/yard.json --ticks 3600\n"
      "The final hash is XXH3-64 over the subsystem hashes (docs/architecture.md); two runs, builds or\n"
      "machines that print the same hash computed the same state, bit for bit.");


  std::string fields_scenario;
  std::vector<std::string> fields_globs;
  bool fields_json = false;
  auto* fieldsc = app.add_subcommand("fields", "List a model's state fields: path, type and the original's offset");
  fieldsc->add_option("scenario", fields_scenario, "Scenario JSON file")->required()->check(CLI::ExistingFile);
  fieldsc->add_option("patterns", fields_globs, "Field paths or globs to list (default: all): 'humans[1].brain.*', '**.speed'");
  fieldsc->add_flag("--json", fields_json, "Print a JSON array of {path, type, original}");
  fieldsc->footer(
      "\nExample:\n  lockstep fields fixtures/warriors/runtime_case.json 'humans[1].brain.*'\n"
      "The third column is where the original program keeps the field (\"brain+0x114\": the brain's\n"
      "+0x114), from the model's field listing: what a trace map's \"field\" names (docs/traces.md).");

  TrajectoryArgs traj_a;
  auto* trajc = app.add_subcommand("trajectory", "Write a run's trajectories for PedPy (JuPedSim's SQLite layout); any model with a body view (station has one)");
  trajc->add_option("scenario", traj_a.scenario, "A scenario JSON file of a model with a body view (station)")->required()->check(CLI::ExistingFile);
  trajc->add_option("--out,-o", traj_a.out, "The SQLite file to write (replaced if it exists)")->required();
  trajc->add_option("--ticks,-n", traj_a.ticks, "How many ticks to run (default: the scenario's \"ticks\")")
      ->check(CLI::NonNegativeNumber);
  trajc->add_option("--every", traj_a.every, "Write every Kth tick as a frame (default 2: 10 fps at dt 0.05 s)")
      ->check(CLI::Range(1LL, 1000000LL));
  trajc->add_option("--floor", traj_a.floor, "The floor id to write (default: the first floor); PedPy has no height");
  trajc->footer(
      "\nExample:\n  lockstep trajectory fixtures/station/hall.json -o hall.sqlite\n"
      "Frame n is tick n*K (fps = 20/K); a row per walker still walking on the floor: its slot as id, its\n"
      "position in metres and its heading (velocity, or desired direction when standing). The geometry is\n"
      "the floor minus its obstacles, holes and voids. In Python:\n"
      "  pedpy.load_trajectory_from_jupedsim_sqlite(trajectory_file=pathlib.Path(\"hall.sqlite\"))\n"
      "(docs/trajectories.md).");

  RecordArgs rec_a;
  auto* record = app.add_subcommand("record", "Run a scenario and record every tick's input and state hashes (.lsr)");
  record->add_option("scenario", rec_a.scenario, "Scenario JSON file")->required()->check(CLI::ExistingFile);
  record->add_option("--ticks,-n", rec_a.ticks, "How many ticks (default: the scenario's \"ticks\")")->check(CLI::NonNegativeNumber);
  record->add_option("-o,--output", rec_a.out, "The recording to write (.lsr)")->required();
  record->add_option("--keyframe-every", rec_a.keyframe_every, "A full state snapshot every K ticks (default: one second)")
      ->check(CLI::Range(1u, 1u << 20));
  record->add_option("--chunk-ticks", rec_a.chunk_ticks, "Ticks per chunk, the unit a crash can lose (default: one second)")
      ->check(CLI::Range(1u, 1u << 20));
  record->add_option("--subsystem-hash-bytes", rec_a.sub_bytes, "Bytes of each subsystem hash kept per tick: 2 or 8")
      ->check(CLI::IsMember({2, 8}));
  record->add_flag("--fsync", rec_a.fsync, "fsync after every chunk (survives power loss, not only a crash)");
  record->add_flag("--json", rec_a.json, "Print a JSON summary");
  record->footer("\nExample:\n  lockstep record fixtures/wander/yard.json --ticks 3600 -o yard.lsr\n"
                 "The recording embeds the scenario and the build; `zstd -t yard.lsr` checks it and\n"
                 "`zstd -dc yard.lsr` prints its raw tick stream (docs/format.md).");

  ReplayArgs rep_a;
  auto* replay = app.add_subcommand("replay", "Re-simulate a recording and check every tick's hashes");
  replay->add_option("recording", rep_a.path, "A .lsr recording")->required()->check(CLI::ExistingFile);
  replay->add_option("--from", rep_a.from, "First tick to check (starts from the nearest keyframe)")->check(CLI::NonNegativeNumber);
  replay->add_option("--to", rep_a.to, "Stop before this tick")->check(CLI::NonNegativeNumber);
  replay->add_flag("--synctest", rep_a.synctest,
                   "Every tick, also snapshot the state, restore it into a fresh world, step both and compare:\n"
                   "catches state that snapshots forget");
  replay->add_flag("--allow-truncated", rep_a.allow_truncated, "Accept a recording cut off after a complete chunk (exit 0 when its ticks match)");
  replay->add_flag("--json", rep_a.json, "Print a JSON result");
  replay->footer("\nExit 0 when every tick matches, 1 at a divergence (the tick, the subsystems, whether it\n"
                 "re-converges), 2 for a damaged or unreadable recording.");

  std::string insp_path;
  bool insp_json = false;
  auto* inspect = app.add_subcommand("inspect", "Show a recording's header, build, ticks, chunks, keyframes, sizes and damage");
  inspect->add_option("recording", insp_path, "A .lsr recording")->required()->check(CLI::ExistingFile);
  inspect->add_flag("--json", insp_json, "Print JSON");

  ExportArgs exp_a;
  auto* exportc = app.add_subcommand("export", "Per-tick values of chosen fields, re-simulated from a recording");
  exportc->add_option("recording", exp_a.path, "A .lsr recording")->required()->check(CLI::ExistingFile);
  exportc->add_option("--fields,-f", exp_a.fields,
                      "Field paths or globs: entities[*].position, entities[3].yaw, rng, **.hitwall")
      ->required();
  exportc->add_option("--format", exp_a.format, "csv or jsonl")->check(CLI::IsMember({"csv", "jsonl"}));
  exportc->add_option("--from", exp_a.from, "First tick")->check(CLI::NonNegativeNumber);
  exportc->add_option("--to", exp_a.to, "Last tick")->check(CLI::NonNegativeNumber);
  exportc->add_flag("--hex", exp_a.hex, "Floats as hex bits (0x3f800000) instead of shortest exact decimals");
  exportc->footer("\nExample:\n  lockstep export yard.lsr --fields 'entities[0].position' entities[0].forcemove --from 100 --to 200\n"
                  "Floats print as the shortest decimal that reads back to the same bits.");

  DiffArgs diff_a;
  auto* diffc = app.add_subcommand("diff", "Compare two recordings: the first divergent tick, subsystem and field");
  diffc->add_option("a", diff_a.a, "The first recording")->required()->check(CLI::ExistingFile);
  diffc->add_option("b", diff_a.b, "The second recording")->required()->check(CLI::ExistingFile);
  diffc->add_flag("--all", diff_a.all, "List every divergent field at the first divergent tick");
  diffc->add_option("--ignore", diff_a.ignore, "Field-path globs declared harmless (e.g. 'entities[*].smoke_played')");
  diffc->add_option("--ignore-file", diff_a.ignore_file, "A file of such globs, one per line, # comments")->check(CLI::ExistingFile);
  diffc->add_flag("--json", diff_a.json, "Print JSON");
  diffc->footer("\nScans both hash chains for the first divergent tick, rebuilds both states there (nearest\n"
                "keyframe, then each recording's own inputs) and walks the fields in listing order.\n"
                "Exit 0 same, 1 divergent (or of different lengths), 2 bad input.");

  GateArgs gate_a;
  auto* gate = app.add_subcommand("gate", "Run scenarios against their golden recordings: the CI gate");
  gate->add_option("gatefile", gate_a.file, "A gate file (JSON: scenarios, ticks, golden recordings)")->required()->check(CLI::ExistingFile);
  gate->add_option("--junit", gate_a.junit, "Write JUnit XML here: one test case per scenario");
  gate->add_flag("--update", gate_a.update, "Write the golden recordings that are missing or differ (review the change!)");
  gate->add_option("--shard", gate_a.shard, "Run shard I of N (scenarios whose index modulo N is I-1)");
  gate->add_flag("--json", gate_a.json, "Print JSON");
  gate->footer("\nExample:\n  lockstep gate fixtures/gate.json --junit gate.xml\n"
               "Exit 0 when every scenario matches its golden recording, 1 at the first divergence of any\n"
               "(the report is lockstep diff's), 2 for a bad gate file, scenario or golden recording.");

  BisectArgs bis_a;
  auto* bisect = app.add_subcommand("bisect", "Find where runs part: over keyframes, across two builds, or across commits");
  bisect->add_flag("--ticks", bis_a.ticks, "A.lsr B.lsr: binary search over common keyframes, then re-simulate");
  bisect->add_option("--exe-a", bis_a.exe_a, "RUN.lsr under two lockstep executables, as separate processes");
  bisect->add_option("--exe-b", bis_a.exe_b, "The second executable");
  bisect->add_option("--git", bis_a.git, "GOOD BAD RUN.lsr: drive git bisect run with a build-and-replay step")
      ->expected(2)
      ->allow_extra_args(false);
  bisect->add_option("--repo", bis_a.repo, "The repository for --git (default: .)");
  bisect->add_option("--run", bis_a.run_cmd,
                     "The step for --git, run by sh in the checked-out tree: exit 0 good, 1-124 bad, 125 skip\n"
                     "(default: build lockstep there and replay the recording; $LOCKSTEP_RECORDING names it)");
  bisect->add_option("files", bis_a.files, "Recordings");
  bisect->footer("\nExamples:\n  lockstep bisect --ticks a.lsr b.lsr\n  lockstep bisect --exe-a build-gcc/lockstep --exe-b build-clang/lockstep run.lsr\n"
                 "  lockstep bisect --git v1.0 HEAD run.lsr\nExit 0 when nothing parts, 1 with the answer, 2 for bad input.");

  std::string chain_path;
  auto* chain = app.add_subcommand("chain", "Plumbing: re-simulate a recording, print this build's hash after every tick");
  chain->add_option("recording", chain_path, "A .lsr recording")->required()->check(CLI::ExistingFile);
  chain->group("Plumbing");
  std::string state_path, state_out;
  long long state_tick = -1;
  bool state_json = false;
  auto* statec = app.add_subcommand("state", "Plumbing: this build's state at a tick of a recording (snapshot or JSON)");
  statec->add_option("recording", state_path, "A .lsr recording")->required()->check(CLI::ExistingFile);
  statec->add_option("--tick", state_tick, "The state when the model's tick is this")->required();
  statec->add_option("-o,--output", state_out, "Write the snapshot (cereal portable binary) here");
  statec->add_flag("--json", state_json, "Print the state as JSON instead");
  statec->group("Plumbing");

  auto traces = lockstep::traces::add_commands(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    std::fprintf(stderr, "Run 'lockstep --help' for usage.\n");
    return kExitBadInput;
  }

  try {
    if (run->parsed()) return cmd_run(scenario, ticks, json);
    if (fieldsc->parsed()) return cmd_fields(fields_scenario, fields_globs, fields_json);
    if (trajc->parsed()) return cmd_trajectory(traj_a);
    if (record->parsed()) return cmd_record(rec_a);
    if (replay->parsed()) return cmd_replay(rep_a);
    if (inspect->parsed()) return cmd_inspect(insp_path, insp_json);
    if (exportc->parsed()) return cmd_export(exp_a);
    if (diffc->parsed()) return cmd_diff(diff_a);
    if (gate->parsed()) return cmd_gate(gate_a);
    if (traces->parsed()) return traces->run();
    if (bisect->parsed()) return cmd_bisect(bis_a);
    if (chain->parsed()) return cmd_chain(chain_path);
    if (statec->parsed()) {
      if (!state_json && state_out.empty()) throw lockstep::InputError("", "state", "give -o FILE or --json");
      return cmd_state(state_path, state_tick, state_out, state_json);
    }
  } catch (const lockstep::InputError& e) {
    std::fprintf(stderr, "lockstep: %s\n", e.what());
    return kExitBadInput;
  } catch (const lockstep::trajectory::TrajectoryError& e) {
    std::fprintf(stderr, "lockstep: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lockstep: internal error: %s\n", e.what());
    return 3;
  }
  return kExitBadInput;
}
