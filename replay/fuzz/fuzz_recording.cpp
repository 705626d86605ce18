// libFuzzer target for the recording reader (docs/fuzzing.md; built and run
// by tools/fuzz). A finding is a crash, a sanitizer report, a leak, an
// exception other than lockstep::InputError, or a broken invariant below.
//
// Two kinds of input:
//
//  * Raw: the bytes of a recording (.lsr), handed to
//    lsr::Recording::from_bytes as they are. This reaches the framing: the
//    header frame, the seek table, the index, the frame walk, zstd. Most
//    mutations stop at a checksum (the header's, the index's, each chunk's).
//
//  * Built ("LSFZ" first): a script for lsr::Recorder, which writes a
//    recording with every checksum right, so the fuzzer's bytes reach what
//    lies behind the checksums: the canonical header (model name, subsystem
//    names, the embedded scenario), tick inputs and keyframe snapshots, read
//    back and restored into the named model. The Recorder is fed through a
//    stand-in Model (FuzzModel) whose info, hashes and snapshots come from the
//    script, so this needs nothing of the format but the public API. A
//    recording the Recorder finished must read back whole, tick for tick
//    (a round trip); one it did not finish must read back as a prefix.
//
// Every recording that opens is then scanned (every tick and keyframe),
// asked for keyframes (keyframe_at_or_before), and, when it names a model
// this build knows, its keyframe snapshots are restored into that model
// (snapshot.h) and its inputs decoded: all bounds-checked code that must
// answer bad bytes with InputError.
//
// Besides the libFuzzer flags, the binary takes (before any other argument):
//   --make-seed SCENARIO.json OUT [TICKS]   a built input from a real run of SCENARIO
//   --seal IN OUT                           the recording a built input makes, as a .lsr file
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lockstep/models/bundled.h"
#include "lockstep/core/model.h"
#include "lockstep/replay/lsr.h"
#include "lockstep/replay/replay.h"

#ifndef LOCKSTEP_FIXTURES_DIR
#error "LOCKSTEP_FIXTURES_DIR names the bundled fixtures (the seeds are made from them)"
#endif

using namespace lockstep;

namespace {

constexpr char kBuiltMagic[4] = {'L', 'S', 'F', 'Z'};
constexpr std::size_t kMaxSteps = 512;      ///< tick records per built input
constexpr std::size_t kMaxRestores = 8;     ///< keyframes restored per recording
constexpr std::size_t kMaxInputs = 64;      ///< inputs decoded per recording

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_recording: FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

std::string u64s(uint64_t v) { return std::to_string(static_cast<unsigned long long>(v)); }

// ------------------------------------------------------------ every recording that opens

void exercise(const lsr::Recording& rec) {
  uint64_t ticks = 0;
  std::vector<std::vector<uint8_t>> inputs, snapshots;
  rec.scan(
      0, UINT64_MAX,
      [&](const lsr::TickRecord& t) {
        ++ticks;
        if (inputs.size() < kMaxInputs) inputs.emplace_back(t.input.begin(), t.input.end());
      },
      [&](const lsr::Keyframe& k) {
        if (snapshots.size() < kMaxRestores) snapshots.emplace_back(k.snapshot.begin(), k.snapshot.end());
      });
  if (ticks != rec.ticks())
    finding("scan visited " + u64s(ticks) + " tick records, ticks() says " + u64s(rec.ticks()));

  const uint64_t first = rec.first_tick();
  for (uint64_t at : {first, first + rec.ticks() / 2, first + rec.ticks(), uint64_t{UINT64_MAX}}) {
    const auto k = rec.keyframe_at_or_before(at);
    if (k && k->tick > at) finding("keyframe_at_or_before(" + u64s(at) + ") gave tick " + u64s(k->tick));
    if (k && snapshots.size() < kMaxRestores) snapshots.push_back(k->snapshot);
  }

  const auto names = model_names();
  if (std::find(names.begin(), names.end(), rec.header().model) == names.end()) return;
  std::unique_ptr<Model> model;
  try {
    model = replay::model_for(rec);  // the embedded scenario, loaded by the named model
  } catch (const InputError&) {
    return;
  }
  for (const auto& snap : snapshots) {
    try {
      model->restore(snap, "fuzz keyframe");
    } catch (const InputError&) {
      continue;
    }
    // A restored state snapshots to bytes that restore to the same state.
    const StateHashes h = model->hashes();
    const auto again = model->snapshot();
    try {
      model->restore(again, "fuzz re-snapshot");
    } catch (const InputError& e) {
      finding(std::string("a restored state's own snapshot does not restore: ") + e.what());
    }
    if (!(model->hashes() == h)) finding("a restored state changed across snapshot and restore");
  }
  for (const auto& in : inputs) {
    try {
      (void)model->input_json(in);
    } catch (const InputError&) {
    }
  }
}

void read_raw(const uint8_t* data, std::size_t size) {
  std::optional<lsr::Recording> rec;
  try {
    rec.emplace(lsr::Recording::from_bytes(std::vector<uint8_t>(data, data + size), "fuzz"));
  } catch (const InputError&) {
    return;
  }
  try {
    exercise(*rec);
  } catch (const InputError&) {
  }
}

// ------------------------------------------------------------ built inputs

/// Reads the script; past the end every number is 0 and every string empty.
class Script {
 public:
  Script(const uint8_t* p, std::size_t n) : p_(p), n_(n) {}
  bool done() const { return n_ == 0; }
  template <class T>
  T num() {
    T v = 0;
    for (std::size_t i = 0; i < sizeof(T) && n_ > 0; ++i, ++p_, --n_) v = static_cast<T>(v | (static_cast<T>(*p_) << (8 * i)));
    return v;
  }
  std::vector<uint8_t> bytes(std::size_t len) {
    len = std::min(len, n_);
    std::vector<uint8_t> out(p_, p_ + len);
    p_ += len;
    n_ -= len;
    return out;
  }
  std::vector<uint8_t> bytes16() { return bytes(num<uint16_t>()); }
  std::vector<uint8_t> bytes32() { return bytes(num<uint32_t>()); }
  std::string str16() {
    const auto b = bytes16();
    return std::string(b.begin(), b.end());
  }
  std::string str32() {
    const auto b = bytes32();
    return std::string(b.begin(), b.end());
  }

 private:
  const uint8_t* p_;
  std::size_t n_;
};

/// Writes a script (--make-seed).
struct ScriptWriter {
  std::vector<uint8_t> out;
  void num(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void bytes16(const std::vector<uint8_t>& b) {
    num(b.size(), 2);
    out.insert(out.end(), b.begin(), b.end());
  }
  void bytes32(const std::vector<uint8_t>& b) {
    num(b.size(), 4);
    out.insert(out.end(), b.begin(), b.end());
  }
  void str16(const std::string& s) { bytes16(std::vector<uint8_t>(s.begin(), s.end())); }
  void str32(const std::string& s) { bytes32(std::vector<uint8_t>(s.begin(), s.end())); }
  void hashes(const StateHashes& h, std::size_t count) {
    num(h.whole, 8);
    for (std::size_t i = 0; i < count; ++i) num(h.sub[i], 8);
  }
};

/// A stand-in model for the Recorder: what it reports comes from the script.
class FuzzModel final : public Model {
 public:
  ModelInfo info_;
  std::string scenario_;
  uint64_t tick_ = 0;
  StateHashes hashes_;
  std::vector<uint8_t> snapshot_;

  const ModelInfo& info() const override { return info_; }
  const std::string& scenario_json() const override { return scenario_; }
  uint64_t tick() const override { return tick_; }
  uint64_t default_ticks() const override { return 0; }
  uint64_t seed() const override { return 0; }
  void step_scripted() override { ++tick_; }
  std::vector<uint8_t> scripted_input() const override { return {}; }
  void step(std::span<const uint8_t>, const std::string&) override { ++tick_; }
  void check_input_encoding(std::span<const uint8_t>, const std::string&) const override {}
  std::string input_json(std::span<const uint8_t>) const override { return "{}"; }
  StateHashes hashes() const override { return hashes_; }
  std::vector<uint8_t> snapshot() const override { return snapshot_; }
  void restore(std::span<const uint8_t> bytes, const std::string&) override { snapshot_.assign(bytes.begin(), bytes.end()); }
  std::string state_json() const override { return "{}"; }
  std::vector<FieldDiff> diff(const Model&, std::size_t) const override { return {}; }
  std::vector<ConstLeafEntry> leaves() const override { return {}; }
  std::vector<LeafEntry> mutable_leaves() override { return {}; }
  std::unique_ptr<Model> clone() const override { return std::make_unique<FuzzModel>(*this); }
};

void read_hashes(Script& s, FuzzModel& m) {
  m.hashes_.whole = s.num<uint64_t>();
  for (uint32_t i = 0; i < m.hashes_.count; ++i) m.hashes_.sub[i] = s.num<uint64_t>();
}

struct Expected {
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<uint64_t> whole;
};

/// Script layout (all little-endian; see --make-seed):
///   "LSFZ", u8 chunk_ticks (mod 9, 0 = default), u8 keyframe_every (mod 17, 0 = default),
///   u8 flags (bit 0: 8-byte subsystem hashes; bit 1: never finish()),
///   str16 model, u32 model_version, u32 tick_rate_hz, u32 first_tick,
///   u8 subsystems (mod 18), str16 each, str32 scenario_json, bytes32 first snapshot,
///   u64 whole hash, u64 per subsystem;
///   then ops until the end: u8 op (mod 3): 0 = bytes32 the snapshot from now on;
///   1 = a step: bytes16 input, hashes; 2 = a step with the previous input, hashes.
/// Returns false when the Recorder refused the script (an InputError).
bool build(const uint8_t* data, std::size_t size, const std::string& path, bool* finished, Expected* exp) {
  Script s(data + 4, size - 4);
  lsr::RecorderOptions opt;
  opt.chunk_ticks = s.num<uint8_t>() % 9;
  opt.keyframe_every = s.num<uint8_t>() % 17;
  const uint8_t flags = s.num<uint8_t>();
  opt.sub_hash_bytes = (flags & 1) ? 8 : 2;
  opt.zstd_level = 1;
  *finished = !(flags & 2);
  FuzzModel m;
  m.info_.name = s.str16();
  m.info_.version = s.num<uint32_t>();
  m.info_.tick_rate_hz = s.num<uint32_t>();
  m.tick_ = s.num<uint32_t>();
  const std::size_t nsub = s.num<uint8_t>() % 18;
  for (std::size_t i = 0; i < nsub; ++i) m.info_.subsystems.push_back(s.str16());
  m.hashes_.count = static_cast<uint32_t>(std::min(nsub, kMaxSubsystems));
  m.scenario_ = s.str32();
  m.snapshot_ = s.bytes32();
  read_hashes(s, m);
  try {
    lsr::Recorder rec(path, m, opt);
    std::vector<uint8_t> input;
    for (std::size_t steps = 0; !s.done() && steps < kMaxSteps;) {
      const uint8_t op = s.num<uint8_t>() % 3;
      if (op == 0) {
        m.snapshot_ = s.bytes32();
        continue;
      }
      if (op == 1) input = s.bytes16();
      ++m.tick_;
      read_hashes(s, m);
      rec.tick(input, m);
      exp->inputs.push_back(input);
      exp->whole.push_back(m.hashes_.whole);
      ++steps;
    }
    if (*finished) rec.finish();
  } catch (const InputError&) {
    return false;
  }
  return true;
}

/// A file in memory for the Recorder to write (no disk traffic per run).
class MemFile {
 public:
  MemFile() : fd_(::memfd_create("fuzz_recording", 0)) {
    if (fd_ < 0) throw std::runtime_error("memfd_create failed");
  }
  ~MemFile() { ::close(fd_); }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }
  std::vector<uint8_t> read() const {
    struct stat st {};
    ::fstat(fd_, &st);
    std::vector<uint8_t> b(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < b.size()) {
      const ssize_t n = ::pread(fd_, b.data() + got, b.size() - got, static_cast<off_t>(got));
      if (n <= 0) throw std::runtime_error("pread failed");
      got += static_cast<std::size_t>(n);
    }
    return b;
  }

 private:
  int fd_;
};

void read_built(const uint8_t* data, std::size_t size) {
  static MemFile file;
  bool finished = false;
  Expected exp;
  if (!build(data, size, file.path(), &finished, &exp)) return;
  std::optional<lsr::Recording> rec;
  try {
    rec.emplace(lsr::Recording::from_bytes(file.read(), "fuzz (built)"));
  } catch (const InputError& e) {
    finding(std::string("a recording the Recorder wrote does not open: ") + e.what());
  }
  // The round trip: what the Recorder wrote reads back, tick for tick.
  if (finished && rec->damage())
    finding("a finished recording reads back damaged: " + rec->damage()->where + ": " + rec->damage()->what);
  if (finished ? rec->ticks() != exp.whole.size() : rec->ticks() > exp.whole.size())
    finding("the Recorder wrote " + u64s(exp.whole.size()) + " ticks" + (finished ? "" : " (unfinished)") +
            ", the reader finds " + u64s(rec->ticks()));
  std::size_t i = 0;
  rec->scan(0, UINT64_MAX, [&](const lsr::TickRecord& t) {
    if (i < exp.whole.size()) {
      if (t.tick != rec->first_tick() + i) finding("tick record " + u64s(i) + " is numbered " + u64s(t.tick));
      if (t.whole != exp.whole[i]) finding("tick record " + u64s(i) + " reads back another whole-state hash");
      if (!std::equal(t.input.begin(), t.input.end(), exp.inputs[i].begin(), exp.inputs[i].end()))
        finding("tick record " + u64s(i) + " reads back another input");
    }
    ++i;
  }, [](const lsr::Keyframe&) {});
  try {
    exercise(*rec);
  } catch (const InputError&) {
  }
}

// ------------------------------------------------------------ --make-seed, --seal

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const std::vector<uint8_t>& b) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

/// A built input from a real run: the model's own snapshots, inputs and hashes.
void make_seed(const std::string& scenario, const std::string& out, uint64_t ticks) {
  auto m = load_scenario_file(scenario);
  const auto& info = m->info();
  const uint32_t chunk = 4, every = 8;
  ScriptWriter w;
  w.out.assign(kBuiltMagic, kBuiltMagic + 4);
  w.num(chunk, 1);
  w.num(every, 1);
  w.num(0, 1);
  w.str16(info.name);
  w.num(info.version, 4);
  w.num(info.tick_rate_hz, 4);
  w.num(m->tick(), 4);
  w.num(info.subsystems.size(), 1);
  for (const auto& n : info.subsystems) w.str16(n);
  w.str32(m->scenario_json());
  w.bytes32(m->snapshot());
  w.hashes(m->hashes(), info.subsystems.size());
  const uint64_t first = m->tick();
  std::vector<uint8_t> prev;
  for (uint64_t k = 0; k < ticks; ++k) {
    const auto in = m->scripted_input();
    m->step(in);
    if ((m->tick() - first) % every == 0) {
      w.num(0, 1);
      w.bytes32(m->snapshot());
    }
    if (k > 0 && in == prev) {
      w.num(2, 1);
    } else {
      w.num(1, 1);
      w.bytes16(in);
    }
    w.hashes(m->hashes(), info.subsystems.size());
    prev = in;
  }
  write_file(out, w.out);
}

/// Seeds (tools/fuzz): real recordings of bundled scenarios, cut copies of them, and built inputs.
int make_seeds(const std::string& dir) {
  std::filesystem::create_directories(dir);
  const std::string fx = LOCKSTEP_FIXTURES_DIR;
  struct Seed {
    const char* scenario;
    uint64_t ticks;
    uint32_t chunk, every;
    uint8_t sub_bytes;
  };
  int n = 0;
  for (const Seed& s : {Seed{"wander/yard.json", 45, 10, 20, 2}, Seed{"wander/setpath.json", 40, 7, 15, 8},
                        Seed{"warriors/melee.json", 30, 8, 16, 2}, Seed{"station/hall.json", 30, 8, 16, 2}}) {
    auto m = load_scenario_file(fx + "/" + s.scenario);
    const std::string name = std::filesystem::path(s.scenario).stem().string();
    const std::string path = dir + "/" + name + ".lsr";
    lsr::RecorderOptions opt;
    opt.chunk_ticks = s.chunk;
    opt.keyframe_every = s.every;
    opt.sub_hash_bytes = s.sub_bytes;
    {
      lsr::Recorder rec(path, *m, opt);
      for (uint64_t k = 0; k < s.ticks; ++k) {
        const auto in = m->scripted_input();
        m->step(in);
        rec.tick(in, *m);
      }
      rec.finish();
    }
    const auto whole = read_file(path);
    ++n;
    for (std::size_t cut : {std::size_t{7}, std::size_t{64}, whole.size() / 3, whole.size() / 2, whole.size() * 3 / 4, whole.size() - 40,
                            whole.size() - 1})
      if (cut > 0 && cut < whole.size()) {
        write_file(dir + "/" + name + "-cut" + std::to_string(cut) + ".lsr", std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(cut)));
        ++n;
      }
  }
  make_seed(fx + "/wander/hitwall.json", dir + "/built-hitwall", 30);
  make_seed(fx + "/wander/setpath.json", dir + "/built-setpath", 20);
  std::printf("fuzz_recording: %d seeds in %s\n", n + 2, dir.c_str());
  return 0;
}

int tool_main(int argc, char** argv) {
  try {
    const std::string cmd = argv[1];
    if (cmd == "--make-seeds" && argc == 3) return make_seeds(argv[2]);
    if (cmd == "--make-seed" && (argc == 4 || argc == 5)) {
      make_seed(argv[2], argv[3], argc == 5 ? std::stoull(argv[4]) : 40);
      return 0;
    }
    if (cmd == "--seal" && argc == 4) {
      const auto in = read_file(argv[2]);
      if (in.size() < 4 || std::memcmp(in.data(), kBuiltMagic, 4) != 0) {
        std::fprintf(stderr, "fuzz_recording: %s is not a built input (LSFZ)\n", argv[2]);
        return 2;
      }
      bool finished = false;
      Expected exp;
      if (!build(in.data(), in.size(), argv[3], &finished, &exp)) {
        std::fprintf(stderr, "fuzz_recording: the Recorder refused the script\n");
        return 1;
      }
      std::printf("%s: %zu ticks%s\n", argv[3], exp.whole.size(), finished ? "" : " (not finished)");
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_recording: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr,
               "usage: fuzz_recording --make-seeds DIR\n"
               "       fuzz_recording --make-seed SCENARIO.json OUT [TICKS]\n"
               "       fuzz_recording --seal BUILT_INPUT OUT.lsr\n"
               "       fuzz_recording [libFuzzer flags] [CORPUS_DIR | INPUT]...\n");
  return 2;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  lockstep::register_bundled_models();
  // Called before libFuzzer reads its flags: the tool modes end here.
  if (*argc >= 2 && std::strncmp((*argv)[1], "--", 2) == 0) std::exit(tool_main(*argc, *argv));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size >= 4 && std::memcmp(data, kBuiltMagic, 4) == 0)
    read_built(data, size);
  else
    read_raw(data, size);
  return 0;
}
