#include "lockstep/traces/pine.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace lockstep::traces::pine {

std::string default_socket_path(uint32_t slot) {
  const char* dir = std::getenv("XDG_RUNTIME_DIR");
  std::string p = (dir && *dir) ? std::string(dir) : std::string("/tmp");
  p += "/pcsx2.sock";
  if (slot != kDefaultSlot) p += "." + std::to_string(slot);
  return p;
}

std::string status_name(uint32_t status) {
  switch (status) {
    case 0: return "running";
    case 1: return "paused";
    case 2: return "shutdown";
    default: return "status " + std::to_string(status);
  }
}

namespace {

void put_u32(std::vector<uint8_t>& v, uint32_t x) {
  for (int i = 0; i < 4; ++i) v.push_back(static_cast<uint8_t>(x >> (8 * i)));
}

uint64_t get_le(const uint8_t* p, unsigned bytes) {
  uint64_t x = 0;
  for (unsigned i = 0; i < bytes; ++i) x |= static_cast<uint64_t>(p[i]) << (8 * i);
  return x;
}

}  // namespace

std::size_t Batch::read(unsigned bytes, uint32_t address) {
  Op op = Op::Read8;
  switch (bytes) {
    case 1: op = Op::Read8; break;
    case 2: op = Op::Read16; break;
    case 4: op = Op::Read32; break;
    case 8: op = Op::Read64; break;
    default: throw std::invalid_argument("a PINE read is 1, 2, 4 or 8 bytes");
  }
  body_.push_back(static_cast<uint8_t>(op));
  put_u32(body_, address);
  widths_.push_back(bytes);
  return widths_.size() - 1;
}

std::size_t Batch::status() {
  body_.push_back(static_cast<uint8_t>(Op::Status));
  widths_.push_back(4);
  return widths_.size() - 1;
}

std::vector<uint8_t> Batch::message() const {
  std::vector<uint8_t> m;
  m.reserve(body_.size() + 4);
  put_u32(m, static_cast<uint32_t>(body_.size() + 4));
  m.insert(m.end(), body_.begin(), body_.end());
  return m;
}

std::size_t Batch::result_bytes() const {
  std::size_t n = 0;
  for (auto w : widths_) n += w;
  return n;
}

std::vector<uint64_t> parse_reply(const Batch& batch, std::span<const uint8_t> reply, const std::string& source) {
  if (reply.size() < 5)
    throw InputError(source, "reply", "short reply: " + std::to_string(reply.size()) + " bytes, less than the 5-byte header");
  const uint64_t size = get_le(reply.data(), 4);
  if (size != reply.size())
    throw InputError(source, "reply", "the reply says it is " + std::to_string(size) + " bytes, " + std::to_string(reply.size()) +
                                          " arrived");
  const uint8_t status = reply[4];
  if (status == kStatusFail)
    throw InputError(source, "reply",
                     "the emulator answered status 0xFF (failure): is a game running, and are the addresses inside "
                     "the emulated memory?");
  if (status != kStatusOk) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", status);
    throw InputError(source, "reply", std::string("unknown status byte ") + buf + " (expected 0x00 or 0xFF)");
  }
  const std::size_t have = reply.size() - 5, need = batch.result_bytes();
  if (have < need)
    throw InputError(source, "reply", "short reply: " + std::to_string(have) + " bytes of results, the " +
                                          std::to_string(batch.size()) + " commands sent need " + std::to_string(need));
  if (have > need)
    throw InputError(source, "reply", "long reply: " + std::to_string(have) + " bytes of results, the " +
                                          std::to_string(batch.size()) + " commands sent need " + std::to_string(need) +
                                          " (is this a PINE server?)");
  std::vector<uint64_t> out;
  out.reserve(batch.size());
  const uint8_t* p = reply.data() + 5;
  for (const unsigned w : batch.widths()) {
    out.push_back(get_le(p, w));
    p += w;
  }
  return out;
}

// ---------------------------------------------------------------- the client

Client::Client(std::string socket_path, int timeout_ms) : path_(std::move(socket_path)), timeout_ms_(timeout_ms) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path_.empty() || path_.size() >= sizeof addr.sun_path)
    throw InputError(path_, "", "not a usable socket path (1 to " + std::to_string(sizeof addr.sun_path - 1) + " bytes)");
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) {
    if (errno == ENOENT)
      throw InputError(path_, "", "no such socket: is PCSX2 running, with PINE enabled (Settings > Advanced > Enable PINE, slot " +
                                      std::to_string(kDefaultSlot) + ")?");
    throw InputError(path_, "", std::string("cannot reach the socket: ") + std::strerror(errno));
  }
  if (!S_ISSOCK(st.st_mode)) throw InputError(path_, "", "not a socket (PCSX2's PINE socket is pcsx2.sock)");
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw InputError(path_, "", std::string("cannot make a socket: ") + std::strerror(errno));
  std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
  timeval tv{};
  tv.tv_sec = timeout_ms_ / 1000;
  tv.tv_usec = (timeout_ms_ % 1000) * 1000;
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    const int e = errno;
    ::close(fd_);
    fd_ = -1;
    if (e == ECONNREFUSED)
      throw InputError(path_, "", "connection refused: the socket exists but nothing listens on it (PCSX2 closed, or PINE off?)");
    if (e == EACCES) throw InputError(path_, "", "permission denied (the emulator runs as another user?)");
    throw InputError(path_, "", std::string("cannot connect: ") + std::strerror(e));
  }
}

Client::~Client() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<uint8_t> Client::exchange(std::span<const uint8_t> message, std::size_t max_reply) {
  ++messages_;
  const std::string place = "message " + std::to_string(messages_);
  // One deadline for the whole exchange: a reply trickled a byte at a time, each
  // within a receive timeout, must not keep capture waiting for ever.
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::milliseconds(timeout_ms_);
  // Wait until the socket is ready for `events`; false when the deadline has passed.
  auto ready = [&](short events) {
    while (true) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
      if (left <= 0) return false;
      pollfd p{fd_, events, 0};
      const int r = ::poll(&p, 1, static_cast<int>(left));
      if (r < 0 && errno != EINTR) throw InputError(path_, place, std::string("cannot wait for the emulator: ") + std::strerror(errno));
      if (r > 0) return true;  // ready, or an error or hang-up that send or recv will name
    }
  };
  std::size_t sent = 0;
  while (sent < message.size()) {
    if (!ready(POLLOUT))
      throw InputError(path_, place, "the emulator took no message for " + std::to_string(timeout_ms_) + " ms");
    const ssize_t n = ::send(fd_, message.data() + sent, message.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      if (errno == EPIPE || errno == ECONNRESET) throw InputError(path_, place, "the emulator closed the connection");
      throw InputError(path_, place, std::string("cannot send: ") + std::strerror(errno));
    }
    sent += static_cast<std::size_t>(n);
  }
  std::vector<uint8_t> reply(4);
  auto recv_all = [&](std::size_t from, std::size_t to) {
    while (from < to) {
      if (!ready(POLLIN))
        throw InputError(path_, place, "no reply within " + std::to_string(timeout_ms_) + " ms (" + std::to_string(from) +
                                           (to == 4 ? std::string("") : " of " + std::to_string(to)) +
                                           " bytes arrived; a reply must arrive whole within the timeout)");
      const ssize_t n = ::recv(fd_, reply.data() + from, to - from, MSG_DONTWAIT);
      if (n == 0)
        throw InputError(path_, place, "short reply: the connection closed after " + std::to_string(from) + " of " +
                                           (to == 4 ? std::string("at least 5") : std::to_string(to)) + " bytes");
      if (n < 0) {
        if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
        if (errno == ECONNRESET) throw InputError(path_, place, "the emulator closed the connection");
        throw InputError(path_, place, std::string("cannot receive: ") + std::strerror(errno));
      }
      from += static_cast<std::size_t>(n);
    }
  };
  recv_all(0, 4);
  const uint64_t size = get_le(reply.data(), 4);
  if (size < 5) throw InputError(path_, place, "the reply says it is " + std::to_string(size) + " bytes, less than its 5-byte header");
  if (size > kMaxMessage)
    throw InputError(path_, place, "the reply says it is " + std::to_string(size) + " bytes, more than PINE's " +
                                       std::to_string(kMaxMessage) + " (is this a PINE server?)");
  // Refused on its word, before its bytes are waited for or held.
  if (size > max_reply)
    throw InputError(path_, place, "long reply: the reply says it is " + std::to_string(size) + " bytes, the message sent needs " +
                                       std::to_string(max_reply) + " (is this a PINE server?)");
  reply.resize(size);
  recv_all(4, size);
  return reply;
}

std::vector<uint64_t> Client::run(const Batch& batch) {
  const auto msg = batch.message();
  const auto reply = exchange(msg, 5 + batch.result_bytes());
  return parse_reply(batch, reply, path_ + ": message " + std::to_string(messages_));
}

// ---------------------------------------------------------------- capture

std::vector<std::size_t> captured_columns(const Map& map) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < map.columns.size(); ++i)
    if (map.columns[i].address) out.push_back(i);
  return out;
}

Batch sample_batch(const Map& map, uint32_t counter_address) {
  Batch b;
  const unsigned cw = type_bytes(map.capture.counter_type);
  b.read(cw, counter_address);
  for (auto i : captured_columns(map)) b.read(type_bytes(map.columns[i].type), *map.columns[i].address);
  b.read(cw, counter_address);
  return b;
}

namespace {

std::string cell_text(const Value& v) {
  char buf[24];
  if (v.type == ValueType::F32) {
    std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(v.bits));
    return buf;
  }
  if (v.type == ValueType::F64) {
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v.bits));
    return buf;
  }
  if (v.type == ValueType::Bool) return v.bits ? "1" : "0";
  return v.text();
}

}  // namespace

CaptureResult capture(const Map& map, const CaptureOptions& opt, std::ostream& out) {
  CaptureResult res;
  const auto cols = captured_columns(map);
  if (cols.empty())
    throw InputError(map.source, "$.columns", "no column has an \"address\": a capture reads columns from the emulator's memory");
  const auto counter = opt.counter_address ? opt.counter_address : map.capture.counter_address;
  if (!counter)
    throw InputError(map.source, "$.capture.counter_address",
                     "missing: the address of the game's update (or tick) counter; give --update-count-address or "
                     "capture.counter_address in the map");
  if (opt.steps == 0) throw InputError("", "--steps", "expected at least one step");
  res.counter_address = *counter;
  res.ticks_per_update = opt.ticks_per_update ? *opt.ticks_per_update : map.capture.ticks_per_update;
  if (res.ticks_per_update == 0) throw InputError("", "--ticks-per-update", "expected at least 1");
  res.columns = cols.size();
  const Batch batch = sample_batch(map, *counter);
  if (batch.message().size() > kMaxMessage)
    throw InputError(map.source, "$.columns", "too many columns for one PINE message");
  Client client(opt.socket, std::max(opt.timeout_ms, 100));

  out << "step";
  for (auto i : cols) out << ',' << map.columns[i].name;
  out << '\n';
  out.flush();
  if (!out) throw InputError(opt.output_name, "", "cannot write the trace");

  const ValueType ct = map.capture.counter_type;
  auto update_of = [&](uint64_t raw) -> uint64_t {
    const Value v = value_from_memory(raw, ct);
    if (is_signed_type(ct) && static_cast<int64_t>(v.bits) < 0)
      throw InputError(opt.socket, "counter " + hex_address(*counter), "the counter is negative (" + v.text() + "): wrong address or type?");
    const uint64_t t = v.bits;
    return t / res.ticks_per_update + (t % res.ticks_per_update != 0 ? 1 : 0);  // ceil: (ticks + 1) / 2 for 2
  };
  using clock = std::chrono::steady_clock;
  std::optional<uint64_t> last_update;
  auto waiting_since = clock::now();
  uint64_t torn_in_a_row = 0;
  std::string line;
  while (res.rows < opt.steps) {
    const auto r = client.run(batch);
    ++res.polls;
    const uint64_t u0 = update_of(r.front()), u1 = update_of(r.back());
    if (u0 != u1) {
      ++res.torn;  // the game updated while the message was served: read again
      // A real game updates a few dozen times a second and a sample takes microseconds: torn
      // samples come alone. Counter reads that never agree are a wrong address or type, or a liar.
      ++torn_in_a_row;
      const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - waiting_since).count();
      if (torn_in_a_row >= opt.max_torn || waited >= opt.timeout_ms)
        throw InputError(opt.socket, "counter " + hex_address(*counter),
                         "the two reads of the update counter disagreed in " + std::to_string(torn_in_a_row) +
                             " samples in a row (the last " + std::to_string(u0) + " and " + std::to_string(u1) + ", " +
                             std::to_string(waited) + " ms after step " + std::to_string(res.last_step) +
                             "): the count moves within every message (a wrong counter address or type?); " +
                             std::to_string(res.rows) + " rows were written");
      continue;
    }
    torn_in_a_row = 0;
    if (last_update && u0 == *last_update) {
      ++res.repeats;
      const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - waiting_since).count();
      if (waited >= opt.timeout_ms) {
        std::string state;
        try {
          Batch s;
          s.status();
          state = ", and the emulator says it is " + status_name(static_cast<uint32_t>(client.run(s).front()));
        } catch (const InputError&) {
        }
        throw InputError(opt.socket, "counter " + hex_address(*counter),
                         "the update count stayed at " + std::to_string(u0) + " for " + std::to_string(waited) +
                             " ms after step " + std::to_string(res.last_step) + state +
                             " (paused? a wrong counter address or ticks_per_update?); " + std::to_string(res.rows) +
                             " rows were written");
      }
      if (opt.poll_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(opt.poll_ms));
      continue;
    }
    if (last_update && u0 < *last_update)
      throw InputError(opt.socket, "counter " + hex_address(*counter),
                       "the update count went back from " + std::to_string(*last_update) + " to " + std::to_string(u0) +
                           " (a reset or a loaded state?); " + std::to_string(res.rows) + " rows were written");
    if (!last_update) res.first_update = u0;
    const uint64_t step = u0 - res.first_update;
    if (last_update) res.missed += step - res.last_step - 1;
    res.last_step = step;
    last_update = u0;
    line = std::to_string(step);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      line += ',';
      line += cell_text(value_from_memory(r[k + 1], map.columns[cols[k]].type));
    }
    line += '\n';
    out << line;
    out.flush();
    if (!out) throw InputError(opt.output_name, "", "cannot write the trace");
    ++res.rows;
    waiting_since = clock::now();
    if (opt.progress) opt.progress(res.rows, opt.steps);
  }
  return res;
}

}  // namespace lockstep::traces::pine
