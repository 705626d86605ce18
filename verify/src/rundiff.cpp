#include "lockstep/verify/rundiff.h"

#include <algorithm>

#include "lockstep/core/fpenv.h"
#include "lockstep/replay/replay.h"

namespace lockstep::verify {

namespace {

struct Chain {
  std::vector<uint64_t> whole;
  std::vector<std::array<uint64_t, kMaxSubsystems>> sub;
};

Chain chain_of(const lsr::Recording& r) {
  Chain c;
  c.whole.reserve(r.ticks());
  c.sub.reserve(r.ticks());
  r.scan(r.first_tick(), UINT64_MAX, [&](const lsr::TickRecord& t) {
    c.whole.push_back(t.whole);
    c.sub.push_back(t.sub);
  }, nullptr);
  return c;
}

bool ignored(const std::vector<std::string>& globs, const std::string& path) {
  for (const auto& g : globs)
    if (path_matches(g, path)) return true;
  return false;
}

/// The input of step `tick` of a recording, as JSON ("" when out of range).
std::string input_at(const lsr::Recording& r, const Model& m, uint64_t tick) {
  std::string out;
  if (tick < r.first_tick()) return out;
  r.scan(tick, tick + 1, [&](const lsr::TickRecord& t) { out = m.input_json(t.input); }, nullptr);
  return out;
}

/// Step a model once with a recording's input of step `tick`.
void step_with(Model& m, const lsr::Recording& r, uint64_t tick) {
  bool stepped = false;
  r.scan(tick, tick + 1, [&](const lsr::TickRecord& t) {
    m.step(t.input, r.source() + " tick " + std::to_string(t.tick));
    stepped = true;
  }, nullptr);
  if (!stepped) throw InputError(r.source(), "tick " + std::to_string(tick), "the recording has no such tick");
}

/// The first keyframe both recordings hold after tick `t`, restored and compared.
RunDiff from_keyframes(const lsr::Recording& a, const lsr::Recording& b, RunDiff d, const DiffOptions& opt,
                       const Chain& ca, const Chain& cb, uint64_t k) {
  const uint64_t t = d.first_tick + k;
  const auto& h = a.header();
  const auto sub_bytes = std::min(h.sub_hash_bytes, b.header().sub_hash_bytes);
  for (std::size_t s = 0; s < h.subsystems.size(); ++s)
    if (lsr::stored_sub(ca.sub[k][s], sub_bytes) != lsr::stored_sub(cb.sub[k][s], sub_bytes)) d.subsystems.push_back(h.subsystems[s]);
  // Keyframe ticks both hold, after the divergent step (a keyframe of tick w is the state after step w - 1).
  std::vector<uint64_t> kb_ticks;
  for (const auto& f : b.frames())
    if (f.kind == lsr::kFrameKeyframe) kb_ticks.push_back(f.first_tick);
  bool examined = false;
  for (const auto& f : a.frames()) {
    if (f.kind != lsr::kFrameKeyframe || f.first_tick <= t) continue;
    const uint64_t w = f.first_tick;
    if (!std::binary_search(kb_ticks.begin(), kb_ticks.end(), w)) continue;
    auto ma = replay::model_for(a);
    auto mb = replay::model_for(b);
    replay::restore_keyframe(*ma, a, *a.keyframe_at_or_before(w));
    replay::restore_keyframe(*mb, b, *b.keyframe_at_or_before(w));
    std::vector<FieldDiff> kept;
    std::size_t hidden = 0;
    for (auto& fd : ma->diff(*mb)) {
      if (ignored(opt.ignore, fd.path)) ++hidden;
      else kept.push_back(std::move(fd));
    }
    examined = true;
    if (kept.empty()) continue;
    if (!opt.all) kept.resize(1);
    d.fields = std::move(kept);
    d.ignored_fields = hidden;
    d.keyframe_tick = w;
    break;
  }
  // Every later keyframe differs only in ignored fields: the runs agree on what matters.
  if (examined && d.fields.empty()) return d;
  d.tick = t;
  d.input_a = input_at(a, *replay::model_for(a), t);
  d.input_b = input_at(b, *replay::model_for(b), t);
  return d;
}

}  // namespace

RunDiff diff_recordings(const lsr::Recording& a, const lsr::Recording& b, const DiffOptions& opt) {
  const auto& ha = a.header();
  const auto& hb = b.header();
  if (ha.model != hb.model)
    throw InputError(b.source(), "the header", "a " + hb.model + " recording cannot be compared with a " + ha.model + " one (" + a.source() + ")");
  RunDiff d;
  if (ha.scenario_json != hb.scenario_json) d.notes.push_back("the recordings embed different scenarios");
  if (ha.model_version != hb.model_version)
    d.notes.push_back("model versions differ: " + ha.model + " v" + std::to_string(ha.model_version) + " and v" + std::to_string(hb.model_version));
  if (ha.subsystems != hb.subsystems) d.notes.push_back("the models' subsystems differ");
  const auto& ba = ha.build;
  const auto& bb = hb.build;
  if (ba.compiler != bb.compiler) d.notes.push_back("compilers differ: " + ba.compiler + " and " + bb.compiler);
  if (ba.arch != bb.arch) d.notes.push_back("architectures differ: " + ba.arch + " and " + bb.arch);
  if (ba.flags != bb.flags) d.notes.push_back("flags differ: '" + ba.flags + "' and '" + bb.flags + "'");
  if (ba.revision != bb.revision) d.notes.push_back("source revisions differ: " + ba.revision + " and " + bb.revision);
  if (ba.fp_env != bb.fp_env && !ba.fp_env.empty() && !bb.fp_env.empty()) {
    // Steps run in the IEEE default whatever the process's mode (fpenv.h): a difference here
    // matters only to what the host computed outside them (its inputs).
    const std::string da = fp_env_difference(ba.fp_env), db = fp_env_difference(bb.fp_env);
    std::string note = !db.empty() && da.empty()   ? "build b " + db + " (" + bb.fp_env + "); build a: " + ba.fp_env
                       : !da.empty() && db.empty() ? "build a " + da + " (" + ba.fp_env + "); build b: " + bb.fp_env
                                                   : "floating-point modes differ: " + ba.fp_env + " and " + bb.fp_env;
    d.notes.push_back(note + " (every model step runs in the IEEE default)");
  }
  if (ha.first_tick != hb.first_tick)
    throw InputError(b.source(), "the header", "the recordings start at different ticks (" + std::to_string(ha.first_tick) + " and " + std::to_string(hb.first_tick) + ")");

  d.first_tick = ha.first_tick;
  d.ticks_a = a.ticks();
  d.ticks_b = b.ticks();
  d.common_ticks = std::min(d.ticks_a, d.ticks_b);
  // 1. The hash chains: the first tick whose whole-state hashes differ.
  const Chain ca = chain_of(a), cb = chain_of(b);
  std::optional<uint64_t> k0;
  for (uint64_t k = 0; k < d.common_ticks; ++k)
    if (ca.whole[k] != cb.whole[k]) {
      k0 = k;
      break;
    }
  if (!k0) return d;
  d.hash_tick = d.first_tick + *k0;

  // 2. Rebuild both states at that tick (nearest keyframe, then each
  //    recording's own inputs) and walk the fields. When every divergent field
  //    is ignored, step on, field by field, to the first one that is not.
  auto ma = replay::state_at(a, *d.hash_tick);
  auto mb = replay::state_at(b, *d.hash_tick);
  if (ma->info().subsystems != mb->info().subsystems) throw InputError(b.source(), "", "the two models' states differ in shape");
  for (uint64_t k = *k0; k < d.common_ticks; ++k) {
    const uint64_t t = d.first_tick + k;
    step_with(*ma, a, t);
    step_with(*mb, b, t);
    if (ca.whole[k] == cb.whole[k]) continue;
    if (k == *k0) {
      // Can this build rebuild what each recording saw? If not, the divergence
      // is in the builds, and only the recorded keyframes show the fields.
      if (ma->hashes().whole != ca.whole[k]) d.not_reproduced.push_back("a");
      if (mb->hashes().whole != cb.whole[k]) d.not_reproduced.push_back("b");
      if (!d.not_reproduced.empty()) return from_keyframes(a, b, d, opt, ca, cb, k);
    }
    auto fields = ma->diff(*mb);
    std::vector<FieldDiff> kept;
    std::size_t hidden = 0;
    for (auto& f : fields) {
      if (ignored(opt.ignore, f.path)) ++hidden;
      else kept.push_back(std::move(f));
    }
    if (kept.empty()) continue;
    d.tick = t;
    d.ignored_fields = hidden;
    if (!opt.all) kept.resize(1);
    d.fields = std::move(kept);
    const auto sub_bytes = std::min(ha.sub_hash_bytes, hb.sub_hash_bytes);
    for (std::size_t s = 0; s < ha.subsystems.size(); ++s)
      if (lsr::stored_sub(ca.sub[k][s], sub_bytes) != lsr::stored_sub(cb.sub[k][s], sub_bytes)) d.subsystems.push_back(ha.subsystems[s]);
    d.input_a = input_at(a, *ma, t);
    d.input_b = input_at(b, *mb, t);
    if (t > d.first_tick) {
      d.prev_input_a = input_at(a, *ma, t - 1);
      d.prev_input_b = input_at(b, *mb, t - 1);
    }
    return d;
  }
  return d;  // the hashes differ only in ignored fields
}

}  // namespace lockstep::verify
