// The floating-point environment (fpenv.h): a host's flush-to-zero mode, which
// a program linked with -ffast-math sets before main, parts a run; the model
// contract's steps run in the IEEE default and give the caller its mode back.
#include <catch2/catch.hpp>
#include <cfenv>

#include "fixtures.h"
#include "lockstep/core/fpenv.h"
#include "lockstep/core/model.h"
#include "wander/wander.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

using namespace lockstep;

namespace {

// What crtfastmath.o does: x86-64 MXCSR FZ and DAZ, aarch64 FPCR FZ.
void set_flush_to_zero(bool on) {
#if defined(__x86_64__)
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(on ? (csr | 0x8040u) : (csr & ~0x8040u));
#elif defined(__aarch64__)
  uint64_t v;
  __asm__ volatile("mrs %0, fpcr" : "=r"(v));
  v = on ? (v | (1u << 24)) : (v & ~uint64_t{1u << 24});
  __asm__ volatile("msr fpcr, %0" : : "r"(v));
#else
  (void)on;
#endif
}

struct FlushToZero {
  FlushToZero() { set_flush_to_zero(true); }
  ~FlushToZero() { set_flush_to_zero(false); }
};

}  // namespace

TEST_CASE("A flush-to-zero host parts the yard at step 808; the model contract's steps do not", "[fpenv]") {
  const Json j = parse_json_file(fixtures::path("wander/yard.json"));
  JsonReader reader("yard.json");
  const auto sc = wander::WanderModel::load_scenario(j, reader);
  // The control: the model stepped bare, once in the IEEE default and once flushing denormals.
  wander::WanderModel plain(sc), flushed(sc);
  std::optional<int> parted;
  for (int t = 0; t < 900 && !parted; ++t) {
    plain.step(plain.scripted_input());
    {
      FlushToZero ftz;
      flushed.step(flushed.scripted_input());
    }
    if (hash_state(plain.state()).whole != hash_state(flushed.state()).whole) parted = t;
  }
  REQUIRE(parted);
  CHECK(*parted == 808);  // the state at tick 809 differs, as a -ffast-math host saw it
  // Through the contract, in the same host mode: bit for bit the IEEE run, and the mode given back.
  auto reference = load_scenario_file(fixtures::path("wander/yard.json"));
  auto guarded = load_scenario_file(fixtures::path("wander/yard.json"));
  for (int t = 0; t < 900; ++t) reference->step_scripted();
  {
    FlushToZero ftz;
    for (int t = 0; t < 900; ++t) {
      guarded->step_scripted();
      REQUIRE(current_fp_env().flush_to_zero);  // the caller's mode, after every step
    }
  }
  CHECK(guarded->hashes().whole == reference->hashes().whole);
  CHECK(current_fp_env().ieee_default());
}

TEST_CASE("The environment is read from the control register and named", "[fpenv]") {
  REQUIRE(current_fp_env().ieee_default());
  CHECK(current_fp_env().text() == "IEEE default");
  {
    FlushToZero ftz;
    const FpEnv e = current_fp_env();
    CHECK(e.flush_to_zero);
    CHECK(e.denormals_are_zero);
    CHECK_FALSE(e.ieee_default());
#if defined(__x86_64__)
    CHECK(e.text() == "flush-to-zero, denormals-are-zero (MXCSR 0x9fc0)");
#endif
    CHECK(e.difference() == "flushes denormals to zero");
    CHECK(fp_env_difference(e.text()) == "flushes denormals to zero");
    IeeeFpScope scope;
    CHECK(scope.changed());
    CHECK(current_fp_env().ieee_default());
  }
  CHECK(current_fp_env().ieee_default());
  REQUIRE(std::fesetround(FE_TOWARDZERO) == 0);
  {
    const FpEnv e = current_fp_env();
    CHECK(e.rounding == 3);
    CHECK(fp_env_difference(e.text()) == "rounds toward zero");
    IeeeFpScope scope;
    CHECK(current_fp_env().rounding == 0);  // the SSE / FPCR mode the models compute in (x87 is never used)
  }
  CHECK(current_fp_env().rounding == 3);
  std::fesetround(FE_TONEAREST);
  IeeeFpScope untouched;
  CHECK_FALSE(untouched.changed());
  CHECK(fp_env_difference("IEEE default").empty());
}
