// The model contract's phase observer (phases.h): every bundled model reports its documented
// phases, in step order, every tick, between the adapter's step_begin and step_end; and an observer
// changes nothing a step computes (the same hash chain, tick by tick, as a run nobody watches).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fixtures.h"
#include "lockstep/core/model.h"

using namespace lockstep;

namespace {

/// Writes down every call, as text: "step 3", "+0", "-0", ..., "end 3".
class PhaseLog final : public PhaseObserver {
 public:
  std::vector<std::string> calls;
  void step_begin(uint64_t tick) override { calls.push_back("step " + std::to_string(tick)); }
  void step_end(uint64_t tick) override { calls.push_back("end " + std::to_string(tick)); }
  void phase_begin(uint32_t p) override { calls.push_back("+" + std::to_string(p)); }
  void phase_end(uint32_t p) override { calls.push_back("-" + std::to_string(p)); }
};

struct PhasedScenario {
  const char* file;
  std::vector<std::string> phases;  ///< as each model's step documents them (docs/profile.md)
  uint64_t ticks;
};

const std::vector<PhasedScenario>& phased_scenarios() {
  static const std::vector<PhasedScenario> s = {
      {"wander/yard.json", {"inputs", "behaviours", "force_move", "physics"}, 400},
      {"warriors/street_crowd.json", {"inputs", "think", "control"}, 200},
      {"station/hall.json", {"inputs", "spawn", "neighbours", "plan", "forces", "connectors", "arrival", "crowd", "measure"}, 200},
  };
  return s;
}

}  // namespace

TEST_CASE("every bundled model reports its phases in step order, every tick", "[phases]") {
  for (const auto& sc : phased_scenarios()) {
    INFO(sc.file);
    auto m = load_scenario_file(fixtures::path(sc.file));
    CHECK(m->info().phases == sc.phases);
    PhaseLog log;
    m->set_phase_observer(&log);
    for (uint64_t t = 0; t < 30; ++t) {
      log.calls.clear();
      m->step_scripted();
      std::vector<std::string> want = {"step " + std::to_string(t)};
      for (std::size_t p = 0; p < sc.phases.size(); ++p) {
        want.push_back("+" + std::to_string(p));
        want.push_back("-" + std::to_string(p));
      }
      want.push_back("end " + std::to_string(t));
      REQUIRE(log.calls == want);
    }
    // Encoded inputs (a replay's) report alike.
    log.calls.clear();
    m->step(m->scripted_input(), "input");
    CHECK(log.calls.size() == 2 + 2 * sc.phases.size());
    // Taken away: nothing more. A clone starts with no observer.
    auto c = m->clone();
    log.calls.clear();
    c->step_scripted();
    CHECK(log.calls.empty());
    m->set_phase_observer(nullptr);
    m->step_scripted();
    CHECK(log.calls.empty());
  }
}

TEST_CASE("an observer changes no hash: the same chain with and without one", "[phases]") {
  for (const auto& sc : phased_scenarios()) {
    INFO(sc.file);
    auto plain = load_scenario_file(fixtures::path(sc.file));
    auto watched = load_scenario_file(fixtures::path(sc.file));
    PhaseLog log;
    watched->set_phase_observer(&log);
    for (uint64_t t = 0; t < sc.ticks; ++t) {
      plain->step_scripted();
      watched->step_scripted();
      INFO("tick " << t);
      REQUIRE(plain->hashes() == watched->hashes());
      log.calls.clear();
    }
    CHECK(plain->snapshot() == watched->snapshot());
  }
}

TEST_CASE("a step left by an exception still ends", "[phases]") {
  auto m = load_scenario_file(fixtures::path("wander/yard.json"));
  PhaseLog seen;
  // An observer that throws when phase 1 begins: the exception unwinds through phase 0's end (done
  // already) and the step's end, as any exception from inside a step does.
  struct Thrower final : PhaseObserver {
    PhaseLog& into;
    explicit Thrower(PhaseLog& sink) : into(sink) {}
    void step_begin(uint64_t t) override { into.step_begin(t); }
    void step_end(uint64_t t) override { into.step_end(t); }
    void phase_begin(uint32_t p) override {
      into.phase_begin(p);
      if (p == 1) throw std::runtime_error("stop");
    }
    void phase_end(uint32_t p) override { into.phase_end(p); }
  } thrower(seen);
  m->set_phase_observer(&thrower);
  CHECK_THROWS_AS(m->step_scripted(), std::runtime_error);
  // Phase 1's begin threw, so it never began: phase 0 ended, the step ended.
  CHECK(seen.calls == std::vector<std::string>{"step 0", "+0", "-0", "+1", "end 0"});
}

TEST_CASE("every bundled model gives its entity count (profile's counter)", "[phases]") {
  // wander: every entity of the scenario (its list, then its crowds'), always; warriors: the
  // humans in use (all the scenario's); station: the walkers walking, as its body view lists them.
  auto w = load_scenario_file(fixtures::path("wander/yard.json"));
  const auto scenario = Json::parse(w->scenario_json());
  uint64_t npcs = scenario["entities"].size();
  for (const auto& c : scenario["crowds"]) npcs += c["count"].get<uint64_t>();
  CHECK(npcs == 40);  // the yard's description
  CHECK(w->entity_count() == npcs);
  auto h = load_scenario_file(fixtures::path("warriors/street_crowd.json"));
  const auto humans = Json::parse(h->scenario_json())["humans"].size();
  CHECK(h->entity_count() == humans);
  for (int k = 0; k < 30; ++k) h->step_scripted();
  CHECK(h->entity_count() == humans);
  auto s = load_scenario_file(fixtures::path("station/hall.json"));
  for (int k = 0; k < 200; ++k) s->step_scripted();
  CHECK(s->entity_count() == s->bodies().size());
  CHECK(*s->entity_count() > 0);
}
