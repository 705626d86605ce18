#include "lockstep/replay/replay.h"

#include <algorithm>

namespace lockstep::replay {

void restore_keyframe(Model& m, const lsr::Recording& rec, const lsr::Recording::OwnedKeyframe& k) {
  const std::string where = rec.source() + " keyframe at tick " + std::to_string(k.tick);
  m.restore(k.snapshot, where);
  // A snapshot must hash to what was recorded with it: otherwise it is not the state it claims to be.
  if (m.hashes().whole != k.hashes.whole)
    throw InputError(where, "", "the restored state's hash " + hex64(m.hashes().whole) + " is not the recorded " +
                                    hex64(k.hashes.whole) + " (a model version whose state differs, or a bad keyframe)");
}

std::unique_ptr<Model> model_for(const lsr::Recording& rec) {
  auto m = load_scenario_text(rec.header().scenario_json, rec.source() + " (embedded scenario)");
  if (m->info().name != rec.header().model)
    throw InputError(rec.source(), "the header", "the recording says model \"" + rec.header().model +
                                                     "\" but its scenario makes \"" + m->info().name + "\"");
  if (m->info().subsystems != rec.header().subsystems)
    throw InputError(rec.source(), "the header", "the recording's subsystems differ from this build's " +
                                                     m->info().name + " model: it was made by another model version");
  // A recording that starts later than tick 0 starts from its first keyframe.
  if (rec.first_tick() != 0) {
    auto k = rec.keyframe_at_or_before(rec.first_tick());
    if (!k) throw InputError(rec.source(), "", "no keyframe at the recording's first tick");
    restore_keyframe(*m, rec, *k);
  }
  return m;
}

namespace {

void step_through(Model& m, const lsr::Recording& rec, uint64_t from, uint64_t until) {
  if (until <= from) return;
  rec.scan(from, until, [&](const lsr::TickRecord& t) { m.step(t.input, rec.source() + " tick " + std::to_string(t.tick)); },
           nullptr);
}

std::vector<std::string> differing_subsystems(const lsr::Header& h, const lsr::TickRecord& t, const StateHashes& now) {
  std::vector<std::string> out;
  for (uint32_t i = 0; i < now.count && i < h.subsystems.size(); ++i)
    if (lsr::stored_sub(now.sub[i], h.sub_hash_bytes) != t.sub[i]) out.push_back(h.subsystems[i]);
  return out;
}

// Bring `m`, the recording's model as built, to the state at `tick`.
std::unique_ptr<Model> advance(std::unique_ptr<Model> m, const lsr::Recording& rec, uint64_t tick) {
  uint64_t at = m->tick();
  if (tick > at) {
    if (auto k = rec.keyframe_at_or_before(tick); k && k->tick > at) {
      restore_keyframe(*m, rec, *k);
      at = k->tick;
    }
  }
  step_through(*m, rec, at, tick);
  return m;
}

}  // namespace

std::unique_ptr<Model> state_at(const lsr::Recording& rec, uint64_t tick) { return advance(model_for(rec), rec, tick); }

std::unique_ptr<Model> state_at(const lsr::Recording& rec, uint64_t tick, const Model& fresh) {
  return advance(fresh.clone(), rec, tick);
}

Result run(const lsr::Recording& rec, const Options& opt) {
  Result res;
  const auto& h = rec.header();
  const uint64_t end = rec.first_tick() + rec.ticks();
  const uint64_t to = opt.to ? std::min(*opt.to, end) : end;
  const uint64_t from = std::max(opt.from, rec.first_tick());
  auto m = state_at(rec, from);
  if (m->info().version != h.model_version)
    res.model_note = "recorded with " + h.model + " v" + std::to_string(h.model_version) + ", replayed with v" +
                     std::to_string(m->info().version);
  const uint64_t total = to > from ? to - from : 0;
  const auto on_keyframe = [&](const lsr::Keyframe& k) {
    // A keyframe holds the state at its tick: the model must be there too.
    if (k.tick != m->tick()) return;
    ++res.keyframes_checked;
    const StateHashes now = m->hashes();
    if (now.whole != k.hashes.whole && !res.first) {
      Mismatch mm{k.tick == 0 ? 0 : k.tick - 1, k.hashes.whole, now.whole, {}};
      for (uint32_t i = 0; i < now.count; ++i)
        if (now.sub[i] != k.hashes.sub[i]) mm.subsystems.push_back(h.subsystems[i]);
      res.first = mm;
      res.divergent_at_end = true;
    }
  };
  // The synctest's fresh model: built from the embedded scenario once and never stepped; each
  // tick's twin is a clone of it, as fresh as one built anew (a model's construction depends on
  // its scenario alone) without building it again every tick (the station's routing grids, the
  // scenario's JSON: 30 to 400 times the replay's own time before).
  std::unique_ptr<Model> pristine;
  rec.scan(
      from, to,
      [&](const lsr::TickRecord& t) {
        std::unique_ptr<Model> twin;
        if (opt.synctest && !res.sync) {
          if (!pristine) pristine = model_for(rec);
          twin = pristine->clone();
          twin->restore(m->snapshot(), rec.source() + " (the synctest's snapshot before tick " + std::to_string(t.tick) + ")");
        }
        m->step(t.input, rec.source() + " tick " + std::to_string(t.tick));
        const StateHashes now = m->hashes();
        ++res.checked;
        const bool same = now.whole == t.whole;
        if (!same) {
          ++res.divergent_ticks;
          if (!res.first) res.first = Mismatch{t.tick, t.whole, now.whole, differing_subsystems(h, t, now)};
          res.reconverged_at.reset();
          res.divergent_at_end = true;
        } else if (res.first) {
          if (res.divergent_at_end) res.reconverged_at = t.tick;
          res.divergent_at_end = false;
        }
        if (twin) {
          twin->step(t.input, "synctest");
          const StateHashes tw = twin->hashes();
          if (tw.whole != now.whole) {
            SyncFailure f;
            f.tick = t.tick;
            f.fields = m->diff(*twin, 16);
            for (uint32_t i = 0; i < now.count; ++i)
              if (now.sub[i] != tw.sub[i]) f.subsystems.push_back(m->info().subsystems[i]);
            res.sync = std::move(f);
          }
        }
        if (opt.progress) opt.progress(res.checked, total);
      },
      on_keyframe);
  // The keyframe of tick `to` (the state after the last tick checked: a run of 600 ticks with a
  // keyframe every 60 ends with the keyframe of tick 600) lies past the scanned ticks: check it
  // too, so every keyframe in the range is checked and a whole replay checks as many keyframes as
  // the recording holds (what inspect counts).
  if (m->tick() == to)
    if (const auto k = rec.keyframe_at_or_before(to); k && k->tick == to)
      on_keyframe(lsr::Keyframe{k->tick, k->snapshot, k->hashes});
  return res;
}

InputCheck check_inputs(const lsr::Recording& rec) {
  InputCheck c;
  const auto names = model_names();
  if (std::find(names.begin(), names.end(), rec.header().model) == names.end()) {
    c.note = "this build has no model \"" + rec.header().model + "\"";
    return c;
  }
  c.checked = true;
  std::unique_ptr<Model> m;
  try {
    m = model_for(rec);  // replay could not make it either
  } catch (const InputError& e) {
    c.error = e.what();
    return c;
  }
  const uint8_t* last = nullptr;
  rec.scan(rec.first_tick(), UINT64_MAX, [&](const lsr::TickRecord& t) {
    if (c.error || t.input.data() == last) return;  // a held input: already checked
    last = t.input.data();
    ++c.stored;
    try {
      m->check_input_encoding(t.input, rec.source() + " tick " + std::to_string(t.tick));
    } catch (const InputError& e) {
      c.error = e.what();
    }
  }, nullptr);
  return c;
}

}  // namespace lockstep::replay
