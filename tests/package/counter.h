// An outside project's own model (docs/library.md): a small counter game, complete and
// deterministic, written against the installed model contract only.
#pragma once

#include <lockstep/lockstep.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace game {

using lockstep::FieldInfo;

/// A body on a line: position, velocity, mass.
struct Body {
  float x = 0, v = 0, mass = 1;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"x"}, s.x);
    v(FieldInfo{"v"}, s.v);
    v(FieldInfo{"mass"}, s.mass);
  }
};

/// A small counter game: pushes move bodies round a ring of length 20; every
/// lap scores. Complete (everything a step reads is in State or the
/// scenario) and deterministic (lockstep::dmath instead of libm, its own RNG
/// stream in the state, compiled with -ffp-contract=off).
struct Counter {
  struct Scenario {
    std::string model = "counter";
    uint64_t seed = 0;
    uint64_t ticks = 120;  ///< the run length `lockstep run` and `record` step by default
    float drag = 0.9f;
    std::vector<Body> bodies;
    template <class S, class V>
    static void fields(S& s, V&& v) {
      v(FieldInfo{"model"}, s.model);
      v(FieldInfo{"seed"}, s.seed);
      v(FieldInfo{"ticks"}, s.ticks);
      v(FieldInfo{"drag"}, s.drag);
      v(FieldInfo{"bodies"}, s.bodies);
    }
  };
  struct Input {
    float push = 0;      ///< impulse, units/s
    int32_t target = 0;  ///< the body pushed
    template <class S, class V>
    static void fields(S& s, V&& v) {
      v(FieldInfo{"push"}, s.push);
      v(FieldInfo{"target"}, s.target);
    }
  };
  struct State {
    uint64_t tick = 0;
    lockstep::RngStream rng;
    std::vector<Body> bodies;
    float energy = 0;  ///< kinetic energy summed over every tick
    int32_t score = 0;
    template <class S, class V>
    static void fields(S& s, V&& v) {
      v(FieldInfo{"tick"}, s.tick);
      v(FieldInfo{"rng"}, s.rng);
      v(FieldInfo{"bodies"}, s.bodies);
      v(FieldInfo{"energy"}, s.energy);
      v(FieldInfo{"score"}, s.score);
    }
  };

  static constexpr std::string_view kName = "counter";
  static constexpr uint32_t kVersion = 1;
  static constexpr uint32_t kTickRateHz = 30;
  /// The step's phases (lockstep/core/phases.h): what `lockstep profile` times.
  static constexpr std::array<std::string_view, 2> kPhases{"push", "ring"};
  void set_phase_observer(lockstep::PhaseObserver* o) { phases_.set(o); }
  /// How many bodies it simulates: `lockstep profile`'s counter.
  uint64_t entity_count() const { return state_.bodies.size(); }

  static Scenario load_scenario(const lockstep::Json& j, const lockstep::JsonReader& r) {
    Scenario s;
    r.read(j, s, "$");
    if (s.bodies.empty() || s.bodies.size() > 64) r.fail("$.bodies", "expected 1 to 64 bodies");
    for (std::size_t i = 0; i < s.bodies.size(); ++i)
      if (!(s.bodies[i].mass > 0)) r.fail("$.bodies[" + std::to_string(i) + "].mass", "expected a positive mass");
    if (!(s.drag >= 0 && s.drag <= 1)) r.fail("$.drag", "expected 0 to 1");
    return s;
  }

  explicit Counter(Scenario sc) : drag_(sc.drag) {
    state_.rng = lockstep::RngStream(sc.seed, "counter");
    state_.bodies = std::move(sc.bodies);
  }

  void step(const Input& in) {
    {
      const auto phase = phases_.scope(0);  // push: every body's velocity
      for (std::size_t i = 0; i < state_.bodies.size(); ++i) {
        Body& b = state_.bodies[i];
        const float push = static_cast<int32_t>(i) == in.target ? in.push : 0.0f;
        b.v = b.v * drag_ + push / b.mass + state_.rng.next_range(-0.01f, 0.01f);
      }
    }
    {
      const auto phase = phases_.scope(1);  // ring: move, wrap and score
      for (Body& b : state_.bodies) {
        b.x += b.v * (1.0f / kTickRateHz);
        if (b.x >= 10.0f) {
          b.x -= 20.0f;
          ++state_.score;
        } else if (b.x < -10.0f) {
          b.x += 20.0f;
        }
        state_.energy += 0.5f * b.mass * b.v * b.v;  // a*b*c*d + e: what -ffp-contract=off keeps unfused
      }
    }
    ++state_.tick;
#ifdef COUNTER_PLANT_TICK
    // A build that computes differently (my-lockstep-planted): body 1 a millimetre off at one tick.
    if (state_.tick == COUNTER_PLANT_TICK) state_.bodies[1].x += 0.001f;
#endif
  }

  /// The scenario's own input for the next tick: a swell (dmath, not libm) plus a draw made
  /// from (rng key, tick), so asking for it changes no state.
  Input scripted_input() const {
    const uint64_t d = lockstep::splitmix_at(state_.rng.key ^ 0x5C0FFEEull, state_.tick);
    const float swell = 2.0f * lockstep::dmath::sin(0.1f * static_cast<float>(state_.tick));
    return Input{swell + lockstep::range_float(d, -1.0f, 1.0f),
                 lockstep::range_int_inclusive(d, 0, static_cast<int32_t>(state_.bodies.size()) - 1)};
  }
  uint64_t tick() const { return state_.tick; }
  const State& state() const { return state_; }
  void set_state(const State& s) { state_ = s; }

 private:
  float drag_;  ///< from the scenario, constant: a replay rebuilds it from the embedded scenario
  State state_;
  lockstep::PhaseHook phases_;  ///< the profiler's observer, if any: not state
};
static_assert(lockstep::ModelType<Counter>);

}  // namespace game
