// The command line's one progress reporter (src/progress.h): silent for the first second, on a
// terminal only, on its own stream, and gone when the work is done.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "progress.h"

using lockstep::cli::Progress;

namespace {

/// What a Progress wrote to a temporary stream.
struct Captured {
  std::FILE* f = std::tmpfile();
  ~Captured() { std::fclose(f); }
  std::string text() const {
    std::fflush(f);
    std::rewind(f);
    std::string s;
    for (int c; (c = std::fgetc(f)) != EOF;) s.push_back(static_cast<char>(c));
    return s;
  }
};

}  // namespace

TEST_CASE("progress - nothing within the first second of work", "[cli]") {
  Captured out;
  double now = 0;
  {
    Progress p("replay", "tick", 1000, out.f, true, [&] { return now; });
    for (uint64_t k = 1; k <= 1000; ++k) {
      now = 0.0009 * static_cast<double>(k);  // the whole run takes 0.9 s
      p.update(k);
    }
    CHECK_FALSE(p.shown());
  }
  CHECK(out.text().empty());
}

TEST_CASE("progress - after a second it shows done of total, and erases its line at the end", "[cli]") {
  Captured out;
  double now = 0;
  {
    Progress p("replay", "tick", 4000, out.f, true, [&] { return now; });
    for (uint64_t k = 1; k <= 4000; ++k) {
      now = 0.001 * static_cast<double>(k);  // 4 s in all
      p.update(k);
    }
    CHECK(p.shown());
  }
  const std::string s = out.text();
  CHECK(s.find("\rreplay: tick ") != std::string::npos);
  CHECK(s.find(" of 4000 (") != std::string::npos);
  // Its first line comes after the first second (count 1000): no smaller count is ever drawn, and the
  // last one drawn is within a redraw of the end.
  std::size_t first = 0, last = 0;
  for (std::size_t at = s.find("tick "); at != std::string::npos; at = s.find("tick ", at + 1)) {
    const std::size_t n = std::stoul(s.substr(at + 5));
    if (first == 0) first = n;
    last = n;
  }
  CHECK(first >= 1000);
  CHECK(last >= 3800);
  CHECK(s.substr(s.size() - 4) == "\r\033[K");
  // At most ten redraws a second over the 3 s it was shown (and the last one): 4000 calls draw few lines.
  std::size_t lines = 0;
  for (std::size_t at = s.find("replay:"); at != std::string::npos; at = s.find("replay:", at + 1)) ++lines;
  CHECK(lines >= 20);
  CHECK(lines <= 32);
}

TEST_CASE("progress - nothing at all when the stream is not a terminal", "[cli]") {
  Captured out;
  double now = 0;
  {
    Progress p("verify", "row", 0, out.f, false, [&] { return now; });
    for (uint64_t k = 1; k <= 100000; ++k) {
      now = 0.0001 * static_cast<double>(k);
      p.update(k);
    }
    CHECK_FALSE(p.shown());
  }
  CHECK(out.text().empty());
}

TEST_CASE("progress - an unknown total shows the count alone", "[cli]") {
  Captured out;
  double now = 0;
  {
    Progress p("verify", "row", 0, out.f, true, [&] { return now; });
    for (uint64_t k = 1; k <= 3000; ++k) {
      now = 0.001 * static_cast<double>(k);
      p.update(k);
    }
  }
  const std::string s = out.text();
  CHECK(s.find("\rverify: row ") != std::string::npos);
  CHECK(s.find(" of ") == std::string::npos);
}

namespace {
/// Four seconds of work at a tick a millisecond: what a Progress with these terminals wrote.
std::string four_seconds(Progress::Data data, bool stderr_terminal, bool stdout_terminal) {
  Captured out;
  double now = 0;
  {
    Progress p("export", "tick", 4000, data, out.f, stderr_terminal, stdout_terminal, [&] { return now; });
    for (uint64_t k = 1; k <= 4000; ++k) {
      now = 0.001 * static_cast<double>(k);
      p.update(k);
    }
  }
  return out.text();
}
}  // namespace

TEST_CASE("progress - silent when the command streams its data to a stdout that is a terminal", "[cli]") {
  // export's rows on the screen: a redrawn line among them would garble them.
  CHECK(four_seconds(Progress::Data::Streamed, true, true).empty());
  // The rows go to a file or a pipe: the terminal shows the line.
  CHECK(four_seconds(Progress::Data::Streamed, true, false).find("\rexport: tick ") != std::string::npos);
  // A command whose data comes after the work (a summary) draws whatever stdout is: its line is erased first.
  CHECK(four_seconds(Progress::Data::AtEnd, true, true).find("\rexport: tick ") != std::string::npos);
  // stderr no terminal: never.
  CHECK(four_seconds(Progress::Data::AtEnd, false, true).empty());
  CHECK(four_seconds(Progress::Data::Streamed, false, false).empty());
}
