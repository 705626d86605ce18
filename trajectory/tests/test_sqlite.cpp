// Trajectory files in JuPedSim's SQLite layout (docs/trajectories.md), read back
// with the sqlite3 C API and, where python3 is present, an independent script.
#include <sqlite3.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "lockstep/trajectory/sqlite.h"

namespace fs = std::filesystem;
using namespace lockstep::trajectory;

namespace {

// A scratch directory per test, removed afterwards.
struct TempDir {
  fs::path dir;
  TempDir() {
    dir = fs::temp_directory_path() / ("lockstep-traj-" + std::to_string(::getpid()) + "-" +
                                       std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

// One cell as text (NULL as "NULL") and its sqlite type name.
struct Cell {
  std::string text;
  std::string type;
};
using Table = std::vector<std::vector<Cell>>;

struct Db {
  sqlite3* db = nullptr;
  explicit Db(const std::string& path) {
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  }
  ~Db() { sqlite3_close(db); }
  Table query(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
    Table out;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      std::vector<Cell> row;
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        const char* names[] = {"", "integer", "real", "text", "blob", "null"};
        Cell cell;
        cell.type = names[sqlite3_column_type(st, c)];
        auto* t = sqlite3_column_text(st, c);
        cell.text = t ? reinterpret_cast<const char*>(t) : "NULL";
        row.push_back(cell);
      }
      out.push_back(row);
    }
    REQUIRE(rc == SQLITE_DONE);
    sqlite3_finalize(st);
    return out;
  }
  std::vector<std::string> column(const std::string& sql) {
    std::vector<std::string> out;
    for (auto& row : query(sql)) out.push_back(row.at(0).text);
    return out;
  }
  std::string one(const std::string& sql) {
    auto t = query(sql);
    REQUIRE(t.size() == 1);
    return t[0].at(0).text;
  }
};

const std::string kSquare = "POLYGON ((0 0, 10 0, 10 5, 0 5, 0 0))";

// Three frames of three walkers: walker 2 leaves after frame 1.
void write_sample(const std::string& path) {
  SqliteTrajectoryWriter w(path, 10.0, kSquare);
  for (uint64_t f = 0; f < 3; ++f) {
    std::vector<TrajectoryRow> rows;
    for (int64_t id = 1; id <= 3; ++id) {
      if (id == 2 && f == 2) continue;
      rows.push_back({id, 1.0 + double(id) + 0.25 * double(f), 2.5 - 0.5 * double(id), 0.6, 0.8});
    }
    w.write_frame(f, rows);
  }
  CHECK(w.frames_written() == 3);
  CHECK(w.rows_written() == 8);
  w.close();
  CHECK_FALSE(w.is_open());
}

}  // namespace

TEST_CASE("trajectory sqlite has the JuPedSim version 2 schema", "[trajectory]") {
  TempDir tmp;
  const std::string path = tmp.file("run.sqlite");
  write_sample(path);
  Db db(path);

  // The exact statements of JuPedSim's SqliteTrajectoryWriter.begin_writing.
  auto master = db.query("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid");
  std::vector<std::vector<std::string>> expected = {
      {"table", "trajectory_data", "trajectory_data",
       "CREATE TABLE trajectory_data (   frame INTEGER NOT NULL,   id INTEGER NOT NULL,   pos_x REAL NOT NULL,   "
       "pos_y REAL NOT NULL,   ori_x REAL NOT NULL,   ori_y REAL NOT NULL)"},
      {"table", "metadata", "metadata",
       "CREATE TABLE metadata(key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL)"},
      {"table", "geometry", "geometry", "CREATE TABLE geometry(   hash INTEGER NOT NULL,    wkt TEXT NOT NULL)"},
      {"index", "geometry_hash", "geometry", "CREATE UNIQUE INDEX geometry_hash on geometry( hash)"},
      {"table", "frame_data", "frame_data",
       "CREATE TABLE frame_data(   frame INTEGER NOT NULL,   geometry_hash INTEGER NOT NULL)"},
      {"index", "frame_id_idx", "trajectory_data", "CREATE INDEX frame_id_idx ON trajectory_data(frame, id)"},
  };
  REQUIRE(master.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    for (std::size_t c = 0; c < 4; ++c) CHECK(master[i][c].text == expected[i][c]);

  // Columns: name, declared type, NOT NULL.
  auto columns = [&](const std::string& table) {
    std::vector<std::string> out;
    for (auto& r : db.query("PRAGMA table_info(" + table + ")"))
      out.push_back(r[1].text + " " + r[2].text + (r[3].text == "1" ? " NOT NULL" : ""));
    return out;
  };
  CHECK(columns("trajectory_data") ==
        std::vector<std::string>{"frame INTEGER NOT NULL", "id INTEGER NOT NULL", "pos_x REAL NOT NULL",
                                 "pos_y REAL NOT NULL", "ori_x REAL NOT NULL", "ori_y REAL NOT NULL"});
  CHECK(columns("metadata") == std::vector<std::string>{"key TEXT NOT NULL", "value TEXT NOT NULL"});
  CHECK(columns("geometry") == std::vector<std::string>{"hash INTEGER NOT NULL", "wkt TEXT NOT NULL"});
  CHECK(columns("frame_data") == std::vector<std::string>{"frame INTEGER NOT NULL", "geometry_hash INTEGER NOT NULL"});
  CHECK(db.column("PRAGMA index_info(frame_id_idx)") == std::vector<std::string>{"0", "1"});
}

TEST_CASE("trajectory sqlite metadata holds what PedPy and JuPedSim read", "[trajectory]") {
  TempDir tmp;
  const std::string path = tmp.file("run.sqlite");
  write_sample(path);
  Db db(path);
  auto meta = db.query("SELECT key, value, typeof(value) FROM metadata ORDER BY rowid");
  std::vector<std::vector<std::string>> expected = {{"version", "2", "text"}, {"fps", "10.0", "text"},
                                                    {"xmin", "0.0", "text"},  {"xmax", "10.0", "text"},
                                                    {"ymin", "0.0", "text"},  {"ymax", "5.0", "text"}};
  REQUIRE(meta.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    for (std::size_t c = 0; c < 3; ++c) CHECK(meta[i][c].text == expected[i][c]);
  // PedPy's own queries.
  CHECK(db.one("select value from metadata where key = 'fps'") == "10.0");
  CHECK(db.one("SELECT value FROM metadata WHERE key = 'version'") == std::to_string(kJupedsimDatabaseVersion));
}

TEST_CASE("trajectory sqlite rows frames and geometry read back exactly", "[trajectory]") {
  TempDir tmp;
  const std::string path = tmp.file("run.sqlite");
  write_sample(path);
  Db db(path);

  // PedPy: "select frame, id, pos_x as x, pos_y as y from trajectory_data".
  auto rows = db.query("select frame, id, pos_x as x, pos_y as y, ori_x, ori_y from trajectory_data");
  std::vector<std::string> got;
  for (auto& r : rows) {
    CHECK(r[0].type == "integer");
    CHECK(r[1].type == "integer");
    for (int c = 2; c < 6; ++c) CHECK(r[c].type == "real");
    got.push_back(r[0].text + " " + r[1].text + " " + r[2].text + " " + r[3].text + " " + r[4].text + " " +
                  r[5].text);
  }
  CHECK(got == std::vector<std::string>{"0 1 2.0 2.0 0.6 0.8", "0 2 3.0 1.5 0.6 0.8", "0 3 4.0 1.0 0.6 0.8",
                                        "1 1 2.25 2.0 0.6 0.8", "1 2 3.25 1.5 0.6 0.8", "1 3 4.25 1.0 0.6 0.8",
                                        "2 1 2.5 2.0 0.6 0.8", "2 3 4.5 1.0 0.6 0.8"});

  auto geometry = db.query("SELECT hash, wkt FROM geometry");
  REQUIRE(geometry.size() == 1);
  CHECK(geometry[0][0].type == "integer");
  CHECK(geometry[0][1].text == kSquare);
  auto frames = db.query("SELECT frame, geometry_hash FROM frame_data ORDER BY rowid");
  REQUIRE(frames.size() == 3);
  for (std::size_t f = 0; f < 3; ++f) {
    CHECK(frames[f][0].text == std::to_string(f));
    CHECK(frames[f][1].text == geometry[0][0].text);
  }
}

TEST_CASE("trajectory sqlite passes the independent python check", "[trajectory]") {
#ifdef LOCKSTEP_TRAJ_PYTHON3
  TempDir tmp;
  const std::string path = tmp.file("run.sqlite");
  write_sample(path);
  const std::string cmd = std::string("'") + LOCKSTEP_TRAJ_PYTHON3 + "' '" + LOCKSTEP_TRAJ_CHECK_SCRIPT + "' '" +
                          path + "' >/dev/null";
  INFO(cmd);
  CHECK(std::system(cmd.c_str()) == 0);
#else
  WARN("python3 not found at configure time: the python check is skipped");
#endif
}

TEST_CASE("trajectory sqlite empty frames set_walkable_area and large ids", "[trajectory]") {
  TempDir tmp;
  const std::string path = tmp.file("run.sqlite");
  const std::string second = wkt_polygon({{{10, 0}, {20, 0}, {20, 7.5}, {10, 7.5}}});
  {
    SqliteTrajectoryWriter w(path, 2.5, kSquare, WriterOptions{1});
    const TrajectoryRow big{std::numeric_limits<int64_t>::max(), -1e-7, 1e300, -0.0, 1.0};
    w.write_frame(0, {});
    w.write_frame(5, std::span(&big, 1));
    w.set_walkable_area(second);
    w.write_frame(6, {});
    // No close(): the destructor commits.
  }
  Db db(path);
  CHECK(db.one("select value from metadata where key = 'fps'") == "2.5");
  CHECK(db.column("SELECT key || '=' || value FROM metadata WHERE key GLOB '[xy]m*' ORDER BY rowid") ==
        std::vector<std::string>{"xmin=0.0", "xmax=20.0", "ymin=0.0", "ymax=7.5"});
  CHECK(db.column("SELECT wkt FROM geometry ORDER BY rowid") == std::vector<std::string>{kSquare, second});
  CHECK(db.column("SELECT frame || ':' || (geometry_hash = (SELECT hash FROM geometry WHERE rowid = 1)) "
                  "FROM frame_data ORDER BY rowid") == std::vector<std::string>{"0:1", "5:1", "6:0"});
  auto rows = db.query("SELECT id, pos_x, pos_y FROM trajectory_data");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0][0].text == "9223372036854775807");
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db.db, "SELECT pos_x, pos_y FROM trajectory_data", -1, &st, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  CHECK(sqlite3_column_double(st, 0) == -1e-7);  // bit for bit
  CHECK(sqlite3_column_double(st, 1) == 1e300);
  sqlite3_finalize(st);
}

TEST_CASE("trajectory sqlite batches frames across transactions", "[trajectory]") {
  TempDir tmp;
  const std::string path = tmp.file("run.sqlite");
  SqliteTrajectoryWriter w(path, 25.0, kSquare, WriterOptions{4});
  std::vector<TrajectoryRow> rows(250);  // more than one block of rows per statement
  for (uint64_t f = 0; f < 10; ++f) {
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = {int64_t(i), double(f), double(i) / 64, 1, 0};
    w.write_frame(f, rows);
  }
  {
    // Another connection sees the committed frames (two transactions of 4) of the live run.
    Db db(path);
    CHECK(db.one("SELECT count(*) FROM frame_data") == "8");
    CHECK(db.one("SELECT count(*) FROM trajectory_data") == "2000");
  }
  w.close();
  Db db(path);
  CHECK(db.one("SELECT count(*) FROM frame_data") == "10");
  CHECK(db.one("SELECT count(*) FROM trajectory_data") == "2500");
  CHECK(db.one("SELECT count(*) FROM trajectory_data WHERE pos_x = frame AND pos_y * 64 = id") == "2500");
}

TEST_CASE("trajectory sqlite replaces an existing file", "[trajectory]") {
  TempDir tmp;
  const std::string path = tmp.file("run.sqlite");
  std::ofstream(path) << "not a database at all";
  std::ofstream(path + "-journal") << "stale";
  write_sample(path);
  Db db(path);
  CHECK(db.one("SELECT count(*) FROM trajectory_data") == "8");
  CHECK_FALSE(fs::exists(path + "-journal"));
}

TEST_CASE("trajectory sqlite errors name the file", "[trajectory]") {
  TempDir tmp;
  SECTION("a directory that does not exist") {
    const std::string path = tmp.file("no/such/dir/run.sqlite");
    try {
      SqliteTrajectoryWriter w(path, 10.0, kSquare);
      FAIL("no exception");
    } catch (const TrajectoryError& e) {
      const std::string what = e.what();
      CHECK(e.path() == path);
      CHECK(what.find(path) != std::string::npos);
      CHECK(what.find("unable to open database file") != std::string::npos);  // sqlite's message
    }
  }
  SECTION("a directory") {
    const std::string path = tmp.file("adir");
    fs::create_directories(path);
    CHECK_THROWS_WITH(SqliteTrajectoryWriter(path, 10.0, kSquare), Catch::Contains(path) && Catch::Contains("directory"));
    CHECK(fs::is_directory(path));
  }
  SECTION("bad arguments") {
    const std::string path = tmp.file("run.sqlite");
    CHECK_THROWS_AS(SqliteTrajectoryWriter(path, 0.0, kSquare), std::invalid_argument);
    CHECK_THROWS_AS(SqliteTrajectoryWriter(path, std::nan(""), kSquare), std::invalid_argument);
    CHECK_THROWS_AS(SqliteTrajectoryWriter(path, 10.0, "POLYGON EMPTY"), std::invalid_argument);
    CHECK_THROWS_AS(SqliteTrajectoryWriter(path, 10.0, "POLYGON Z ((0 0 0, 1 0 0, 1 1 0, 0 0 0))"),
                    std::invalid_argument);
    SqliteTrajectoryWriter w(path, 10.0, kSquare);
    const TrajectoryRow ok{1, 1, 1, 1, 0}, nan{2, std::nan(""), 1, 1, 0};
    w.write_frame(3, std::span(&ok, 1));
    CHECK_THROWS_WITH(w.write_frame(3, std::span(&ok, 1)), Catch::Contains("frames must increase"));
    CHECK_THROWS_WITH(w.write_frame(4, std::span(&nan, 1)), Catch::Contains("id 2") && Catch::Contains("finite"));
    CHECK_THROWS_AS(w.write_frame(uint64_t(1) << 63, std::span(&ok, 1)), std::invalid_argument);
    w.write_frame(4, std::span(&ok, 1));  // the refused frames wrote nothing
    w.close();
    w.close();
    CHECK_THROWS_AS(w.write_frame(5, std::span(&ok, 1)), std::logic_error);
    Db db(path);
    CHECK(db.column("SELECT frame FROM frame_data") == std::vector<std::string>{"3", "4"});
    CHECK(db.one("SELECT count(*) FROM trajectory_data") == "2");
  }
}

TEST_CASE("wkt polygon outer ring first then holes", "[trajectory]") {
  const Ring outline = {{0, 0}, {30, 0}, {30, 12.5}, {0, 12.5}};
  const Ring pillar = {{4, 4}, {5, 4}, {5, 5}, {4, 5}, {4, 4}};  // already closed: not closed twice
  const Ring stairwell = {{10.25, 2}, {12, 2}, {12, 0.1}};
  CHECK(wkt_polygon({outline}) == "POLYGON ((0 0, 30 0, 30 12.5, 0 12.5, 0 0))");
  CHECK(wkt_polygon({outline, pillar, stairwell}) ==
        "POLYGON ((0 0, 30 0, 30 12.5, 0 12.5, 0 0), (4 4, 5 4, 5 5, 4 5, 4 4), "
        "(10.25 2, 12 2, 12 0.1, 10.25 2))");
  CHECK(wkt_polygon({{{-0.0, -2.5}, {1e-7, 0}, {0.1, 0.30000000000000004}}}) ==
        "POLYGON ((0 -2.5, 1e-07 0, 0.1 0.30000000000000004, 0 -2.5))");
  CHECK(wkt_multipolygon({{outline}, {{{30, 0}, {40, 0}, {40, 5}}}}) ==
        "MULTIPOLYGON (((0 0, 30 0, 30 12.5, 0 12.5, 0 0)), ((30 0, 40 0, 40 5, 30 0)))");
  CHECK_THROWS_AS(wkt_polygon({}), std::invalid_argument);
  CHECK_THROWS_AS(wkt_polygon({{{0, 0}, {1, 0}, {0, 0}}}), std::invalid_argument);
  CHECK_THROWS_AS(wkt_polygon({outline, {{0, 0}, {1, 1}}}), std::invalid_argument);
  CHECK_THROWS_AS(wkt_polygon({{{0, 0}, {1, 0}, {1, std::numeric_limits<double>::infinity()}}}),
                  std::invalid_argument);
  CHECK_THROWS_AS(wkt_multipolygon({}), std::invalid_argument);

  // The writer takes what the helper builds; the bounds come from the outer ring.
  TempDir tmp;
  const std::string path = tmp.file("station.sqlite");
  SqliteTrajectoryWriter(path, 10.0, wkt_polygon({outline, pillar, stairwell})).close();
  Db db(path);
  CHECK(db.column("SELECT value FROM metadata WHERE key GLOB '[xy]m*' ORDER BY rowid") ==
        std::vector<std::string>{"0.0", "30.0", "0.0", "12.5"});
}

TEST_CASE("wkt floor is the walkable union minus solids", "[trajectory]") {
  // fixtures/station/hall.json: one outline, one column inside it.
  const Ring hall = {{0, 0}, {24, 0}, {24, 14}, {0, 14}};
  const Ring column = {{11, 6}, {13, 6}, {13, 8}, {11, 8}};
  CHECK(wkt_floor({hall}, {column}) ==
        "POLYGON ((0 0, 24 0, 24 14, 0 14, 0 0), (11 6, 13 6, 13 8, 11 8, 11 6))");
  CHECK(wkt_floor({hall}, {}) == "POLYGON ((0 0, 24 0, 24 14, 0 14, 0 0))");

  // fixtures/station/rimea6.json: two overlapping outlines make an L.
  const Ring leg_a = {{0, 0}, {12, 0}, {12, 2}, {0, 2}};
  const Ring leg_b = {{10, 0}, {12, 0}, {12, 12}, {10, 12}};
  CHECK(wkt_floor({leg_a, leg_b}, {}) ==
        "MULTIPOLYGON (((0 0, 12 0, 12 2, 0 2, 0 0)), ((10 0, 12 0, 12 12, 10 12, 10 0)))");
  // A solid in the overlap is a hole of both legs; one in leg b only, of leg b;
  // one outside the floor is dropped.
  const Ring in_both = {{10.5, 0.5}, {11.5, 0.5}, {11.5, 1.5}};
  const Ring in_b = {{10.5, 5}, {11.5, 5}, {11.5, 6}, {10.5, 6}};
  const Ring outside = {{3, 5}, {4, 5}, {4, 6}};
  CHECK(wkt_floor({leg_a, leg_b}, {in_both, in_b, outside}) ==
        "MULTIPOLYGON (((0 0, 12 0, 12 2, 0 2, 0 0), (10.5 0.5, 11.5 0.5, 11.5 1.5, 10.5 0.5)), "
        "((10 0, 12 0, 12 12, 10 12, 10 0), (10.5 0.5, 11.5 0.5, 11.5 1.5, 10.5 0.5), "
        "(10.5 5, 11.5 5, 11.5 6, 10.5 6, 10.5 5)))");
  // A solid across leg a's edge cannot be a hole of leg a.
  const Ring across = {{9, 1}, {11, 1}, {11, 3}, {9, 3}};
  CHECK_THROWS_WITH(wkt_floor({leg_a, leg_b}, {outside, across}),
                    Catch::Contains("solid 1") && Catch::Contains("outline 0"));
  // A solid across the floor's outer edge, and an outline notch reaching into a solid.
  CHECK_THROWS_AS(wkt_floor({hall}, {{{20, 10}, {30, 10}, {30, 12}, {20, 12}}}), std::invalid_argument);
  CHECK_THROWS_AS(wkt_floor({{{0, 0}, {10, 0}, {10, 10}, {5, 5}, {0, 10}}}, {{{4, 4}, {6, 4}, {6, 8}, {4, 8}}}),
                  std::invalid_argument);
  CHECK_THROWS_AS(wkt_floor({}, {}), std::invalid_argument);
}
