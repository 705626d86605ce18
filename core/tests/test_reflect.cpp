// reflect.h, hash.h, snapshot.h, diff.h, json_load.h: one listing, many uses.
#include <catch2/catch.hpp>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <cstring>

#include "lockstep/core/diff.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/json_load.h"
#include "lockstep/core/snapshot.h"
#include "lockstep/core/vec.h"

using namespace lockstep;

namespace {

enum class Mode : uint8_t { Idle = 0, Walk = 3 };

// Packed by hand: a (2) b (4) c (1) d (1) = 8 bytes with alignment 4 -> padding 0? No: a at 0,
// b needs 4-alignment -> padding at 2..3. So this struct is NOT raw: its hash must skip padding.
struct Padded {
  uint16_t a = 0x0102;
  float b = 1.0f;
  bool c = true;
  Mode d = Mode::Walk;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"a", 0x10}, s.a);
    v(FieldInfo{"b", 0x14}, s.b);
    v(FieldInfo{"c"}, s.c);
    v(FieldInfo{"d"}, s.d);
  }
};

struct Tight {
  float x = 0, y = 0;
  int32_t n = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"x"}, s.x);
    v(FieldInfo{"y"}, s.y);
    v(FieldInfo{"n"}, s.n);
  }
};

struct Tree {
  uint64_t tick = 0;
  std::array<Tight, 3> fixed{};
  std::vector<Tight> items;
  std::vector<Padded> padded;
  std::string label = "yard";
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"tick"}, s.tick);
    v(FieldInfo{"fixed"}, s.fixed);
    v(FieldInfo{"items"}, s.items);
    v(FieldInfo{"padded"}, s.padded);
    v(FieldInfo{"label"}, s.label);
  }
};

Tree sample() {
  Tree t;
  t.tick = 77;
  for (int i = 0; i < 3; ++i) t.fixed[static_cast<std::size_t>(i)] = Tight{0.5f * static_cast<float>(i), -1.0f, i};
  for (int i = 0; i < 5; ++i) t.items.push_back(Tight{static_cast<float>(i) / 3.0f, 2.0f, -i});
  t.padded.resize(2);
  t.padded[1].b = -0.0f;
  return t;
}

}  // namespace

TEST_CASE("Canonical bytes are little-endian fields in listing order with no padding", "[reflect][hash]") {
  ByteSink s;
  write_canonical(s, Padded{});
  // a = 0x0102 LE, b = 1.0f = 0x3f800000 LE, c = 1, d = 3: 8 bytes, no padding bytes.
  const std::vector<unsigned char> expect = {0x02, 0x01, 0x00, 0x00, 0x80, 0x3f, 0x01, 0x03};
  CHECK(s.out == expect);
  CHECK(sizeof(Padded) > expect.size());  // the memory has padding the hash never sees
  CHECK_FALSE(is_raw<Padded>());
  CHECK(is_raw<Tight>());
  CHECK(is_raw<Vec3>());
}

TEST_CASE("A vector is its u32 length then its elements", "[reflect][hash]") {
  std::vector<Tight> v = {Tight{1.0f, 2.0f, 3}};
  ByteSink s;
  write_canonical(s, v);
  const std::vector<unsigned char> expect = {1, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 3, 0, 0, 0};
  CHECK(s.out == expect);
}

TEST_CASE("The hash is XXH3-64 of the canonical bytes", "[hash]") {
  // XXH3-64 of no bytes with seed 0 is 0x2D06800538D394C2 (xxHash's own sanity table).
  CHECK(xxh3(nullptr, 0) == 0x2D06800538D394C2ull);
  Hasher h;
  CHECK(h.digest() == 0x2D06800538D394C2ull);
  ByteSink s;
  const Tree t = sample();
  write_canonical(s, t);
  CHECK(hash_of(t) == xxh3(s.out.data(), s.out.size()));
}

TEST_CASE("The block fast path hashes exactly what the field walk hashes", "[hash]") {
  const Tree t = sample();
  CHECK(hash_of(t, true) == hash_of(t, false));
  std::vector<Tight> big(10000);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = Tight{static_cast<float>(i), 0.25f, static_cast<int32_t>(i)};
  CHECK(hash_of(big, true) == hash_of(big, false));
}

TEST_CASE("Streaming writes of any size give the one-shot hash", "[hash]") {
  std::vector<unsigned char> data(5000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 7);
  for (std::size_t chunk : {1u, 3u, 511u, 512u, 513u, 4096u}) {
    Hasher h;
    for (std::size_t off = 0; off < data.size(); off += chunk) h.bytes(&data[off], std::min(chunk, data.size() - off));
    CHECK(h.digest() == xxh3(data.data(), data.size()));
  }
}

TEST_CASE("State hashes: one per top-level field, the whole over them in order", "[hash]") {
  const Tree t = sample();
  const auto h = hash_state(t);
  REQUIRE(h.count == 5);
  CHECK(h.sub[0] == hash_of(t.tick));
  CHECK(h.sub[2] == hash_of(t.items));
  Hasher w;
  for (uint32_t i = 0; i < 5; ++i) w.u64(h.sub[i]);
  CHECK(h.whole == w.digest());
  CHECK(subsystem_names<Tree>() == std::vector<std::string>{"tick", "fixed", "items", "padded", "label"});
}

TEST_CASE("Diff names the first divergent field by path with both values", "[diff]") {
  Tree a = sample(), b = sample();
  CHECK(diff_fields(a, b).empty());
  b.items[3].y = std::nextafter(2.0f, 3.0f);
  b.padded[1].b = 0.0f;  // -0 vs +0 differ in bits
  const auto d = diff_fields(a, b);
  REQUIRE(d.size() == 2);
  CHECK(d[0].path == "items[3].y");
  CHECK(d[0].subsystem == "items");
  CHECK(d[0].a.text == "2");
  CHECK(d[0].a.bits == 0x40000000u);
  CHECK(d[0].b.bits == 0x40000001u);
  CHECK(ulp_distance(d[0].a, d[0].b) == 1u);
  CHECK(d[1].path == "padded[1].b");
  CHECK(ulp_distance(d[1].a, d[1].b) == 0u);  // -0 and +0 are 0 ulps apart but not the same bits
  CHECK(diff_fields(a, b, 1).size() == 1);
  b.items.pop_back();
  const auto d2 = diff_fields(a, b);
  CHECK(d2[0].path == "items");
  CHECK(d2[0].is_size);
  CHECK(d2[0].size_a == 5);
  CHECK(d2[0].size_b == 4);
}

TEST_CASE("ULP distance counts across zero", "[diff]") {
  LeafValue a{LeafKind::F32, "", std::bit_cast<uint32_t>(std::nextafter(0.0f, 1.0f))};
  LeafValue b{LeafKind::F32, "", std::bit_cast<uint32_t>(std::nextafter(0.0f, -1.0f))};
  CHECK(ulp_distance(a, b) == 2u);
  LeafValue c{LeafKind::F32, "", std::bit_cast<uint32_t>(1.0f)};
  LeafValue d{LeafKind::F32, "", std::bit_cast<uint32_t>(2.0f)};
  CHECK(ulp_distance(c, d) == (1u << 23));
}

TEST_CASE("Leaves are listed by path in listing order", "[reflect]") {
  Tree t = sample();
  const auto leaves = list_leaves(t);
  REQUIRE(leaves.size() == 1 + 9 + 15 + 8 + 1);
  CHECK(leaves[0].path == "tick");
  CHECK(leaves[1].path == "fixed[0].x");
  CHECK(leaves[10].path == "items[0].x");
  CHECK(leaves[25].path == "padded[0].a");
  CHECK(leaves[25].ref.kind == LeafKind::U16);
  CHECK(leaves[28].ref.kind == LeafKind::U8);  // an enum leaf is its underlying type
  CHECK(leaves.back().path == "label");
}

TEST_CASE("Path globs select fields", "[diff]") {
  CHECK(path_matches("items[*].y", "items[3].y"));
  CHECK_FALSE(path_matches("items[*].y", "items[3].x"));
  CHECK(path_matches("items[2]", "items[2].x"));  // a struct selects its leaves
  CHECK(path_matches("items", "items[2].x"));
  CHECK_FALSE(path_matches("item", "items[2].x"));
  CHECK(path_matches("*.y", "x.y"));
  CHECK_FALSE(path_matches("*.y", "a.b.y"));
  CHECK(path_matches("**.y", "a.b.y"));
}

TEST_CASE("Snapshot then restore is the identity, to the hash", "[snapshot]") {
  const Tree t = sample();
  const auto bytes = snapshot_bytes(t);
  Tree r;
  restore_bytes(bytes, r);
  CHECK(hash_of(r) == hash_of(t));
  CHECK(diff_fields(r, t).empty());
}

TEST_CASE("A cut or padded snapshot is refused and leaves the target as it was", "[snapshot]") {
  const Tree t = sample();
  const auto bytes = snapshot_bytes(t);
  Tree target;
  target.tick = 5;
  const uint64_t before = hash_of(target);
  for (std::size_t cut = 0; cut < bytes.size(); cut += 7) {
    std::vector<uint8_t> part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    CHECK_THROWS_AS(restore_bytes(part, target, "cut.bin"), InputError);
    CHECK(hash_of(target) == before);
  }
  auto longer = bytes;
  longer.push_back(0);
  CHECK_THROWS_WITH(restore_bytes(longer, target, "long.bin"), Catch::Contains("unexpected bytes after the end"));
}

TEST_CASE("A snapshot claiming a huge list is refused before allocating", "[snapshot]") {
  Tree t;
  t.items.resize(1);
  auto bytes = snapshot_bytes(t);
  // Layout: 1 endianness byte, tick (8), fixed (3 x 12), then the items size tag (u64).
  const std::size_t tag = 1 + 8 + 36;
  for (int i = 0; i < 8; ++i) bytes[tag + static_cast<std::size_t>(i)] = 0xff;
  Tree target;
  CHECK_THROWS_WITH(restore_bytes(bytes, target, "huge.bin"), Catch::Contains("more than the"));
}

TEST_CASE("JSON output names every field", "[snapshot]") {
  const std::string j = to_json(sample());
  CHECK(j.find("\"tick\": 77") != std::string::npos);
  CHECK(j.find("\"items\"") != std::string::npos);
  CHECK(j.find("\"label\": \"yard\"") != std::string::npos);
}

TEST_CASE("JSON loading keeps defaults, reads compact structs, and names the path of an error", "[json]") {
  JsonReader r("test.json");
  Tree t;
  r.read(parse_json_text(R"({"tick": 3, "items": [[1, 2, 3], {"y": 5}]})", "test.json"), t, "$");
  CHECK(t.tick == 3);
  REQUIRE(t.items.size() == 2);
  CHECK(t.items[0].n == 3);
  CHECK(t.items[1].y == 5.0f);
  CHECK(t.label == "yard");

  auto fails = [&](const char* text) {
    Tree x;
    try {
      r.read(parse_json_text(text, "test.json"), x, "$");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(fails(R"({"items": [{"z": 1}]})") ==
        "test.json: $.items[0].z: unknown field (known fields: x, y, n)");
  CHECK(fails(R"({"items": [{"n": 1.5}]})") == "test.json: $.items[0].n: expected an integer, got a number with a fraction");
  CHECK(fails(R"({"tick": -1})") ==
        "test.json: $.tick: expected an integer from 0 to 18446744073709551615, got -1");
  CHECK(fails(R"({"items": [[1, 2]]})") ==
        "test.json: $.items[0]: expected an object or an array of 3 numbers, got an array of 2");
  CHECK(fails(R"({"items": [{"x": 1e300}]})") == "test.json: $.items[0].x: expected a finite number within the range of f32");
  CHECK(fails(R"({"label": 4})") == "test.json: $.label: expected a string, got an integer");
  CHECK(fails("{\n  \"tick\": 3,\n  \"items\": [\n}") .find("test.json: line 4, column 1: invalid JSON") == 0);
}

TEST_CASE("A missing file is an input error naming the file", "[json]") {
  CHECK_THROWS_WITH(parse_json_file("/nonexistent/scenario.json"),
                    "/nonexistent/scenario.json: cannot open the file for reading");
}

TEST_CASE("XXH3 gives the same hash on every code path this CPU has", "[hash]") {
  INFO("implementation: " << hash_implementation());
  std::vector<unsigned char> data(70000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>((i * 131) ^ (i >> 7));
  for (std::size_t n : {0u, 1u, 16u, 17u, 128u, 129u, 240u, 241u, 1024u, 1025u, 4096u, 65536u, 70000u}) {
    INFO("bytes " << n);
    CHECK(xxh3(data.data(), n) == xxh3_portable(data.data(), n));
    Hasher h;
    h.bytes(data.data(), n);
    CHECK(h.digest() == xxh3_portable(data.data(), n));
  }
}

#if defined(__x86_64__)
namespace {
// XINUSE (XGETBV with ECX = 1), bit 2: the upper halves of the YMM registers hold
// something (not their initial zeros). Only where the OS enabled XSAVE and the CPU reports
// XGETBV's ECX = 1 form (CPUID.(0DH, 1):EAX bit 2).
bool xinuse_readable() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return false;  // OSXSAVE
  if (!__get_cpuid_count(0xD, 1, &a, &b, &c, &d)) return false;
  return (a & (1u << 2)) != 0;
}
bool ymm_upper_dirty() {
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1u));
  return (lo & (1u << 2)) != 0;
}
}  // namespace

// A 256-bit instruction leaves the YMM registers' upper halves in use until a
// VZEROUPPER; until then the CPU runs the SSE code the models are compiled to
// with a penalty (on the 2-core build machine a station tick took 1.75x as long
// after each tick's hash). The AVX2 path must hand back clean registers.
TEST_CASE("XXH3's AVX2 path hands back clean YMM upper halves: the models' SSE code after it runs unslowed", "[hash]") {
  if (std::string(hash_implementation()) != "avx2" || !xinuse_readable()) {
    WARN("not checked on this CPU: XXH3 runs " << hash_implementation() << ", XINUSE readable " << xinuse_readable());
    return;
  }
  std::vector<unsigned char> data(70000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>((i * 131) ^ (i >> 7));
  for (std::size_t n : {16u, 240u, 241u, 1025u, 65536u, 70000u}) {
    INFO("bytes " << n);
    __asm__ volatile("vzeroupper");
    REQUIRE_FALSE(ymm_upper_dirty());  // the check itself sees a clean start
    const uint64_t one = xxh3(data.data(), n);
    const bool after_oneshot = ymm_upper_dirty();
    CHECK_FALSE(after_oneshot);
    Hasher h;
    h.bytes(data.data(), n / 2);
    h.bytes(data.data() + n / 2, n - n / 2);  // past the hasher's buffer: its update has run
    const bool after_update = ymm_upper_dirty();
    CHECK_FALSE(after_update);
    CHECK(h.digest() == one);
    const bool after_digest = ymm_upper_dirty();
    CHECK_FALSE(after_digest);
  }
}
#endif

namespace {
struct Flagged {
  int32_t a = 0;
  bool b = false;
  bool c = true;
  uint16_t d = 7;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"a"}, s.a);
    v(FieldInfo{"b"}, s.b);
    v(FieldInfo{"c"}, s.c);
    v(FieldInfo{"d"}, s.d);
  }
};
struct FlagList {
  std::vector<Flagged> items;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"items"}, s.items);
  }
};
}  // namespace

TEST_CASE("A list of plain structs snapshots as one block with the field-by-field bytes", "[snapshot]") {
  REQUIRE(is_raw<Flagged>());
  FlagList l;
  for (int i = 0; i < 4; ++i) l.items.push_back(Flagged{i * 1000, i % 2 == 1, i % 3 == 0, static_cast<uint16_t>(i)});
  const auto bytes = snapshot_bytes(l);
  // Portable binary: 1 endianness byte, u64 size, then each element's canonical bytes.
  ByteSink canon;
  for (const auto& e : l.items) write_canonical(canon, e, /*allow_raw=*/false);
  REQUIRE(bytes.size() == 1 + 8 + canon.out.size());
  CHECK(std::equal(canon.out.begin(), canon.out.end(), bytes.begin() + 9));
  FlagList back;
  restore_bytes(bytes, back);
  CHECK(diff_fields(back, l).empty());
  // A flag byte that is neither 0 nor 1 is refused, not read as a bool.
  auto bad = bytes;
  bad[9 + 8 + 4] = 2;  // items[1].b
  FlagList target;
  CHECK_THROWS_WITH(restore_bytes(bad, target, "flags.bin"), Catch::Contains("a flag in a list is neither 0 nor 1"));
  CHECK(target.items.empty());
}

TEST_CASE("find_leaf: a path followed again reaches the field held now (its cached offsets survive a vector's growth)", "[reflect][find_leaf]") {
  Tree t = sample();
  t.items.resize(2);
  const auto steps = parse_path("items[1].n");
  REQUIRE(steps);
  auto first = find_leaf(t, *steps);
  REQUIRE(first.status == LeafLookup::Found);
  CHECK(first.ref.ptr == &t.items[1].n);
  // The vector reallocates: the same steps must reach the element's new place, not the old one.
  t.items.resize(1000);
  t.items[1].n = 77;
  auto again = find_leaf(t, *steps);
  REQUIRE(again.status == LeafLookup::Found);
  CHECK(again.ref.ptr == &t.items[1].n);
  CHECK(read_leaf(again.ref).text == "77");
  // Another value of the same type: its own field.
  Tree u = sample();
  u.items.resize(3);
  CHECK(find_leaf(u, *steps).ref.ptr == &u.items[1].n);
  // The same steps over another type: looked up by name there, not by the first type's offsets.
  const auto tick = parse_path("tick");
  REQUIRE(tick);
  CHECK(find_leaf(t, *tick).ref.ptr == &t.tick);
  Padded p;
  CHECK(find_leaf(p, *tick).status == LeafLookup::Never);
  // Past the vector's end now: absent, then found once it grows.
  const auto far = parse_path("items[1500].x");
  REQUIRE(far);
  CHECK(find_leaf(t, *far).status == LeafLookup::Absent);
  t.items.resize(1501);
  CHECK(find_leaf(t, *far).ref.ptr == &t.items[1500].x);
}
