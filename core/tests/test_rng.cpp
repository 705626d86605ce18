// rng.h: the world's counter-based RNG (docs/numerics.md, "Random numbers").
#include <catch2/catch.hpp>
#include <set>

#include "lockstep/core/rng.h"

using namespace lockstep;

TEST_CASE("SplitMix64 read by counter gives the published reference sequence", "[rng]") {
  // Reference outputs of Vigna's splitmix64.c seeded with 1234567 (also the
  // Rosetta Code "Pseudo-random numbers/Splitmix64" task): an independent source.
  const uint64_t expected[] = {6457827717110365317ull, 3203168211198807973ull, 9817491932198370423ull,
                               4593380528125082431ull, 16408922859458223821ull};
  for (uint64_t n = 0; n < 5; ++n) CHECK(splitmix_at(1234567, n) == expected[n]);
  // The same sequence from a stream, draw by draw.
  RngStream s;
  s.key = 1234567;
  for (uint64_t v : expected) CHECK(s.next_u64() == v);
  CHECK(s.counter == 5);
}

TEST_CASE("Any draw can be made from its counter alone", "[rng]") {
  RngStream a(42, "wander");
  for (int i = 0; i < 100; ++i) a.next_u64();
  RngStream b(42, "wander");
  b.counter = 100;
  CHECK(a.next_u64() == b.next_u64());
}

TEST_CASE("Stream names hash with FNV-1a 64 to the reference values", "[rng]") {
  // FNV-1a 64 test vectors from the FNV reference (Fowler, Noll, Vo).
  CHECK(fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a64("foobar") == 0x85944171f73967e8ull);
}

TEST_CASE("Named streams of one seed, and one stream of two seeds, are different", "[rng]") {
  std::set<uint64_t> keys = {stream_key(1, "wander"), stream_key(1, "cooldown"), stream_key(2, "wander"),
                             stream_key(0, "wander")};
  CHECK(keys.size() == 4);
}

TEST_CASE("Unit floats are exactly k / 2^24 from the top 24 bits, in 0 to 1, exclusive", "[rng]") {
  CHECK(unit_float(0) == 0.0f);
  CHECK(unit_float(~uint64_t{0}) == 1.0f - 0x1.0p-24f);
  CHECK(unit_float(uint64_t{1} << 63) == 0.5f);
  CHECK(unit_float((uint64_t{1} << 40) - 1) == 0.0f);  // the low 40 bits are not used
  CHECK(range_float(uint64_t{1} << 63, -3.0f, 3.0f) == 0.0f);
  CHECK(range_float(0, 2.0f, 6.0f) == 2.0f);
}

TEST_CASE("Inclusive integer ranges reach both ends and stay inside", "[rng]") {
  CHECK(range_int_inclusive(0, 0, 250) == 0);
  CHECK(range_int_inclusive(~uint64_t{0}, 0, 250) == 250);
  CHECK(range_int_inclusive(~uint64_t{0}, -5, -5) == -5);
  RngStream s(9, "ints");
  int lo = 1000, hi = -1000;
  for (int i = 0; i < 20000; ++i) {
    const int v = s.next_int(-3, 3);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  CHECK(lo == -3);
  CHECK(hi == 3);
}
