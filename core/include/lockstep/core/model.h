// The model contract, and the only view of a model the toolkit has.
//
// A model type M provides (checked by the ModelType concept):
//   M::Scenario, M::Input, M::State   reflected structs (reflect.h)
//   M::kName, M::kVersion, M::kTickRateHz
//   static M::Scenario M::load_scenario(const Json&, const JsonReader&)
//   explicit M(M::Scenario)
//   void step(const M::Input&)         one tick
//   M::Input scripted_input() const    the scenario's own input for the next tick
//   uint64_t tick() const
//   const M::State& state() const; void set_state(const M::State&)
// and optionally M::Scenario::ticks, the scenario's default run length,
// M::Scenario::seed, its random seed (recorded in a recording's header),
//   std::vector<FloorView> M::floor_views() const and
//   std::vector<BodyView> M::bodies() const
// a view of where its bodies are (for `trajectory` and viewers; below),
//   Drawing M::scene_drawing() const and Drawing M::tick_drawing() const
// what `view` draws of it (drawing.h; without them, its body view), and
//   void M::check_input(const M::Input&) const
// which refuses an input the model cannot step (a value out of its range, a body
// it does not have) with InputError naming the field ("events[2].value").
// set_state likewise refuses a state the model could never have made. And
//   M::kPhases (names, in step order) and void M::set_phase_observer(PhaseObserver*)
// its step's phases, reported to an observer when one listens (phases.h; `lockstep profile`), and
//   uint64_t M::entity_count() const
// how many entities (bodies, agents) it simulates now: `profile`'s counter, and
//   void M::set_workers(Workers*)
// threads to step on (workers.h), with the same bits on any number of them.
//
// Before any of it the adapter refuses every input and restored state that
// holds a NaN or an infinity (validate.h), and every step, construction and
// restore runs in the IEEE default floating-point mode (fpenv.h).
// Everything else the toolkit needs (hashes, snapshots, JSON, diff, leaves)
// comes from the field listings, through ModelAdapter below. Replay, verify,
// traces and the command line see only `Model` (the adapter gives no way back
// to M), so a user can plug in a game: register_model_type<M>() puts it in the
// registry (below), which starts empty; lockstep/models/bundled.h registers the
// bundled models.
#pragma once

#include <concepts>
#include <functional>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lockstep/core/body_view.h"
#include "lockstep/core/canonical_read.h"
#include "lockstep/core/diff.h"
#include "lockstep/core/drawing.h"
#include "lockstep/core/fpenv.h"
#include "lockstep/core/hash.h"
#include "lockstep/core/json_load.h"
#include "lockstep/core/phases.h"
#include "lockstep/core/snapshot.h"
#include "lockstep/core/validate.h"
#include "lockstep/core/workers.h"

namespace lockstep {

struct ModelInfo {
  std::string name;
  uint32_t version = 0;
  uint32_t tick_rate_hz = 0;
  std::vector<std::string> subsystems;  ///< top-level state fields, in listing order
  std::vector<std::string> phases;      ///< the step's phases, in step order (empty: none reported)
};

class Model {
 public:
  virtual ~Model() = default;
  virtual const ModelInfo& info() const = 0;
  /// The scenario as loaded, as normalised JSON text (for embedding in recordings).
  virtual const std::string& scenario_json() const = 0;
  virtual uint64_t tick() const = 0;
  /// The scenario's run length in ticks (its "ticks", or the model's default when the file has none):
  /// what `run` and `record` step by default, and the most a trace of it may ask `verify` to step.
  virtual uint64_t default_ticks() const = 0;
  /// The scenario's random seed (its "seed", or the model's default), 0 for a model without one.
  virtual uint64_t seed() const = 0;
  /// The body view (optional): the floors, empty when the model has no body view, and the bodies present now.
  virtual std::vector<FloorView> floors() const { return {}; }
  virtual std::vector<BodyView> bodies() const { return {}; }
  /// The drawing (optional, drawing.h): what is drawn once, and what is drawn now. Without a
  /// drawing of its own a model is drawn from its body view.
  virtual Drawing scene_drawing() const { return drawing_of_floors(floors()); }
  virtual Drawing tick_drawing() const { return drawing_of_bodies(bodies()); }
  /// The phases (optional, phases.h): every later step reports to `o` (step_begin and step_end
  /// around the model's own step, its phases by their index in info().phases inside), until
  /// it is set again; nullptr (the default) reports nothing. A clone starts with none.
  virtual void set_phase_observer(PhaseObserver* o) { (void)o; }
  /// Threads to step on (optional, workers.h): later steps may run parts of the step on `w`,
  /// with the same results as on one thread; nullptr (the default) steps on the calling thread
  /// only. The workers must outlive their use (set nullptr first). A clone starts with none.
  virtual void set_workers(Workers* w) { (void)w; }
  /// How many entities the model simulates now (optional): its entity_count(), else the body
  /// view's body count, else none.
  virtual std::optional<uint64_t> entity_count() const { return std::nullopt; }

  /// Step one tick with the scenario's own scripted input.
  virtual void step_scripted() = 0;
  /// The scenario's scripted input for the next tick, encoded.
  virtual std::vector<uint8_t> scripted_input() const = 0;
  /// Step one tick with an input in its canonical encoding (hash.h); a bad encoding throws InputError.
  virtual void step(std::span<const uint8_t> input, const std::string& source = "input") = 0;
  /// Decode an input and refuse a NaN or an infinity in it, without stepping (what a reader can
  /// check of a recording's inputs without the states they are stepped from); InputError if not.
  virtual void check_input_encoding(std::span<const uint8_t> input, const std::string& source) const = 0;
  /// An encoded input as JSON text.
  virtual std::string input_json(std::span<const uint8_t> input) const = 0;

  virtual StateHashes hashes() const = 0;
  virtual std::vector<uint8_t> snapshot() const = 0;
  /// The same snapshot written into `out` (its bytes replaced, its capacity kept): a recorder's
  /// keyframes reuse their buffers. The default copies snapshot().
  virtual void snapshot_into(std::vector<uint8_t>& out) const { out = snapshot(); }
  /// Restore a snapshot; on error throws InputError and leaves the state as it was.
  virtual void restore(std::span<const uint8_t> bytes, const std::string& source = "snapshot") = 0;
  virtual std::string state_json() const = 0;
  /// Divergent fields against another model of the same kind (listing order).
  virtual std::vector<FieldDiff> diff(const Model& other, std::size_t limit = SIZE_MAX) const = 0;
  /// Every leaf of the state with a typed pointer to read it by (valid until the next step or restore).
  virtual std::vector<ConstLeafEntry> leaves() const = 0;
  /// One leaf by its plain path, visiting only the fields on the path (diff.h, find_leaf): for a
  /// tool reading a few fields every tick. This default searches leaves(), which cannot tell a
  /// leaf absent now from one the state can never hold (it says Never); ModelAdapter can.
  virtual FoundLeaf find_leaf(std::span<const PathStep> path) const {
    std::string want;
    for (const auto& s : path) want += s.is_index() ? "[" + std::to_string(s.index) + "]" : (want.empty() ? "" : ".") + s.name;
    for (const auto& l : leaves())
      if (l.path == want) return {LeafLookup::Found, l.ref, {}};
    return {};
  }
  /// The same leaves, writable: for perturbing a state on purpose (a test's planted change, the
  /// determinism matrix's negative control). A write is checked by nothing (restore() checks).
  virtual std::vector<LeafEntry> mutable_leaves() = 0;
  virtual std::unique_ptr<Model> clone() const = 0;
};

template <class M>
concept ModelType = Reflected<typename M::Scenario> && Reflected<typename M::Input> && Reflected<typename M::State> &&
                    requires(M m, const M cm, const typename M::Input& in, const typename M::State& st, const Json& j,
                             const JsonReader& r) {
                      { M::kName } -> std::convertible_to<std::string_view>;
                      { M::kVersion } -> std::convertible_to<uint32_t>;
                      { M::kTickRateHz } -> std::convertible_to<uint32_t>;
                      { M::load_scenario(j, r) } -> std::same_as<typename M::Scenario>;
                      m.step(in);
                      m.set_state(st);
                      { cm.scripted_input() } -> std::same_as<typename M::Input>;
                      { cm.tick() } -> std::convertible_to<uint64_t>;
                      { cm.state() } -> std::same_as<const typename M::State&>;
                    };

template <ModelType M>
class ModelAdapter final : public Model {
 public:
  ModelAdapter(M model, std::string scenario_json, uint64_t default_ticks = 0, std::string source = "scenario",
               uint64_t seed = 0)
      : m_(std::move(model)),
        scenario_json_(std::move(scenario_json)),
        default_ticks_(default_ticks),
        seed_(seed),
        source_(std::move(source)) {}

  const ModelInfo& info() const override {
    static const ModelInfo inf{std::string(M::kName), M::kVersion, M::kTickRateHz,
                               subsystem_names<typename M::State>(), phase_names()};
    return inf;
  }
  const std::string& scenario_json() const override { return scenario_json_; }
  uint64_t tick() const override { return m_.tick(); }
  uint64_t default_ticks() const override { return default_ticks_; }
  uint64_t seed() const override { return seed_; }
  std::vector<FloorView> floors() const override {
    if constexpr (requires(const M& cm) { { cm.floor_views() } -> std::same_as<std::vector<FloorView>>; }) return m_.floor_views();
    return {};
  }
  std::vector<BodyView> bodies() const override {
    if constexpr (requires(const M& cm) { { cm.bodies() } -> std::same_as<std::vector<BodyView>>; }) return m_.bodies();
    return {};
  }
  Drawing scene_drawing() const override {
    if constexpr (requires(const M& cm) { { cm.scene_drawing() } -> std::same_as<Drawing>; }) return m_.scene_drawing();
    return Model::scene_drawing();
  }
  Drawing tick_drawing() const override {
    if constexpr (requires(const M& cm) { { cm.tick_drawing() } -> std::same_as<Drawing>; }) return m_.tick_drawing();
    return Model::tick_drawing();
  }
  std::optional<uint64_t> entity_count() const override {
    if constexpr (requires(const M& cm) { { cm.entity_count() } -> std::convertible_to<uint64_t>; })
      return static_cast<uint64_t>(m_.entity_count());
    else if constexpr (requires(const M& cm) { { cm.bodies() } -> std::same_as<std::vector<BodyView>>; })
      return m_.bodies().size();
    else
      return std::nullopt;
  }
  void set_phase_observer(PhaseObserver* o) override {
    if constexpr (kHasPhases) m_.set_phase_observer(o);
    observer_ = o;
  }
  void set_workers(Workers* w) override {
    if constexpr (requires(M& m) { m.set_workers(w); }) m_.set_workers(w);
  }
  void step_scripted() override {
    IeeeFpScope fp;
    const typename M::Input in = m_.scripted_input();
    check(in, source_ + " (its script at tick " + std::to_string(m_.tick()) + ")");
    step_model(in);
  }
  std::vector<uint8_t> scripted_input() const override {
    ByteSink sink;
    write_canonical(sink, m_.scripted_input());
    return std::move(sink.out);
  }
  void step(std::span<const uint8_t> input, const std::string& source) override {
    const auto in = decode_canonical<typename M::Input>(input, source);
    check(in, source);
    IeeeFpScope fp;
    step_model(in);
  }
  void check_input_encoding(std::span<const uint8_t> input, const std::string& source) const override {
    finite(decode_canonical<typename M::Input>(input, source), source);
  }
  std::string input_json(std::span<const uint8_t> input) const override {
    return to_json(decode_canonical<typename M::Input>(input, "input"), "input");
  }
  StateHashes hashes() const override { return hash_state(m_.state()); }
  std::vector<uint8_t> snapshot() const override { return snapshot_bytes(m_.state()); }
  void snapshot_into(std::vector<uint8_t>& out) const override { snapshot_bytes_into(m_.state(), out); }
  void restore(std::span<const uint8_t> bytes, const std::string& source) override {
    typename M::State st = m_.state();
    restore_bytes(bytes, st, source);
    if (const std::string at = first_nonfinite(st); !at.empty())
      throw InputError(source, "state." + at, "not a finite number (a state the model never makes)");
    IeeeFpScope fp;
    try {
      m_.set_state(st);
    } catch (const InputError& e) {
      throw InputError(source, "state." + e.place(), e.message());
    }
  }
  std::string state_json() const override { return to_json(m_.state()); }
  std::vector<FieldDiff> diff(const Model& other, std::size_t limit) const override {
    const auto* o = dynamic_cast<const ModelAdapter*>(&other);
    if (!o) throw InputError("", "", "cannot compare a " + info().name + " state with a " + other.info().name + " state");
    return diff_fields(m_.state(), o->m_.state(), limit);
  }
  std::vector<ConstLeafEntry> leaves() const override { return list_leaves(m_.state()); }
  FoundLeaf find_leaf(std::span<const PathStep> path) const override { return lockstep::find_leaf(m_.state(), path); }
  std::vector<LeafEntry> mutable_leaves() override {
    // The contract gives a model's state through a const accessor only: writing it is this one
    // explicit door, for perturbing on purpose.
    return list_mutable_leaves(const_cast<typename M::State&>(m_.state()));
  }
  std::unique_ptr<Model> clone() const override {
    auto c = std::make_unique<ModelAdapter>(*this);
    c->set_phase_observer(nullptr);  // an observer watches one model
    c->set_workers(nullptr);         // and workers serve the model that was given them
    return c;
  }

  /// Refuse an input with a NaN or an infinity.
  static void finite(const typename M::Input& in, const std::string& source) {
    if (const std::string at = first_nonfinite(in); !at.empty())
      throw InputError(source, "input." + at, "not a finite number");
  }
  /// Refuse an input with a NaN or an infinity, then ask the model (check_input).
  void check(const typename M::Input& in, const std::string& source) const {
    finite(in, source);
    if constexpr (requires(const M& cm) { cm.check_input(in); }) {
      try {
        m_.check_input(in);
      } catch (const InputError& e) {
        throw InputError(source, "input." + e.place(), e.message());
      }
    }
  }

 private:
  static constexpr bool kHasPhases = requires(M& m, PhaseObserver* o) {
    M::kPhases;
    m.set_phase_observer(o);
  };
  static std::vector<std::string> phase_names() {
    std::vector<std::string> names;
    if constexpr (kHasPhases)
      for (const auto& n : M::kPhases) names.emplace_back(n);
    return names;
  }
  /// The model's own step, between step_begin and step_end when someone observes.
  void step_model(const typename M::Input& in) {
    if (!observer_) [[likely]] {
      m_.step(in);
      return;
    }
    const uint64_t t = m_.tick();
    struct End {
      PhaseObserver* o;
      uint64_t t;
      ~End() { o->step_end(t); }
    };
    observer_->step_begin(t);
    const End end{observer_, t};
    m_.step(in);
  }

  M m_;
  PhaseObserver* observer_ = nullptr;
  std::string scenario_json_;
  uint64_t default_ticks_ = 0;
  uint64_t seed_ = 0;
  std::string source_;  ///< the scenario's file, for errors in its script
};

using ModelFactory = std::function<std::unique_ptr<Model>(const Json& scenario, const std::string& source)>;

/// The factory for a model type: load and validate the scenario, build the model.
template <ModelType M>
std::unique_ptr<Model> make_model_of(const Json& j, const std::string& source) {
  IeeeFpScope fp;  // a model's construction computes (grids, costs) as its steps do
  JsonReader reader(source);
  typename M::Scenario sc = M::load_scenario(j, reader);
  uint64_t ticks = 0;
  if constexpr (requires { sc.ticks; }) ticks = static_cast<uint64_t>(sc.ticks);  // a scenario's own run length
  uint64_t seed = 0;
  if constexpr (requires { sc.seed; }) seed = static_cast<uint64_t>(sc.seed);
  try {
    return std::make_unique<ModelAdapter<M>>(M(std::move(sc)), j.dump(), ticks, source, seed);
  } catch (const InputError& e) {
    // A model may refuse a scenario while it builds itself (geometry the
    // loader cannot judge alone), naming only the JSON path: add the file.
    if (!e.file().empty()) throw;
    throw InputError(source, e.place(), e.message());
  }
}

/// Plug in a model (your own game): scenarios whose "model" key is `name` make it.
void register_model(const std::string& name, ModelFactory factory);
template <ModelType M>
void register_model_type() {
  register_model(std::string(M::kName), &make_model_of<M>);
}
/// The factory registered under `name`, or an empty one: to wrap a model in another (a profiler,
/// an instrumented build) and register the wrapper under the same name.
ModelFactory model_factory(const std::string& name);
/// Take a registered model out again (a tool that plugged one in for a while;
/// the tests' toy models). Unknown names are ignored.
void unregister_model(const std::string& name);

/// Make a model from a parsed scenario (its "model" key picks the kind).
std::unique_ptr<Model> make_model(const Json& scenario, const std::string& source);
/// Load a scenario file and make its model. Errors are InputError.
std::unique_ptr<Model> load_scenario_file(const std::string& path);
/// Same, from scenario text (for example, embedded in a recording).
std::unique_ptr<Model> load_scenario_text(const std::string& text, const std::string& source);
/// Names of the models this build knows.
std::vector<std::string> model_names();

}  // namespace lockstep
