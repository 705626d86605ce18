// JuPedSim's SQLite trajectory layout, database version 2 (docs/trajectories.md).
#include "lockstep/trajectory/sqlite.h"

#include <sqlite3.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <system_error>

namespace lockstep::trajectory {

namespace {

// The statements JuPedSim's SqliteTrajectoryWriter.begin_writing runs (python
// string concatenation included), so sqlite_master holds the same text.
constexpr const char* kCreateTrajectoryData =
    "CREATE TABLE trajectory_data ("
    "   frame INTEGER NOT NULL,"
    "   id INTEGER NOT NULL,"
    "   pos_x REAL NOT NULL,"
    "   pos_y REAL NOT NULL,"
    "   ori_x REAL NOT NULL,"
    "   ori_y REAL NOT NULL)";
constexpr const char* kCreateMetadata =
    "CREATE TABLE metadata(key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL)";
constexpr const char* kCreateGeometry =
    "CREATE TABLE geometry("
    "   hash INTEGER NOT NULL, "
    "   wkt TEXT NOT NULL)";
constexpr const char* kCreateGeometryIndex = "CREATE UNIQUE INDEX geometry_hash on geometry( hash)";
constexpr const char* kCreateFrameData =
    "CREATE TABLE frame_data("
    "   frame INTEGER NOT NULL,"
    "   geometry_hash INTEGER NOT NULL)";
constexpr const char* kCreateFrameIndex = "CREATE INDEX frame_id_idx ON trajectory_data(frame, id)";

// Rows go in blocks of this many per INSERT statement (a third of the time of
// one statement per row); the rest of a frame one by one.
constexpr int kBlockRows = 100;

std::string insert_rows_sql(int n) {
  std::string sql = "INSERT INTO trajectory_data VALUES(?, ?, ?, ?, ?, ?)";
  for (int i = 1; i < n; ++i) sql += ", (?, ?, ?, ?, ?, ?)";
  return sql;
}

struct Bounds {
  double xmin = std::numeric_limits<double>::infinity();
  double xmax = -std::numeric_limits<double>::infinity();
  double ymin = std::numeric_limits<double>::infinity();
  double ymax = -std::numeric_limits<double>::infinity();
  void add(const Bounds& o) {
    xmin = std::min(xmin, o.xmin);
    xmax = std::max(xmax, o.xmax);
    ymin = std::min(ymin, o.ymin);
    ymax = std::max(ymax, o.ymax);
  }
  bool operator==(const Bounds&) const = default;
};

bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == ',';
}

// The bounding box of 2-D WKT: every number token is a coordinate, x then y.
Bounds wkt_bounds(const std::string& wkt) {
  Bounds b;
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < wkt.size()) {
    if (is_separator(wkt[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < wkt.size() && !is_separator(wkt[j])) ++j;
    const std::string_view tok(wkt.data() + i, j - i);
    double v = 0;
    auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec == std::errc() && end == tok.data() + tok.size()) {
      if (!std::isfinite(v)) throw std::invalid_argument("walkable area WKT holds a non-finite number");
      if (count % 2 == 0) {
        b.xmin = std::min(b.xmin, v);
        b.xmax = std::max(b.xmax, v);
      } else {
        b.ymin = std::min(b.ymin, v);
        b.ymax = std::max(b.ymax, v);
      }
      ++count;
    } else if (tok == "Z" || tok == "M" || tok == "ZM" || tok == "z" || tok == "m" || tok == "zm") {
      throw std::invalid_argument("walkable area WKT must be 2-D (no Z or M coordinates)");
    }
    i = j;
  }
  if (count == 0) throw std::invalid_argument("walkable area WKT holds no coordinates");
  if (count % 2 != 0) throw std::invalid_argument("walkable area WKT holds an odd count of numbers (not 2-D)");
  return b;
}

// FNV-1a 64 of the WKT: the geometry's key (JuPedSim uses python's hash(str)).
int64_t wkt_hash(const std::string& wkt) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : wkt) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return static_cast<int64_t>(h);
}

// Shortest text that reads back as the same double.
void append_number(std::string& out, double v) {
  if (v == 0) v = 0;  // no "-0"
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

// Python's str(float), as JuPedSim writes xmin/xmax/ymin/ymax: "5.0", "2.5".
std::string python_float(double v) {
  std::string s;
  append_number(s, v);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

void check_ring(const Ring& ring) {
  for (auto [x, y] : ring)
    if (!std::isfinite(x) || !std::isfinite(y)) throw std::invalid_argument("WKT ring holds a non-finite coordinate");
  std::size_t n = ring.size();
  if (n > 0 && ring.front() == ring.back()) --n;
  std::size_t distinct = 0;
  for (std::size_t i = 0; i < n && distinct < 3; ++i) {
    bool seen = false;
    for (std::size_t k = 0; k < i; ++k) seen = seen || ring[k] == ring[i];
    if (!seen) ++distinct;
  }
  if (distinct < 3) throw std::invalid_argument("WKT ring needs at least three distinct points");
}

void append_polygon_body(std::string& out, const std::vector<Ring>& rings) {
  if (rings.empty()) throw std::invalid_argument("WKT polygon needs an outer ring");
  out += '(';
  for (std::size_t r = 0; r < rings.size(); ++r) {
    const Ring& ring = rings[r];
    check_ring(ring);
    if (r) out += ", ";
    out += '(';
    for (std::size_t i = 0; i < ring.size(); ++i) {
      if (i) out += ", ";
      append_number(out, ring[i].first);
      out += ' ';
      append_number(out, ring[i].second);
    }
    if (ring.front() != ring.back()) {
      out += ", ";
      append_number(out, ring.front().first);
      out += ' ';
      append_number(out, ring.front().second);
    }
    out += ')';
  }
  out += ')';
}

}  // namespace

TrajectoryError::TrajectoryError(const std::string& path, const std::string& message)
    : std::runtime_error("trajectory file " + path + ": " + message), path_(path), message_(message) {}

struct SqliteTrajectoryWriter::Impl {
  std::string path;
  WriterOptions options;
  sqlite3* db = nullptr;
  sqlite3_stmt* insert_row = nullptr;
  sqlite3_stmt* insert_block = nullptr;  // kBlockRows rows
  sqlite3_stmt* insert_frame = nullptr;
  sqlite3_stmt* insert_geometry = nullptr;
  sqlite3_stmt* upsert_metadata = nullptr;
  bool in_transaction = false;
  std::size_t frames_in_transaction = 0;
  bool have_frame = false;
  int64_t last_frame = -1;
  int64_t last_committed_frame = -1;  // -1: none yet
  int64_t geometry_hash = 0;
  Bounds bounds;
  uint64_t frames = 0, rows = 0;

  [[noreturn]] void fail(const std::string& what) {
    std::string msg = what;
    if (db) msg += ": " + std::string(sqlite3_errmsg(db));
    throw TrajectoryError(path, msg);
  }

  void exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = std::string(sql) + ": " + (err ? err : sqlite3_errmsg(db));
      sqlite3_free(err);
      throw TrajectoryError(path, msg);
    }
  }

  // Binds `n` rows of `frame` from `r` to `st` and runs it.
  void insert(sqlite3_stmt* st, int64_t frame, const TrajectoryRow* r, int n) {
    for (int i = 0; i < n; ++i, ++r) {
      const int b = 6 * i;
      sqlite3_bind_int64(st, b + 1, frame);
      sqlite3_bind_int64(st, b + 2, r->id);
      sqlite3_bind_double(st, b + 3, r->x);
      sqlite3_bind_double(st, b + 4, r->y);
      sqlite3_bind_double(st, b + 5, r->ori_x);
      sqlite3_bind_double(st, b + 6, r->ori_y);
    }
    if (sqlite3_step(st) != SQLITE_DONE) {
      std::string msg = "cannot write frame " + std::to_string(frame) + ": " + sqlite3_errmsg(db);
      sqlite3_reset(st);
      throw TrajectoryError(path, msg);
    }
    sqlite3_reset(st);
  }

  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, nullptr) != SQLITE_OK)
      fail(std::string("cannot prepare ") + sql);
    return st;
  }

  void step(sqlite3_stmt* st, const char* what) {
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
      std::string msg = std::string(what) + ": " + sqlite3_errmsg(db);
      sqlite3_reset(st);
      throw TrajectoryError(path, msg);
    }
    sqlite3_reset(st);
  }

  void begin() {
    if (!in_transaction) {
      exec("BEGIN");
      in_transaction = true;
      frames_in_transaction = 0;
    }
  }

  void commit() {
    if (in_transaction) {
      exec("COMMIT");
      in_transaction = false;
      frames_in_transaction = 0;
      last_committed_frame = have_frame ? last_frame : -1;
    }
  }

  void put_metadata(const char* key, const std::string& value) {
    sqlite3_bind_text(upsert_metadata, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(upsert_metadata, 2, value.c_str(), -1, SQLITE_TRANSIENT);
    step(upsert_metadata, "cannot write metadata");
  }

  void put_bounds() {
    put_metadata("xmin", python_float(bounds.xmin));
    put_metadata("xmax", python_float(bounds.xmax));
    put_metadata("ymin", python_float(bounds.ymin));
    put_metadata("ymax", python_float(bounds.ymax));
  }

  void put_geometry(const std::string& wkt, int64_t hash) {
    sqlite3_bind_int64(insert_geometry, 1, hash);
    sqlite3_bind_text(insert_geometry, 2, wkt.data(), static_cast<int>(wkt.size()), SQLITE_TRANSIENT);
    step(insert_geometry, "cannot write geometry");
  }

  void release() noexcept {
    for (sqlite3_stmt** st : {&insert_row, &insert_block, &insert_frame, &insert_geometry, &upsert_metadata}) {
      sqlite3_finalize(*st);
      *st = nullptr;
    }
    if (db) sqlite3_close_v2(db);
    db = nullptr;
    in_transaction = false;
  }

  // After a failed write the file keeps the frames committed before it.
  [[noreturn]] void abandon(const TrajectoryError& e) {
    if (in_transaction) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    release();
    std::string lost = last_committed_frame < 0 ? std::string("no frame was kept")
                                                : "frames up to " + std::to_string(last_committed_frame) + " were kept";
    throw TrajectoryError(path, e.message() + " (file closed; " + lost + ")");
  }

  ~Impl() { release(); }
};

SqliteTrajectoryWriter::SqliteTrajectoryWriter(const std::string& path, double fps, const std::string& walkable_wkt,
                                               WriterOptions options)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.path = path;
  m.options = options;
  if (m.options.commit_every_frames == 0) m.options.commit_every_frames = 1;
  if (!(fps > 0) || !std::isfinite(fps)) throw std::invalid_argument("trajectory fps must be a positive number");
  m.bounds = wkt_bounds(walkable_wkt);
  m.geometry_hash = wkt_hash(walkable_wkt);

  // Replace an existing file (and a journal left behind, which sqlite would
  // otherwise roll back into the new file).
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  auto st = fs::symlink_status(p, ec);
  if (!ec && fs::exists(st)) {
    if (fs::is_directory(st)) throw TrajectoryError(path, "cannot create the file: it is a directory");
    if (!fs::remove(p, ec) && ec) throw TrajectoryError(path, "cannot replace the existing file: " + ec.message());
  }
  fs::remove(fs::path(path + "-journal"), ec);

  if (sqlite3_open_v2(path.c_str(), &m.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string msg = m.db ? sqlite3_errmsg(m.db) : "out of memory";
    m.release();
    throw TrajectoryError(path, "cannot open: " + msg);
  }
  sqlite3_extended_result_codes(m.db, 1);
  try {
    // No fsync: a power cut may lose the file, but a crash of this process
    // keeps every committed frame (the rollback journal stays on). Normal
    // locking, so other processes may read the committed frames of a live run.
    m.exec("PRAGMA synchronous=OFF");
    m.exec("BEGIN");
    m.in_transaction = true;
    m.exec(kCreateTrajectoryData);
    m.exec(kCreateMetadata);
    m.exec(kCreateGeometry);
    m.exec(kCreateGeometryIndex);
    m.exec(kCreateFrameData);
    m.exec(kCreateFrameIndex);
    m.insert_row = m.prepare(insert_rows_sql(1).c_str());
    m.insert_block = m.prepare(insert_rows_sql(kBlockRows).c_str());
    m.insert_frame = m.prepare("INSERT INTO frame_data VALUES(?, ?)");
    m.insert_geometry = m.prepare("INSERT OR IGNORE INTO geometry(hash, wkt) VALUES(?,?)");
    m.upsert_metadata = m.prepare("INSERT OR REPLACE INTO metadata(key, value) VALUES(?,?)");
    // As JuPedSim: version bound as an integer and fps as a float, both
    // stored as text by the column's TEXT affinity ("2", "10.0").
    m.put_metadata("version", std::to_string(kJupedsimDatabaseVersion));
    sqlite3_bind_text(m.upsert_metadata, 1, "fps", -1, SQLITE_STATIC);
    sqlite3_bind_double(m.upsert_metadata, 2, fps);
    m.step(m.upsert_metadata, "cannot write metadata");
    m.put_bounds();
    m.put_geometry(walkable_wkt, m.geometry_hash);
    m.commit();
  } catch (const TrajectoryError&) {
    m.release();
    throw;
  }
}

SqliteTrajectoryWriter::~SqliteTrajectoryWriter() {
  if (impl_) {
    try {
      close();
    } catch (...) {
    }
  }
}

SqliteTrajectoryWriter::SqliteTrajectoryWriter(SqliteTrajectoryWriter&&) noexcept = default;
SqliteTrajectoryWriter& SqliteTrajectoryWriter::operator=(SqliteTrajectoryWriter&& o) noexcept {
  if (this != &o) {
    if (impl_) {
      try {
        close();
      } catch (...) {
      }
    }
    impl_ = std::move(o.impl_);
  }
  return *this;
}

void SqliteTrajectoryWriter::write_frame(uint64_t frame, std::span<const TrajectoryRow> rows) {
  if (!impl_ || !impl_->db) throw std::logic_error("trajectory writer: write_frame after close");
  Impl& m = *impl_;
  if (frame > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    throw std::invalid_argument("trajectory frame " + std::to_string(frame) + " exceeds INT64_MAX");
  const auto f = static_cast<int64_t>(frame);
  if (m.have_frame && f <= m.last_frame)
    throw std::invalid_argument("trajectory frame " + std::to_string(frame) + " after frame " +
                                std::to_string(m.last_frame) + ": frames must increase");
  for (const TrajectoryRow& r : rows)
    if (!std::isfinite(r.x) || !std::isfinite(r.y) || !std::isfinite(r.ori_x) || !std::isfinite(r.ori_y))
      throw std::invalid_argument("trajectory frame " + std::to_string(frame) + ", id " + std::to_string(r.id) +
                                  ": position or orientation is not finite");
  try {
    m.begin();
    std::size_t i = 0;
    for (; i + kBlockRows <= rows.size(); i += kBlockRows) m.insert(m.insert_block, f, rows.data() + i, kBlockRows);
    for (; i < rows.size(); ++i) m.insert(m.insert_row, f, rows.data() + i, 1);
    sqlite3_bind_int64(m.insert_frame, 1, f);
    sqlite3_bind_int64(m.insert_frame, 2, m.geometry_hash);
    m.step(m.insert_frame, "cannot write frame_data");
    m.have_frame = true;
    m.last_frame = f;
    ++m.frames;
    m.rows += rows.size();
    if (++m.frames_in_transaction >= m.options.commit_every_frames) m.commit();
  } catch (const TrajectoryError& e) {
    m.abandon(e);
  }
}

void SqliteTrajectoryWriter::set_walkable_area(const std::string& walkable_wkt) {
  if (!impl_ || !impl_->db) throw std::logic_error("trajectory writer: set_walkable_area after close");
  Impl& m = *impl_;
  Bounds b = wkt_bounds(walkable_wkt);
  try {
    m.begin();
    m.geometry_hash = wkt_hash(walkable_wkt);
    m.put_geometry(walkable_wkt, m.geometry_hash);
    Bounds merged = m.bounds;
    merged.add(b);
    if (!(merged == m.bounds)) {
      m.bounds = merged;
      m.put_bounds();
    }
  } catch (const TrajectoryError& e) {
    m.abandon(e);
  }
}

void SqliteTrajectoryWriter::flush() {
  if (!impl_ || !impl_->db) throw std::logic_error("trajectory writer: flush after close");
  try {
    impl_->commit();
  } catch (const TrajectoryError& e) {
    impl_->abandon(e);
  }
}

void SqliteTrajectoryWriter::close() {
  if (!impl_ || !impl_->db) return;
  Impl& m = *impl_;
  try {
    m.commit();
  } catch (const TrajectoryError& e) {
    m.abandon(e);
  }
  for (sqlite3_stmt** st : {&m.insert_row, &m.insert_block, &m.insert_frame, &m.insert_geometry, &m.upsert_metadata}) {
    sqlite3_finalize(*st);
    *st = nullptr;
  }
  int rc = sqlite3_close(m.db);
  if (rc != SQLITE_OK) {
    std::string msg = std::string("cannot close: ") + sqlite3_errmsg(m.db);
    sqlite3_close_v2(m.db);
    m.db = nullptr;
    throw TrajectoryError(m.path, msg);
  }
  m.db = nullptr;
}

bool SqliteTrajectoryWriter::is_open() const noexcept { return impl_ && impl_->db; }
const std::string& SqliteTrajectoryWriter::path() const noexcept {
  static const std::string none;
  return impl_ ? impl_->path : none;
}
uint64_t SqliteTrajectoryWriter::frames_written() const noexcept { return impl_ ? impl_->frames : 0; }
uint64_t SqliteTrajectoryWriter::rows_written() const noexcept { return impl_ ? impl_->rows : 0; }

std::string wkt_polygon(const std::vector<Ring>& rings) {
  std::string out = "POLYGON ";
  append_polygon_body(out, rings);
  return out;
}

std::string wkt_multipolygon(const std::vector<std::vector<Ring>>& polygons) {
  if (polygons.empty()) throw std::invalid_argument("WKT multipolygon needs a polygon");
  std::string out = "MULTIPOLYGON (";
  for (std::size_t i = 0; i < polygons.size(); ++i) {
    if (i) out += ", ";
    append_polygon_body(out, polygons[i]);
  }
  out += ')';
  return out;
}

namespace {

using P = std::pair<double, double>;

// Ring points without a repeated closing point.
std::size_t ring_size(const Ring& r) { return r.size() > 1 && r.front() == r.back() ? r.size() - 1 : r.size(); }

double cross(P o, P a, P b) { return (a.first - o.first) * (b.second - o.second) - (a.second - o.second) * (b.first - o.first); }

bool on_segment(P p, P a, P b) {
  return cross(a, b, p) == 0 && std::min(a.first, b.first) <= p.first && p.first <= std::max(a.first, b.first) &&
         std::min(a.second, b.second) <= p.second && p.second <= std::max(a.second, b.second);
}

// -1 outside, 0 on the boundary, 1 inside.
int locate(P p, const Ring& r) {
  const std::size_t n = ring_size(r);
  bool inside = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const P a = r[j], b = r[i];
    if (on_segment(p, a, b)) return 0;
    if ((a.second > p.second) != (b.second > p.second)) {
      const double x = a.first + (p.second - a.second) * (b.first - a.first) / (b.second - a.second);
      if (p.first < x) inside = !inside;
    }
  }
  return inside ? 1 : -1;
}

// Segments ab and cd cross at a point interior to both.
bool proper_cross(P a, P b, P c, P d) {
  const double d1 = cross(a, b, c), d2 = cross(a, b, d), d3 = cross(c, d, a), d4 = cross(c, d, b);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

enum class Where { Inside, Outside, Crosses };

Where where(const Ring& solid, const Ring& outline) {
  bool in = false, out = false;
  for (std::size_t i = 0; i < ring_size(solid); ++i) {
    const int l = locate(solid[i], outline);
    in = in || l > 0;
    out = out || l < 0;
  }
  for (std::size_t i = 0; i < ring_size(outline); ++i)
    if (locate(outline[i], solid) > 0) out = in = true;  // the outline reaches into the solid
  const std::size_t ns = ring_size(solid), no = ring_size(outline);
  for (std::size_t i = 0; i < ns; ++i)
    for (std::size_t k = 0; k < no; ++k)
      if (proper_cross(solid[i], solid[(i + 1) % ns], outline[k], outline[(k + 1) % no])) return Where::Crosses;
  if (in && out) return Where::Crosses;
  if (in) return Where::Inside;
  if (out) return Where::Outside;
  // Every corner on the boundary: inside if the centroid of the corners is.
  P c{0, 0};
  for (std::size_t i = 0; i < ns; ++i) c = {c.first + solid[i].first / double(ns), c.second + solid[i].second / double(ns)};
  return locate(c, outline) >= 0 ? Where::Inside : Where::Outside;
}

}  // namespace

std::string wkt_floor(const std::vector<Ring>& walkable, const std::vector<Ring>& solids) {
  if (walkable.empty()) throw std::invalid_argument("WKT floor needs a walkable outline");
  for (const Ring& r : walkable) check_ring(r);
  for (const Ring& r : solids) check_ring(r);
  std::vector<std::vector<Ring>> polygons;
  for (std::size_t w = 0; w < walkable.size(); ++w) {
    std::vector<Ring> rings{walkable[w]};
    for (std::size_t s = 0; s < solids.size(); ++s) {
      const Where at = where(solids[s], walkable[w]);
      if (at == Where::Crosses)
        throw std::invalid_argument("WKT floor: solid " + std::to_string(s) + " crosses the edge of walkable outline " +
                                    std::to_string(w) + " (clip it to the outline)");
      if (at == Where::Inside) rings.push_back(solids[s]);
    }
    polygons.push_back(std::move(rings));
  }
  return polygons.size() == 1 ? wkt_polygon(polygons[0]) : wkt_multipolygon(polygons);
}

}  // namespace lockstep::trajectory
