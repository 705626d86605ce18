// The property every model state must have (issue: one reflected state): for
// every field, changing that field alone (one ulp, one unit, one bit) changes
// the whole-state hash and exactly one subsystem hash, and the diff names
// exactly that field. Run over every model the build knows.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>

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
  if (model == "station") {
    // The small hall: spawning portals, a column, two placed walkers, a measurement area; 3 s in.
    auto m = make_model(parse_json_file(fixtures::path("station/hall.json")), "hall");
    for (int k = 0; k < 60; ++k) m->step_scripted();
    return m;
  }
  FAIL("no small world for model " << model);
  return nullptr;
}

}  // namespace

namespace {
// The bytes of one leaf, to put it back after a nudge (strings by value).
struct SavedLeaf {
  LeafRef ref;
  std::array<unsigned char, 8> bytes{};
  std::string text;
  std::size_t size() const {
    switch (ref.kind) {
      case LeafKind::Bool: case LeafKind::I8: case LeafKind::U8: return 1;
      case LeafKind::I16: case LeafKind::U16: return 2;
      case LeafKind::I32: case LeafKind::U32: case LeafKind::F32: return 4;
      case LeafKind::I64: case LeafKind::U64: case LeafKind::F64: return 8;
      case LeafKind::String: return 0;
    }
    return 0;
  }
  explicit SavedLeaf(LeafRef r) : ref(r) {
    if (ref.kind == LeafKind::String) text = *static_cast<std::string*>(ref.ptr);
    else std::memcpy(bytes.data(), ref.ptr, size());
  }
  void put_back() const {
    if (ref.kind == LeafKind::String) *static_cast<std::string*>(ref.ptr) = text;
    else std::memcpy(ref.ptr, bytes.data(), size());
  }
};
}  // namespace

TEST_CASE("Every field of every model state moves the whole hash and exactly its own subsystem hash",
          "[properties]") {
  for (const auto& name : model_names()) {
    INFO("model " << name);
    auto base = small_world(name);
    const auto pristine = base->clone();
    const StateHashes h0 = base->hashes();
    // Each leaf is nudged in place and put back afterwards, so one listing serves every leaf.
    const auto leaves = base->mutable_leaves();
    const std::size_t n = leaves.size();
    REQUIRE(n > 50);
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& path = leaves[i].path;
      INFO("field " << path);
      const SavedLeaf saved(leaves[i].ref);
      nudge_leaf(leaves[i].ref);
      const StateHashes h1 = base->hashes();
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
      const auto d = pristine->diff(*base, 2);
      REQUIRE(d.size() == 1);
      CHECK(d[0].path == path);
      CHECK(d[0].subsystem == top);
      saved.put_back();
    }
    CHECK(base->hashes() == h0);  // every leaf was put back
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
