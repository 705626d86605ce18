// lockstep profile SCENARIO|RUN.lsr -o trace.json: where tick time goes. Every tick's step, its
// phases (the model contract's phase observer, lockstep/core/phases.h) and the recorder's own
// phases are timed here, outside core/, and written in the Trace Event Format (Perfetto,
// chrome://tracing); a summary table of the phases and the slowest ticks goes to stdout.
// docs/profile.md.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/pool/thread_pool.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/replay/replay.h"
#include "progress.h"

namespace lockstep::cli {

namespace {

// ---- the timeline: marks taken by the observers during a tick, turned into spans after it

/// What a mark is: a begin or an end of one of these, with the phase's index for the phases.
enum class Mark : uint8_t { Tick, Step, Phase, Record, RecordPhase, Finish };

struct Stamp {
  int64_t raw;  ///< the profile's clock (Clock), in its own units
  Mark what;
  bool begin;
  uint32_t id;  ///< the phase's index (Phase, RecordPhase)
};

inline int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// The clock the stamps read. A stamp's cost is what the phases cannot see between them (about
/// two clock reads for each boundary), so the cheapest clock that keeps time: on x86-64 with an
/// invariant TSC (constant_tsc and nonstop_tsc in /proc/cpuinfo) the TSC, about 10 ns a read
/// against the steady clock's 25 to 30, converted to ns by a rate measured against the steady
/// clock over 20 ms; elsewhere the steady clock.
class Clock {
 public:
  Clock() {
#if defined(__x86_64__)
    tsc_ = invariant_tsc();
    if (tsc_) {
      const int64_t n0 = steady_ns();
      const int64_t r0 = static_cast<int64_t>(__rdtsc());
      int64_t n1 = n0;
      while (n1 - n0 < 20'000'000) n1 = steady_ns();
      const int64_t r1 = static_cast<int64_t>(__rdtsc());
      ns_per_raw_ = static_cast<double>(n1 - n0) / static_cast<double>(r1 - r0);
      if (!(ns_per_raw_ > 0)) tsc_ = false, ns_per_raw_ = 1;
    }
#endif
  }
  int64_t now() const {
#if defined(__x86_64__)
    if (tsc_) return static_cast<int64_t>(__rdtsc());
#endif
    return steady_ns();
  }
  double ns(int64_t raw_span) const { return static_cast<double>(raw_span) * ns_per_raw_; }
  const char* name() const { return tsc_ ? "the TSC" : "the steady clock"; }

 private:
  static bool invariant_tsc() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("flags", 0) == 0)
        return line.find(" constant_tsc") != std::string::npos && line.find(" nonstop_tsc") != std::string::npos;
    return false;
  }
  bool tsc_ = false;
  double ns_per_raw_ = 1;
};

/// Collects the stamps of one tick. Taking one is a clock read and a push into reserved space:
/// all the observers do while the step runs.
class Timeline {
 public:
  Timeline() { stamps_.reserve(256); }
  void stamp(Mark what, bool begin, uint32_t id = 0) { stamps_.push_back({clock_.now(), what, begin, id}); }
  std::vector<Stamp>& stamps() { return stamps_; }
  const Clock& clock() const { return clock_; }

 private:
  Clock clock_;
  std::vector<Stamp> stamps_;
};

/// The model's observer: its step (from the adapter) and its phases.
class ModelWatch final : public PhaseObserver {
 public:
  explicit ModelWatch(Timeline& t) : t_(t) {}
  void step_begin(uint64_t) override { t_.stamp(Mark::Step, true); }
  void step_end(uint64_t) override { t_.stamp(Mark::Step, false); }
  void phase_begin(uint32_t p) override { t_.stamp(Mark::Phase, true, p); }
  void phase_end(uint32_t p) override { t_.stamp(Mark::Phase, false, p); }

 private:
  Timeline& t_;
};

/// The recorder's observer: hash, snapshot, compress, write.
class RecorderWatch final : public PhaseObserver {
 public:
  explicit RecorderWatch(Timeline& t) : t_(t) {}
  void phase_begin(uint32_t p) override { t_.stamp(Mark::RecordPhase, true, p); }
  void phase_end(uint32_t p) override { t_.stamp(Mark::RecordPhase, false, p); }

 private:
  Timeline& t_;
};

/// A JSON string literal.
std::string quoted(const std::string& s) { return JsonOut(s).dump(-1, ' ', false, JsonOut::error_handler_t::replace); }

/// The rows of the summary: the model's phases, then what the step spends outside them, the
/// recorder's phases and what it spends outside them, and the tick's rest (the input, its decoding
/// and checks). Per tick, they add up to the tick's time exactly.
struct Rows {
  std::vector<std::string> names;
  std::size_t model = 0;  ///< the model's phases are rows [0, model)
  std::size_t step_other = 0, record_first = 0, record_other = 0, tick_other = 0;
};

Rows make_rows(const std::vector<std::string>& phases) {
  Rows r;
  r.names = phases;
  r.model = phases.size();
  r.step_other = r.names.size();
  r.names.push_back("(step, outside phases)");
  r.record_first = r.names.size();
  for (const auto& n : lsr::Recorder::kPhases) r.names.push_back("record." + std::string(n));
  r.record_other = r.names.size();
  r.names.push_back("(record, other)");
  r.tick_other = r.names.size();
  r.names.push_back("(input and checks)");
  return r;
}

struct RowStats {
  double share = 0, mean = 0, p50 = 0, p99 = 0, max = 0;  ///< share of all tick time; the rest in ns per tick
};

double nearest_rank(const std::vector<int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  auto k = static_cast<std::size_t>(q * static_cast<double>(sorted.size()) + 0.999999);  // ceil(q n), the nearest rank
  k = std::clamp<std::size_t>(k, 1, sorted.size());
  return static_cast<double>(sorted[k - 1]);
}

struct Profiler {
  Profiler(const std::string& trace_path, const Model& m, const std::string& source)
      : out_(trace_path), rows_(make_rows(m.info().phases)) {
    file_ = std::fopen(trace_path.c_str(), "wb");
    if (!file_) throw InputError(trace_path, "", std::string("cannot open for writing: ") + std::strerror(errno));
    const auto& info = m.info();
    cat_ = quoted(info.name);
    for (const auto& p : info.phases) phase_names_.push_back(quoted(p));
    for (const auto& p : lsr::Recorder::kPhases) record_names_.push_back(quoted("record." + std::string(p)));
    per_tick_.resize(rows_.names.size());
    std::fprintf(file_, "{\"traceEvents\":[\n");
    // What Perfetto and chrome://tracing name the track by.
    event("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":" +
          quoted("lockstep profile: " + info.name + " (" + source + ")") + "}}");
    event("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"simulation\"}}");
    event("{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"sort_index\":0}}");
    event("{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"sort_index\":0}}");
    t0_ = timeline.clock().now();
  }
  ~Profiler() {
    if (file_) std::fclose(file_);
  }
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  Timeline timeline;

  /// Before a tick, untimed: the model's entity count (model.h), when it gives one.
  void counter(const Model& m) {
    const auto n = m.entity_count();
    if (!n) return;
    char buf[160];
    std::snprintf(buf, sizeof buf, "{\"name\":\"entities\",\"ph\":\"C\",\"ts\":%s,\"pid\":1,\"tid\":1,\"args\":{\"entities\":%llu}}",
                  q_text(at_q(timeline.clock().now())).c_str(), static_cast<unsigned long long>(*n));
    event(buf);
  }

  /// After a tick: its stamps become the trace's events and the rows' numbers.
  void end_tick(uint64_t tick) {
    std::vector<int64_t> row(rows_.names.size(), 0);
    int64_t tick_ns = 0, step_ns = 0, record_ns = 0, step_phases = 0, record_phases = 0;
    spans(tick, [&](const Stamp& b, int64_t dur) {
      switch (b.what) {
        case Mark::Tick: tick_ns += dur; break;
        case Mark::Step: step_ns += dur; break;
        case Mark::Record: record_ns += dur; break;
        case Mark::Phase:
          row[b.id] += dur;
          step_phases += dur;
          break;
        case Mark::RecordPhase:
          row[rows_.record_first + b.id] += dur;
          record_phases += dur;
          break;
        case Mark::Finish: break;
      }
    });
    row[rows_.step_other] = step_ns - step_phases;
    row[rows_.record_other] = record_ns - record_phases;
    row[rows_.tick_other] = tick_ns - step_ns - record_ns;
    for (std::size_t i = 0; i < row.size(); ++i) per_tick_[i].push_back(row[i]);
    ticks_.push_back(tick);
    tick_ns_.push_back(tick_ns);
    step_ns_total_ += step_ns;
    step_phase_ns_total_ += step_phases;
    if (step_ns > 0) coverage_.push_back(static_cast<double>(step_phases) / static_cast<double>(step_ns));
  }

  /// The recorder's finish (its last chunk, the index): in the trace, not in the per-tick rows.
  void end_finish(uint64_t tick) {
    spans(tick, [&](const Stamp& b, int64_t dur) {
      if (b.what == Mark::Finish) finish_ns_ += dur;
    });
  }

  /// Close the trace file (its last lines: the format's metadata).
  void close(const Model& m, const std::string& source) {
    std::fprintf(file_,
                 "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"tool\":\"lockstep profile\",\"source\":%s,\"model\":%s,"
                 "\"model_version\":%u,\"tick_rate_hz\":%u,\"revision\":%s}}\n",
                 quoted(source).c_str(), cat_.c_str(), m.info().version, m.info().tick_rate_hz,
                 quoted(lsr::this_build().revision).c_str());
    const bool bad = std::ferror(file_) != 0;
    if (std::fclose(file_) != 0 || bad) {
      file_ = nullptr;
      throw InputError(out_, "", "write failed");
    }
    file_ = nullptr;
  }

  const Rows& rows() const { return rows_; }
  uint64_t ticks() const { return ticks_.size(); }
  uint64_t events() const { return events_; }
  int64_t finish_ns() const { return finish_ns_; }
  /// Sum of the model's phases over the sum of its steps, for the whole run.
  double coverage() const {
    return step_ns_total_ > 0 ? static_cast<double>(step_phase_ns_total_) / static_cast<double>(step_ns_total_) : 0;
  }
  /// The median tick's coverage.
  double median_coverage() const {
    if (coverage_.empty()) return 0;
    auto c = coverage_;
    std::nth_element(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(c.size() / 2), c.end());
    return c[c.size() / 2];
  }
  int64_t total_ns() const {
    int64_t t = 0;
    for (auto v : tick_ns_) t += v;
    return t;
  }
  RowStats stats(std::size_t r) const {
    RowStats s;
    auto v = per_tick_[r];
    if (v.empty()) return s;
    int64_t sum = 0;
    for (auto x : v) sum += x;
    std::sort(v.begin(), v.end());
    const int64_t all = total_ns();
    s.share = all > 0 ? static_cast<double>(sum) / static_cast<double>(all) : 0;
    s.mean = static_cast<double>(sum) / static_cast<double>(v.size());
    s.p50 = nearest_rank(v, 0.50);
    s.p99 = nearest_rank(v, 0.99);
    s.max = static_cast<double>(v.back());
    return s;
  }
  RowStats tick_stats() const {
    RowStats s;
    auto v = tick_ns_;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    s.share = 1;
    s.mean = static_cast<double>(total_ns()) / static_cast<double>(v.size());
    s.p50 = nearest_rank(v, 0.50);
    s.p99 = nearest_rank(v, 0.99);
    s.max = static_cast<double>(v.back());
    return s;
  }
  struct Slow {
    uint64_t tick;
    int64_t ns;
    std::size_t row;  ///< its heaviest row
    int64_t row_ns;
  };
  std::vector<Slow> slowest(std::size_t n) const {
    std::vector<std::size_t> idx(tick_ns_.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    n = std::min(n, idx.size());
    // The slowest first; of equal times, the earlier tick.
    std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(n), idx.end(), [&](std::size_t a, std::size_t b) {
      return tick_ns_[a] != tick_ns_[b] ? tick_ns_[a] > tick_ns_[b] : a < b;
    });
    std::vector<Slow> out;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = idx[k];
      std::size_t best = 0;
      for (std::size_t r = 1; r < per_tick_.size(); ++r)
        if (per_tick_[r][i] > per_tick_[best][i]) best = r;
      out.push_back({ticks_[i], tick_ns_[i], best, per_tick_[best][i]});
    }
    return out;
  }

 private:
  void event(const std::string& e) {
    std::fputs(events_ ? ",\n" : "", file_);
    std::fputs(e.c_str(), file_);
    ++events_;
  }

  /// Pair the tick's stamps (they nest: a begin's end comes before its parent's), write each span
  /// as a complete event in the order they began, and hand each to `f`; then forget the stamps.
  template <class F>
  void spans(uint64_t tick, F&& f) {
    auto& st = timeline.stamps();
    struct Open {
      std::size_t stamp, span;
    };
    std::vector<Open> open;
    std::vector<std::pair<std::size_t, int64_t>> done;  // (the begin's stamp, its duration), in begin order
    std::vector<int64_t> end_raw(st.size(), 0);          // by the begin's stamp
    for (std::size_t i = 0; i < st.size(); ++i) {
      const Stamp& s = st[i];
      if (s.begin) {
        if (s.what == Mark::Phase && s.id >= phase_names_.size())
          throw std::runtime_error("the " + std::string(cat_) + " model reported phase " + std::to_string(s.id) +
                                   " at tick " + std::to_string(tick) + ", beyond its " +
                                   std::to_string(phase_names_.size()) + " phases (info().phases)");
        open.push_back({i, done.size()});
        done.emplace_back(i, 0);
        continue;
      }
      if (open.empty() || st[open.back().stamp].what != s.what || st[open.back().stamp].id != s.id)
        throw std::runtime_error("the " + std::string(cat_) + " model's phases do not nest at tick " + std::to_string(tick) +
                                 " (an end without its begin: docs/profile.md)");
      done[open.back().span].second = at_ns(s.raw) - at_ns(st[open.back().stamp].raw);
      end_raw[open.back().stamp] = s.raw;
      open.pop_back();
    }
    if (!open.empty())
      throw std::runtime_error("the " + std::string(cat_) + " model left a phase open at tick " + std::to_string(tick));
    char buf[160];
    for (const auto& [i, dur] : done) {
      const Stamp& b = st[i];
      const std::string* name = nullptr;
      static const std::string kTickName = "\"tick\"", kStepName = "\"step\"", kRecordName = "\"record\"",
                               kFinishName = "\"record.finish\"";
      switch (b.what) {
        case Mark::Tick: name = &kTickName; break;
        case Mark::Step: name = &kStepName; break;
        case Mark::Record: name = &kRecordName; break;
        case Mark::Finish: name = &kFinishName; break;
        case Mark::Phase: name = &phase_names_[b.id]; break;
        case Mark::RecordPhase: name = &record_names_[b.id]; break;
      }
      const int64_t at = at_q(b.raw), end = at_q(end_raw[i]);
      std::snprintf(buf, sizeof buf, ",\"ph\":\"X\",\"ts\":%s,\"dur\":%s,\"pid\":1,\"tid\":1,\"args\":{\"tick\":%llu}}",
                    q_text(at).c_str(), q_text(end - at).c_str(), static_cast<unsigned long long>(tick));
      event("{\"name\":" + *name + ",\"cat\":" + cat_ + buf);
      f(b, dur);
    }
    st.clear();
  }

  /// A stamp's time in whole ns since the profile began.
  int64_t at_ns(int64_t raw) const { return std::llround(timeline.clock().ns(raw - t0_)); }
  /// The same in the trace's unit, 1/1024 us (0.98 ns): a trace's times are microseconds as
  /// decimals, which a reader turns into doubles; multiples of 1/1024 are exact there, so a phase
  /// that ends with its step still ends within it after a reader adds its start and duration.
  int64_t at_q(int64_t raw) const { return std::llround(timeline.clock().ns(raw - t0_) * 1.024); }
  /// q/1024 as an exact decimal.
  static std::string q_text(int64_t q) {
    char b[48];
    const int64_t frac = q % 1024;
    if (frac == 0) std::snprintf(b, sizeof b, "%lld", static_cast<long long>(q / 1024));
    else {
      std::snprintf(b, sizeof b, "%lld.%010lld", static_cast<long long>(q / 1024), static_cast<long long>(frac * 9765625));
      std::size_t n = std::strlen(b);
      while (b[n - 1] == '0') b[--n] = 0;  // no trailing zeros
    }
    return b;
  }

  std::string out_;
  std::FILE* file_ = nullptr;
  Rows rows_;
  std::string cat_;
  std::vector<std::string> phase_names_, record_names_;
  int64_t t0_ = 0;
  uint64_t events_ = 0;
  std::vector<std::vector<int64_t>> per_tick_;  ///< per row, per tick, ns
  std::vector<uint64_t> ticks_;
  std::vector<int64_t> tick_ns_;
  std::vector<double> coverage_;
  int64_t step_ns_total_ = 0, step_phase_ns_total_ = 0, finish_ns_ = 0;
};

/// Whether a file is a recording (its first bytes are the header frame's magic) or, else, a scenario.
bool is_recording(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char b[4] = {};
  if (!in.read(reinterpret_cast<char*>(b), 4)) return false;
  const uint32_t magic = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
  return magic == lsr::kHeaderMagic;
}

/// The recording made while profiling: the one asked for (--record), or a temporary file removed after.
class RecordingFile {
 public:
  RecordingFile(const std::string& asked, bool none) {
    if (none) return;
    if (!asked.empty()) {
      path_ = asked;
      return;
    }
    path_ = (std::filesystem::temp_directory_path() / ("lockstep-profile-" + std::to_string(::getpid()) + ".lsr")).string();
    temporary_ = true;
  }
  ~RecordingFile() {
    std::error_code ec;
    if (temporary_) std::filesystem::remove(path_, ec);
  }
  RecordingFile(const RecordingFile&) = delete;
  RecordingFile& operator=(const RecordingFile&) = delete;
  const std::string& path() const { return path_; }
  bool temporary() const { return temporary_; }

 private:
  std::string path_;
  bool temporary_ = false;
};

struct ProfileArgs {
  std::string input, out, record;
  long long ticks = -1, from = -1, to = -1;
  unsigned threads = 1;  // the phases' one-thread cost unless asked (0: every core)
  bool no_record = false, json = false;
};

std::string us(double ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", ns / 1000.0);
  return b;
}

int cmd_profile(const ProfileArgs& a) {
  check_tick_range(a.input, a.from, a.to);
  const bool recording_in = is_recording(a.input);
  std::optional<lsr::Recording> rec_in;
  std::unique_ptr<Model> model;
  uint64_t first = 0, last_plus_one = 0;  // the profiled steps: [first, last_plus_one)
  // The steps on a pool of --threads (a model that cannot use them ignores it): each profiled
  // phase's time is then the wall time of its parallel work; the results are the same bits.
  ThreadPool pool(a.threads > 0 ? a.threads : ThreadPool::cores());
  if (recording_in) {
    if (a.ticks >= 0)
      throw InputError(a.input, "--ticks", "a recording's length is its own: choose its ticks with --from and --to");
    rec_in = lsr::Recording::open(a.input);
    if (rec_in->damage()) print_damage(*rec_in);
    const uint64_t end = rec_in->first_tick() + rec_in->ticks();
    first = a.from >= 0 ? static_cast<uint64_t>(a.from) : rec_in->first_tick();
    if (first < rec_in->first_tick() || first >= end)
      throw InputError(a.input, "--from", "tick " + std::to_string(first) + " is not a step of the recording (it holds " +
                                              std::to_string(rec_in->first_tick()) + " to " + std::to_string(end == 0 ? 0 : end - 1) + ")");
    if (a.to >= 0 && static_cast<uint64_t>(a.to) >= end)
      throw InputError(a.input, "--to", "tick " + std::to_string(a.to) + " is past the recording's last step (" +
                                            std::to_string(end == 0 ? 0 : end - 1) + ")");
    last_plus_one = a.to >= 0 ? static_cast<uint64_t>(a.to) + 1 : end;
    model = replay::state_at(*rec_in, first);  // the nearest keyframe, then re-simulation: not profiled
  } else {
    model = load_scenario_file(a.input);
    const uint64_t ticks = ticks_or(a.ticks, model->default_ticks());
    first = a.from >= 0 ? static_cast<uint64_t>(a.from) : 0;
    if (a.to >= 0 && a.ticks >= 0 && static_cast<uint64_t>(a.to) >= ticks)
      throw InputError(a.input, "--to", "tick " + std::to_string(a.to) + " is past the run's last step (" +
                                            std::to_string(ticks) + " ticks: 0 to " + std::to_string(ticks == 0 ? 0 : ticks - 1) + ")");
    last_plus_one = a.to >= 0 ? static_cast<uint64_t>(a.to) + 1 : ticks;
    if (first >= last_plus_one)
      throw InputError(a.input, "--from", "tick " + std::to_string(first) + " is past the run's last step (" +
                                              std::to_string(last_plus_one) + " ticks)");
    model->set_workers(&pool);  // the unprofiled steps up to --from on the pool too
    for (uint64_t k = 0; k < first; ++k) model->step_scripted();  // up to --from: not profiled
  }
  model->set_workers(&pool);
  const RecordingFile recfile(a.record, a.no_record);
  Profiler prof(a.out, *model, a.input);
  ModelWatch model_watch(prof.timeline);
  RecorderWatch recorder_watch(prof.timeline);
  std::unique_ptr<lsr::Recorder> rec;
  if (!recfile.path().empty()) {
    rec = std::make_unique<lsr::Recorder>(recfile.path(), *model);
    rec->set_phase_observer(&recorder_watch);
  }
  model->set_phase_observer(&model_watch);

  uint64_t mismatches = 0;
  std::optional<uint64_t> first_mismatch;
  {
    Progress progress("profile", "tick", last_plus_one - first);
    auto one_tick = [&](std::span<const uint8_t> in, const std::string& source) {
      const uint64_t t = model->tick();
      prof.counter(*model);
      prof.timeline.stamp(Mark::Tick, true);
      model->step(in, source);
      if (rec) {
        prof.timeline.stamp(Mark::Record, true);
        rec->tick(in, *model);
        prof.timeline.stamp(Mark::Record, false);
      }
      prof.timeline.stamp(Mark::Tick, false);
      prof.end_tick(t);
      progress.update(model->tick() - first);
    };
    if (rec_in) {
      rec_in->scan(first, last_plus_one, [&](const lsr::TickRecord& t) {
        one_tick(t.input, a.input + " tick " + std::to_string(t.tick));
        // The recording's own hash of this step: profiling must not change it (untimed).
        if (model->hashes().whole != t.whole) {
          ++mismatches;
          if (!first_mismatch) first_mismatch = t.tick;
        }
      }, nullptr);
    } else {
      for (uint64_t k = first; k < last_plus_one; ++k) {
        const auto in = model->scripted_input();
        one_tick(in, a.input + " (its script at tick " + std::to_string(k) + ")");
      }
    }
  }
  model->set_phase_observer(nullptr);
  if (rec) {
    prof.timeline.stamp(Mark::Finish, true);
    rec->finish();
    prof.timeline.stamp(Mark::Finish, false);
    prof.end_finish(model->tick());
  }
  prof.close(*model, a.input);

  const bool damaged = rec_in && rec_in->damage().has_value();
  const int status = damaged ? kExitBadInput : mismatches ? kExitDiffer : kExitOk;
  const auto& info = model->info();
  const auto& rows = prof.rows();
  const auto slow = prof.slowest(10);
  const uint64_t last = last_plus_one - 1;
  if (a.json) {
    JsonOut j = json_result("profile", status == kExitOk);
    add_state_hashes(j, *model);
    j["from"] = first;
    j["to"] = last;
    j["profiled_ticks"] = prof.ticks();
    j["threads"] = pool.threads();
    j["trace"] = a.out;
    j["trace_events"] = prof.events();
    j["recording"] = recfile.temporary() || recfile.path().empty() ? JsonOut(nullptr) : JsonOut(recfile.path());
    j["phases"] = info.phases;
    const auto ts = prof.tick_stats();
    j["tick_ns"] = {{"total", prof.total_ns()}, {"mean", ts.mean}, {"p50", ts.p50}, {"p99", ts.p99}, {"max", ts.max}};
    j["phase_coverage"] = prof.coverage();
    j["phase_coverage_median_tick"] = prof.median_coverage();
    JsonOut table = JsonOut::array();
    for (std::size_t r = 0; r < rows.names.size(); ++r) {
      if (a.no_record && r >= rows.record_first && r <= rows.record_other) continue;
      const auto s = prof.stats(r);
      table.push_back({{"phase", rows.names[r]}, {"share", s.share}, {"mean_ns", s.mean}, {"p50_ns", s.p50},
                       {"p99_ns", s.p99}, {"max_ns", s.max}});
    }
    j["table"] = table;
    JsonOut sl = JsonOut::array();
    for (const auto& s : slow) sl.push_back({{"tick", s.tick}, {"ns", s.ns}, {"heaviest", rows.names[s.row]}, {"heaviest_ns", s.row_ns}});
    j["slowest"] = sl;
    if (rec_in) {
      j["recorded_hashes_match"] = mismatches == 0;
      j["first_divergent_tick"] = json_or_null(first_mismatch);
    }
    print_json(j);
    return status;
  }
  std::printf("profile     %s (model %s v%u), ticks %llu to %llu (%llu ticks)\n", a.input.c_str(), info.name.c_str(),
              info.version, static_cast<unsigned long long>(first), static_cast<unsigned long long>(last),
              static_cast<unsigned long long>(prof.ticks()));
  std::printf("threads     %u\n", pool.threads());
  std::printf("final hash  %s\n", hex64(model->hashes().whole).c_str());
  if (rec_in)
    std::printf("recording   %s\n", mismatches ? ("DIVERGED: " + std::to_string(mismatches) + " steps hash differently from the recording, the first at tick " +
                                                  std::to_string(*first_mismatch)).c_str()
                                               : "every profiled step hashes as recorded");
  if (a.no_record)
    std::printf("recorder    none (--no-record): the step alone\n");
  else
    std::printf("recorder    %s%s\n", recfile.path().c_str(), recfile.temporary() ? " (temporary, removed; --record FILE keeps it)" : "");
  std::printf("trace       %s (%llu events): open it in https://ui.perfetto.dev or chrome://tracing\n", a.out.c_str(),
              static_cast<unsigned long long>(prof.events()));
  if (info.phases.empty())
    std::printf("note        the %s model reports no phases (docs/profile.md: phases for your own model)\n", info.name.c_str());
  const auto ts = prof.tick_stats();
  std::printf("tick time   %.3f ms in all, %s us a tick on average; the model's phases cover %.1f %% of its steps\n\n",
              static_cast<double>(prof.total_ns()) / 1e6, us(ts.mean).c_str(), 100.0 * prof.coverage());
  std::printf("%-26s %7s %10s %10s %10s %10s\n", "phase", "share", "mean us", "p50 us", "p99 us", "max us");
  auto line = [&](const std::string& name, const RowStats& s) {
    std::printf("%-26s %6.1f%% %10s %10s %10s %10s\n", name.c_str(), 100.0 * s.share, us(s.mean).c_str(), us(s.p50).c_str(),
                us(s.p99).c_str(), us(s.max).c_str());
  };
  for (std::size_t r = 0; r < rows.names.size(); ++r) {
    if (a.no_record && r >= rows.record_first && r <= rows.record_other) continue;
    line((r < rows.model ? "  " : "") + rows.names[r], prof.stats(r));
  }
  line("tick", ts);
  if (rec) std::printf("(the recorder's finish, its last chunk and index: %s us, not in any tick)\n", us(static_cast<double>(prof.finish_ns())).c_str());
  std::printf("\nslowest ticks\n%10s %10s  %s\n", "tick", "us", "heaviest phase");
  for (const auto& s : slow)
    std::printf("%10llu %10s  %s (%s us)\n", static_cast<unsigned long long>(s.tick), us(static_cast<double>(s.ns)).c_str(),
                rows.names[s.row].c_str(), us(static_cast<double>(s.row_ns)).c_str());
  return status;
}

class Profile final : public Command {
 public:
  explicit Profile(CLI::App& app) {
    sub = app.add_subcommand("profile", "Where tick time goes: each phase of each tick, as a trace for Perfetto");
    sub->add_option("input", a_.input, "A scenario JSON file, or a .lsr recording (re-simulated)")->required()->check(CLI::ExistingFile);
    add_output_option(sub, a_.out, "The trace to write (Trace Event Format JSON)")->required();
    add_ticks_option(sub, a_.ticks);
    add_tick_range(sub, a_.from, a_.to, "First step profiled (the steps before it run unobserved)",
                   "Last step profiled (inclusive)");
    sub->add_option("--record", a_.record, "Keep the recording made while profiling here (.lsr; default: a temporary file)");
    sub->add_flag("--no-record", a_.no_record, "Profile the step alone, without the recorder")->excludes(sub->get_option("--record"));
    sub->add_option("--threads", a_.threads,
                    "Threads to step on, for a model that can use several (default 1: each phase's one-thread "
                    "cost; 0: every core); the same results on any number")
        ->check(CLI::Range(0u, 256u));
    add_json_flag(sub, a_.json);
    sub->footer(
        "\nExample:\n  lockstep profile fixtures/station/hall.json -o hall-trace.json\n"
        "Every tick is a \"tick\" event holding \"step\" (the model's phases inside) and \"record\" (the\n"
        "recorder's hash, snapshot, compress and write); the table gives each phase's share of tick time\n"
        "and its mean, p50, p99 and maximum per tick, then the ten slowest ticks (docs/profile.md).\n\n"
        "Exit 0 when the trace is written, 1 when a re-simulated recording's hashes differ from the\n"
        "recorded ones, 2 for a bad scenario, recording or flag.");
  }
  int run() override { return cmd_profile(a_); }

 private:
  ProfileArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_profile(CLI::App& app) { return std::make_unique<Profile>(app); }

}  // namespace lockstep::cli
