#include "pine_responder.h"

#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace lockstep::traces::testing {

namespace {

void put_u32(std::vector<uint8_t>& v, uint32_t x) {
  for (int i = 0; i < 4; ++i) v.push_back(static_cast<uint8_t>(x >> (8 * i)));
}

uint32_t get_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

bool send_all(int fd, const uint8_t* p, std::size_t n) {
  while (n > 0) {
    const ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

}  // namespace

void PineResponder::put(Memory& m, uint32_t address, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) m[address + i] = static_cast<uint8_t>(value >> (8 * i));
}

uint64_t PineResponder::get(const Memory& m, uint32_t address, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) {
    auto it = m.find(address + i);
    if (it != m.end()) v |= static_cast<uint64_t>(it->second) << (8 * i);
  }
  return v;
}

PineResponder::PineResponder() {
  char tmpl[] = "/tmp/lockstep-pine-XXXXXX";
  if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  socket_ = dir_ + "/pcsx2.sock";
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, socket_.c_str(), socket_.size() + 1);
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 4) != 0)
    throw std::runtime_error("cannot listen on " + socket_ + ": " + std::strerror(errno));
  if (::pipe(stop_pipe_) != 0) throw std::runtime_error("pipe failed");
  thread_ = std::thread([this] { serve(); });
}

PineResponder::~PineResponder() {
  const char c = 'x';
  (void)!::write(stop_pipe_[1], &c, 1);
  if (thread_.joinable()) thread_.join();
  ::close(stop_pipe_[0]);
  ::close(stop_pipe_[1]);
  ::close(listen_fd_);
  ::unlink(socket_.c_str());
  ::rmdir(dir_.c_str());
}

void PineResponder::write(uint32_t address, uint64_t value, unsigned bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  put(memory_, address, value, bytes);
}
void PineResponder::write_f32(uint32_t address, float value) { write(address, std::bit_cast<uint32_t>(value), 4); }
void PineResponder::write_f64(uint32_t address, double value) { write(address, std::bit_cast<uint64_t>(value), 8); }
uint64_t PineResponder::read(uint32_t address, unsigned bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  return get(memory_, address, bytes);
}
void PineResponder::on_command(Hook hook) {
  std::lock_guard<std::mutex> lock(mu_);
  hook_ = std::move(hook);
}
void PineResponder::fault_at(std::size_t request, Fault fault) {
  std::lock_guard<std::mutex> lock(mu_);
  faults_[request] = fault;
}
void PineResponder::set_status(uint32_t status) {
  std::lock_guard<std::mutex> lock(mu_);
  status_ = status;
}
std::vector<std::vector<uint8_t>> PineResponder::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}
std::size_t PineResponder::request_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_.size();
}

void PineResponder::serve() {
  while (true) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {stop_pipe_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents) return;
    if (!(fds[0].revents & POLLIN)) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    const bool stop = handle(fd);
    ::close(fd);
    if (stop) return;
  }
}

// Serve one connection until the client closes it (false) or the responder stops (true).
bool PineResponder::handle(int fd) {
  std::vector<uint8_t> buf;
  while (true) {
    // Read one message: the u32 size, then the rest.
    buf.clear();
    std::size_t want = 4;
    while (buf.size() < want) {
      pollfd fds[2] = {{fd, POLLIN, 0}, {stop_pipe_[0], POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return true;
      }
      if (fds[1].revents) return true;
      uint8_t tmp[4096];
      const ssize_t n = ::recv(fd, tmp, std::min<std::size_t>(sizeof tmp, want - buf.size()), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      buf.insert(buf.end(), tmp, tmp + n);
      if (buf.size() == 4) {
        want = get_u32(buf.data());
        if (want < 4 || want > 650000) return false;  // not PINE: drop the connection
      }
    }
    Fault fault = Fault::None;
    std::size_t index = 0;
    std::vector<uint8_t> reply;
    {
      std::lock_guard<std::mutex> lock(mu_);
      index = requests_.size();
      requests_.push_back(buf);
      auto f = faults_.find(index);
      if (f != faults_.end()) fault = f->second;
      reply = answer(buf, index, fault);
    }
    switch (fault) {
      case Fault::None: break;
      case Fault::FailStatus: reply = {5, 0, 0, 0, 0xFF}; break;
      case Fault::ShortClose:
        send_all(fd, reply.data(), std::max<std::size_t>(5, reply.size() / 2));
        return false;
      case Fault::ShortSize: {
        if (reply.size() > 5) reply.resize(reply.size() - std::min<std::size_t>(reply.size() - 5, 4));
        const auto n = static_cast<uint32_t>(reply.size());
        std::memcpy(reply.data(), &n, 4);  // the test hosts are little-endian, like PINE
        break;
      }
      case Fault::LongReply: {
        for (int i = 0; i < 4; ++i) reply.push_back(0xAB);
        const auto n = static_cast<uint32_t>(reply.size());
        std::memcpy(reply.data(), &n, 4);
        break;
      }
      case Fault::NoReply: continue;
      case Fault::Trickle:
        for (const uint8_t b : reply) {
          if (!send_all(fd, &b, 1)) return false;
          pollfd stop = {stop_pipe_[0], POLLIN, 0};
          if (::poll(&stop, 1, 50) > 0) return true;
        }
        continue;
      case Fault::HugeSize: {
        const std::vector<uint8_t> header = {0x10, 0xEB, 0x09, 0x00};  // 650000 (0x0009eb10), little-endian
        if (!send_all(fd, header.data(), header.size())) return false;
        continue;
      }
    }
    if (!send_all(fd, reply.data(), reply.size())) return false;
  }
}

std::vector<uint8_t> PineResponder::answer(const std::vector<uint8_t>& req, std::size_t index, Fault& fault) {
  std::vector<uint8_t> out;
  put_u32(out, 0);
  out.push_back(0x00);
  const std::vector<uint8_t> fail = {5, 0, 0, 0, 0xFF};
  std::size_t i = 4, command = 0;
  auto need = [&](std::size_t n) { return i + n <= req.size(); };
  auto text = [&](const std::string& s) {
    put_u32(out, static_cast<uint32_t>(s.size() + 1));
    out.insert(out.end(), s.begin(), s.end());
    out.push_back(0);
  };
  while (i < req.size()) {
    if (hook_) hook_(memory_, index, command);
    ++command;
    const uint8_t op = req[i++];
    if (op <= 0x3) {
      if (!need(4)) return fail;
      const uint32_t a = get_u32(&req[i]);
      i += 4;
      const unsigned w = 1u << op;
      const uint64_t v = get(memory_, a, w);
      for (unsigned k = 0; k < w; ++k) out.push_back(static_cast<uint8_t>(v >> (8 * k)));
    } else if (op <= 0x7) {
      const unsigned w = 1u << (op - 4);
      if (!need(4 + w)) return fail;
      const uint32_t a = get_u32(&req[i]);
      i += 4;
      for (unsigned k = 0; k < w; ++k) memory_[a + k] = req[i + k];
      i += w;
    } else if (op == 0x8) {
      text("PCSX2 PINE test responder");
    } else if (op == 0x9 || op == 0xA) {
      if (!need(1)) return fail;
      ++i;  // the slot
    } else if (op == 0xB) {
      text("LOCKSTEP TEST");
    } else if (op == 0xC) {
      text("SLUS-00000");
    } else if (op == 0xD) {
      text("00000000");
    } else if (op == 0xE) {
      text("1.00");
    } else if (op == 0xF) {
      put_u32(out, status_);
    } else {
      fault = Fault::None;
      return fail;  // an unknown opcode fails the whole message, as PCSX2 does
    }
  }
  const auto n = static_cast<uint32_t>(out.size());
  for (int k = 0; k < 4; ++k) out[static_cast<std::size_t>(k)] = static_cast<uint8_t>(n >> (8 * k));
  return out;
}

}  // namespace lockstep::traces::testing
