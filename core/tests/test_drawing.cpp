// The model contract's drawing (drawing.h): each bundled model draws every body where its state
// keeps it, under the field path the inspector lists; a model with only a body view is drawn from
// it, and one with neither draws nothing.
#include <catch2/catch.hpp>

#include <set>

#include "fixtures.h"
#include "lockstep/core/model.h"

using namespace lockstep;

namespace {

/// The float leaf at `path` (its text is the shortest that reads back to the same bits).
float drawing_leaf(const Model& m, const std::string& path) {
  const auto steps = parse_path(path);
  REQUIRE(steps);
  const auto f = m.find_leaf(*steps);
  INFO(path);
  REQUIRE(f.status == LeafLookup::Found);
  return std::stof(read_leaf(f.ref).text);
}

/// The elements of the state's list `list` whose leaf `suffix` reads `value` (empty: any): the bodies a model must draw.
std::set<std::string> drawing_bodies_by_leaf(const Model& m, const std::string& list, const std::string& suffix,
                                             const std::string& value) {
  std::set<std::string> out;
  for (const auto& l : m.leaves())
    if (l.path.starts_with(list + "[") && l.path.ends_with(suffix) && l.path.find('.', list.size()) + suffix.size() == l.path.size() && (value.empty() || read_leaf(l.ref).text == value))
      out.insert(l.path.substr(0, l.path.size() - suffix.size()));
  return out;
}

struct DrawingCase {
  const char* fixture;
  int ticks;
  const char* list;  ///< the state's list of bodies
  const char* x;  ///< the body's plan x and y under its path
  const char* y;
  const char* present_suffix;  ///< a leaf that says the body is present, and its value
  const char* present_value;
};

}  // namespace

TEST_CASE("Each bundled model draws every body where its state keeps it, under its field path", "[drawing]") {
  const DrawingCase c = GENERATE(DrawingCase{"wander/yard.json", 200, "entities", "position.x", "position.z", ".rng_draws", ""},
                                 DrawingCase{"warriors/street.json", 120, "humans", "position.x", "position.y", ".in_use", "1"},
                                 DrawingCase{"station/hall.json", 160, "walkers", "pos.x", "pos.y", ".phase", "0"});
  INFO(c.fixture);
  auto m = make_model(parse_json_file(fixtures::path(c.fixture)), c.fixture);
  for (int k = 0; k < c.ticks; ++k) m->step_scripted();
  const Drawing d = m->tick_drawing();
  std::set<std::string> drawn;
  for (const auto& b : d.bodies) {
    INFO(b.path);
    CHECK(drawing_leaf(*m, b.path + "." + c.x) == static_cast<float>(b.view.x));
    CHECK(drawing_leaf(*m, b.path + "." + c.y) == static_cast<float>(b.view.y));
    CHECK(b.view.hx * b.view.hx + b.view.hy * b.view.hy == Approx(1.0).margin(1e-6));
    CHECK(!b.state.empty());
    drawn.insert(b.path);
  }
  // Every body present is drawn, once (wander: every entity).
  CHECK(drawn == drawing_bodies_by_leaf(*m, c.list, c.present_suffix, c.present_value));
  CHECK(drawn.size() == d.bodies.size());
  CHECK(!drawn.empty());
  // A shape that belongs to a body belongs to one drawn now.
  std::set<int64_t> ids;
  for (const auto& b : d.bodies) ids.insert(b.view.id);
  for (const auto& s : d.shapes)
    if (s.body >= 0 && s.layer != "claim") CHECK(ids.count(s.body) == 1);
  CHECK(!m->scene_drawing().shapes.empty());
}

namespace {

// Two toy models: one with a body view only, one with neither.
struct DrawToyState {
  float x = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"x"}, s.x);
  }
};
struct DrawToyInput {
  int32_t dx = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"dx"}, s.dx);
  }
};
struct DrawToyScenario {
  std::string model;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"model"}, s.model);
  }
};
template <bool kBodies>
struct DrawToy {
  using Scenario = DrawToyScenario;
  using Input = DrawToyInput;
  using State = DrawToyState;
  static constexpr std::string_view kName = "draw-toy";
  static constexpr uint32_t kVersion = 1;
  static constexpr uint32_t kTickRateHz = 10;
  static Scenario load_scenario(const Json&, const JsonReader&) { return {}; }
  explicit DrawToy(Scenario) {}
  void step(const Input& in) {
    s_.x += static_cast<float>(in.dx);
    ++t_;
  }
  Input scripted_input() const { return {1}; }
  uint64_t tick() const { return t_; }
  const State& state() const { return s_; }
  void set_state(const State& s) { s_ = s; }
  std::vector<FloorView> floor_views() const
    requires kBodies
  {
    return {FloorView{"f", {{{0, 0}, {4, 0}, {4, 4}}}, {}}};
  }
  std::vector<BodyView> bodies() const
    requires kBodies
  {
    return {BodyView{7, 0, s_.x, 2, 0, 1, 0.5}};
  }
  State s_;
  uint64_t t_ = 0;
};

}  // namespace

TEST_CASE("A model without a drawing is drawn from its body view; without one, nothing", "[drawing]") {
  ModelAdapter<DrawToy<true>> with(DrawToy<true>({}), "{}");
  with.step_scripted();
  with.step_scripted();
  const Drawing d = with.tick_drawing();
  REQUIRE(d.bodies.size() == 1);
  CHECK(d.bodies[0].view.id == 7);
  CHECK(d.bodies[0].view.x == 2.0);
  CHECK(d.bodies[0].path.empty());
  CHECK(d.shapes.empty());
  const Drawing scene = with.scene_drawing();
  REQUIRE(scene.shapes.size() == 1);
  CHECK(scene.shapes[0].layer == "floor");
  CHECK(scene.shapes[0].points.size() == 3);

  ModelAdapter<DrawToy<false>> without(DrawToy<false>({}), "{}");
  CHECK(without.tick_drawing().bodies.empty());
  CHECK(without.scene_drawing().shapes.empty());
}
