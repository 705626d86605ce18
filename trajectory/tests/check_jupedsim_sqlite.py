#!/usr/bin/env python3
"""Checks a trajectory file against JuPedSim's SQLite layout, database version 2.

Independent of the C++ code: the CREATE statements are written here the way
JuPedSim's python source writes them (python_modules/jupedsim/jupedsim/
sqlite_serialization.py, DATABASE_VERSION = 2), and the file is read with the
queries PedPy (pedpy/io/jupedsim_loader.py) and JuPedSim's Recording
(python_modules/jupedsim/jupedsim/recording.py) run. Only the standard library:
pandas, shapely and PedPy itself are not needed.

usage: check_jupedsim_sqlite.py FILE.sqlite   (exit 0 when the file passes)
"""

import sqlite3
import sys

EXPECTED_SQL = {
    ("table", "trajectory_data"): (
        "CREATE TABLE trajectory_data ("
        "   frame INTEGER NOT NULL,"
        "   id INTEGER NOT NULL,"
        "   pos_x REAL NOT NULL,"
        "   pos_y REAL NOT NULL,"
        "   ori_x REAL NOT NULL,"
        "   ori_y REAL NOT NULL)"
    ),
    ("table", "metadata"): "CREATE TABLE metadata(key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL)",
    ("table", "geometry"): "CREATE TABLE geometry(" "   hash INTEGER NOT NULL, " "   wkt TEXT NOT NULL)",
    ("index", "geometry_hash"): "CREATE UNIQUE INDEX geometry_hash on geometry( hash)",
    ("table", "frame_data"): "CREATE TABLE frame_data(" "   frame INTEGER NOT NULL," "   geometry_hash INTEGER NOT NULL)",
    ("index", "frame_id_idx"): "CREATE INDEX frame_id_idx ON trajectory_data(frame, id)",
}


def fail(message):
    print(f"check_jupedsim_sqlite: {message}", file=sys.stderr)
    sys.exit(1)


def main(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    cur = con.cursor()

    # The schema, statement by statement (sqlite's own autoindex has no sql).
    found = {
        (kind, name): sql
        for kind, name, sql in cur.execute("SELECT type, name, sql FROM sqlite_master")
        if sql is not None
    }
    if found != EXPECTED_SQL:
        fail(f"schema differs from JuPedSim v2:\n  found    {found}\n  expected {EXPECTED_SQL}")

    # pedpy.load_trajectory_from_jupedsim_sqlite
    data = cur.execute("select frame, id, pos_x as x, pos_y as y from trajectory_data").fetchall()
    if not data:
        fail("trajectory_data is empty (PedPy refuses an empty file)")
    fps_row = cur.execute("select value from metadata where key = 'fps'").fetchone()
    if fps_row is None:
        fail("metadata has no fps")
    fps = float(fps_row[0])
    if not fps > 0:
        fail(f"fps {fps} is not positive")

    # pedpy.load_walkable_area_from_jupedsim_sqlite
    version = int(cur.execute("SELECT value FROM metadata WHERE key = ?", ("version",)).fetchone()[0])
    if version not in (1, 2):
        fail(f"database version {version}: PedPy supports 1 and 2")
    geometries = [row[0] for row in cur.execute("SELECT wkt FROM geometry").fetchall()]
    if not geometries:
        fail("geometry is empty")
    for wkt in geometries:
        if not (wkt.startswith("POLYGON (") or wkt.startswith("MULTIPOLYGON (")):
            fail(f"geometry is not a POLYGON or MULTIPOLYGON: {wkt[:60]}")
        if wkt.count("(") != wkt.count(")"):
            fail(f"unbalanced parentheses in geometry: {wkt[:60]}")

    # jupedsim.Recording: frames, geometry per frame, bounds.
    frames = [row[0] for row in cur.execute("SELECT frame FROM frame_data ORDER BY rowid")]
    if frames != sorted(set(frames)):
        fail("frame_data frames are not strictly increasing")
    if cur.execute("SELECT count(*) FROM frame_data").fetchone()[0] != len(frames):
        fail("frame_data count")
    traj_frames = {row[0] for row in cur.execute("SELECT DISTINCT frame FROM trajectory_data")}
    if not traj_frames <= set(frames):
        fail("trajectory_data holds frames that frame_data does not")
    hashes = {row[0] for row in cur.execute("SELECT hash FROM geometry")}
    for frame in frames:
        geometry_hash = cur.execute("SELECT geometry_hash from frame_data WHERE frame == ?", (frame,)).fetchone()[0]
        if geometry_hash not in hashes:
            fail(f"frame {frame} names geometry {geometry_hash}, which is not stored")
    for key in ("xmin", "xmax", "ymin", "ymax"):
        row = cur.execute(f"SELECT value FROM metadata WHERE key == '{key}'").fetchone()
        if row is None:
            fail(f"metadata has no {key}")
        float(row[0])
    first = frames[0]
    for agent_id, pos_x, pos_y, ori_x, ori_y in cur.execute(
        "SELECT id, pos_x, pos_y, ori_x, ori_y FROM trajectory_data WHERE frame == (?) ORDER BY id ASC", (first,)
    ):
        if not all(isinstance(v, float) for v in (pos_x, pos_y, ori_x, ori_y)) or not isinstance(agent_id, int):
            fail(f"frame {first}, id {agent_id}: column types")

    con.close()
    print(f"check_jupedsim_sqlite: ok ({len(data)} rows, {len(frames)} frames, fps {fps}, version {version})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        fail("usage: check_jupedsim_sqlite.py FILE.sqlite")
    main(sys.argv[1])
