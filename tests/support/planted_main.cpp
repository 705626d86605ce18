// lockstep-planted: the bundled command line whose models compute differently, for the bisect
// test (tools/tests/bisect-test). Every bundled model is wrapped, through the model contract only,
// in a model that nudges one state leaf by one ulp when a step reaches a given tick: a stand-in
// for a build whose compiler or flags change one rounding. The shipped `lockstep` has no such hook.
//
// The tick and the leaf come from the build (LOCKSTEP_PLANT_DIVERGENCE="TICK:PATH").
#include <memory>
#include <string>

#include "lockstep/cli/cli.h"
#include "lockstep/core/model.h"
#include "lockstep/models/bundled.h"

namespace {

const std::string kSpec = LOCKSTEP_PLANT_DIVERGENCE;
const uint64_t kTick = std::stoull(kSpec.substr(0, kSpec.find(':')));
const std::string kLeaf = kSpec.substr(kSpec.find(':') + 1);

/// A model that is `inner` but for one ulp of one leaf once a step reaches kTick.
class Planted final : public lockstep::Model {
 public:
  explicit Planted(std::unique_ptr<lockstep::Model> inner) : m_(std::move(inner)) {}

  const lockstep::ModelInfo& info() const override { return m_->info(); }
  const std::string& scenario_json() const override { return m_->scenario_json(); }
  uint64_t tick() const override { return m_->tick(); }
  uint64_t default_ticks() const override { return m_->default_ticks(); }
  uint64_t seed() const override { return m_->seed(); }
  std::vector<lockstep::FloorView> floors() const override { return m_->floors(); }
  std::vector<lockstep::BodyView> bodies() const override { return m_->bodies(); }
  lockstep::Drawing scene_drawing() const override { return m_->scene_drawing(); }
  lockstep::Drawing tick_drawing() const override { return m_->tick_drawing(); }
  void set_phase_observer(lockstep::PhaseObserver* o) override { m_->set_phase_observer(o); }
  std::optional<uint64_t> entity_count() const override { return m_->entity_count(); }
  void step_scripted() override {
    m_->step_scripted();
    plant();
  }
  std::vector<uint8_t> scripted_input() const override { return m_->scripted_input(); }
  void step(std::span<const uint8_t> input, const std::string& source) override {
    m_->step(input, source);
    plant();
  }
  void check_input_encoding(std::span<const uint8_t> input, const std::string& source) const override {
    m_->check_input_encoding(input, source);
  }
  std::string input_json(std::span<const uint8_t> input) const override { return m_->input_json(input); }
  lockstep::StateHashes hashes() const override { return m_->hashes(); }
  std::vector<uint8_t> snapshot() const override { return m_->snapshot(); }
  void restore(std::span<const uint8_t> bytes, const std::string& source) override { m_->restore(bytes, source); }
  std::string state_json() const override { return m_->state_json(); }
  std::vector<lockstep::FieldDiff> diff(const lockstep::Model& other, std::size_t limit) const override {
    const auto* p = dynamic_cast<const Planted*>(&other);
    return m_->diff(p ? *p->m_ : other, limit);
  }
  std::vector<lockstep::ConstLeafEntry> leaves() const override { return m_->leaves(); }
  std::vector<lockstep::LeafEntry> mutable_leaves() override { return m_->mutable_leaves(); }
  std::unique_ptr<lockstep::Model> clone() const override { return std::make_unique<Planted>(m_->clone()); }

 private:
  void plant() {
    if (m_->tick() != kTick) return;
    for (auto& leaf : m_->mutable_leaves())
      if (leaf.path == kLeaf) lockstep::nudge_leaf(leaf.ref);
  }
  std::unique_ptr<lockstep::Model> m_;
};

}  // namespace

int main(int argc, char** argv) {
  lockstep::register_bundled_models();
  for (const std::string& name : lockstep::model_names())
    lockstep::register_model(name, [inner = lockstep::model_factory(name)](const lockstep::Json& j, const std::string& source)
                                       -> std::unique_ptr<lockstep::Model> { return std::make_unique<Planted>(inner(j, source)); });
  return lockstep::cli::main(argc, argv);
}
