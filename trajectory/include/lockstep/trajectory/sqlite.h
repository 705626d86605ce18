// Trajectories in the SQLite layout JuPedSim writes (database version 2), so
// PedPy's load_trajectory_from_jupedsim_sqlite and
// load_walkable_area_from_jupedsim_sqlite read them. Layout, sources and units:
// docs/trajectories.md. Model-independent: a caller hands over rows per frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lockstep::trajectory {

/// The `version` value in the `metadata` table. PedPy accepts 1 and 2; JuPedSim
/// 1.x (up to its rls-1.3 line) writes 2. See docs/trajectories.md.
inline constexpr int kJupedsimDatabaseVersion = 2;

/// One walker at one frame. Positions in metres; (ori_x, ori_y) is the
/// walker's heading as a unit vector (JuPedSim's agent orientation).
struct TrajectoryRow {
  int64_t id = 0;
  double x = 0, y = 0;
  double ori_x = 1, ori_y = 0;
};

/// A file that cannot be opened or written, or a sqlite error. what() names the
/// file and carries sqlite's own message.
class TrajectoryError : public std::runtime_error {
 public:
  TrajectoryError(const std::string& path, const std::string& message);
  const std::string& path() const noexcept { return path_; }
  /// what() without the leading "trajectory file PATH: ".
  const std::string& message() const noexcept { return message_; }

 private:
  std::string path_;
  std::string message_;
};

struct WriterOptions {
  /// Frames per transaction (the last, partial one commits on close()). Every
  /// committed frame survives a crash of the writing process.
  std::size_t commit_every_frames = 100;
};

/// Writes one trajectory file. An existing file at `path` is replaced.
///
///   SqliteTrajectoryWriter w("run.sqlite", 10.0, wkt_polygon({outline, pillar}));
///   for (...) w.write_frame(frame++, rows);
///   w.close();
///
/// Frames must be written in strictly increasing order (JuPedSim numbers them
/// 0, 1, 2, ... at `fps` frames per second). Not thread-safe.
class SqliteTrajectoryWriter {
 public:
  /// `fps`: frames per second of the file (> 0). `walkable_wkt`: the walkable
  /// area as 2-D WKT (see wkt_polygon); it is the geometry of every frame until
  /// set_walkable_area changes it. Throws TrajectoryError if the file cannot be
  /// created, std::invalid_argument for a bad fps or WKT without coordinates.
  SqliteTrajectoryWriter(const std::string& path, double fps, const std::string& walkable_wkt,
                         WriterOptions options = {});
  /// Closes the file if close() was not called, swallowing any error: call
  /// close() to see them.
  ~SqliteTrajectoryWriter();
  SqliteTrajectoryWriter(SqliteTrajectoryWriter&&) noexcept;
  SqliteTrajectoryWriter& operator=(SqliteTrajectoryWriter&&) noexcept;
  SqliteTrajectoryWriter(const SqliteTrajectoryWriter&) = delete;
  SqliteTrajectoryWriter& operator=(const SqliteTrajectoryWriter&) = delete;

  /// Appends one frame: its rows (may be empty) and its frame_data entry.
  /// std::invalid_argument if `frame` is not greater than the previous one or
  /// exceeds INT64_MAX, or a row holds a NaN or infinity (nothing of the frame
  /// is written then); std::logic_error after close(); TrajectoryError if
  /// sqlite fails.
  void write_frame(uint64_t frame, std::span<const TrajectoryRow> rows);

  /// The walkable area of the frames written from now on (JuPedSim v2 keeps a
  /// geometry per frame). PedPy's walkable area is the union of all of them.
  void set_walkable_area(const std::string& walkable_wkt);

  /// Commits the frames written so far.
  void flush();
  /// Commits and closes; idempotent. Throws TrajectoryError if that fails.
  void close();

  bool is_open() const noexcept;
  const std::string& path() const noexcept;
  uint64_t frames_written() const noexcept;
  uint64_t rows_written() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A point (x, y) in metres; a ring is a closed line of points.
using Ring = std::vector<std::pair<double, double>>;

/// WKT of one polygon with holes: `rings[0]` is the outer ring (the floor
/// outline), every further ring a hole in it (an obstacle, a void, a stairwell).
/// Rings are closed if their last point is not their first; each needs at least
/// three distinct points. Numbers are written exactly (shortest round trip).
/// E.g. wkt_polygon({{{0,0},{10,0},{10,5},{0,5}}}) ==
///   "POLYGON ((0 0, 10 0, 10 5, 0 5, 0 0))".
/// std::invalid_argument for no rings, a short ring or a non-finite number.
std::string wkt_polygon(const std::vector<Ring>& rings);

/// WKT of several polygons (each as for wkt_polygon: outer ring first):
/// "MULTIPOLYGON (((...), (...)), ((...)))". Note that PedPy's WalkableArea
/// must be one connected polygon: the parts have to touch or overlap.
std::string wkt_multipolygon(const std::vector<std::vector<Ring>>& polygons);

/// WKT of a floor given as the union of `walkable` outlines minus `solids`
/// (obstacles, holes, voids: anything cut out). One outline gives
/// POLYGON (outline, solids...); several give a MULTIPOLYGON in which each solid
/// is a hole of every outline that contains it. PedPy unions the parts, so
/// outlines may overlap. Solids that lie outside every outline are dropped.
/// std::invalid_argument names a solid that crosses an outline's edge (it
/// cannot be a hole there: clip it to the outline first). Solids should not
/// overlap one another or run along an outline's edge (OGC validity, which
/// PedPy's shapely expects).
std::string wkt_floor(const std::vector<Ring>& walkable, const std::vector<Ring>& solids);

}  // namespace lockstep::trajectory
