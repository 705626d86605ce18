// Traces of the original program (or of an emulator running it): per-step
// values of chosen fields in CSV or JSON lines, a map file that says which
// model field each column is and how to compare it, and the verification of a
// model against a trace (docs/traces.md).
//
//   auto map = load_map("fixtures/traces/wander_setup.map.json");
//   auto model = load_scenario_file(map.scenario);
//   auto res = verify_trace(*model, "fixtures/traces/wander_setup.csv", map);
//   res.ok();  // every compared value within its tolerance
//
// Errors in a trace or a map are InputError naming the file, the line (or the
// map's JSON path) and the column.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lockstep/core/diff.h"
#include "lockstep/core/text.h"
#include "lockstep/core/json_load.h"
#include "lockstep/core/model.h"

namespace lockstep::traces {

// ---------------------------------------------------------------- value types

/// How a trace column's values are written (and, for capture, how wide a read is).
enum class ValueType : uint8_t { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };

const char* type_name(ValueType t);
/// Parse "f32", "i16", "bool", ...; nullopt when unknown.
std::optional<ValueType> parse_type(const std::string& s);
/// Bytes one value occupies in memory (the PINE read width).
unsigned type_bytes(ValueType t);
bool is_float_type(ValueType t);
bool is_signed_type(ValueType t);

/// One trace value, parsed according to its column's type.
struct Value {
  ValueType type = ValueType::F32;
  /// Floats: the IEEE bits. Integers: the value, two's complement (signed types
  /// sign-extended to 64 bits). Bool: 0 or 1.
  uint64_t bits = 0;
  double as_double() const;
  /// The value as the shortest exact decimal (floats) or the integer.
  std::string text() const;
};

/// Parse one trace cell: a decimal number, or `0x` and hex digits (a float's
/// IEEE bits: 8 digits for f32, 16 for f64; an integer in hex), or for bool
/// 0, 1, true, false. Throws std::invalid_argument with the reason.
Value parse_value(std::string_view text, ValueType type);

/// Memory bytes (little-endian, `type_bytes(type)` of them, as PINE returns) to a value.
Value value_from_memory(uint64_t raw, ValueType type);

// ---------------------------------------------------------------- the map

/// How close a model value must be to the trace's.
struct Tolerance {
  std::optional<double> abs;     ///< |model - expected| <= abs (model units)
  std::optional<uint64_t> ulps;  ///< within this many units in the last place of the model field's type
  std::optional<double> modulo;  ///< a period (360, 2 pi): the error is the shortest way round
  bool exact() const { return !abs && !ulps && !modulo; }
  std::string text() const;  ///< "exact", "abs 0.001", "abs 0.5 modulo 360", "4 ulps", ...
};

struct Column {
  std::string name;                ///< the trace column (CSV header, JSON key)
  std::optional<uint32_t> address; ///< the original program's memory address, for capture
  std::string field;               ///< the model field path, e.g. entities[3].actioncooldown
  ValueType type = ValueType::F32; ///< how the trace writes it (capture: the read width)
  double scale = 1.0, offset = 0.0;  ///< model value = trace value x scale + offset
  std::string scale_text;          ///< "1", "deg_to_rad", ... for reports
  Tolerance tolerance;
  std::string json_path;           ///< "$.columns[2]", for errors
  bool converts() const { return scale != 1.0 || offset != 0.0; }
};

/// The update counter a capture polls (docs/traces.md, "Capture").
struct CaptureSpec {
  std::optional<uint32_t> counter_address;
  ValueType counter_type = ValueType::U32;
  uint32_t ticks_per_update = 1;  ///< update = ceil(counter / ticks_per_update), e.g. (ticks + 1) / 2
};

/// At most this many `ignore` entries may be globs (hold a `*`), each at most
/// kMaxIgnoreGlobLength characters; names without a `*` are not limited
/// (docs/traces.md, "The map").
inline constexpr std::size_t kMaxIgnoreGlobs = 64;
inline constexpr std::size_t kMaxIgnoreGlobLength = 64;

struct Map {
  std::string source;            ///< the map file
  std::string model;             ///< the model's name ("wander")
  std::string scenario;          ///< the default scenario (resolved against the map's folder), or empty
  std::string name, description;
  uint64_t ticks_per_step = 1;   ///< model ticks per trace step
  int64_t tick_offset = 0;       ///< trace step s is the model state at tick s x ticks_per_step + tick_offset
  std::optional<uint64_t> first_step, last_step;  ///< rows outside are skipped
  std::vector<Column> columns;
  std::vector<std::string> ignore;  ///< trace columns not compared (names or globs)
  CaptureSpec capture;

  /// Whether `ignore` covers this trace column (an exact name, or a glob: `*`
  /// matches any run of characters). One look-up; a trace reader indexes the map once.
  bool ignored(const std::string& column) const;
  /// Index of the mapped column with this trace name, or -1 (one look-up, as above).
  int find(const std::string& column) const;
};

/// Load and validate a map file (everything but the field paths, which need a model: bind_map).
Map load_map(const std::string& path);
/// Same, from parsed JSON; `base_dir` resolves a relative "scenario".
Map parse_map(const Json& j, const std::string& source, const std::string& base_dir);

/// A map checked against a model: each column's leaf index and kind.
struct BoundColumn {
  std::size_t leaf = 0;
  LeafKind kind = LeafKind::F32;
};
/// Check every field path against the model's leaves (InputError naming the
/// map's JSON path and the closest existing paths), every tolerance against
/// the field's kind (integers and bools compare exactly), and that tick_offset
/// is within the scenario's run length (`model.default_ticks()`).
std::vector<BoundColumn> bind_map(const Map& map, Model& model);

/// Up to `limit` leaf paths of the model closest to `path` (edit distance); none
/// for a path longer than 256 characters (the distance costs both lengths' product).
std::vector<std::string> similar_paths(const std::string& path, const std::vector<ConstLeafEntry>& leaves, std::size_t limit = 5);

// ---------------------------------------------------------------- reading traces

enum class TraceFormat { Csv, JsonLines };
const char* format_name(TraceFormat f);
/// By extension (.jsonl, .ndjson, .json: JSON lines; otherwise CSV), then by the first character.
TraceFormat detect_format(const std::string& path);

/// One row of a trace, with each mapped column's cell (absent: a blank cell,
/// JSON null, or a key the row lacks).
struct TraceRow {
  std::size_t line = 0;  ///< 1-based line in the file
  uint64_t step = 0;
  std::vector<std::optional<Value>> cells;  ///< by map column
  std::vector<std::string> texts;           ///< each cell as written
};

/// The longest line a trace may hold (16 MiB, its line end not counted): a
/// longer one is refused naming its line number, before more of it is read.
inline constexpr std::size_t kMaxTraceLineBytes = std::size_t{16} << 20;

/// Streams a trace row by row, checking it against the map: the `step` column,
/// every mapped column present, every other column ignored by the map, steps
/// strictly rising, every value of its column's type.
class TraceReader {
 public:
  TraceReader(const std::string& path, const Map& map, std::optional<TraceFormat> format = std::nullopt);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;
  /// The next row, or false at the end.
  bool next(TraceRow& row);
  TraceFormat format() const { return format_; }
  const std::string& path() const { return path_; }
  /// For JSON lines: mapped columns that no row held so far.
  std::vector<std::string> never_seen() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
  TraceFormat format_;
};

// ---------------------------------------------------------------- verification

/// One cell of a context row: the trace's value and the model's.
struct ContextCell {
  bool present = false;
  std::string trace, expected, model;
  bool outside = false;
};
struct ContextRow {
  uint64_t step = 0, tick = 0;
  std::size_t line = 0;
  std::vector<ContextCell> cells;  ///< by map column
};

/// The first value outside its tolerance.
struct Divergence {
  uint64_t step = 0, tick = 0;
  std::size_t line = 0;
  std::size_t column = 0;  ///< index into the map's columns
  std::string column_name, field;
  std::string trace_text;  ///< the cell as written
  LeafValue expected;      ///< the trace value converted to the model field's type and units
  LeafValue actual;        ///< the model's value
  double error = 0;        ///< |actual - expected| (shortest way round under a modulo); NaN when one is NaN
  std::optional<uint64_t> ulps;
  Tolerance tolerance;
  std::vector<ContextRow> before;  ///< up to three compared rows before it, oldest first
  ContextRow row;                  ///< the divergent row itself
};

struct ColumnSummary {
  std::string column, field;
  Tolerance tolerance;
  uint64_t compared = 0, outside = 0;
  std::optional<uint64_t> first_step, first_tick;  ///< first value outside the tolerance
  double max_error = 0;                            ///< the largest error, within tolerance or not
  std::optional<uint64_t> max_step, max_tick;
  std::optional<uint64_t> max_ulps;                ///< float fields: the largest ULP distance
};

struct VerifyResult {
  std::string trace, map, model;
  std::string scenario;       ///< for reports: set by the caller
  uint32_t model_version = 0;
  TraceFormat format = TraceFormat::Csv;
  uint64_t rows = 0;          ///< rows compared
  uint64_t skipped = 0;       ///< rows outside first_step..last_step
  std::optional<uint64_t> first_step, last_step;
  uint64_t first_tick = 0, last_tick = 0;
  uint64_t ticks_stepped = 0;
  std::optional<Divergence> first;
  std::vector<ColumnSummary> columns;  ///< in map order
  bool ok() const { return !first; }
};

struct VerifyOptions {
  std::size_t context_rows = 3;
  std::string scenario;  ///< the scenario's file, for messages
  std::optional<TraceFormat> format;
  std::function<void(uint64_t rows, uint64_t tick)> progress;  ///< called every row
};

/// Step `model` (from its current tick, with its scenario's scripted inputs)
/// along the trace and compare every mapped cell with the model's field at the
/// aligned tick. Streams: memory does not grow with the trace. A row whose
/// aligned tick is beyond the scenario's run length (`model.default_ticks()`)
/// is an InputError, so the work is bounded by the scenario, not the trace.
VerifyResult verify_trace(Model& model, const std::string& trace_path, const Map& map, const VerifyOptions& opt = {});

/// The human report (aligned labels, as the other commands) and the JSON one (the command line's
/// `verify --json` puts its keys after "schema" and "ok").
std::string report_text(const VerifyResult& r);
nlohmann::ordered_json report_json(const VerifyResult& r);

/// "0x00714b10".
std::string hex_address(uint32_t a);
/// Escape a string for a JSON string literal (no quotes added).
using lockstep::json_escape;  // core/include/lockstep/core/text.h

}  // namespace lockstep::traces
