// The recorder's writer thread (lsr.h): the file it writes is byte for byte the one written
// on the stepping thread, on every bundled scenario and when the writer falls behind; a failed
// write reaches the caller; a recorder dropped without finish() keeps every complete chunk, and
// one killed (SIGKILL) every chunk it had flushed.
#include <catch2/catch.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fixtures.h"
#include "lockstep/core/model.h"
#include "lockstep/replay/lsr.h"

using namespace lockstep;

namespace {

std::string writer_temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("lockstep_lsr_writer_" + name)).string();
}

std::vector<char> writer_bytes(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Records `ticks` steps of the scenario twice, with the writer thread and without, and returns
/// both files' bytes.
std::pair<std::vector<char>, std::vector<char>> writer_both(const std::string& scenario, uint64_t ticks,
                                                            lsr::RecorderOptions opt) {
  const std::string threaded = writer_temp("threaded.lsr"), inline_path = writer_temp("inline.lsr");
  auto a = load_scenario_file(fixtures::path(scenario));
  auto b = load_scenario_file(fixtures::path(scenario));
  {
    opt.writer_thread = true;
    lsr::Recorder ra(threaded, *a, opt);
    opt.writer_thread = false;
    lsr::Recorder rb(inline_path, *b, opt);
    for (uint64_t k = 0; k < ticks; ++k) {
      const auto in = a->scripted_input();
      a->step(in);
      b->step(in);
      ra.tick(in, *a);
      rb.tick(in, *b);
    }
    ra.finish();
    rb.finish();
  }
  auto r = std::make_pair(writer_bytes(threaded), writer_bytes(inline_path));
  std::filesystem::remove(threaded);
  std::filesystem::remove(inline_path);
  return r;
}

/// Every bundled scenario: fixtures/<model>/*.json with a top-level "model" (not the flows). Of
/// RiMEA 4's seven densities, the same corridor filled at 0.5 to 6 walkers a square metre, the
/// first and the last (filling the denser ones costs a second each).
std::vector<std::string> writer_scenarios() {
  std::vector<std::string> out;
  for (const char* dir : {"wander", "warriors", "station"})
    for (const auto& e : std::filesystem::directory_iterator(fixtures::path(dir))) {
      const std::string name = e.path().filename().string();
      if (name.rfind("rimea4_d", 0) == 0 && name != "rimea4_d050.json" && name != "rimea4_d600.json") continue;
      if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(std::string(dir) + "/" + name);
    }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("the writer thread writes the bytes of writing on the stepping thread, on every bundled scenario",
          "[lsr][writer]") {
  const auto scenarios = writer_scenarios();
  REQUIRE(scenarios.size() >= 20);
  int n = 0;
  for (const auto& s : scenarios) {
    INFO(s);
    // Chunks of 7 ticks and keyframes every 25 (a keyframe closes a chunk mid-way), the
    // subsystem hashes kept whole in every other scenario; the station's crowds (up to 10,000
    // walkers) 11 ticks in chunks of 3 with keyframes every 5.
    const bool crowd = s.rfind("station/", 0) == 0;
    lsr::RecorderOptions opt;
    opt.chunk_ticks = crowd ? 3 : 7;
    opt.keyframe_every = crowd ? 5 : 25;
    opt.sub_hash_bytes = (n++ % 2) ? 8 : 2;
    const uint64_t ticks = crowd ? 11 : 130;
    const auto [threaded, on_the_spot] = writer_both(s, ticks, opt);
    CHECK(threaded.size() > 1000);
    CHECK(threaded == on_the_spot);
  }
}

TEST_CASE("a writer that falls behind makes the stepper wait, and the bytes stay the same", "[lsr][writer]") {
  // A frame every tick and a keyframe every tick: far more frames than the queue holds.
  lsr::RecorderOptions opt;
  opt.chunk_ticks = 1;
  opt.keyframe_every = 1;
  opt.fsync = true;  // a slow writer
  const auto [threaded, on_the_spot] = writer_both("wander/yard.json", 3 * lsr::Recorder::kMaxQueuedFrames + 40, opt);
  CHECK(threaded == on_the_spot);
}

TEST_CASE("a recorder dropped without finish keeps every complete chunk, the queued ones written", "[lsr][writer]") {
  const std::string p = writer_temp("dropped.lsr");
  {
    auto m = load_scenario_file(fixtures::path("wander/yard.json"));
    lsr::RecorderOptions opt;
    opt.chunk_ticks = 10;
    lsr::Recorder rec(p, *m, opt);
    for (int k = 0; k < 105; ++k) {
      const auto in = m->scripted_input();
      m->step(in);
      rec.tick(in, *m);
    }
  }  // no finish(): the chunk of ticks 100-104 is not complete and is lost
  const auto r = lsr::Recording::open(p);
  REQUIRE(r.damage());
  CHECK(r.damage()->truncated);
  CHECK(r.ticks() == 100);
  CHECK(r.chunk_count() == 10);
  CHECK(r.keyframe_count() == 2);  // the first state's and tick 60's
  std::filesystem::remove(p);
}

TEST_CASE("a write that fails on the writer thread is thrown to the caller of tick or finish", "[lsr][writer]") {
  REQUIRE(std::filesystem::exists("/dev/full"));  // Linux's device where every write fails (ENOSPC)
  auto m = load_scenario_file(fixtures::path("wander/yard.json"));
  bool thrown = false;
  try {
    lsr::RecorderOptions opt;
    opt.chunk_ticks = 1;
    lsr::Recorder rec("/dev/full", *m, opt);
    for (int k = 0; k < 2000; ++k) {
      const auto in = m->scripted_input();
      m->step(in);
      rec.tick(in, *m);
    }
    rec.finish();
  } catch (const InputError& e) {
    thrown = true;
    CHECK(e.message() == "write failed");
  }
  CHECK(thrown);
}

TEST_CASE("keyframes written into reused buffers hold the snapshot of their tick, as the state grows and shrinks",
          "[lsr][writer]") {
  // A keyframe every 5 ticks of RiMEA 12's 150 walkers, whose routes are planned and replanned (the
  // snapshot's length changes both ways): each keyframe is written into the buffer of one written
  // before, larger or smaller. Every keyframe read back is the snapshot a model stepped alongside
  // gives at its tick (in a vector of its own), with and without the writer thread.
  for (const bool threaded : {true, false}) {
    INFO((threaded ? "writer thread" : "stepping thread"));
    const std::string p = writer_temp("keyframes.lsr");
    auto m = load_scenario_file(fixtures::path("station/rimea12.json"));
    std::vector<std::vector<uint8_t>> expected{m->snapshot()};
    {
      lsr::RecorderOptions opt;
      opt.keyframe_every = 5;
      opt.chunk_ticks = 7;
      opt.writer_thread = threaded;
      lsr::Recorder rec(p, *m, opt);
      for (int k = 1; k <= 400; ++k) {
        const auto in = m->scripted_input();
        m->step(in);
        rec.tick(in, *m);
        if (k % 5 == 0) expected.push_back(m->snapshot());
      }
      rec.finish();
    }
    const auto r = lsr::Recording::open(p);
    REQUIRE_FALSE(r.damage());
    std::vector<std::vector<uint8_t>> read;
    std::vector<uint64_t> ticks;
    r.scan(0, 401, [](const lsr::TickRecord&) {},
           [&](const lsr::Keyframe& k) {
             ticks.push_back(k.tick);
             read.emplace_back(k.snapshot.begin(), k.snapshot.end());
           });
    REQUIRE(read.size() == expected.size());
    for (std::size_t i = 0; i < read.size(); ++i) {
      INFO("keyframe " << i << " of tick " << ticks[i]);
      CHECK(ticks[i] == 5 * i);
      CHECK(read[i] == expected[i]);
    }
    // The snapshot both grew and shrank between keyframes: buffers were reused for larger and for
    // smaller ones.
    bool grew = false, shrank = false;
    for (std::size_t i = 1; i < expected.size(); ++i) {
      grew = grew || expected[i].size() > expected[i - 1].size();
      shrank = shrank || expected[i].size() < expected[i - 1].size();
    }
    CHECK(grew);
    CHECK(shrank);
    std::filesystem::remove(p);
  }
}

namespace {

/// In a child process: record the yard (chunks of `chunk_ticks`) with the writer thread until
/// killed, telling the parent through `fd` each new ticks_flushed(), and, once, that it has
/// stepped `stop_after` ticks (then it keeps its recorder open and stops stepping).
[[noreturn]] void kill_child_record(const std::string& path, uint32_t chunk_ticks, uint64_t stop_after, int fd) {
  auto m = load_scenario_file(fixtures::path("wander/yard.json"));
  lsr::RecorderOptions opt;
  opt.chunk_ticks = chunk_ticks;
  lsr::Recorder rec(path, *m, opt);
  uint64_t told = 0;
  for (uint64_t k = 0;; ++k) {
    if (k < stop_after) {
      const auto in = m->scripted_input();
      m->step(in);
      rec.tick(in, *m);
    }
    const uint64_t flushed = rec.ticks_flushed();
    if (flushed != told) {
      told = flushed;
      if (::write(fd, &told, sizeof told) != sizeof told) ::_exit(3);
    }
    if (k >= stop_after) ::usleep(1000);
  }
}

struct KillRun {
  uint64_t last_told = 0;  ///< the last ticks_flushed() the child told before it was killed
  std::string path;
};

/// Forks a recording child and kills it (SIGKILL) once it has told ticks_flushed() >= kill_at.
KillRun kill_recording(uint32_t chunk_ticks, uint64_t kill_at, uint64_t stop_after, int run) {
  KillRun r;
  r.path = writer_temp("killed" + std::to_string(run) + ".lsr");
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    kill_child_record(r.path, chunk_ticks, stop_after, fds[1]);
  }
  ::close(fds[1]);
  uint64_t v = 0;
  while (r.last_told < kill_at && ::read(fds[0], &v, sizeof v) == sizeof v) r.last_told = v;
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(fds[0]);
  CHECK(WIFSIGNALED(status));
  return r;
}

}  // namespace

TEST_CASE("a recording killed with SIGKILL keeps every chunk the recorder had flushed, and only whole chunks",
          "[lsr][writer]") {
  // The kill lands while the child steps on at full speed, with frames queued, being compressed or
  // written behind the ones flushed; every fourth run closes a chunk every tick (the ring full,
  // tick() waiting for the writer). And once after the child has stopped stepping with its
  // recorder open: then every complete chunk is flushed (the writer looks for frames on its own,
  // with no further hand-over to wake it).
  const uint64_t kill_at[] = {1, 40, 300, 700, 1500, 2500, 4000, 6000};
  for (int run = 0; run < 9; ++run) {
    const bool stopped = run == 8;
    // Chunk lengths that divide the keyframes' 60 ticks (a keyframe closes a chunk).
    const uint32_t chunk = stopped ? 10 : (run % 4 == 3 ? 1 : 30);
    const uint64_t stop_after = stopped ? 1005 : UINT64_MAX;
    // Stopped at 1,005 ticks: 100 chunks of 10 are complete, the 101st is not.
    const uint64_t at = stopped ? 1000 : kill_at[run];
    INFO("run " << run << ": chunks of " << chunk << ", killed once " << at << " ticks were flushed");
    const KillRun k = kill_recording(chunk, at, stop_after, run);
    REQUIRE(k.last_told >= at);
    const auto rec = lsr::Recording::open(k.path);
    REQUIRE(rec.damage());
    CHECK(rec.damage()->truncated);
    CHECK(rec.ticks() >= k.last_told);  // everything flushed is in the file
    CHECK(rec.ticks() % chunk == 0);    // and nothing but whole chunks
    if (stopped) CHECK(rec.ticks() == 1000);
    // The recovered ticks are the run's own: its hash chain from the scenario's first state.
    auto m = load_scenario_file(fixtures::path("wander/yard.json"));
    uint64_t matched = 0;
    rec.scan(0, rec.ticks(), [&](const lsr::TickRecord& t) {
      const auto in = m->scripted_input();
      m->step(in);
      if (m->hashes().whole == t.whole) ++matched;
    }, nullptr);
    CHECK(matched == rec.ticks());
    std::filesystem::remove(k.path);
  }
}
