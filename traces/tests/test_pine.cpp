// The PINE client and the capture, byte for byte against the test responder.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <cstring>
#include <sstream>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "lockstep/traces/pine.h"
#include "pine_responder.h"

using namespace lockstep;
using namespace lockstep::traces;
using testing::PineResponder;

namespace {

constexpr uint32_t kCounter = 0x005104f4;  // the brawler's tick counter (seed 000 supplement)
constexpr uint32_t kAngle = 0x00714b10;
constexpr uint32_t kSpeed = 0x00714b14;
constexpr uint32_t kGait = 0x00714b18;
constexpr uint32_t kHp = 0x00714b1a;
constexpr uint32_t kClock = 0x00714b20;
constexpr uint32_t kFlag = 0x00714b28;

Map capture_map(bool with_counter = true) {
  std::string text = R"({
    "model": "wander",
    "ticks_per_step": 2,
    "columns": [
      {"column": "e_move_angle", "address": "0x00714b10", "field": "entities[0].yaw", "type": "f32"},
      {"address": "0x00714b14", "field": "entities[0].speed", "type": "f32"},
      {"column": "gait", "address": "0x00714b18", "field": "entities[0].animstate", "type": "u8"},
      {"column": "hp", "address": "0x00714b1a", "field": "entities[0].trycount", "type": "i16"},
      {"column": "clock", "address": "0x00714b20", "field": "tick", "type": "f64"},
      {"column": "flag", "address": "0x00714b28", "field": "entities[0].onground", "type": "bool"},
      {"column": "not_captured", "field": "entities[0].maxtries", "type": "i32"}
    ])";
  if (with_counter) text += R"(, "capture": {"counter_address": "0x005104f4", "counter_type": "u32", "ticks_per_update": 2})";
  text += "}";
  return parse_map(parse_json_text(text, "capture.map.json"), "capture.map.json", "");
}

/// The game's memory for update u: the fields are functions of the update.
void set_fields(PineResponder::Memory& m, uint64_t u) {
  PineResponder::put(m, kAngle, std::bit_cast<uint32_t>(static_cast<float>(u) * 0.25f), 4);
  PineResponder::put(m, kSpeed, std::bit_cast<uint32_t>(0.1f * static_cast<float>(u)), 4);
  PineResponder::put(m, kGait, u & 0xff, 1);
  PineResponder::put(m, kHp, static_cast<uint16_t>(-static_cast<int16_t>(u)), 2);
  PineResponder::put(m, kClock, std::bit_cast<uint64_t>(static_cast<double>(u) / 3.0), 8);
  PineResponder::put(m, kFlag, u % 2, 1);
}

std::string le32(uint32_t x) {
  std::string s;
  for (int i = 0; i < 4; ++i) s += static_cast<char>(x >> (8 * i));
  return s;
}

std::string expected_row(uint64_t step, uint64_t u) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%llu,0x%08x,0x%08x,%llu,%d,0x%016llx,%d\n", static_cast<unsigned long long>(step),
                std::bit_cast<uint32_t>(static_cast<float>(u) * 0.25f), std::bit_cast<uint32_t>(0.1f * static_cast<float>(u)),
                static_cast<unsigned long long>(u & 0xff), -static_cast<int>(u),
                static_cast<unsigned long long>(std::bit_cast<uint64_t>(static_cast<double>(u) / 3.0)), static_cast<int>(u % 2));
  return buf;
}

const char* kHeader = "step,e_move_angle,0x00714b14,gait,hp,clock,flag\n";

}  // namespace

TEST_CASE("PINE framing: a batch is a u32 total size then opcode and address per read", "[traces][pine]") {
  pine::Batch b;
  CHECK(b.read(1, 0x00112233) == 0);
  CHECK(b.read(2, 0x44556677) == 1);
  CHECK(b.read(4, 0x8899aabb) == 2);
  CHECK(b.read(8, 0xccddeeff) == 3);
  CHECK(b.status() == 4);
  const std::vector<uint8_t> want = {
      25, 0, 0, 0,                    // total size, itself included
      0x00, 0x33, 0x22, 0x11, 0x00,   // MsgRead8
      0x01, 0x77, 0x66, 0x55, 0x44,   // MsgRead16
      0x02, 0xbb, 0xaa, 0x99, 0x88,   // MsgRead32
      0x03, 0xff, 0xee, 0xdd, 0xcc,   // MsgRead64
      0x0f};                          // MsgStatus
  CHECK(b.message() == want);
  CHECK(b.result_bytes() == 1 + 2 + 4 + 8 + 4);
  CHECK_THROWS_AS(b.read(3, 0), std::invalid_argument);
}

TEST_CASE("PINE replies: results little-endian in order, and status 0xFF, short and long replies are errors", "[traces][pine]") {
  pine::Batch b;
  b.read(2, 0x10);
  b.read(4, 0x20);
  const std::vector<uint8_t> ok = {11, 0, 0, 0, 0x00, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12};
  const auto r = pine::parse_reply(b, ok, "sock");
  REQUIRE(r.size() == 2);
  CHECK(r[0] == 0x1234);
  CHECK(r[1] == 0x12345678);
  const std::vector<uint8_t> failed = {5, 0, 0, 0, 0xFF};
  CHECK_THROWS_WITH(pine::parse_reply(b, failed, "sock"), Catch::Contains("status 0xFF"));
  const std::vector<uint8_t> shorter = {9, 0, 0, 0, 0x00, 0x34, 0x12, 0x78, 0x56};
  CHECK_THROWS_WITH(pine::parse_reply(b, shorter, "sock"), Catch::Contains("short reply: 4 bytes of results") &&
                                                                Catch::Contains("need 6"));
  const std::vector<uint8_t> longer = {12, 0, 0, 0, 0x00, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0};
  CHECK_THROWS_WITH(pine::parse_reply(b, longer, "sock"), Catch::Contains("long reply"));
  const std::vector<uint8_t> odd = {11, 0, 0, 0, 0x07, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12};
  CHECK_THROWS_WITH(pine::parse_reply(b, odd, "sock"), Catch::Contains("unknown status byte 0x07"));
}

TEST_CASE("PINE client: a real exchange with the responder, and its status message", "[traces][pine]") {
  PineResponder srv;
  srv.write(0x100, 0x0123456789abcdefull, 8);
  pine::Client c(srv.socket_path());
  pine::Batch b;
  b.read(8, 0x100);
  b.read(1, 0x101);
  b.status();
  const auto r = c.run(b);
  REQUIRE(r.size() == 3);
  CHECK(r[0] == 0x0123456789abcdefull);
  CHECK(r[1] == 0xcd);
  CHECK(r[2] == 0);
  srv.set_status(1);
  pine::Batch s;
  s.status();
  CHECK(pine::status_name(static_cast<uint32_t>(c.run(s).front())) == "paused");
  REQUIRE(srv.request_count() == 2);
  CHECK(srv.requests()[1] == std::vector<uint8_t>{5, 0, 0, 0, 0x0f});
}

TEST_CASE("capture: one message per sample, duplicates skipped, the CSV exact", "[traces][pine][capture]") {
  PineResponder srv;
  // The game: tick counter 99 (update 50), advancing one update (2 ticks) every second request.
  uint64_t ticks = 99;
  {
    PineResponder::Memory m;
    PineResponder::put(m, kCounter, ticks, 4);
    set_fields(m, (ticks + 1) / 2);
    for (auto [a, v] : m) srv.write(a, v, 1);
  }
  srv.on_command([&](PineResponder::Memory& m, std::size_t req, std::size_t cmd) {
    if (cmd == 0 && req > 0 && req % 2 == 0) {
      ticks += 2;
      PineResponder::put(m, kCounter, ticks, 4);
      set_fields(m, (ticks + 1) / 2);
    }
  });
  const Map map = capture_map();
  pine::CaptureOptions opt;
  opt.socket = srv.socket_path();
  opt.steps = 5;
  opt.poll_ms = 0;
  std::ostringstream csv;
  const auto res = pine::capture(map, opt, csv);

  CHECK(res.rows == 5);
  CHECK(res.first_update == 50);
  CHECK(res.last_step == 4);
  CHECK(res.missed == 0);
  CHECK(res.torn == 0);
  CHECK(res.repeats == 4);
  CHECK(res.polls == 9);
  std::string want = kHeader;
  for (uint64_t s = 0; s < 5; ++s) want += expected_row(s, 50 + s);
  CHECK(csv.str() == want);

  // Every request is the same single batched message, byte for byte:
  // counter, every captured column at its width, counter again.
  std::string msg = le32(4 + 8 * 5);
  msg += std::string("\x02", 1) + le32(kCounter);
  msg += std::string("\x02", 1) + le32(kAngle);
  msg += std::string("\x02", 1) + le32(kSpeed);
  msg += std::string("\x00", 1) + le32(kGait);
  msg += std::string("\x01", 1) + le32(kHp);
  msg += std::string("\x03", 1) + le32(kClock);
  msg += std::string("\x00", 1) + le32(kFlag);
  msg += std::string("\x02", 1) + le32(kCounter);
  const auto reqs = srv.requests();
  REQUIRE(reqs.size() == 9);
  for (const auto& r : reqs) CHECK(std::string(r.begin(), r.end()) == msg);
}

TEST_CASE("capture: the CSV reads back through the trace reader with the same map", "[traces][pine][capture]") {
  PineResponder srv;
  uint64_t ticks = 0;
  srv.write(kCounter, 0, 4);
  srv.on_command([&](PineResponder::Memory& m, std::size_t, std::size_t cmd) {
    if (cmd == 0) {
      ticks += 2;
      PineResponder::put(m, kCounter, ticks, 4);
      set_fields(m, (ticks + 1) / 2);
    }
  });
  const Map map = capture_map();
  pine::CaptureOptions opt;
  opt.socket = srv.socket_path();
  opt.steps = 3;
  opt.poll_ms = 0;
  const std::string path = srv.dir() + "/t.csv";
  {
    std::ofstream out(path);
    pine::capture(map, opt, out);
  }
  Map read_map = map;
  read_map.ignore.clear();
  read_map.columns.pop_back();  // the column without an address is not in a captured trace
  TraceReader rd(path, read_map);
  TraceRow row;
  uint64_t n = 0;
  while (rd.next(row)) {
    const uint64_t u = 1 + n;
    CHECK(row.step == n);
    REQUIRE(row.cells[0]);
    CHECK(std::bit_cast<float>(static_cast<uint32_t>(row.cells[0]->bits)) == static_cast<float>(u) * 0.25f);
    CHECK(row.cells[3]->as_double() == -static_cast<double>(u));
    CHECK(row.cells[4]->as_double() == static_cast<double>(u) / 3.0);
    ++n;
  }
  CHECK(n == 3);
  std::remove(path.c_str());
}

TEST_CASE("capture: a sample whose two counter reads differ is torn and read again", "[traces][pine][capture]") {
  PineResponder srv;
  uint64_t ticks = 1;
  srv.write(kCounter, ticks, 4);
  srv.on_command([&](PineResponder::Memory& m, std::size_t req, std::size_t cmd) {
    // Request 1: the game updates in the middle of the message (after the column reads begin).
    if (req == 1 && cmd == 3) {
      ticks += 2;
      PineResponder::put(m, kCounter, ticks, 4);
    }
    if (req == 3 && cmd == 0) {
      ticks += 2;
      PineResponder::put(m, kCounter, ticks, 4);
    }
  });
  pine::CaptureOptions opt;
  opt.socket = srv.socket_path();
  opt.steps = 3;
  opt.poll_ms = 0;
  std::ostringstream csv;
  const auto res = pine::capture(capture_map(), opt, csv);
  CHECK(res.torn == 1);
  CHECK(res.rows == 3);
  CHECK(res.last_step == 2);
  CHECK(res.polls == 4);
}

TEST_CASE("capture: updates missed between polls are gaps in the step column", "[traces][pine][capture]") {
  PineResponder srv;
  uint64_t ticks = 10;
  srv.write(kCounter, ticks, 4);
  srv.on_command([&](PineResponder::Memory& m, std::size_t, std::size_t cmd) {
    if (cmd == 0) {
      ticks += 6;  // three updates pass between two polls
      PineResponder::put(m, kCounter, ticks, 4);
    }
  });
  pine::CaptureOptions opt;
  opt.socket = srv.socket_path();
  opt.steps = 4;
  opt.poll_ms = 0;
  std::ostringstream csv;
  const auto res = pine::capture(capture_map(), opt, csv);
  CHECK(res.first_update == 8);
  CHECK(res.last_step == 9);
  CHECK(res.missed == 6);
  std::istringstream in(csv.str());
  std::string line, steps;
  std::getline(in, line);
  while (std::getline(in, line)) steps += line.substr(0, line.find(',')) + " ";
  CHECK(steps == "0 3 6 9 ");
}

TEST_CASE("capture: the update counter's address comes from the flag when the map has none", "[traces][pine][capture]") {
  PineResponder srv;
  uint64_t ticks = 0;
  srv.on_command([&](PineResponder::Memory& m, std::size_t, std::size_t cmd) {
    if (cmd == 0) PineResponder::put(m, 0x1000, ++ticks, 4);
  });
  const Map map = capture_map(false);
  pine::CaptureOptions opt;
  opt.socket = srv.socket_path();
  opt.steps = 2;
  opt.poll_ms = 0;
  std::ostringstream csv;
  CHECK_THROWS_WITH(pine::capture(map, opt, csv), Catch::Contains("--update-count-address"));
  opt.counter_address = 0x1000;
  const auto res = pine::capture(map, opt, csv);
  CHECK(res.ticks_per_update == 1);
  CHECK(res.rows == 2);
  const auto reqs = srv.requests();
  REQUIRE(!reqs.empty());
  CHECK(reqs[0][4] == 0x02);
  CHECK(reqs[0][5] == 0x00);
  CHECK(reqs[0][6] == 0x10);
}

TEST_CASE("capture errors: status 0xFF, short replies, no reply", "[traces][pine][capture]") {
  pine::CaptureOptions opt;
  opt.steps = 3;
  opt.poll_ms = 0;
  opt.timeout_ms = 300;
  std::ostringstream csv;
  const Map map = capture_map();
  {
    PineResponder srv;
    srv.fault_at(0, PineResponder::Fault::FailStatus);
    opt.socket = srv.socket_path();
    CHECK_THROWS_WITH(pine::capture(map, opt, csv), Catch::Contains("message 1") && Catch::Contains("status 0xFF"));
  }
  {
    PineResponder srv;
    srv.fault_at(1, PineResponder::Fault::FailStatus);
    opt.socket = srv.socket_path();
    try {
      pine::capture(map, opt, csv);
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Contains("message 2") && Catch::Contains("status 0xFF (failure)"));
      CHECK(e.file() == srv.socket_path() + ": message 2");
    }
  }
  {
    PineResponder srv;
    srv.fault_at(0, PineResponder::Fault::ShortClose);
    opt.socket = srv.socket_path();
    CHECK_THROWS_WITH(pine::capture(map, opt, csv), Catch::Contains("short reply: the connection closed after 16 of 33 bytes"));
  }
  {
    PineResponder srv;
    srv.fault_at(0, PineResponder::Fault::ShortSize);
    opt.socket = srv.socket_path();
    CHECK_THROWS_WITH(pine::capture(map, opt, csv), Catch::Contains("short reply: 24 bytes of results, the 8 commands sent need 28"));
  }
  {
    PineResponder srv;
    srv.fault_at(0, PineResponder::Fault::LongReply);
    opt.socket = srv.socket_path();
    CHECK_THROWS_WITH(pine::capture(map, opt, csv), Catch::Contains("long reply"));
  }
  {
    PineResponder srv;
    srv.fault_at(0, PineResponder::Fault::NoReply);
    opt.socket = srv.socket_path();
    CHECK_THROWS_WITH(pine::capture(map, opt, csv), Catch::Contains("no reply within 300 ms"));
  }
}

TEST_CASE("capture: an update count that stands still times out naming the problem and the emulator's status", "[traces][pine][capture]") {
  PineResponder srv;
  srv.write(kCounter, 41, 4);
  srv.set_status(1);
  pine::CaptureOptions opt;
  opt.socket = srv.socket_path();
  opt.steps = 3;
  opt.poll_ms = 5;
  opt.timeout_ms = 200;
  std::ostringstream csv;
  CHECK_THROWS_WITH(pine::capture(capture_map(), opt, csv),
                    Catch::Contains("the update count stayed at 21") && Catch::Contains("the emulator says it is paused") &&
                        Catch::Contains("1 rows were written"));
}

TEST_CASE("capture: an update count that goes back (a reset) is an error", "[traces][pine][capture]") {
  PineResponder srv;
  srv.write(kCounter, 100, 4);
  srv.on_command([&](PineResponder::Memory& m, std::size_t req, std::size_t cmd) {
    if (req == 1 && cmd == 0) PineResponder::put(m, kCounter, 10, 4);
  });
  pine::CaptureOptions opt;
  opt.socket = srv.socket_path();
  opt.steps = 3;
  opt.poll_ms = 0;
  std::ostringstream csv;
  CHECK_THROWS_WITH(pine::capture(capture_map(), opt, csv), Catch::Contains("went back from 50 to 5"));
}

TEST_CASE("PINE client: a missing socket and a refused connection say so", "[traces][pine]") {
  CHECK_THROWS_WITH(pine::Client("/tmp/lockstep-no-such-dir/pcsx2.sock"),
                    Catch::Contains("no such socket") && Catch::Contains("PINE"));
  // A socket file with nobody listening: bound, never listened on.
  char tmpl[] = "/tmp/lockstep-refused-XXXXXX";
  REQUIRE(::mkdtemp(tmpl));
  const std::string path = std::string(tmpl) + "/pcsx2.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  REQUIRE(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
  ::close(fd);
  CHECK_THROWS_WITH(pine::Client(path), Catch::Contains("connection refused"));
  ::unlink(path.c_str());
  ::rmdir(tmpl);
  CHECK_THROWS_WITH(pine::Client(std::string(tmpl)), Catch::Contains("no such socket"));
}

TEST_CASE("PINE: the default socket follows XDG_RUNTIME_DIR and the slot", "[traces][pine]") {
  const char* old = std::getenv("XDG_RUNTIME_DIR");
  const std::string saved = old ? old : "";
  ::setenv("XDG_RUNTIME_DIR", "/run/user/1000", 1);
  CHECK(pine::default_socket_path() == "/run/user/1000/pcsx2.sock");
  CHECK(pine::default_socket_path(28012) == "/run/user/1000/pcsx2.sock.28012");
  ::unsetenv("XDG_RUNTIME_DIR");
  CHECK(pine::default_socket_path() == "/tmp/pcsx2.sock");
  if (old) ::setenv("XDG_RUNTIME_DIR", saved.c_str(), 1);
}

TEST_CASE("capture: a map without addresses cannot be captured", "[traces][pine][capture]") {
  const Map map = parse_map(parse_json_text(R"({"model": "wander", "columns": [
      {"column": "a", "field": "tick", "type": "u64"}]})", "m.json"), "m.json", "");
  pine::CaptureOptions opt;
  opt.socket = "/tmp/none";
  opt.steps = 1;
  std::ostringstream csv;
  CHECK_THROWS_WITH(pine::capture(map, opt, csv), Catch::Contains("no column has an \"address\""));
}

// ---------------------------------------------------------------- a lying or broken server (hostile replies)

TEST_CASE("capture: counter reads that never agree end after 100 torn samples in a row, naming the socket", "[traces][pine][capture]") {
  PineResponder srv;
  uint64_t ticks = 1;
  srv.write(kCounter, ticks, 4);
  // The counter moves between the first and the last read of every message: each sample is torn.
  // From request 150 on it would agree again, so a capture that retried without a bound would succeed.
  srv.on_command([&](PineResponder::Memory& m, std::size_t req, std::size_t cmd) {
    if (req < 150 && cmd == 1) {
      ticks += 2;
      PineResponder::put(m, kCounter, ticks, 4);
    }
  });
  pine::CaptureOptions opt;
  opt.socket = srv.socket_path();
  opt.steps = 1;
  opt.poll_ms = 0;
  opt.timeout_ms = 60000;  // the bound on torn samples must end it, not the stand-still timeout
  std::ostringstream csv;
  try {
    pine::capture(capture_map(), opt, csv);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == srv.socket_path());
    CHECK(e.place() == "counter 0x005104f4");
    CHECK_THAT(e.message(), Catch::Contains("the two reads of the update counter disagreed in 100 samples in a row") &&
                                Catch::Contains("0 rows were written"));
  }
  CHECK(srv.request_count() == pine::kMaxTornInARow);
  CHECK(pine::kMaxTornInARow == 100);
}

TEST_CASE("capture: a reply trickled a byte at a time has one deadline for the whole reply", "[traces][pine][capture]") {
  // 33 bytes at one every 50 ms take 1.6 s; each byte alone is well within a 300 ms receive timeout.
  PineResponder srv;
  srv.fault_at(0, PineResponder::Fault::Trickle);
  pine::CaptureOptions opt;
  opt.socket = srv.socket_path();
  opt.steps = 1;
  opt.poll_ms = 0;
  opt.timeout_ms = 300;
  std::ostringstream csv;
  try {
    pine::capture(capture_map(), opt, csv);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == srv.socket_path());
    CHECK(e.place() == "message 1");
    CHECK_THAT(e.message(), Catch::Contains("no reply within 300 ms") && Catch::Contains("of 33 bytes arrived") &&
                                Catch::Contains("whole within the timeout"));
  }
}

TEST_CASE("PINE client: a reply that says it is longer than the message needs is refused on its word", "[traces][pine]") {
  // The header claims 650000 bytes (within PINE's limit) and nothing follows: the client must not
  // wait for them (nor hold them): the message sent needs 17.
  PineResponder srv;
  srv.fault_at(0, PineResponder::Fault::HugeSize);
  pine::Client c(srv.socket_path(), 5000);
  pine::Batch b;
  b.read(4, 0x10);
  b.read(4, 0x14);
  b.read(4, 0x18);
  try {
    c.run(b);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.file() == srv.socket_path());
    CHECK(e.place() == "message 1");
    CHECK(e.message() == "long reply: the reply says it is 650000 bytes, the message sent needs 17 (is this a PINE server?)");
  }
}
