#include "wander/wander.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <utility>

#include "lockstep/core/angle.h"
#include "lockstep/core/validate.h"

namespace lockstep::wander {

namespace {

/// Unity's Mathf.Clamp01.
float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

/// Unity's Mathf.Lerp: a + (b - a) * Clamp01(t).
float lerp(float a, float b, float t) { return a + (b - a) * clamp01(t); }

/// The yaw that looks from `from` to `to` in the plan; the old yaw when they
/// coincide (Unity's LookAt keeps the rotation for a zero view vector).
float look_yaw(Vec3 from, Vec3 to, float old_yaw) {
  const float dx = to.x - from.x, dz = to.z - from.z;
  if (dx == 0.0f && dz == 0.0f) return old_yaw;
  return angle::heading_of_fast(dx, dz);  // y-up world: the plan is (x, z), yaw from +z toward +x
}

/// supplement StopMoving(state): x/z velocity to zero; the state when not -1.
void stop_moving(Wanderer& e, int32_t state) {
  e.velocity.x = 0.0f;
  e.velocity.z = 0.0f;
  e.smooth_stopping = false;
  if (state != -1) e.animstate = state;
}

int32_t behaviour_code(const std::string& s) { return s == "wander" ? 0 : (s == "setpath" ? 1 : -1); }

int32_t event_code(const std::string& s) {
  if (s == "impulse") return static_cast<int32_t>(EventKind::Impulse);
  if (s == "warp") return static_cast<int32_t>(EventKind::Warp);
  if (s == "set_start") return static_cast<int32_t>(EventKind::SetStart);
  if (s == "stop_smooth") return static_cast<int32_t>(EventKind::StopSmooth);
  return -1;
}

// ------------------------------------------------------------ limits (docs/wander-world.md, "Limits")

std::string num(float v) { return shortest(v); }

/// A scenario's point (JSON path `at`, written [x, y, z] or {"x": ..}) within the world's bound.
void check_place(const JsonReader& r, const std::string& at, Vec3 v) {
  if (const char* c = beyond(v, kWorldBound))
    r.fail(at, "expected |x|, |y|, |z| <= " + num(kWorldBound) + " (the world's bound), got " + c + " = " +
                   num(component(v, c)));
}

/// A scenario's coordinate (JSON path `at`) within the world's bound.
void check_coord(const JsonReader& r, const std::string& at, float v) {
  if (!within(v, kWorldBound)) r.fail(at, "expected a coordinate within +-" + num(kWorldBound) + " (the world's bound), got " + num(v));
}

/// A scenario's number within [lo, hi].
void check_range(const JsonReader& r, const std::string& at, float v, float lo, float hi, const std::string& what) {
  if (!(v >= lo && v <= hi)) r.fail(at, "expected " + what + ", got " + num(v));
}

/// An event's value, by its kind: an impulse within the speed bound, a place within the world's bound.
/// Returns the component at fault and the bound it passed, or nullptr.
const char* bad_event_value(EventKind kind, Vec3 v, float* bound) {
  if (kind == EventKind::Impulse) {
    *bound = kMaxSpeed;
    return beyond(v, kMaxSpeed);
  }
  if (kind == EventKind::Warp || kind == EventKind::SetStart) {
    *bound = kWorldBound;
    return beyond(v, kWorldBound);
  }
  return nullptr;  // stop_smooth reads no value
}

std::string event_bound_text(EventKind kind) {
  return kind == EventKind::Impulse ? "an impulse within +-" + num(kMaxSpeed) + " units/s per component (the speed bound)"
                                    : "a place within +-" + num(kWorldBound) + " (the world's bound)";
}

/// The largest body radius the scenario places (the walls' inner box is made for it).
float largest_radius(const Scenario& sc) {
  float r = 0.0f;
  for (const auto& e : sc.entities) r = e.radius > r ? e.radius : r;
  for (const auto& c : sc.crowds) r = c.entity.radius > r ? c.entity.radius : r;
  return r;
}

Wanderer make_entity(const EntitySpec& s) {
  Wanderer e;
  e.position = s.position;
  e.startpos = s.position;  // entity.startpos: where it was placed
  e.yaw = s.yaw;
  e.moverotater_yaw = s.yaw;
  e.detect_yaw = s.yaw;
  e.behaviour = static_cast<Behaviour>(behaviour_code(s.behaviour));
  e.path = s.path;
  e.speed = s.speed;
  e.radius = s.radius;
  e.frequency = s.frequency;
  e.radiuslimit = s.radiuslimit;
  e.wanderradius = s.wanderradius;
  e.teleportradius = s.teleportradius;
  e.height = s.height;
  e.initialheight = s.initialheight;
  e.walkstate = s.walkstate;
  e.basestate = s.basestate;
  e.idlestate = s.idlestate;
  e.animstate = s.basestate;
  e.has_detect = s.has_detect;
  e.returntoheight = s.returntoheight;
  e.incamera = s.incamera;
  e.default_behaviour = s.default_behaviour;
  e.rigid_kinematic = s.kinematic;
  e.rigid_gravity = s.gravity;
  // seed 004, SetUp (only if it's the default behavior): actioncooldown = 120 frames.
  e.actioncooldown = s.default_behaviour ? kSetUpCooldown : s.actioncooldown;
  return e;
}

}  // namespace

// ------------------------------------------------------------ scenario

Scenario WanderModel::load_scenario(const Json& j, const JsonReader& r) {
  Scenario sc;
  r.read(j, sc, "$");
  if (sc.model != "wander") r.fail("$.model", "expected \"wander\", got \"" + sc.model + "\"");
  if (sc.ticks > kMaxTicks)
    r.fail("$.ticks", "expected at most " + std::to_string(kMaxTicks) + " frames (2^32, the longest run), got " +
                          std::to_string(sc.ticks));
  if (!(sc.physics.gravity >= 0.0f)) r.fail("$.physics.gravity", "expected a number >= 0 (downward)");
  check_range(r, "$.physics.gravity", sc.physics.gravity, 0.0f, kMaxGravity, "at most " + num(kMaxGravity) + " units/s^2");
  if (!(sc.physics.step_up >= 0.0f)) r.fail("$.physics.step_up", "expected a number >= 0");
  check_range(r, "$.physics.step_up", sc.physics.step_up, 0.0f, kWorldBound, "at most " + num(kWorldBound) + " (the world's bound)");
  for (std::size_t i = 0; i < sc.grounds.size(); ++i) {
    const auto& g = sc.grounds[i];
    const std::string at = "$.grounds[" + std::to_string(i) + "]";
    if (!(g.x0 <= g.x1) || !(g.z0 <= g.z1)) r.fail(at, "expected x0 <= x1 and z0 <= z1");
    const std::pair<const char*, float> coords[] = {{"x0", g.x0}, {"z0", g.z0}, {"x1", g.x1}, {"z1", g.z1}, {"height", g.height}};
    for (const auto& [name, v] : coords) check_coord(r, at + "." + name, v);
  }
  for (std::size_t i = 0; i < sc.walls.size(); ++i) {
    const auto& w = sc.walls[i];
    const std::string at = "$.walls[" + std::to_string(i) + "]";
    // bottom and top are only compared with a body's feet: any finite band will do.
    const std::pair<const char*, float> coords[] = {{"x0", w.x0}, {"z0", w.z0}, {"x1", w.x1}, {"z1", w.z1}};
    for (const auto& [name, v] : coords) check_coord(r, at + "." + name, v);
    const float dx = w.x1 - w.x0, dz = w.z1 - w.z0;
    if (!(dx * dx + dz * dz > 0.0f)) r.fail(at, "a wall needs two distinct ends");
    if (!(w.bottom < w.top)) r.fail(at, "expected bottom < top");
  }
  for (std::size_t i = 0; i < sc.paths.size(); ++i) {
    if (sc.paths[i].empty()) r.fail("$.paths[" + std::to_string(i) + "]", "a path needs at least one node");
    for (std::size_t k = 0; k < sc.paths[i].size(); ++k)
      check_place(r, "$.paths[" + std::to_string(i) + "][" + std::to_string(k) + "]", sc.paths[i][k]);
  }

  auto check_spec = [&](const EntitySpec& e, const std::string& at) {
    if (behaviour_code(e.behaviour) < 0)
      r.fail(at + ".behaviour", "expected \"wander\" or \"setpath\", got \"" + e.behaviour + "\"");
    if (e.behaviour == "setpath" && (e.path < 0 || static_cast<std::size_t>(e.path) >= sc.paths.size()))
      r.fail(at + ".path", "a setpath entity needs a path index from 0 to " +
                               std::to_string(static_cast<long long>(sc.paths.size()) - 1));
    if (e.path < -1 || (e.path >= 0 && static_cast<std::size_t>(e.path) >= sc.paths.size()))
      r.fail(at + ".path", "no path " + std::to_string(e.path) + " (the scenario has " +
                               std::to_string(sc.paths.size()) + ")");
    if (!(e.radius > 0.0f)) r.fail(at + ".radius", "expected a radius > 0");
    if (!(e.speed >= 0.0f)) r.fail(at + ".speed", "expected a speed >= 0");
    if (!(e.wanderradius >= 0.0f)) r.fail(at + ".wanderradius", "expected a radius >= 0");
    if (!(e.teleportradius >= 0.0f)) r.fail(at + ".teleportradius", "expected a radius >= 0");
    check_place(r, at + ".position", e.position);
    check_range(r, at + ".radius", e.radius, 0.0f, kWorldBound, "a radius at most " + num(kWorldBound));
    check_range(r, at + ".speed", e.speed, 0.0f, kMaxSpeed, "a speed at most " + num(kMaxSpeed) + " units/s");
    // W19: a wait of at least one frame (a third of it stays above 0, so a round of refused tries
    // always ends in a wait) and at most 2^24 (a float counts frames exactly up to there).
    check_range(r, at + ".frequency", e.frequency, 1.0f, kMaxFrames, "a frequency from 1 to 16777216 frames");
    check_range(r, at + ".wanderradius", e.wanderradius, 0.0f, kWorldBound, "a radius at most " + num(kWorldBound));
    check_range(r, at + ".actioncooldown", e.actioncooldown, -kMaxFrames, kMaxFrames,
                "a cooldown within +-16777216 frames");
    check_range(r, at + ".height", e.height, -kWorldBound, kWorldBound, "a height within +-" + num(kWorldBound));
    check_range(r, at + ".initialheight", e.initialheight, -kWorldBound, kWorldBound,
                "a height within +-" + num(kWorldBound));
  };
  for (std::size_t i = 0; i < sc.entities.size(); ++i) check_spec(sc.entities[i], "$.entities[" + std::to_string(i) + "]");
  uint64_t total = sc.entities.size();
  for (std::size_t i = 0; i < sc.crowds.size(); ++i) {
    const auto& c = sc.crowds[i];
    const std::string at = "$.crowds[" + std::to_string(i) + "]";
    if (!(c.x0 <= c.x1) || !(c.z0 <= c.z1)) r.fail(at, "expected x0 <= x1 and z0 <= z1");
    const std::pair<const char*, float> coords[] = {{"x0", c.x0}, {"z0", c.z0}, {"x1", c.x1}, {"z1", c.z1}, {"y", c.y}};
    for (const auto& [name, v] : coords) check_coord(r, at + "." + name, v);
    check_spec(c.entity, at + ".entity");
    total += c.count;
  }
  if (total > 1'000'000) r.fail("$", "more than 1,000,000 entities (" + std::to_string(total) + ")");
  for (std::size_t i = 0; i < sc.script.size(); ++i) {
    const auto& ev = sc.script[i];
    const std::string at = "$.script[" + std::to_string(i) + "]";
    if (event_code(ev.kind) < 0)
      r.fail(at + ".kind", "expected impulse, warp, set_start or stop_smooth, got \"" + ev.kind + "\"");
    if (ev.entity >= total)
      r.fail(at + ".entity", "no entity " + std::to_string(ev.entity) + " (the scenario has " + std::to_string(total) + ")");
    if (ev.tick >= kMaxTicks)
      r.fail(at + ".tick", "expected a tick below " + std::to_string(kMaxTicks) + " (the longest run), got " +
                               std::to_string(ev.tick));
    const auto kind = static_cast<EventKind>(event_code(ev.kind));
    float bound = 0;
    if (const char* c = bad_event_value(kind, ev.value, &bound))
      r.fail(at + ".value", "expected " + event_bound_text(kind) + ", got " + c + " = " + num(component(ev.value, c)));
  }
  return sc;
}

WanderModel::WanderModel(Scenario scenario)
    : scenario_(std::move(scenario)),
      world_(scenario_.physics, scenario_.grounds, scenario_.walls, largest_radius(scenario_)) {
  state_.rng.wander_key = stream_key(scenario_.seed, "wander");
  for (const auto& s : scenario_.entities) state_.entities.push_back(make_entity(s));
  for (const auto& c : scenario_.crowds) {
    // A grid of cols x rows cells, filled row by row; each entity at its cell's centre.
    uint32_t cols = 1;
    while (static_cast<uint64_t>(cols) * cols < c.count) ++cols;
    const uint32_t rows = c.count == 0 ? 0 : (c.count + cols - 1) / cols;
    for (uint32_t k = 0; k < c.count; ++k) {
      EntitySpec s = c.entity;
      const float fx = (static_cast<float>(k % cols) + 0.5f) / static_cast<float>(cols);
      const float fz = (static_cast<float>(k / cols) + 0.5f) / static_cast<float>(rows);
      s.position = Vec3{c.x0 + (c.x1 - c.x0) * fx, c.y, c.z0 + (c.z1 - c.z0) * fz};
      state_.entities.push_back(make_entity(s));
    }
  }
  script_by_tick_ = scenario_.script;
  std::stable_sort(script_by_tick_.begin(), script_by_tick_.end(),
                   [](const ScriptEvent& a, const ScriptEvent& b) { return a.tick < b.tick; });
}

void WanderModel::set_state(const State& s) {
  auto bad = [](const std::string& at, const std::string& what) { throw InputError("state", at, what); };
  // The frame counter: a run is at most kMaxTicks frames (W20).
  if (s.tick > kMaxTicks)
    bad("tick", "expected at most " + std::to_string(kMaxTicks) + " frames (2^32, the longest run), got " + std::to_string(s.tick));
  // rng.wander_key: any key is a stream; nothing indexes or counts with it.
  // The model never adds or removes an entity.
  const std::size_t want = state_.entities.size();
  if (s.entities.size() != want)
    bad("entities", std::to_string(s.entities.size()) + " entities, this scenario has " + std::to_string(want));
  auto place = [&](const std::string& at, Vec3 v, float bound, const std::string& what) {
    if (const char* c = beyond(v, bound))
      bad(at + "." + c, "expected " + what + " within +-" + num(bound) + ", got " + num(component(v, c)));
  };
  auto range = [&](const std::string& at, float v, float lo, float hi, const std::string& what) {
    if (!(v >= lo && v <= hi)) bad(at, "expected " + what + ", got " + num(v));
  };
  for (std::size_t i = 0; i < s.entities.size(); ++i) {
    const auto& e = s.entities[i];
    const std::string at = "entities[" + std::to_string(i) + "]";
    if (e.path < -1 || (e.path >= 0 && static_cast<std::size_t>(e.path) >= scenario_.paths.size()))
      bad(at + ".path", "no path " + std::to_string(e.path) + " in this scenario (it has " +
                            std::to_string(scenario_.paths.size()) + ")");
    const auto b = static_cast<int32_t>(e.behaviour);
    if (b != 0 && b != 1) bad(at + ".behaviour", "unknown behaviour " + std::to_string(b));
    // Places: the physics holds bodies inside the world (W18); homes come from the scenario and set_start.
    // A force target is a place plus a third of a wander radius plus the 0.4 overshoot: within twice the bound.
    place(at + ".position", e.position, kWorldBound, "a coordinate (the world's bound)");
    place(at + ".startpos", e.startpos, kWorldBound, "a coordinate (the world's bound)");
    place(at + ".forcetarget", e.forcetarget, 2.0f * kWorldBound, "a coordinate (twice the world's bound)");
    place(at + ".velocity", e.velocity, kMaxSpeed, "a velocity in units/s (the speed bound)");
    // yaw, moverotater_yaw, detect_yaw: any finite angle (angle.h reduces every finite float).
    range(at + ".speed", e.speed, 0.0f, kMaxSpeed, "a speed from 0 to " + num(kMaxSpeed) + " units/s");
    if (!(e.radius > 0.0f && e.radius <= kWorldBound))
      bad(at + ".radius", "expected a radius > 0 and at most " + num(kWorldBound) + ", got " + num(e.radius));
    range(at + ".height", e.height, -kWorldBound, kWorldBound, "a height within +-" + num(kWorldBound));
    range(at + ".initialheight", e.initialheight, -kWorldBound, kWorldBound, "a height within +-" + num(kWorldBound));
    // MoveTowards' multipliers are 1 and 0.3; Move multiplies the speed by it.
    range(at + ".forcemultiplier", e.forcemultiplier, 0.0f, 1.0f, "a multiplier from 0 to 1");
    // Frame counters in float count exactly within +-2^24 (W19); the model keeps them there.
    range(at + ".forcetimer", e.forcetimer, -kMaxFrames, kForceTimerFrames, "a failsafe from -16777216 to 500 frames");
    range(at + ".actioncooldown", e.actioncooldown, -kMaxFrames, kMaxFrames, "a cooldown within +-16777216 frames");
    range(at + ".walkcooldown", e.walkcooldown, 0.0f, kMaxFrames, "a walk time from 0 to 16777216 frames");
    range(at + ".frequency", e.frequency, 1.0f, kMaxFrames, "a frequency from 1 to 16777216 frames");
    // radiuslimit and teleportradius are only compared with distances: any finite value will do.
    range(at + ".wanderradius", e.wanderradius, 0.0f, kWorldBound, "a radius from 0 to " + num(kWorldBound));
    // seed 004: trycount reaching 50 ends a round; maxtries 20 teleports (and resets) on the next frame.
    if (e.trycount < 0 || e.trycount >= kTriesPerRound)
      bad(at + ".trycount", "expected 0 to 49 (50 ends a round), got " + std::to_string(e.trycount));
    if (e.maxtries < 0 || e.maxtries > kTeleportTries)
      bad(at + ".maxtries", "expected 0 to 20 (20 teleports home), got " + std::to_string(e.maxtries));
    if (e.path >= 0) {
      const auto n = static_cast<int64_t>(scenario_.paths[static_cast<std::size_t>(e.path)].size());
      if (e.currentmode < 0 || e.currentmode >= n)
        bad(at + ".currentmode", "expected a node of path " + std::to_string(e.path) + ", 0 to " + std::to_string(n - 1) +
                                     ", got " + std::to_string(e.currentmode));
    }
    // Animation states are copied, never indexed; rng_draws and smoke_played are u32 counters
    // (a wrap is defined and changes no step).
  }
  state_ = s;
}

Input WanderModel::scripted_input() const {
  Input in;
  auto it = std::lower_bound(script_by_tick_.begin(), script_by_tick_.end(), state_.tick,
                             [](const ScriptEvent& e, uint64_t t) { return e.tick < t; });
  for (; it != script_by_tick_.end() && it->tick == state_.tick; ++it)
    in.events.push_back(Event{it->entity, static_cast<EventKind>(event_code(it->kind)), it->value});
  return in;
}

// ------------------------------------------------------------ the seed's operations

float WanderModel::draw_range(std::size_t i, float lo, float hi) {
  Wanderer& e = state_.entities[i];
  const uint64_t key = mix64(state_.rng.wander_key + static_cast<uint64_t>(i));
  return range_float(splitmix_at(key, e.rng_draws++), lo, hi);
}

void WanderModel::move_towards(Wanderer& e, Vec3 pos, float multiplier, int32_t state, int32_t stopstate,
                               bool ignore_y) {
  // supplement MoveTowards: only sets fields; the movement happens in the fixed update.
  e.forcemultiplier = multiplier;
  e.forcetarget = pos + normalized(pos - e.position) * kOvershoot;  // a slight overshoot
  e.forcestop = stopstate;
  e.forceanim = state;
  e.ignorey = ignore_y;
  e.forcemove = true;
  e.forcetimer = kForceTimerFrames;  // the failsafe of an ordinary NPC
}

void WanderModel::stop_force_move(Wanderer& e, int32_t targetstate, bool smooth) {
  // supplement StopForceMove: clears forcemove; not smooth: StopMoving(targetstate).
  e.forcemove = false;
  if (!smooth) {
    stop_moving(e, targetstate);
  } else {
    e.smooth_stopping = true;
    e.smoothstop_state = targetstate;
  }
}

[[gnu::always_inline]] inline float WanderModel::look_yaw_of(TrigMemo* m, Vec3 from, Vec3 to, float old_yaw) {
  const float dx = to.x - from.x, dz = to.z - from.z;
  if (!m || (dx == 0.0f && dz == 0.0f)) return look_yaw(from, to, old_yaw);
  const uint32_t bx = std::bit_cast<uint32_t>(dx), bz = std::bit_cast<uint32_t>(dz);
  if (m->dx_bits != bx || m->dz_bits != bz) {
    m->heading = angle::heading_of_fast(dx, dz);  // look_yaw's, for a plan vector that is not zero
    m->dx_bits = bx;
    m->dz_bits = bz;
  }
  return m->heading;
}

void WanderModel::dir_of(TrigMemo* m, float yaw, float* dx, float* dz) {
  if (!m) {
    angle::dir_of(yaw, dx, dz);
    return;
  }
  const uint32_t b = std::bit_cast<uint32_t>(yaw);
  if (m->yaw_bits != b || yaw != yaw) {
    angle::dir_of(yaw, &m->dir_x, &m->dir_z);
    m->yaw_bits = b;
  }
  *dx = m->dir_x;
  *dz = m->dir_z;
}

bool WanderModel::has_ground_ahead(Wanderer& e, Vec3 target) const { return has_ground_ahead(e, target, nullptr); }

[[gnu::always_inline]] inline bool WanderModel::has_ground_ahead(Wanderer& e, Vec3 target, TrigMemo* memo) const {
  // supplement HasGroundAhead(target): the detector first turns to face the target,
  // then a ray from position + unit(forward) x 2 + up x 0.5 goes down up to 5.0.
  e.detect_yaw = look_yaw_of(memo, e.position, target, e.detect_yaw);
  const float oy = e.position.y + kGroundAheadUp;
  float h = 0;
  // The ray's origin is within kGroundAheadDist of the position on each axis (the direction's
  // components are within [-1, 1]). Where every ground's rectangle holds or misses that whole
  // square, the direction cannot change the answer: no sincos (the direction is no state).
  // In the world's ground-ahead box that holds, and which grounds hold the point is known too.
  if (world_.in_ahead_box(e.position.x, e.position.z)) return world_.ray_down_ahead(oy, kGroundAheadRay, &h);
  if (world_.plan_alike_within(e.position.x, e.position.z, kGroundAheadDist))
    return world_.ray_down(e.position.x, oy, e.position.z, kGroundAheadRay, &h);
  float fx = 0, fz = 0;
  dir_of(memo, e.detect_yaw, &fx, &fz);
  const float ox = e.position.x + fx * kGroundAheadDist;
  const float oz = e.position.z + fz * kGroundAheadDist;
  return world_.ray_down(ox, oy, oz, kGroundAheadRay, &h);
}

namespace {
/// Move's velocity and animation, after its turn to face the target.
[[gnu::always_inline]] inline void move_velocity(Wanderer& e, Vec3 target, float multiplier, int32_t anim) {
  const Vec3 dir = normalized(Vec3{target.x - e.position.x, 0.0f, target.z - e.position.z});
  const float vy = (e.ignorey || e.rigid_gravity) ? e.velocity.y : 0.0f;
  e.velocity = Vec3{dir.x * e.speed * multiplier, vy, dir.z * e.speed * multiplier};
  e.animstate = anim;
}
}  // namespace

void WanderModel::move(Wanderer& e, Vec3 target, float multiplier, int32_t anim) {
  // supplement Move: face the target; velocity = unit(horizontal direction) x speed x multiplier,
  // keeping the old vertical velocity when ignorey is set or gravity is on.
  e.yaw = look_yaw(e.position, target, e.yaw);
  move_velocity(e, target, multiplier, anim);
}

void WanderModel::force_move_update(Wanderer& e) { force_move_update(e, nullptr, counters_); }

[[gnu::always_inline]] inline void WanderModel::force_move_update(Wanderer& e, TrigMemo* memo, Counters& counters) {
  // supplement StopForceMove(smooth): x/z velocity halves each frame; the state is set once slow.
  if (e.smooth_stopping) {
    e.velocity.x *= 0.5f;
    e.velocity.z *= 0.5f;
    if (length_xz(e.velocity) <= kSmoothStopSpeed) {
      e.smooth_stopping = false;
      if (e.smoothstop_state != -1) e.animstate = e.smoothstop_state;
    }
  }
  if (!e.forcemove) return;
  // supplement, each fixed update while forcemove is set.
  const Vec3 d = e.forcetarget - e.position;
  const float d2 = e.ignorey ? sqr_length_xz(d) : sqr_length(d);
  if (d2 <= kArriveSqr) {
    // Complete: forcemove, forcejump and ignorey are cleared, then StopMoving(forcestop).
    e.forcemove = false;
    e.forcejump = false;
    e.ignorey = false;
    stop_moving(e, e.forcestop);
    ++counters.arrived;
    return;
  }
  // Move, its turn through the entity's memo (the detector faced the same way this tick).
  e.yaw = look_yaw_of(memo, e.position, e.forcetarget, e.yaw);
  move_velocity(e, e.forcetarget, e.forcemultiplier * clamp01(d2), e.forceanim);
  // supplement, the failsafe: forcetimer decreases by framestep; when it runs out,
  // the entity is placed at forcetarget (docs/spec-notes.md: counted only during a force move).
  e.forcetimer -= kFrameStep;
  if (e.forcetimer <= 0.0f) {
    e.position = e.forcetarget;
    ++counters.failsafe;
  }
}

// ------------------------------------------------------------ seed 004, DoBehavior

void WanderModel::do_wander(std::size_t i) {
  do_wander(i, i < trig_memo_.size() ? &trig_memo_[i] : nullptr, counters_);
}

[[gnu::always_inline]] inline void WanderModel::do_wander(std::size_t i, TrigMemo* memo, Counters& counters) {
  Wanderer& e = state_.entities[i];

  // "The entity.rigid is unlocked with LockRigid(false) if it was in kinematic or it didn't had gravity."
  if (e.rigid_kinematic || !e.rigid_gravity) {
    e.rigid_kinematic = false;
    e.rigid_gravity = true;
  }
  // "If returntoheight is true, entity.height is set to a lerp ... with a factor of 0.1"
  if (e.returntoheight) e.height = lerp(e.height, e.initialheight, kReturnHeightLerp);

  // The early exit: in a forcemove and hitwall, or not onground, or detect present and no ground ahead.
  if (e.forcemove) {
    bool stop = false;
    if (e.hitwall) {
      stop = true;
      ++counters.early_exit_hitwall;
    } else if (!e.onground) {
      stop = true;
      ++counters.early_exit_airborne;
    } else if (e.has_detect && !has_ground_ahead(e, e.forcetarget, memo)) {
      stop = true;
      ++counters.early_exit_no_ground;
    }
    if (stop) {
      stop_force_move(e, e.basestate);
      return;
    }
  }

  if (e.actioncooldown <= 0.0f) {
    // Branch 1, actioncooldown expired: the main wandering logic.
    // "1/3 of a random one between (-wanderradius, 0.5, -wanderradius) and (wanderradius, 0.5, wanderradius)"
    const float rx = draw_range(i, -e.wanderradius, e.wanderradius);
    const float rz = draw_range(i, -e.wanderradius, e.wanderradius);
    const Vec3 target = e.startpos + Vec3{rx, 0.5f, rz} / 3.0f;
    // "the entity.moverotater is set to look at it regardless if it's accepted or not"
    e.moverotater_yaw = look_yaw(e.position, target, e.moverotater_yaw);
    if (distance(target, e.position) < e.radiuslimit) {
      move_towards(e, target, 1.0f, e.walkstate, e.basestate, /*ignore_y=*/true);
      e.detect_yaw = look_yaw(e.position, target, e.detect_yaw);
      e.actioncooldown = draw_range(i, e.frequency / 3.0f, e.frequency);
      e.maxtries = 0;
      ++counters.wander_accepted;
    } else {
      ++e.trycount;
      ++counters.wander_refused;
      if (e.trycount >= kTriesPerRound) {
        e.actioncooldown = draw_range(i, e.frequency / 3.0f, e.frequency);
        e.trycount = 0;
        ++e.maxtries;
        ++counters.rounds_exhausted;
      }
    }
  } else if (e.maxtries == kReturnHomeTries) {
    // Branch 2: walk back to startpos ignoring y at 0.3, walkstate and basestate; maxtries = 11.
    move_towards(e, e.startpos, 0.3f, e.walkstate, e.basestate, /*ignore_y=*/true);
    e.maxtries = kReturnHomeTries + 1;
    ++counters.return_home;
  } else if (farther_than(e.startpos, e.position, e.teleportradius) || e.maxtries >= kTeleportTries) {
    // Branch 3: too far or too many failed wanders: warp home.
    if (e.incamera) ++e.smoke_played;  // DeathSmoke here
    e.position = e.startpos;
    e.velocity = Vec3{};
    if (e.incamera) ++e.smoke_played;  // and again at the new place
    e.maxtries = 0;
    e.actioncooldown = kTeleportCooldown;
    ++counters.teleport;
  } else if (e.forcemove) {
    // Branch 4: stop when walkcooldown > 60 and the x/z speed is under half the speed.
    if (e.walkcooldown > kMinWalkFrames && length_xz(e.velocity) < e.speed / 2.0f) {
      stop_force_move(e);
      ++counters.stop_slow;
    }
    e.walkcooldown += kFrameStep;
  } else {
    // No branch: wait before the next wander.
    e.walkcooldown = 0.0f;
    e.trycount = 0;
    e.actioncooldown -= kFrameStep;
    stop_force_move(e);
    ++counters.idle;
  }
}

// ------------------------------------------------------------ supplement, SetPath

void WanderModel::do_setpath(std::size_t i) { do_setpath(i, counters_); }

void WanderModel::do_setpath(std::size_t i, Counters& counters) {
  Wanderer& e = state_.entities[i];
  if (e.path < 0) return;
  const auto& nodes = scenario_.paths[static_cast<std::size_t>(e.path)];
  // Works only with no force move, no wall hit, and a non-empty vectordata list.
  if (e.forcemove || e.hitwall || nodes.empty()) return;
  if (e.actioncooldown <= 0.0f) {
    // currentmode advances when within squared distance 0.375 of the node, wrapping to 0.
    if (e.currentmode < 0 || static_cast<std::size_t>(e.currentmode) >= nodes.size()) e.currentmode = 0;
    if (sqr_length(nodes[static_cast<std::size_t>(e.currentmode)] - e.position) <= kPathNodeSqr)
      e.currentmode = static_cast<std::size_t>(e.currentmode) + 1 >= nodes.size() ? 0 : e.currentmode + 1;
    move_towards(e, nodes[static_cast<std::size_t>(e.currentmode)], 1.0f, e.walkstate, e.idlestate, false);
    e.actioncooldown = e.frequency;
    ++counters.setpath_moves;
  } else {
    e.actioncooldown -= kFrameStep;
  }
}

// ------------------------------------------------------------ the tick

void WanderModel::check_input(const Input& input) const {
  const auto& ents = state_.entities;
  for (std::size_t k = 0; k < input.events.size(); ++k) {
    const auto& ev = input.events[k];
    const std::string at = "events[" + std::to_string(k) + "]";
    if (ev.entity >= ents.size())
      throw InputError("input", at + ".entity",
                       "no entity " + std::to_string(ev.entity) + " (the world has " + std::to_string(ents.size()) + ")");
    const auto kind = static_cast<int32_t>(ev.kind);
    if (kind < 0 || kind > 3) throw InputError("input", at + ".kind", "unknown event kind " + std::to_string(kind));
    float bound = 0;
    if (const char* c = bad_event_value(ev.kind, ev.value, &bound))
      throw InputError("input", at + ".value." + c,
                       "expected " + event_bound_text(ev.kind) + ", got " + num(component(ev.value, c)));
  }
}

[[gnu::always_inline]] inline void WanderModel::behave(std::size_t i, Counters& c) {
  // 2. The behaviour: Wander's DoBehavior or SetPath.
  if (state_.entities[i].behaviour == Behaviour::SetPath)
    do_setpath(i, c);
  else
    do_wander(i, &trig_memo_[i], c);
}

[[gnu::always_inline]] inline void WanderModel::move_body(Wanderer& e, Counters& c) const {
  // 4. The physics.
  world_.step_body(e);
  if (e.hitwall) ++c.wall_hits;
}

template <class F>
void WanderModel::each_entity(F&& f) {
  const auto n = static_cast<uint32_t>(state_.entities.size());
  if (workers_ == nullptr || workers_->threads() <= 1 || n < kParallelMin) {
    f(0, n, counters_);
    return;
  }
  // Each range counts into its own Counters; the counts are added afterwards (integers: the
  // order does not matter, but it is the ranges' order anyway).
  range_counters_.assign((n + kGrain - 1) / kGrain, Counters{});
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    Counters c;
    f(begin, end, c);
    range_counters_[begin / kGrain] = c;
  });
  for (const Counters& c : range_counters_) counters_ += c;
}

void WanderModel::step(const Input& input) {
  auto& ents = state_.entities;
  if (trig_memo_.size() != ents.size()) trig_memo_.assign(ents.size(), TrigMemo{});
  {
    const auto phase = phases_.scope(kInputs);
    // Validate the whole input before applying any of it.
    check_input(input);
    if (state_.tick >= kMaxTicks)
      throw InputError("state", "tick", "the run is at its longest, " + std::to_string(kMaxTicks) + " frames (2^32)");
    // 1. Input events, in order.
    for (const auto& ev : input.events) {
      Wanderer& e = ents[ev.entity];
      switch (ev.kind) {
        case EventKind::Impulse: e.velocity = e.velocity + ev.value; break;
        case EventKind::Warp:
          e.position = ev.value;
          e.velocity = Vec3{};
          break;
        case EventKind::SetStart: e.startpos = ev.value; break;
        case EventKind::StopSmooth: stop_force_move(e, -1, true); break;
      }
    }
  }
  // 2-4. Every entity's behaviour, force move and physics read only that entity, the world and
  // the scenario, and write only that entity (its memo and its own counts too): no entity sees
  // another's step, so the phases may run entity by entity, and entities on several threads, with
  // the same bits. Under an observer the phases run one after another so each can be timed.
  if (phases_.observer() != nullptr) [[unlikely]] {
    {
      const auto phase = phases_.scope(kBehaviours);
      each_entity([&](std::size_t begin, std::size_t end, Counters& c) {
        for (std::size_t i = begin; i < end; ++i) behave(i, c);
      });
    }
    {
      const auto phase = phases_.scope(kForceMove);
      each_entity([&](std::size_t begin, std::size_t end, Counters& c) {
        for (std::size_t i = begin; i < end; ++i) force_move_update(ents[i], &trig_memo_[i], c);
      });
    }
    {
      const auto phase = phases_.scope(kPhysics);
      each_entity([&](std::size_t begin, std::size_t end, Counters& c) {
        for (std::size_t i = begin; i < end; ++i) move_body(ents[i], c);
      });
    }
  } else {
    each_entity([&](std::size_t begin, std::size_t end, Counters& c) {
      for (std::size_t i = begin; i < end; ++i) {
        behave(i, c);
        force_move_update(ents[i], &trig_memo_[i], c);
        move_body(ents[i], c);
      }
    });
  }
  // 5. The clock.
  ++state_.tick;
}

}  // namespace lockstep::wander
