// Helpers for the models' hostile-input tests: break one field of a real
// state and restore it, step with one bad input, load one bad scenario; each
// returns the error (empty when it was accepted) and checks that a refusal
// left the model as it was.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "lockstep/core/hash.h"
#include "lockstep/core/model.h"

namespace lockstep::test {

/// Set the leaf at `path` of a copy of m's state to v, restore the copy's snapshot into m and return
/// the error (empty when it was accepted). A refused restore must leave m's state as it was.
template <class T>
std::string restore_error(Model& m, const std::string& path, T v) {
  auto broken = m.clone();
  bool found = false;
  for (auto& leaf : broken->mutable_leaves())
    if (leaf.path == path) {
      REQUIRE(leaf.ref.kind == leaf_kind_of<T>());
      *static_cast<T*>(leaf.ref.ptr) = v;
      found = true;
    }
  REQUIRE(found);
  const auto before = m.hashes();
  try {
    m.restore(broken->snapshot(), "bad.snap");
  } catch (const InputError& e) {
    CHECK(m.hashes() == before);
    return e.what();
  }
  return "";
}

/// A model input in its canonical encoding.
template <class In>
std::vector<uint8_t> encode_input(const In& in) {
  ByteSink sink;
  write_canonical(sink, in);
  return std::move(sink.out);
}

/// The error of stepping m with `in` (empty when it stepped); a refused step changes nothing.
template <class In>
std::string step_error(Model& m, const In& in) {
  const auto before = m.hashes();
  const uint64_t tick = m.tick();
  try {
    m.step(encode_input(in), "in.bin");
  } catch (const InputError& e) {
    CHECK(m.hashes() == before);
    CHECK(m.tick() == tick);
    return e.what();
  }
  return "";
}

/// The error of loading a scenario from text (empty when it loaded).
inline std::string scenario_error(const std::string& text) {
  try {
    load_scenario_text(text, "bad.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace lockstep::test
