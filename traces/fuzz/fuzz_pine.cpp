// libFuzzer target for the PINE client's handling of replies (docs/traces.md,
// "Fuzzing"): whatever an emulator, or something posing as one, answers must
// end in a trace or a lockstep::InputError; never an unchecked allocation, a
// read out of bounds or a hang. A finding is a crash, a sanitizer report, a
// leak, a hang (libFuzzer's -timeout), or an exception other than InputError.
//
// An input is one configuration byte and then the bytes "the emulator" sends:
//
//   byte 0, bits 0-1  captured columns - 1 (1 to 4), their types from bytes 1-4
//           bits 2-4  the update counter's type (u8, u16, u32, u64, i8, i16, i32, i64)
//           bits 5-7  ticks_per_update - 1 (1 to 8)
//   bytes 1-4         each column's type (byte % 11: bool, i8, u8, ..., f64)
//   the rest          the server's bytes: replies, however framed
//
// The rest goes first straight to pine::parse_reply with the batch a sample
// sends; then a capture of 4 steps connects to a Unix socket served by a
// thread that writes those bytes as the socket takes them (reading and
// dropping whatever the client sends), then closes its side: the client's own
// framing (Client::exchange) and the capture's logic (torn samples, repeats,
// gaps, a count that goes back) see every byte. The capture's timeout is
// 100 ms, so a client that waits for bytes that never come shows as slow
// runs, and one that waits for ever as a libFuzzer timeout.
//
// The ordinary build makes it in build/fuzz (cmake/fuzz.cmake); tools/fuzz runs
// it (docs/fuzzing.md), or by hand, in build/fuzz:
//
//   ./fuzz_pine --make-seeds seeds && ./fuzz_pine -max_total_time=300 -timeout=10 corpus seeds
//
// Besides the libFuzzer flags, the binary takes (as its first argument):
//   --make-seeds DIR   write seed inputs: well-formed sessions, torn and repeated samples, bad frames
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lockstep/models/bundled.h"
#include "lockstep/traces/pine.h"
#include "lockstep/traces/trace.h"

using namespace lockstep;
using namespace lockstep::traces;

namespace {

const char* const kTypes[] = {"bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64"};
const char* const kCounterTypes[] = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"};
constexpr std::size_t kConfigBytes = 5;

struct Config {
  unsigned columns = 1;
  std::string counter_type = "u32";
  unsigned ticks_per_update = 1;
  std::string types[4];
};

Config config_of(const uint8_t* data, std::size_t size) {
  uint8_t b[kConfigBytes] = {};
  std::memcpy(b, data, std::min(size, kConfigBytes));
  Config c;
  c.columns = 1 + (b[0] & 3u);
  c.counter_type = kCounterTypes[(b[0] >> 2) & 7u];
  c.ticks_per_update = 1 + (b[0] >> 5);
  for (unsigned i = 0; i < 4; ++i) c.types[i] = kTypes[b[1 + i] % 11];
  return c;
}

Map map_of(const Config& c) {
  std::string j = R"({"model": "wander", "capture": {"counter_address": "0x005104f4", "counter_type": ")" + c.counter_type +
                  R"(", "ticks_per_update": )" + std::to_string(c.ticks_per_update) + R"(}, "columns": [)";
  for (unsigned i = 0; i < c.columns; ++i)
    j += std::string(i ? "," : "") + R"({"column": "c)" + std::to_string(i) + R"(", "address": )" + std::to_string(0x00714b10 + 8 * i) +
         R"(, "field": "tick", "type": ")" + c.types[i] + "\"}";
  return parse_map(parse_json_text(j + "]}", "fuzz.map.json"), "fuzz.map.json", "");
}

/// A Unix socket in a temporary folder; serve() hands one connection the given bytes.
class Server {
 public:
  Server() {
    char tmpl[] = "/tmp/lockstep-fuzz-pine-XXXXXX";
    if (!::mkdtemp(tmpl)) std::abort();
    dir_ = tmpl;
    path_ = dir_ + "/pcsx2.sock";
    listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
    if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listen_fd_, 4) != 0 || ::pipe(stop_) != 0) {
      std::perror("fuzz_pine: listen");
      std::exit(2);
    }
  }
  ~Server() {
    ::close(listen_fd_);
    ::unlink(path_.c_str());
    ::rmdir(dir_.c_str());
  }
  const std::string& path() const { return path_; }

  /// Start serving `bytes` to the next connection, in a thread; stop() ends it.
  void start(const uint8_t* bytes, std::size_t size) {
    bytes_.assign(bytes, bytes + size);
    thread_ = std::thread([this] { run(); });
  }
  void stop() {
    const char c = 'x';
    if (::write(stop_[1], &c, 1) != 1) std::abort();
    thread_.join();
    char d = 0;
    if (::read(stop_[0], &d, 1) != 1) std::abort();
  }

 private:
  void run() {
    pollfd a[2] = {{listen_fd_, POLLIN, 0}, {stop_[0], POLLIN, 0}};
    while (::poll(a, 2, -1) < 0)
      if (errno != EINTR) return;
    if (a[1].revents) return;  // the client never connected (the capture refused its options first)
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;
    std::size_t sent = 0;
    bool shut = false;
    while (true) {
      if (sent == bytes_.size() && !shut) {
        ::shutdown(fd, SHUT_WR);  // no more replies: the client reads the end
        shut = true;
      }
      pollfd p[2] = {{fd, static_cast<short>(POLLIN | (shut ? 0 : POLLOUT)), 0}, {stop_[0], POLLIN, 0}};
      if (::poll(p, 2, -1) < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (p[1].revents) break;
      if (p[0].revents & POLLIN) {
        char sink[4096];
        const ssize_t n = ::recv(fd, sink, sizeof sink, MSG_DONTWAIT);
        if (n == 0) break;  // the client is done
        if (n < 0 && errno != EAGAIN && errno != EINTR) break;
      }
      if (!shut && (p[0].revents & POLLOUT)) {
        const ssize_t n = ::send(fd, bytes_.data() + sent, bytes_.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n > 0) sent += static_cast<std::size_t>(n);
        if (n < 0 && errno != EAGAIN && errno != EINTR) break;
      }
      if (p[0].revents & (POLLERR | POLLHUP) && !(p[0].revents & POLLIN)) break;
    }
    ::close(fd);
  }

  std::string dir_, path_;
  int listen_fd_ = -1;
  int stop_[2] = {-1, -1};
  std::vector<uint8_t> bytes_;
  std::thread thread_;
};

// ---------------------------------------------------------------- seeds

void put_le(std::string& s, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) s += static_cast<char>(v >> (8 * i));
}

unsigned width_of(const std::string& type) { return type_bytes(*parse_type(type)); }

/// One well-framed reply to a sample of `c`: counter, columns, counter.
std::string reply(const Config& c, uint64_t counter0, uint64_t counter1, uint64_t value) {
  std::string body;
  const unsigned cw = width_of(c.counter_type);
  put_le(body, counter0, cw);
  for (unsigned i = 0; i < c.columns; ++i) put_le(body, value + i, width_of(c.types[i]));
  put_le(body, counter1, cw);
  std::string r;
  put_le(r, 5 + body.size(), 4);
  r += '\0';
  return r + body;
}

void make_seeds(const std::string& dir) {
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, uint8_t cfg0, const std::string& types, const std::string& server) {
    std::string s(1, static_cast<char>(cfg0));
    s += types;
    s.resize(kConfigBytes, '\0');
    std::ofstream(dir + "/" + name, std::ios::binary) << s << server;
  };
  // Two u32 columns... of f32, i16; counter u32; 2 ticks per update: 0b001'010'01.
  const std::string types = std::string(1, 9) + std::string(1, 3) + std::string(1, 10) + std::string(1, 0);
  for (uint8_t cfg0 : {uint8_t{0x29}, uint8_t{0x03}, uint8_t{0xE7}, uint8_t{0x1e}}) {
    const std::string tag = std::to_string(cfg0);
    const Config c = config_of(reinterpret_cast<const uint8_t*>((std::string(1, static_cast<char>(cfg0)) + types).data()), kConfigBytes);
    std::string ok, torn, repeat, back;
    for (uint64_t k = 0; k < 5; ++k) ok += reply(c, 10 + 2 * k, 10 + 2 * k, 0x3f800000 + k);
    torn = reply(c, 3, 5, 1) + reply(c, 5, 5, 2) + reply(c, 7, 9, 3) + reply(c, 9, 9, 4) + reply(c, 11, 11, 5) + reply(c, 13, 13, 6);
    repeat = reply(c, 4, 4, 1) + reply(c, 4, 4, 1) + reply(c, 4, 4, 1) + reply(c, 8, 8, 2) + reply(c, 20, 20, 3) + reply(c, 21, 21, 4);
    back = reply(c, 100, 100, 1) + reply(c, 10, 10, 2);
    write("ok-" + tag, cfg0, types, ok);
    write("torn-" + tag, cfg0, types, torn);
    write("repeat-" + tag, cfg0, types, repeat);
    write("back-" + tag, cfg0, types, back);
  }
  write("fail", 0, types, std::string("\x05\x00\x00\x00\xff", 5));
  write("short", 0, types, std::string("\x20\x00\x00\x00\x00\x01\x02", 7));
  write("tiny", 0, types, std::string("\x02\x00\x00\x00", 4));
  write("huge", 0, types, std::string("\x10\xeb\x09\x00\x00", 5));
  write("status", 0, types, std::string("\x09\x00\x00\x00\x07\x01\x00\x00\x00", 9));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  lockstep::register_bundled_models();
  if (*argc >= 3 && std::strcmp((*argv)[1], "--make-seeds") == 0) {
    make_seeds((*argv)[2]);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static Server server;
  const Config cfg = config_of(data, size);
  const uint8_t* rest = data + std::min(size, kConfigBytes);
  const std::size_t rest_size = size - std::min(size, kConfigBytes);
  const Map map = map_of(cfg);
  const pine::Batch batch = pine::sample_batch(map, 0x005104f4);

  // The reply parser alone, on the bytes as one reply.
  try {
    const auto r = pine::parse_reply(batch, std::span<const uint8_t>(rest, rest_size), "fuzz");
    if (r.size() != batch.size()) std::abort();
  } catch (const InputError&) {
  }

  // A whole capture against a server that sends those bytes.
  pine::CaptureOptions opt;
  opt.socket = server.path();
  opt.output_name = "fuzz.csv";
  opt.steps = 4;
  opt.poll_ms = 0;
  opt.timeout_ms = 100;
  std::ostringstream out;
  server.start(rest, rest_size);
  try {
    const auto res = pine::capture(map, opt, out);
    if (res.rows != opt.steps) std::abort();
  } catch (const InputError&) {
  }
  server.stop();
  return 0;
}
