// The model registry: the models a program knows, by the name a scenario's "model" key gives.
// It starts empty; a program registers its models (register_model_type), and the bundled ones
// through lockstep/models/bundled.h. The contract knows no model.
#include <functional>
#include <map>

#include "lockstep/core/model.h"

namespace lockstep {

namespace {

using Factory = ModelFactory;

// An ordered map: listing order is stable (no iteration over unordered containers).
std::map<std::string, Factory>& registry() {
  static std::map<std::string, Factory> r;
  return r;
}

}  // namespace

void register_model(const std::string& name, ModelFactory factory) { registry()[name] = std::move(factory); }

void unregister_model(const std::string& name) { registry().erase(name); }

ModelFactory model_factory(const std::string& name) {
  const auto& reg = registry();
  const auto it = reg.find(name);
  return it == reg.end() ? ModelFactory{} : it->second;
}

std::unique_ptr<Model> make_model(const Json& scenario, const std::string& source) {
  if (!scenario.is_object()) throw InputError(source, "$", "expected a scenario object, got " + json_kind(scenario));
  auto it = scenario.find("model");
  if (it == scenario.end() || !it->is_string()) {
    std::string names;
    for (const auto& n : model_names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError(source, "$.model", "expected the model's name as a string (one of: " + (names.empty() ? "none registered" : names) + ")");
  }
  const auto& reg = registry();
  auto f = reg.find(it->get<std::string>());
  if (f == reg.end()) {
    std::string names;
    for (const auto& n : model_names()) names += (names.empty() ? "" : ", ") + n;
    throw InputError(source, "$.model", "unknown model \"" + it->get<std::string>() + "\" (known: " + (names.empty() ? "none registered" : names) + ")");
  }
  return f->second(scenario, source);
}

std::unique_ptr<Model> load_scenario_file(const std::string& path) { return make_model(parse_json_file(path), path); }

std::unique_ptr<Model> load_scenario_text(const std::string& text, const std::string& source) {
  return make_model(parse_json_text(text, source), source);
}

std::vector<std::string> model_names() {
  std::vector<std::string> out;
  for (const auto& [name, f] : registry()) out.push_back(name);
  return out;
}

}  // namespace lockstep
