// The property every model state must have (issue: one reflected state): for
// every field, changing that field alone (one ulp, one unit, one bit) changes
// the whole-state hash and exactly one subsystem hash, and the diff names
// exactly that field. Run over every model the build knows.
#include <catch2/catch.hpp>

#include "fixtures.h"
#include "lockstep/core/model.h"

using namespace lockstep;

namespace {

// A small scenario per model, stepped a little so that fields hold varied values.
std::unique_ptr<Model> small_world(const std::string& model) {
  if (model == "wander") {
    // The yard with its two patrollers plus a terrace wanderer and a ledge wanderer: small but varied.
    auto text = parse_json_file(fixtures::path("wander/yard.json"));
    text["crowds"] = Json::array();
    text["script"] = Json::array();
    text["entities"].push_back(Json{{"position", {13, 6, 13}}, {"wanderradius", 24}});
    text["entities"].push_back(Json{{"position", {-12, 1.5, 13}}, {"has_detect", false}});
    auto m = make_model(text, "yard-small");
    for (int k = 0; k < 300; ++k) m->step_scripted();
    return m;
  }
  if (model == "warriors") {
    // The fight footwork fixture: AIs mid-MoveMelee, a player, sector records, a knocked-down human.
    auto m = make_model(parse_json_file(fixtures::path("warriors/melee.json")), "melee");
    for (int k = 0; k < 40; ++k) m->step_scripted();
    return m;
  }
  FAIL("no small world for model " << model);
  return nullptr;
}

}  // namespace

TEST_CASE("Every field of every model state moves the whole hash and exactly its own subsystem hash",
          "[properties]") {
  for (const auto& name : model_names()) {
    INFO("model " << name);
    auto base = small_world(name);
    const StateHashes h0 = base->hashes();
    const std::size_t n = base->leaves().size();
    REQUIRE(n > 50);
    for (std::size_t i = 0; i < n; ++i) {
      auto changed = base->clone();
      auto leaves = changed->leaves();
      const std::string path = leaves[i].path;
      INFO("field " << path);
      nudge_leaf(leaves[i].ref);
      const StateHashes h1 = changed->hashes();
      CHECK(h1.whole != h0.whole);
      int moved = 0;
      std::size_t which = 0;
      for (uint32_t s = 0; s < h0.count; ++s)
        if (h0.sub[s] != h1.sub[s]) {
          ++moved;
          which = s;
        }
      CHECK(moved == 1);
      // The subsystem that moved is the one the path lives under.
      const std::string top = path.substr(0, path.find_first_of(".["));
      CHECK(base->info().subsystems[which] == top);
      const auto d = base->diff(*changed);
      REQUIRE(d.size() == 1);
      CHECK(d[0].path == path);
      CHECK(d[0].subsystem == top);
    }
  }
}

TEST_CASE("Snapshot, restore, hash is the identity for every model", "[properties][snapshot]") {
  for (const auto& name : model_names()) {
    INFO("model " << name);
    auto a = small_world(name);
    auto b = make_model(parse_json_text(a->scenario_json(), "embedded"), "embedded");
    CHECK(b->hashes() != a->hashes());
    b->restore(a->snapshot());
    CHECK(b->hashes() == a->hashes());
    CHECK(b->diff(*a).empty());
    CHECK(b->state_json() == a->state_json());
  }
}

TEST_CASE("A damaged snapshot is refused with its place and leaves the state unchanged", "[properties][snapshot]") {
  auto a = small_world("wander");
  auto bytes = a->snapshot();
  auto b = a->clone();
  b->step_scripted();
  const StateHashes before = b->hashes();
  bytes.resize(bytes.size() / 2);
  CHECK_THROWS_WITH(b->restore(bytes, "half.snap"), Catch::StartsWith("half.snap: byte "));
  CHECK(b->hashes() == before);
}
