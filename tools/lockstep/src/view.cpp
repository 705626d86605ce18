// lockstep view RUN.lsr [B.lsr] -o run.html: one self-contained HTML page that plays a recording
// top-down (the model contract's drawing, drawing.h), with a timeline, a field inspector and, for
// two recordings, the first divergence as `diff` reports it (docs/view.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "command.h"
#include "json_out.h"
#include "lockstep/core/model.h"
#include "lockstep/core/text.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/replay/replay.h"
#include "lockstep/verify/rundiff.h"
#include "progress.h"

namespace lockstep::cli {

extern const char kViewerHtml[];  // tools/lockstep/view/viewer.html, embedded by the build (viewer_html.cpp)

namespace {

// ---- the page's data (docs/view.md, "The page's data")
//
// Both streams are bytes of unsigned LEB128 varints, base64 in the page. Runs: signed values
// zigzagged, a run of zeros written as one varint (run << 1 | 1), any other value as (zigzag << 1).
// Frames: per frame, the tick's step from the previous frame's, a flags varint (1: a key frame, 2:
// the structure is the previous frame's), then unless flag 2 the structure's length and its values
// as runs of differences from the previous frame's (from 0 in a key frame): the body count; per
// body its id, state string, path string, floor, the count of its other paths and their strings;
// the shape count; per shape its kind, layer string, body + 1, floor, point count and text string.
// Then the numbers, as runs, item by item (per body x, y and radius in mm and the heading in
// 1/65536 turn; per shape its points' x, y and its radius in mm), each item's as differences from
// the previous frame's item of the same key (body, layer, kind, occurrence) when it has as many
// numbers, else from 0 (and from 0 in a key frame). A key frame every 32; their byte offsets and
// every frame's tick step are in the page beside the stream.
// Fields: per snapshot, the tick's step from the previous snapshot's, a flags varint (1: key), the
// entry count, and per entry the path's index (difference from the previous entry's, zigzagged)
// and the value text's length + 1 then its bytes (0: the field is gone). A key snapshot (every
// 32nd) lists every field; the others what changed since the previous snapshot.

class Bytes {
 public:
  void uv(uint64_t v) {
    while (v >= 0x80) {
      b.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    b.push_back(static_cast<uint8_t>(v));
  }
  void sv(int64_t v) { uv((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void text(const std::string& s) {
    uv(s.size() + 1);
    b.insert(b.end(), s.begin(), s.end());
  }
  std::vector<uint8_t> b;
};

class Strings {
 public:
  uint32_t id(const std::string& s) {
    if (const auto it = index_.find(s); it != index_.end()) return it->second;
    index_.emplace(s, static_cast<uint32_t>(list_.size()));
    list_.push_back(s);
    return static_cast<uint32_t>(list_.size() - 1);
  }
  const std::vector<std::string>& list() const { return list_; }

 private:
  std::vector<std::string> list_;
  std::unordered_map<std::string, uint32_t> index_;  // ids by first use; the order is the list's
};

int64_t mm(double v) {
  const double q = std::round(v * 1000.0);
  return static_cast<int64_t>(std::clamp(q, -9.0e15, 9.0e15));
}

constexpr uint32_t kKeyEvery = 32;  ///< a key frame (snapshot) every this many

class FrameStream {
 public:
  explicit FrameStream(Strings& strings) : strings_(strings) {}
  void add(uint64_t tick, const Drawing& d) {
    // The structure, and each item's numbers under its key (body, layer, kind, occurrence).
    std::vector<int64_t> st;
    st.reserve(d.bodies.size() * 4 + d.shapes.size() * 6 + 2);
    std::map<Key, std::vector<int64_t>> items;
    std::vector<Key> order;
    std::map<Key, uint32_t> seen;
    auto item = [&](int64_t body, int64_t layer, int64_t kind) -> std::vector<int64_t>& {
      Key k{body, layer, kind, 0};
      k.occ = seen[k]++;
      order.push_back(k);
      return items[k];
    };
    st.push_back(static_cast<int64_t>(d.bodies.size()));
    for (const auto& b : d.bodies) {
      st.push_back(b.view.id);
      st.push_back(strings_.id(b.state));
      st.push_back(strings_.id(b.path));
      st.push_back(b.view.floor);
      st.push_back(static_cast<int64_t>(b.more_paths.size()));
      for (const auto& m : b.more_paths) st.push_back(strings_.id(m));
      auto& num = item(b.view.id, -1, -1);
      num.push_back(mm(b.view.x));
      num.push_back(mm(b.view.y));
      num.push_back(mm(b.view.radius));
      const double turn = std::atan2(b.view.hy, b.view.hx) / (2.0 * 3.14159265358979323846);
      num.push_back(static_cast<int64_t>(std::lround(turn * 65536.0)) & 0xffff);
    }
    st.push_back(static_cast<int64_t>(d.shapes.size()));
    for (const auto& s : d.shapes) {
      const int64_t layer = strings_.id(s.layer);
      st.push_back(static_cast<int64_t>(s.kind));
      st.push_back(layer);
      st.push_back(s.body + 1);
      st.push_back(s.floor);
      st.push_back(static_cast<int64_t>(s.points.size()));
      st.push_back(strings_.id(s.text));
      auto& num = item(s.body, layer, static_cast<int64_t>(s.kind));
      for (const auto& p : s.points) {
        num.push_back(mm(p.x));
        num.push_back(mm(p.y));
      }
      num.push_back(mm(s.radius));
    }
    const bool key = count_ % kKeyEvery == 0;
    if (key) key_offsets_.push_back(out_.b.size());
    const bool same_st = !key && st == prev_st_;
    out_.uv(tick - prev_tick_);
    out_.uv((key ? 1u : 0u) | (same_st ? 2u : 0u));
    Runs runs(out_);
    if (!same_st) {
      out_.uv(st.size());
      for (std::size_t i = 0; i < st.size(); ++i) runs.put(st[i] - (!key && i < prev_st_.size() ? prev_st_[i] : 0));
      runs.end();
    }
    // An item's numbers go as differences from the same item's in the previous frame (a body's
    // position moves a little), from 0 in a key frame or for an item new or of another size.
    for (const Key& k : order) {
      const auto& v = items[k];
      const auto it = key ? prev_items_.end() : prev_items_.find(k);
      const auto* before = it != prev_items_.end() && it->second.size() == v.size() ? &it->second : nullptr;
      for (std::size_t i = 0; i < v.size(); ++i) runs.put(v[i] - (before ? (*before)[i] : 0));
    }
    runs.end();
    prev_st_ = std::move(st);
    prev_items_ = std::move(items);
    ticks_.push_back(tick - prev_tick_);
    prev_tick_ = tick;
    ++count_;
  }
  const std::vector<uint8_t>& bytes() const { return out_.b; }
  const std::vector<uint64_t>& key_offsets() const { return key_offsets_; }
  /// Each frame's tick, as differences from the previous frame's.
  const std::vector<uint64_t>& ticks() const { return ticks_; }
  uint64_t count() const { return count_; }

 private:
  struct Key {
    int64_t body, layer, kind;
    uint32_t occ;
    auto operator<=>(const Key&) const = default;
  };
  /// Zigzag varints with runs of zeros as one varint (run << 1 | 1), others as (zigzag << 1).
  class Runs {
   public:
    explicit Runs(Bytes& out) : out_(out) {}
    void put(int64_t v) {
      if (v == 0) {
        ++zeros_;
        return;
      }
      end();
      out_.uv(((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)) << 1);
    }
    void end() {
      if (zeros_) out_.uv(zeros_ << 1 | 1);
      zeros_ = 0;
    }

   private:
    Bytes& out_;
    uint64_t zeros_ = 0;
  };
  Strings& strings_;
  Bytes out_;
  std::vector<int64_t> prev_st_;
  std::map<Key, std::vector<int64_t>> prev_items_;
  std::vector<uint64_t> key_offsets_, ticks_;
  uint64_t prev_tick_ = 0, count_ = 0;
};

class FieldStream {
 public:
  explicit FieldStream(Strings& paths) : paths_(paths) {}
  void add(uint64_t tick, const Model& m) {
    const auto leaves = m.leaves();
    const bool key = count_ % kKeyEvery == 0;
    std::vector<std::pair<uint32_t, std::string>> now;
    now.reserve(leaves.size());
    // A state's listing changes little from snapshot to snapshot: a path where it was last time
    // keeps its id without a lookup.
    for (std::size_t k = 0; k < leaves.size(); ++k) {
      const auto& path = leaves[k].path;
      const uint32_t id = k < ids_.size() && paths_.list()[ids_[k]] == path ? ids_[k] : paths_.id(path);
      if (k < ids_.size())
        ids_[k] = id;
      else
        ids_.push_back(id);
      now.emplace_back(id, read_leaf(leaves[k].ref).text);
    }
    ids_.resize(leaves.size());
    std::vector<std::pair<uint32_t, const std::string*>> entries;  // nullptr: gone
    std::vector<uint8_t> seen(prev_.size(), 0);
    for (const auto& [p, v] : now) {
      if (p < seen.size()) seen[p] = 1;
      if (key || p >= prev_.size() || !present_[p] || prev_[p] != v) entries.emplace_back(p, &v);
    }
    for (std::size_t p = 0; p < seen.size(); ++p)
      if (present_[p] && !seen[p]) entries.emplace_back(static_cast<uint32_t>(p), nullptr);
    out_.uv(tick - prev_tick_);
    out_.uv(key ? 1u : 0u);
    out_.uv(entries.size());
    int64_t last = 0;
    for (const auto& [p, v] : entries) {
      out_.sv(static_cast<int64_t>(p) - last);
      last = p;
      if (v)
        out_.text(*v);
      else
        out_.uv(0);
    }
    if (prev_.size() < paths_.list().size()) {
      prev_.resize(paths_.list().size());
      present_.resize(paths_.list().size(), 0);
    }
    std::fill(present_.begin(), present_.end(), 0);
    for (auto& [p, v] : now) {
      prev_[p] = std::move(v);
      present_[p] = 1;
    }
    prev_tick_ = tick;
    ++count_;
  }
  const std::vector<uint8_t>& bytes() const { return out_.b; }
  uint64_t count() const { return count_; }

 private:
  Strings& paths_;
  Bytes out_;
  std::vector<std::string> prev_;
  std::vector<uint8_t> present_;
  std::vector<uint32_t> ids_;  ///< the previous snapshot's path ids, in listing order
  uint64_t prev_tick_ = 0, count_ = 0;
};

std::string base64(const std::vector<uint8_t>& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8) | in[i + 2];
    out += t[v >> 18];
    out += t[(v >> 12) & 63];
    out += t[(v >> 6) & 63];
    out += t[v & 63];
  }
  if (i < in.size()) {
    const uint32_t v = (uint32_t{in[i]} << 16) | (i + 1 < in.size() ? uint32_t{in[i + 1]} << 8 : 0u);
    out += t[v >> 18];
    out += t[(v >> 12) & 63];
    out += i + 1 < in.size() ? t[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

JsonOut scene_json(const Drawing& d) {
  JsonOut shapes = JsonOut::array();
  for (const auto& s : d.shapes) {
    JsonOut pts = JsonOut::array();
    for (const auto& p : s.points) {
      pts.push_back(p.x);
      pts.push_back(p.y);
    }
    JsonOut o{{"kind", static_cast<int>(s.kind)}, {"layer", s.layer}, {"floor", s.floor}, {"points", std::move(pts)}};
    if (s.kind == DrawShape::Kind::Circle) o["radius"] = s.radius;
    if (!s.text.empty()) o["text"] = s.text;
    shapes.push_back(std::move(o));
  }
  return shapes;
}

struct ViewArgs {
  std::vector<std::string> paths;
  std::string out;
  long long from = -1, to = -1;
  long long every = 0, fields_every = 0;
  bool all = false;
};

// The budgets the automatic --every and --fields-every keep to, in bytes of the page's data
// before base64 (docs/view.md, "Large runs"): 35 MB with base64's 4/3, room for a measurement
// that falls short by a quarter under 50 MB.
constexpr double kFrameBudget = 20.0e6;
constexpr double kFieldBudget = 6.0e6;

/// The page's bytes per frame drawn every `every` ticks and per snapshot every `fields_every`
/// ticks (a key frame's and a key snapshot's share included), measured by encoding a few of each
/// at three places in [from, to].
struct Cost {
  double frame = 0, snap = 0;
};
Cost measure(const lsr::Recording& r, const Model& fresh, uint64_t from, uint64_t to, uint64_t every, uint64_t fields_every) {
  Cost c;
  constexpr uint64_t kPlaces = 3, kFrames = 4;
  // A few frames, and one snapshot after the first (a station minute's every field is costly to list).
  const uint64_t reach = std::max(kFrames * every, fields_every);
  for (uint64_t k = 0; k < kPlaces; ++k) {
    uint64_t t0 = from + (to - from) * k / (kPlaces - 1);
    if (t0 + reach > to) t0 = to - from > reach ? to - reach : from;
    auto m = replay::state_at(r, t0, fresh);
    Strings strings, paths;
    FrameStream frames(strings);
    FieldStream snaps(paths);
    frames.add(t0, m->tick_drawing());
    snaps.add(t0, *m);
    const auto key_frame = static_cast<double>(frames.bytes().size()), key_snap = static_cast<double>(snaps.bytes().size());
    r.scan(t0, std::min(to, t0 + reach), [&](const lsr::TickRecord& t) {
      m->step(t.input, r.source() + " tick " + std::to_string(t.tick));
      const uint64_t d = m->tick() - t0;
      if (d % every == 0 && d <= kFrames * every) frames.add(m->tick(), m->tick_drawing());
      if (d % fields_every == 0) snaps.add(m->tick(), *m);
    }, nullptr);
    // Too short a range to step: a key's cost for each (more than a difference costs).
    const double nf = static_cast<double>(frames.count() - 1), ns = static_cast<double>(snaps.count() - 1);
    const double df = nf > 0 ? (static_cast<double>(frames.bytes().size()) - key_frame) / nf : key_frame;
    const double ds = ns > 0 ? (static_cast<double>(snaps.bytes().size()) - key_snap) / ns : key_snap;
    c.frame += (df + key_frame / kKeyEvery) / kPlaces;
    c.snap += (ds + key_snap / kKeyEvery) / kPlaces;
  }
  return c;
}

struct Run {
  const lsr::Recording* rec = nullptr;
  uint64_t from = 0, to = 0;  // inclusive
};

int cmd_view(const ViewArgs& a) {
  if (a.paths.size() > 2) throw InputError(a.paths[2], "", "view takes one recording, or two to compare");
  std::vector<lsr::Recording> recs;
  for (const auto& p : a.paths) recs.push_back(lsr::Recording::open(p));
  for (const auto& r : recs)
    if (r.damage()) print_damage(r);
  check_tick_range(a.paths[0], a.from, a.to);

  // Two recordings: the comparison `diff` makes, as it makes it.
  std::optional<verify::RunDiff> diff;
  if (recs.size() == 2) {
    verify::DiffOptions opt;
    opt.all = a.all;
    diff = verify::diff_recordings(recs[0], recs[1], opt);
  }

  std::vector<Run> runs;
  for (const auto& r : recs) {
    const uint64_t end = r.first_tick() + r.ticks();
    Run run{&r, a.from >= 0 ? static_cast<uint64_t>(a.from) : r.first_tick(), end};
    if (a.to >= 0) run.to = std::min<uint64_t>(static_cast<uint64_t>(a.to), end);
    if (run.from < r.first_tick())
      throw InputError(r.source(), "--from", "tick " + std::to_string(run.from) + " is before the recording's first (" + std::to_string(r.first_tick()) + ")");
    if (run.from > end)
      throw InputError(r.source(), "--from", "tick " + std::to_string(run.from) + " is past the recording's end (" + std::to_string(end) + ")");
    runs.push_back(run);
  }
  const uint64_t span = runs[0].to - runs[0].from + 1;

  // The ticks drawn and inspected whatever --every says: both ends, and around a divergence the
  // state before its step and the first that differs.
  std::set<uint64_t> forced{runs[0].from, runs[0].to};
  if (diff && diff->tick) {
    forced.insert(*diff->tick);
    forced.insert(*diff->tick + 1);
  }

  // --every and --fields-every: given, or the smallest that keep the page's data within budget,
  // measured by encoding a few frames and snapshots at that spacing at three places in the range
  // (a longer spacing moves bodies further between frames and changes more fields: measured again).
  const double n_runs = static_cast<double>(runs.size());
  uint64_t every = a.every > 0 ? static_cast<uint64_t>(a.every) : 1;
  uint64_t fields_every = a.fields_every > 0 ? static_cast<uint64_t>(a.fields_every) : every;
  // The model built from the scenario once for the measurements' seeks (up to 12 of them), not
  // once a seek (the 10,000-walker hall plans every route as it is built: a second each).
  std::unique_ptr<Model> fresh;
  for (int round = 0; round < 4 && (a.every <= 0 || a.fields_every <= 0); ++round) {
    if (!fresh) fresh = replay::model_for(*runs[0].rec);
    const Cost c = measure(*runs[0].rec, *fresh, runs[0].from, runs[0].to, every, fields_every);
    bool more = false;
    if (a.every <= 0) {
      const auto e = static_cast<uint64_t>(std::ceil(static_cast<double>(span) * c.frame * n_runs / kFrameBudget));
      if (e > every) every = e, more = true;
    }
    if (a.fields_every <= 0) {
      auto f = std::max<uint64_t>(every, static_cast<uint64_t>(std::ceil(static_cast<double>(span) * c.snap * n_runs / kFieldBudget)));
      f = (f + every - 1) / every * every;  // a snapshot on a drawn frame
      if (f > fields_every) fields_every = f, more = true;
    }
    if (!more) break;
  }

  Strings strings, paths;
  strings.id("");
  JsonOut data = JsonOut::object();
  JsonOut jruns = JsonOut::array();
  Drawing scene;
  std::string model_name;
  uint64_t total_ticks = 0;
  for (const auto& run : runs) total_ticks += run.to - run.from;
  Progress progress("view", "tick", total_ticks);
  uint64_t done = 0;
  for (std::size_t ri = 0; ri < runs.size(); ++ri) {
    const Run& run = runs[ri];
    const lsr::Recording& r = *run.rec;
    auto m = ri == 0 && fresh ? replay::state_at(r, run.from, *fresh) : replay::state_at(r, run.from);
    if (ri == 0) {
      scene = m->scene_drawing();
      model_name = m->info().name;
      data["model"] = m->info().name;
      data["model_version"] = m->info().version;
      data["tick_rate_hz"] = m->info().tick_rate_hz;
    }
    FrameStream frames(strings);
    FieldStream snaps(paths);
    auto at = [&] {
      const uint64_t t = m->tick();
      if ((t - run.from) % every == 0 || forced.count(t)) frames.add(t, m->tick_drawing());
      if ((t - run.from) % fields_every == 0 || forced.count(t)) snaps.add(t, *m);
    };
    at();
    r.scan(run.from, run.to, [&](const lsr::TickRecord& t) {
      m->step(t.input, r.source() + " tick " + std::to_string(t.tick));
      at();
      progress.update(++done);
    }, nullptr);
    jruns.push_back(JsonOut{{"recording", r.source()},
                            {"from", run.from},
                            {"to", m->tick()},
                            {"frame_count", frames.count()},
                            {"key_offsets", frames.key_offsets()},
                            {"ticks", frames.ticks()},
                            {"frames", base64(frames.bytes())},
                            {"snapshot_count", snaps.count()},
                            {"fields", base64(snaps.bytes())},
                            {"frame_bytes", frames.bytes().size()},
                            {"field_bytes", snaps.bytes().size()}});
  }
  data["every"] = every;
  data["fields_every"] = fields_every;
  data["strings"] = strings.list();
  // The field paths, front-coded: each as the length of the prefix it shares with the one before
  // and the rest ("12:y" after "walkers[3].pos.x"), one a line; listing order makes the prefixes long.
  std::string front;
  {
    const std::string* prev = nullptr;
    for (const auto& p : paths.list()) {
      std::size_t k = 0;
      if (prev)
        while (k < p.size() && k < prev->size() && p[k] == (*prev)[k]) ++k;
      front += std::to_string(k) + ":" + p.substr(k) + "\n";
      prev = &p;
    }
  }
  data["paths"] = front;
  data["scene"] = scene_json(scene);
  data["runs"] = std::move(jruns);
  if (diff) {
    JsonOut j{{"same", diff->same()}, {"ticks_a", diff->ticks_a}, {"ticks_b", diff->ticks_b}, {"notes", diff->notes}};
    j["report"] = verify::report_text(*diff, recs[0], recs[1]);
    j["tick"] = json_or_null(diff->tick);
    j["hash_tick"] = json_or_null(diff->hash_tick);
    j["subsystems"] = diff->subsystems;
    JsonOut fl = JsonOut::array();
    for (const auto& f : diff->fields) {
      JsonOut o{{"path", f.path}, {"subsystem", f.subsystem}};
      if (f.is_size) {
        o["size_a"] = f.size_a;
        o["size_b"] = f.size_b;
      } else {
        o["a"] = f.a.text;
        o["b"] = f.b.text;
        o["a_bits"] = hex_bits(f.a);
        o["b_bits"] = hex_bits(f.b);
        if (auto u = ulp_distance(f.a, f.b)) o["ulps"] = *u;
      }
      fl.push_back(std::move(o));
    }
    j["fields"] = std::move(fl);
    data["diff"] = std::move(j);
  }

  // The page: the viewer with its data in place of the marker. Every "<" (only ever inside a JSON
  // string: a recording's file name, a path) is written "\u003c", so that nothing in the data can
  // end the script element or open a comment in it ("</script>", "<!--").
  const std::string json = data.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::string safe;
  safe.reserve(json.size() + 64);
  for (const char c : json) {
    if (c == '<')
      safe += "\\u003c";
    else
      safe += c;
  }
  const std::string page = kViewerHtml;
  const std::string marker = "/*LOCKSTEP_DATA*/null";
  const auto at = page.find(marker);
  if (at == std::string::npos) throw std::logic_error("the viewer's page has no data marker");
  std::ofstream out(a.out, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(a.out, "", "cannot write the page");
  out.write(page.data(), static_cast<std::streamsize>(at));
  out.write(safe.data(), static_cast<std::streamsize>(safe.size()));
  out.write(page.data() + at + marker.size(), static_cast<std::streamsize>(page.size() - at - marker.size()));
  out.close();
  if (!out) throw InputError(a.out, "", "cannot write the page");
  const double mb = static_cast<double>(page.size() - marker.size() + safe.size()) / 1.0e6;
  std::printf("wrote %s: %s, ticks %llu-%llu, a frame every %llu ticks, fields every %llu ticks, %.1f MB%s\n", a.out.c_str(),
              model_name.c_str(), static_cast<unsigned long long>(runs[0].from), static_cast<unsigned long long>(runs[0].to),
              static_cast<unsigned long long>(every), static_cast<unsigned long long>(fields_every), mb,
              diff ? (diff->tick ? (", diverged at tick " + std::to_string(*diff->tick)).c_str() : ", no divergence") : "");
  for (const auto& r : recs)
    if (r.damage()) return kExitBadInput;
  return kExitOk;
}

class View final : public Command {
 public:
  explicit View(CLI::App& app) {
    sub = app.add_subcommand("view", "Write one self-contained HTML page that plays a recording (two: their divergence)");
    sub->add_option("recordings", a_.paths, "RUN.lsr, or A.lsr B.lsr to overlay two runs and mark where they part")
        ->required()
        ->expected(1, 2)
        ->check(CLI::ExistingFile);
    add_output_option(sub, a_.out, "The HTML page to write (replaced if it exists)")->required();
    add_tick_range(sub, a_.from, a_.to, "First tick drawn", "Last tick drawn (inclusive)");
    sub->add_option("--every", a_.every, "Draw every Kth tick (default: the fewest that keep the page near 35 MB)")
        ->check(CLI::Range(1LL, 4294967295LL));
    sub->add_option("--fields-every", a_.fields_every,
                    "Embed the state's fields every Kth tick, for the inspector (default: as often as the budget allows)")
        ->check(CLI::Range(1LL, 4294967295LL));
    sub->add_flag("--all", a_.all, "With two recordings: every divergent field at the first divergent tick, as diff --all");
    sub->footer(
        "\nExample:\n  lockstep view yard.lsr -o yard.html\n  lockstep view a.lsr b.lsr -o diff.html\n"
        "The page opens from disk in a browser (no network): space plays, left and right step a frame, the\n"
        "wheel zooms, dragging pans, a click on a body shows its fields; #tick=N in the address opens it at\n"
        "tick N. With two recordings the second is drawn over the first, the timeline marks the first\n"
        "divergent tick and D jumps there (docs/view.md).\n\n"
        "Exit 0 when the page is written, 2 for a bad recording, range or flag, or a damaged recording\n"
        "(after the page of its good part is written).");
  }
  int run() override { return cmd_view(a_); }

 private:
  ViewArgs a_;
};

}  // namespace

std::unique_ptr<Command> make_view(CLI::App& app) { return std::make_unique<View>(app); }

}  // namespace lockstep::cli
