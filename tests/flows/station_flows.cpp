// The station model's flow validation (issue 14; docs/validation.md, "Flows").
// Runs the scenarios tools/make-station-flows writes, records each run's
// trajectories and computes PedPy's measures from them (measures.h), then
// checks each experiment against its published band.
//
//   station_flows [--quick] [--only SUBSTRING] [--csv DIR] [--jobs N] [--dir FIXTURES]
//   station_flows --steady FILE   (the steady intervals of a density/speed series; see steady_file)
//
// Exit 0: every required check passes (the open criteria of issue 14 are
// reported, not failed); 1: a required one fails; 2: bad usage or input.
#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lockstep/core/json_load.h"
#include "measures.h"
#include "station/station.h"

using namespace lockstep;
using namespace lockstep::station;
using flows::Agent;
using flows::P2;
using flows::Poly;

namespace {

struct Options {
  bool quick = false;
  std::string only, csv, dir = LOCKSTEP_FLOWS_DIR;
  unsigned jobs = 2;
};

struct Result {
  std::string file, kind, summary;
  bool pass = true;
  bool required = true;  ///< false: a criterion of issue 14 not met yet, reported as open
  std::vector<std::string> failures;
  std::map<std::string, std::string> csv;  // file name -> body
  // For the cross-experiment checks (bottleneck linearity, the FD's two branches).
  double width = 0, flow = 0;
  std::vector<std::pair<double, double>> fd;  // (Voronoi density, Voronoi speed) samples
  std::string branch;
};

void fail(Result& r, const std::string& what) {
  r.pass = false;
  r.failures.push_back(what);
}

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

Poly box_of(const Json& a) { return flows::box(a[0].get<double>(), a[1].get<double>(), a[2].get<double>(), a[3].get<double>()); }

struct Run {
  flows::Trajectory traj;
  std::vector<int> dest;    // per walker id: destination portal
  std::vector<int> origin;  // per walker id: origin portal (-1 placed)
  std::vector<int64_t> done_tick;
  uint64_t ticks = 0;
  uint32_t placed = 0, spawned = 0, done = 0, failed_spawns = 0;
  std::vector<std::string> portal_ids;
};

Run simulate(const std::string& path) {
  JsonReader r(path);
  StationModel m(StationModel::load_scenario(parse_json_file(path), r));
  Run run;
  run.ticks = m.scenario().ticks;
  run.placed = static_cast<uint32_t>(m.scenario().walkers.size());
  for (const auto& p : m.scenario().portals) run.portal_ids.push_back(p.id);
  run.traj.frame_rate = 20.0;
  auto record = [&] {
    std::vector<Agent> f;
    for (uint32_t i = 0; i < m.state().walkers.size(); ++i) {
      const Walker& w = m.state().walkers[i];
      if (w.phase == Phase::Walking) f.push_back(Agent{i, w.pos.x, w.pos.y});
    }
    run.traj.frames.push_back(std::move(f));
  };
  record();
  // STATION_FLOWS_DEBUG="TICK X Y R": the walkers within R of (X, Y) at that tick, on stderr.
  const char* dbg = std::getenv("STATION_FLOWS_DEBUG");  // tick 0: every tick
  double dt_ = -1, dx = 0, dy = 0, dr = 0;
  if (dbg) std::sscanf(dbg, "%lf %lf %lf %lf", &dt_, &dx, &dy, &dr);
  for (uint64_t k = 0; k < run.ticks; ++k) {
    m.step(m.scripted_input());
    record();
    if (static_cast<double>(k + 1) == dt_ || (dt_ == 0 && k % 10 == 0))
      for (uint32_t i = 0; i < m.state().walkers.size(); ++i) {
        const Walker& w = m.state().walkers[i];
        if (w.phase == Phase::Walking && std::hypot(w.pos.x - dx, w.pos.y - dy) < dr)
          std::fprintf(stderr, "%u pos %.3f %.3f vel %.3f %.3f dir %.3f %.3f drive %.2f %.2f headway %.3f stuck %.2f yaw %.2f\n", i, w.pos.x, w.pos.y,
                       w.vel.x, w.vel.y, w.dir.x, w.dir.y, w.drive.x, w.drive.y, w.headway, w.stuck_s, w.sight_yaw);
      }
  }
  for (const Walker& w : m.state().walkers) {
    run.dest.push_back(static_cast<int>(w.destination));
    run.origin.push_back(w.origin);
    run.done_tick.push_back(w.phase == Phase::Done ? static_cast<int64_t>(w.done_tick) : -1);
  }
  run.spawned = m.state().stats.spawned;
  run.done = m.state().stats.done;
  for (const auto& p : m.state().portals) run.failed_spawns += p.failed;
  return run;
}

// ---- bottleneck: N-t at the line, steady-state flow (20 % .. 80 % of the crossings), everyone out.
void bottleneck(const Json& e, const Run& run, Result& r) {
  const double b = e["width"].get<double>();
  const P2 a{e["line"][0][0].get<double>(), e["line"][0][1].get<double>()}, c{e["line"][1][0].get<double>(), e["line"][1][1].get<double>()};
  const auto cr = flows::crossing_frames(run.traj, a, c);
  const double J = flows::flow_between(cr, run.traj.frame_rate, 0.2, 0.8);
  const uint32_t n = e["walkers"].get<uint32_t>();
  int64_t last = -1;
  for (auto t : run.done_tick) last = std::max(last, t);
  r.width = b;
  r.flow = J;
  r.summary = fmt("b %.1f m: J %.3f /s, Js %.3f /(m s), %u of %u out%s", b, J, J / b, run.done, n,
                  run.done == n ? fmt(" in %.1f s", last / 20.0).c_str() : "");
  if (run.done != n) fail(r, fmt("%u walkers still inside after %.0f s (clogging)", n - run.done, run.ticks / 20.0));
  if (J / b < 1.61 || J / b > 2.31) fail(r, fmt("specific flow %.3f outside 1.61 .. 2.31 /(m s)", J / b));
  std::string body = "frame,time_s,n\n";
  for (std::size_t k = 0; k < cr.size(); ++k) body += fmt("%u,%.2f,%zu\n", cr[k], cr[k] / 20.0, k + 1);
  r.csv["nt_" + r.file.substr(0, r.file.size() - 5) + ".csv"] = body;
}

// ---- RiMEA 13: the flow on the stair is lower than in the corridor before it; everyone out.
void stair_jam(const Json& e, const Run& run, Result& r) {
  auto line_of = [&](const char* key) {
    return std::pair<P2, P2>{P2{e[key][0][0].get<double>(), e[key][0][1].get<double>()},
                             P2{e[key][1][0].get<double>(), e[key][1][1].get<double>()}};
  };
  const auto [ca, cb] = line_of("corridor_line");
  const auto [sa, sb] = line_of("stair_line");
  const auto cc = flows::crossing_frames(run.traj, ca, cb);
  const auto cs = flows::crossing_frames(run.traj, sa, sb);
  const double jc = flows::flow_between(cc, run.traj.frame_rate, 0.2, 0.8);
  const double js = flows::flow_between(cs, run.traj.frame_rate, 0.2, 0.8);
  const uint32_t n = e["walkers"].get<uint32_t>();
  int64_t last = -1;
  for (auto t : run.done_tick) last = std::max(last, t);
  r.summary = fmt("corridor J %.3f /s, stair J %.3f /s (%.0f %%), %u of %u out%s", jc, js, jc > 0 ? 100.0 * js / jc : 0.0, run.done, n,
                  run.done == n ? fmt(" in %.1f s", last / 20.0).c_str() : "");
  if (run.done != n) fail(r, fmt("%u walkers not out after %.0f s", n - run.done, run.ticks / 20.0));
  if (!(js < jc - 0.05)) fail(r, fmt("the stair's flow %.3f is not below the corridor's %.3f (by 0.05 /s)", js, jc));
  std::string body = "line,frame,time_s,n\n";
  for (std::size_t k = 0; k < cc.size(); ++k) body += fmt("corridor,%u,%.2f,%zu\n", cc[k], cc[k] / 20.0, k + 1);
  for (std::size_t k = 0; k < cs.size(); ++k) body += fmt("stair,%u,%.2f,%zu\n", cs[k], cs[k] / 20.0, k + 1);
  r.csv["nt_" + r.file.substr(0, r.file.size() - 5) + ".csv"] = body;
}

// ---- door: every walker arrives.
void door(const Json& e, const Run& run, Result& r) {
  const uint32_t n = e["walkers"].get<uint32_t>();
  std::string stuck;
  double slowest = 0;
  for (uint32_t i = 0; i < run.done_tick.size(); ++i) {
    if (run.done_tick[i] < 0) stuck += fmt(" %u", i);
    else slowest = std::max(slowest, run.done_tick[i] / 20.0);
  }
  r.summary = fmt("%s %.2f m: %u of %u through, slowest %.1f s", e["door"].get<std::string>().c_str(), e["width"].get<double>(), run.done, n, slowest);
  if (run.done != n) fail(r, "walkers that never passed:" + stuck);
}

// Which way a walker of a corridor goes: +1 toward larger x (or y), -1 back.
int heading(const Run& run, uint32_t id) {
  const std::string d = run.portal_ids[static_cast<std::size_t>(run.dest[id])];
  return d.rfind("east", 0) == 0 || d.rfind("north", 0) == 0 ? 1 : -1;
}

// ---- counter-flow, crossing, opening: throughput each way at steady state, standing walkers, keep side.
void streams(const Json& e, const Run& run, Result& r, bool lanes) {
  const double rate = e["rate_per_min"].get<double>();
  const double from = e["from"].get<double>();
  const Poly area = box_of(e["area"]);
  const double end = run.ticks / 20.0;
  // Throughput: arrivals at each destination from `from` to the end, per minute.
  std::map<int, int> arrived;
  for (uint32_t i = 0; i < run.done_tick.size(); ++i)
    if (run.done_tick[i] >= 0 && run.done_tick[i] / 20.0 >= from) ++arrived[run.dest[i]];
  const auto sp = flows::individual_speeds(run.traj, 5);
  // Standing: the longest stretch each walker spends inside the area below 0.1 m/s.
  std::vector<int> stretch(run.dest.size(), 0), longest(run.dest.size(), 0);
  uint64_t on_keep = 0, counted = 0;
  const bool keep_right = true;
  double speed_sum = 0;
  uint64_t speed_n = 0;
  for (std::size_t k = 0; k < run.traj.frames.size(); ++k) {
    const auto& f = run.traj.frames[k];
    for (std::size_t q = 0; q < f.size(); ++q) {
      const Agent& g = f[q];
      const bool in = flows::inside(area, P2{g.x, g.y});
      const double v = sp.at[k][q];
      if (in && !std::isnan(v) && v < 0.1) {
        if (++stretch[g.id] > longest[g.id]) longest[g.id] = stretch[g.id];
      } else {
        stretch[g.id] = 0;
      }
      if (in && k / 20.0 >= from && !std::isnan(v)) speed_sum += v, ++speed_n;
      if (lanes && in && k / 20.0 >= from) {
        const int h = heading(run, g.id);
        const double c = e["centre"].get<double>();
        // Keep right: heading +x, the right is -y.
        const bool right = h > 0 ? g.y < c : g.y > c;
        on_keep += right == keep_right ? 1 : 0;
        ++counted;
      }
    }
  }
  if (lanes) {
    // A lane picture: everyone walking at 120 s (or the last frame), with the way they go.
    const std::size_t k = std::min<std::size_t>(120 * 20, run.traj.frames.size() - 1);
    std::string body = "x,y,heading\n";
    for (const Agent& g : run.traj.frames[k]) body += fmt("%.3f,%.3f,%d\n", g.x, g.y, heading(run, g.id));
    r.csv["lanes_" + r.file.substr(0, r.file.size() - 5) + ".csv"] = body;
  }
  int jammed = 0;
  for (int l : longest) jammed += l >= 200 ? 1 : 0;
  const double window = (end - from) / 60.0;
  std::string tp;
  double worst = 1e9;
  for (std::size_t p = 0; p < run.portal_ids.size(); ++p) {
    bool is_dest = false;
    for (int d : run.dest) is_dest = is_dest || d == static_cast<int>(p);
    if (!is_dest) continue;
    const double per_min = arrived[static_cast<int>(p)] / window;
    worst = std::min(worst, per_min / rate);
    tp += fmt(" to %s %.0f/min", run.portal_ids[p].c_str(), per_min);
  }
  const double keep = counted ? static_cast<double>(on_keep) / counted : 0;
  const double mean_v = speed_n ? speed_sum / speed_n : 0;
  r.summary = fmt("%.0f/min each:%s (%.0f %% of inflow), mean speed %.2f m/s, %d standing >= 10 s, %u spawn ticks waited",
                  rate, tp.c_str(), 100 * worst, mean_v, jammed, run.failed_spawns);
  if (lanes) r.summary += fmt(", keep side %.0f %%", 100 * keep);
  const bool over = e.contains("over") && e["over"].get<bool>();
  if (over) {
    // Beyond capacity: queues at the ends are allowed, the middle keeps moving.
    if (jammed > 0) fail(r, fmt("%d walkers stood 10 s or more in the middle", jammed));
    if (mean_v < 0.3) fail(r, fmt("the middle's mean speed %.2f m/s: not moving", mean_v));
  } else {
    if (worst < 0.9) fail(r, fmt("throughput %.0f %% of the inflow (at least 90 %%)", 100 * worst));
    if (jammed > 0) fail(r, fmt("%d walkers stood 10 s or more (gridlock)", jammed));
    if (lanes && keep < 0.8) fail(r, fmt("%.0f %% on the keep side (at least 80 %%)", 100 * keep));
  }
}

// ---- fundamental diagram, in the run's steady state (docs/validation.md, "Steady state"): the
// classic density and mean individual speed in the area every frame (the corridor series' own
// measure) give the steady frames; the Voronoi density and speed are sampled every 10th of them.
struct ClassicSeries {
  std::vector<std::size_t> frame;
  std::vector<double> rho, v;
};
ClassicSeries classic_series(const Run& run, const flows::Speeds& sp, const Poly& area) {
  ClassicSeries c;
  const double a = flows::area_of(area);
  for (std::size_t k = 0; k < run.traj.frames.size(); ++k) {
    int n = 0, nv = 0;
    double vs = 0;
    for (std::size_t i = 0; i < run.traj.frames[k].size(); ++i) {
      const Agent& g = run.traj.frames[k][i];
      if (!flows::inside(area, P2{g.x, g.y})) continue;
      ++n;
      if (!std::isnan(sp.at[k][i])) vs += sp.at[k][i], ++nv;
    }
    if (nv == 0) continue;  // nobody with a speed in the area: no sample (as the series' tool)
    c.frame.push_back(k);
    c.rho.push_back(n / a);
    c.v.push_back(vs / nv);
  }
  return c;
}

// The steady intervals, in the samples' own indices, of both series against the middle third;
// none when the density drifts by a fifth or more over them (a ramp is not a steady state).
std::vector<flows::Interval> steady_of(const std::vector<double>& rho, const std::vector<double>& v, double* drift = nullptr) {
  const std::size_t lo = rho.size() / 3, hi = (2 * rho.size()) / 3;
  auto s = flows::intersect(flows::steady_intervals(rho, lo, hi), flows::steady_intervals(v, lo, hi));
  const double d = flows::drift_of(rho, s);
  if (drift) *drift = d;
  if (std::fabs(d) >= flows::kSteadyMaxDrift) s.clear();
  return s;
}

void fd(const Json& e, const Run& run, Result& r) {
  const Poly area = box_of(e["area"]), bounds = box_of(e["bounds"]);
  const auto sp = flows::individual_speeds(run.traj, 5);
  const ClassicSeries cs = classic_series(run, sp, area);
  double drift = 0;
  const auto steady = steady_of(cs.rho, cs.v, &drift);
  std::vector<char> keep(run.traj.frames.size(), 0);
  std::size_t steady_frames = 0;
  std::string spans;
  for (const auto& iv : steady) {
    for (std::size_t k = iv.begin; k <= iv.end; ++k) keep[cs.frame[k]] = 1;
    steady_frames += iv.end - iv.begin + 1;
    spans += fmt("%s%.1f..%.1f s", spans.empty() ? "" : ", ", cs.frame[iv.begin] / 20.0, cs.frame[iv.end] / 20.0);
  }
  std::string body = "time_s,classic_density,voronoi_density,voronoi_speed\n";
  double ds = 0, vs = 0;
  int n = 0, outside = 0, checked = 0;
  for (std::size_t k = 0; k < run.traj.frames.size(); k += 10) {
    if (!keep[k]) continue;
    const auto vm = flows::voronoi_measure(run.traj.frames[k], sp.at[k], bounds, area, 1.0);
    const double cd = flows::classic_density(run.traj.frames[k], area);
    if (!(vm.density > 0.05)) continue;
    body += fmt("%.2f,%.4f,%.4f,%.4f\n", k / 20.0, cd, vm.density, vm.speed);
    const double v = vm.speed;
    r.fd.emplace_back(vm.density, v);
    ds += vm.density, vs += v, ++n;
  }
  r.csv["fd_" + r.file.substr(0, r.file.size() - 5) + ".csv"] = body;  // header only when nothing is steady
  r.branch = e["branch"].get<std::string>();
  if (r.branch != "inflow" && r.branch != "queue") {
    fail(r, "branch \"" + r.branch + "\": expected inflow or queue");
    return;
  }
  if (n == 0) {
    fail(r, cs.frame.empty() ? "nobody measured"
                             : fmt("no steady state (the density drifts %.0f %% over the frames the CUSUM keeps)", 100 * drift));
    return;
  }
  const double rho = ds / n, v = vs / n;
  const auto branch = r.branch == "queue" ? lockstep::corridor_series::Branch::Queue : lockstep::corridor_series::Branch::Inflow;
  const double lo = flows::band_lo(rho, branch), hi = flows::band_hi(rho, branch);
  if (rho >= 0.5 && rho <= 3.0) {
    ++checked;
    if (v < lo || v > hi) ++outside;
  }
  r.summary = fmt("%s: rho %.2f /m^2, v %.2f m/s (Weidmann %.2f, band %.2f .. %.2f), Js %.2f /(m s); steady %s (%zu of %zu frames)",
                  r.branch.c_str(), rho, v, flows::weidmann(rho), lo, hi, rho * v, spans.c_str(), steady_frames, cs.frame.size());
  if (outside) fail(r, fmt("mean speed %.2f m/s at %.2f /m^2 outside the band %.2f .. %.2f", v, rho, lo, hi));
}

// ok: passes; FAIL: a required check fails; open: a criterion not met yet;
// ok*: an open one that passes now (make it required in tools/make-station-flows).
const char* verdict(const Result& r) { return r.pass ? (r.required ? "ok" : "ok*") : (r.required ? "FAIL" : "open"); }

Result run_one(const Options& o, const Json& e) {
  Result r;
  r.file = e["file"].get<std::string>();
  r.kind = e["kind"].get<std::string>();
  r.required = !e.contains("required") || e["required"].get<bool>();
  try {
    const Run run = simulate(o.dir + "/" + r.file);
    if (r.kind == "bottleneck") bottleneck(e, run, r);
    else if (r.kind == "door") door(e, run, r);
    else if (r.kind == "counterflow") streams(e, run, r, true);
    else if (r.kind == "crossing" || r.kind == "opening") streams(e, run, r, false);
    else if (r.kind == "fd") fd(e, run, r);
    else if (r.kind == "stair_jam") stair_jam(e, run, r);
    else fail(r, "unknown kind " + r.kind);
  } catch (const std::exception& x) {
    fail(r, x.what());
  }
  return r;
}

// --steady FILE: the steady intervals of a two-column series (density, speed; one sample a line),
// as fd() finds them; one "begin end" line each (sample indices). For the test that the corridor
// series' tool and this runner select the same frames.
int steady_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "station_flows: %s: cannot open\n", path.c_str());
    return 2;
  }
  std::vector<double> rho, v;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    double a = 0, b = 0;
    char extra = 0;
    if (std::sscanf(line.c_str(), "%lf %lf %c", &a, &b, &extra) != 2) {
      std::fprintf(stderr, "station_flows: %s:%d: expected two numbers\n", path.c_str(), lineno);
      return 2;
    }
    rho.push_back(a), v.push_back(b);
  }
  for (const auto& iv : steady_of(rho, v)) std::printf("%zu %zu\n", iv.begin, iv.end);
  return 0;
}

int usage(const char* why) {
  std::fprintf(stderr, "station_flows: %s\nusage: station_flows [--quick] [--only SUBSTRING] [--csv DIR] [--jobs N] [--dir FIXTURES] | --steady FILE\n", why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--quick") o.quick = true;
    else if (a == "--steady") {
      const char* v = value();
      if (!v) return usage("--steady needs a file");
      return steady_file(v);
    }
    else if (a == "--only" || a == "--csv" || a == "--dir" || a == "--jobs") {
      const char* v = value();
      if (!v) return usage((a + " needs a value").c_str());
      if (a == "--only") o.only = v;
      else if (a == "--csv") o.csv = v;
      else if (a == "--dir") o.dir = v;
      else {
        char* end = nullptr;
        const long j = std::strtol(v, &end, 10);
        if (*end || j < 1 || j > 64) return usage("--jobs: 1 .. 64");
        o.jobs = static_cast<unsigned>(j);
      }
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: station_flows [--quick] [--only SUBSTRING] [--csv DIR] [--jobs N] [--dir FIXTURES] | --steady FILE\n");
      return 0;
    } else {
      return usage(("unknown argument " + a).c_str());
    }
  }
  Json manifest;
  try {
    manifest = parse_json_file(o.dir + "/manifest.json");
  } catch (const std::exception& x) {
    std::fprintf(stderr, "station_flows: %s\n", x.what());
    return 2;
  }
  std::vector<Json> todo;
  for (const Json& e : manifest["experiments"]) {
    if (o.quick && !e["quick"].get<bool>()) continue;
    if (!o.only.empty() && e["file"].get<std::string>().find(o.only) == std::string::npos) continue;
    todo.push_back(e);
  }
  std::vector<Result> results(todo.size());
  std::atomic<std::size_t> next{0};
  std::mutex out;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<std::size_t>(o.jobs, todo.size()); ++t)
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < todo.size();) {
        results[i] = run_one(o, todo[i]);
        std::lock_guard<std::mutex> g(out);
        std::printf("%-4s %-26s %s\n", verdict(results[i]), results[i].file.c_str(), results[i].summary.c_str());
        for (const auto& f : results[i].failures) std::printf("       - %s\n", f.c_str());
        std::fflush(stdout);
      }
    });
  for (auto& t : pool) t.join();
  bool pass = true;
  int open = 0, now_met = 0;
  for (const auto& r : results) {
    pass = pass && (r.pass || !r.required);
    open += !r.pass && !r.required ? 1 : 0;
    now_met += r.pass && !r.required ? 1 : 0;
  }

  // Across experiments: bottleneck flow linear in the width.
  std::vector<double> bw, bj;
  for (const auto& r : results)
    if (r.kind == "bottleneck" && r.flow > 0) bw.push_back(r.width), bj.push_back(r.flow);
  if (bw.size() >= 3) {
    // Required since station model version 4.
    const auto f = flows::fit_line(bw, bj);
    const bool ok = f.r2 >= 0.98;
    std::printf("%-4s %-26s J = %.3f + %.3f b, R^2 %.4f (at least 0.98)\n", ok ? "ok" : "FAIL", "bottleneck linearity", f.a, f.b, f.r2);
    pass = pass && ok;
  }
  // Across experiments: one speed-density relation whether the density comes
  // from the inflow or from a queue. Every steady sample, binned by 0.25 /m^2:
  // where both branches have 20 samples or more in a bin, their mean speeds
  // within 0.15 m/s -- at the densities where the corridor series itself is one
  // relation in steady state (both its branches have the bin, medians within
  // 0.15 m/s). Measured in steady state, the series has no such density: its
  // queues stand from 1.5 /m^2, where its free stream walks 0.4 m/s faster
  // (docs/validation.md, "Steady state"), so the check is reported, not asked.
  using lockstep::corridor_series::Branch;
  std::map<int, std::pair<std::vector<double>, std::vector<double>>> bins;
  double in_lo = 1e9, in_hi = 0, q_lo = 1e9, q_hi = 0;
  for (const auto& r : results)
    for (const auto& [rho, v] : r.fd) {
      const int b = static_cast<int>(rho / 0.25);
      (r.branch == "queue" ? bins[b].second : bins[b].first).push_back(v);
      double& lo = r.branch == "queue" ? q_lo : in_lo;
      double& hi = r.branch == "queue" ? q_hi : in_hi;
      lo = std::min(lo, rho), hi = std::max(hi, rho);
    }
  int compared = 0;
  for (const auto& [b, vv] : bins) {
    if (vv.first.size() < 20 || vv.second.size() < 20) continue;
    ++compared;
    double m1 = 0, m2 = 0;
    for (double v : vv.first) m1 += v;
    for (double v : vv.second) m2 += v;
    m1 /= static_cast<double>(vv.first.size());
    m2 /= static_cast<double>(vv.second.size());
    const double mid = (b + 0.5) * 0.25;
    const auto* si = lockstep::corridor_series::bin_at(Branch::Inflow, mid);
    const auto* sq = lockstep::corridor_series::bin_at(Branch::Queue, mid);
    const bool one = si && sq && std::fabs(si->p50 - sq->p50) <= 0.15;
    const bool ok = std::fabs(m1 - m2) <= 0.15;
    if (!one) {
      std::printf("%-4s %-26s %.2f .. %.2f /m^2: inflow %.2f m/s (%zu), queue %.2f m/s (%zu); not asked: the corridor series %s\n", "--",
                  "fd one relation", b * 0.25, (b + 1) * 0.25, m1, vv.first.size(), m2, vv.second.size(),
                  !si || !sq ? "lacks a branch here" : fmt("is two relations here (%.2f / %.2f m/s)", si->p50, sq->p50).c_str());
      continue;
    }
    std::printf("%-4s %-26s %.2f .. %.2f /m^2: inflow %.2f m/s (%zu), queue %.2f m/s (%zu)\n", ok ? "ok" : "FAIL", "fd one relation",
                b * 0.25, (b + 1) * 0.25, m1, vv.first.size(), m2, vv.second.size());
    pass = pass && ok;
  }
  if (compared == 0 && in_hi > 0 && q_hi > 0)
    std::printf("%-4s %-26s no density with 20 steady samples of both branches (inflow %.2f .. %.2f, queue %.2f .. %.2f /m^2)\n", "--",
                "fd one relation", in_lo, in_hi, q_lo, q_hi);
  if (!o.csv.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.csv, ec);
    auto write = [&](const std::string& name, const std::string& body) {
      std::ofstream f(o.csv + "/" + name);
      f << body;
      if (!f) {
        std::fprintf(stderr, "station_flows: --csv %s: cannot write %s\n", o.csv.c_str(), name.c_str());
        std::exit(2);
      }
    };
    for (const auto& r : results)
      for (const auto& [name, body] : r.csv) write(name, body);
    std::ostringstream s;
    s << "file,kind,pass,width,flow,summary\n";
    for (const auto& r : results) s << r.file << "," << r.kind << "," << (r.pass ? 1 : 0) << "," << r.width << "," << r.flow << ",\"" << r.summary << "\"\n";
    write("summary.csv", s.str());
  }
  std::printf("%s; %d open criteria of issue 14 not met yet%s\n", pass ? "every required check passed" : "FAILED", open,
              now_met ? fmt(", %d open ones met now (ok*): make them required", now_met).c_str() : "");
  return pass ? 0 : 1;
}
