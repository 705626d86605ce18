// The `wander` model: an RPG NPC's Wander action behaviour (seed 004 and
// ../shared/seeds/004-supplement.md) over a small deterministic kinematic
// world (docs/wander-world.md). One tick is one frame: 1.0 framestep = 1/60 s.
//
// Order of one tick (docs/wander-world.md, "The tick"):
//   1. the tick's input events, in order;
//   2. each entity's behaviour (Wander's DoBehavior or SetPath), by index;
//   3. each entity's force-move update (supplement: "Each fixed update");
//   4. each entity's physics (gravity, walls, ground), by index;
//   5. the tick counter.
// Steps 2-4 read and write only the entity itself (and read the world and the scenario), so
// step() takes each entity through all three at once, and large crowds on several threads.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "lockstep/core/drawing.h"
#include "lockstep/core/json_load.h"
#include "lockstep/core/phases.h"
#include "lockstep/core/reflect.h"
#include "lockstep/core/rng.h"
#include "lockstep/core/vec.h"
#include "lockstep/core/workers.h"

namespace lockstep::wander {

/// seed 004 supplement: "1.0 framestep = 1/60 s"; all cooldowns count frames.
inline constexpr float kFrameStep = 1.0f;
inline constexpr float kDt = 1.0f / 60.0f;  ///< seconds per frame, for the physics

// seed 004, SetUp: the actioncooldown of a default behaviour starts at 120 frames.
inline constexpr float kSetUpCooldown = 120.0f;
// seed 004, main logic: trycount reaching 50 ends a round of refused tries.
inline constexpr int32_t kTriesPerRound = 50;
// seed 004, branches 2 and 3: maxtries exactly 10 walks home; 20 or more teleports.
inline constexpr int32_t kReturnHomeTries = 10;
inline constexpr int32_t kTeleportTries = 20;
// seed 004, teleport branch: actioncooldown = 100.
inline constexpr float kTeleportCooldown = 100.0f;
// seed 004, force-move branch: stop after walkcooldown > 60 when slower than half the speed.
inline constexpr float kMinWalkFrames = 60.0f;
// supplement, MoveTowards: overshoot 0.4, arrival at d2 <= 0.3, failsafe 500 frames.
inline constexpr float kOvershoot = 0.4f;
inline constexpr float kArriveSqr = 0.3f;
inline constexpr float kForceTimerFrames = 500.0f;
// supplement, Move: speed defaults to 5.0 units per second.
inline constexpr float kDefaultSpeed = 5.0f;
// supplement, HasGroundAhead: 2 ahead, 0.5 up, a 5.0 ray down.
inline constexpr float kGroundAheadDist = 2.0f;
inline constexpr float kGroundAheadUp = 0.5f;
inline constexpr float kGroundAheadRay = 5.0f;
// supplement, StopForceMove smooth: stop once the speed is <= 0.1.
inline constexpr float kSmoothStopSpeed = 0.1f;
// supplement, SetPath: a node counts as reached within squared distance 0.375.
inline constexpr float kPathNodeSqr = 0.375f;
// seed 004, returntoheight: lerp factor 0.1.
inline constexpr float kReturnHeightLerp = 0.1f;

// Limits (docs/wander-world.md, "Limits"; docs/spec-notes.md W18-W20): what a scenario, an input
// and a restored state may hold, so that no step can overflow a float into an infinity or a NaN.
/// |x|, |y|, |z| of every place (positions, homes, grounds, walls, path nodes, warps), units. The
/// physics holds every body inside (W18); a force target may lie up to twice as far.
inline constexpr float kWorldBound = 1.0e6f;
/// |v| of every velocity component, impulse component and entity speed, units/s (the physics clamps, W18).
inline constexpr float kMaxSpeed = 1.0e4f;
/// Gravity at most 1000 units/s^2 (about 100 g).
inline constexpr float kMaxGravity = 1000.0f;
/// 2^24: a float counts frames exactly up to here; a cooldown or timer beyond it would never run out (W19).
inline constexpr float kMaxFrames = 16777216.0f;
/// A run steps at most 2^32 frames (2.27 years at 60 Hz): the u64 tick stays far from overflow and a
/// scripted tick beyond it could never come (W20).
inline constexpr uint64_t kMaxTicks = uint64_t{1} << 32;

enum class Behaviour : int32_t { Wander = 0, SetPath = 1 };

/// One NPC entity: its body, its force move and its behaviour's data.
/// Field names follow the game's (entity.forcemove, entity.actioncooldown, ...).
struct Wanderer {
  // Body (entity.transform, entity.rigid)
  Vec3 position;      ///< units; y up
  Vec3 velocity;      ///< entity.rigid velocity, units/s
  Vec3 startpos;      ///< entity.startpos: home
  Vec3 forcetarget;   ///< supplement MoveTowards: pos + unit(pos - position) x 0.4
  float yaw = 0;      ///< facing, rad, from +z toward +x (clockwise from above)
  float speed = kDefaultSpeed;  ///< entity.speed, units/s
  float radius = 0.35f;         ///< body radius for walls, units [> 0]
  float height = 0;             ///< entity.height
  float initialheight = 0;      ///< entity.initialheight
  float forcemultiplier = 1;    ///< supplement MoveTowards
  float forcetimer = 0;         ///< supplement failsafe, frames
  float actioncooldown = 0;     ///< frames
  float walkcooldown = 0;       ///< frames
  float frequency = 180;        ///< seed 004: the maximum wait in frames; the minimum is a third
  float radiuslimit = 10;       ///< seed 004: max distance of a wander target from the current position
  float wanderradius = 15;      ///< seed 004: x/z radius round startpos (the target is a third of it)
  float teleportradius = 30;    ///< seed 004: beyond this from startpos, warp home
  float moverotater_yaw = 0;    ///< entity.moverotater: looks at each drawn target, rad
  float detect_yaw = 0;         ///< entity.detect: looks at accepted targets and HasGroundAhead's, rad
  int32_t forcestop = -1;       ///< supplement MoveTowards: state at the end of the move
  int32_t forceanim = 0;        ///< supplement MoveTowards: state during the move
  int32_t animstate = 0;        ///< the entity's animation state
  int32_t walkstate = 1;        ///< entity.walkstate
  int32_t basestate = 0;        ///< entity.basestate
  int32_t idlestate = 0;        ///< SetPath's stop state
  int32_t smoothstop_state = -1;  ///< supplement StopForceMove(smooth): state to set once slow
  int32_t trycount = 0;         ///< seed 004: refused tries this round
  int32_t maxtries = 0;         ///< seed 004: rounds of refused tries
  int32_t currentmode = 0;      ///< SetPath: index of the node
  int32_t path = -1;            ///< SetPath: index into the scenario's paths, -1 none
  Behaviour behaviour = Behaviour::Wander;
  uint32_t rng_draws = 0;       ///< draws made from this entity's RNG stream
  uint32_t smoke_played = 0;    ///< DeathSmoke effects played (teleport, in camera)
  bool onground = false;        ///< set by the physics
  bool hitwall = false;         ///< set by the physics: moved into a wall this frame
  bool forcemove = false;       ///< supplement MoveTowards
  bool forcejump = false;
  bool ignorey = false;
  bool rigid_kinematic = false;
  bool rigid_gravity = true;
  bool has_detect = true;       ///< entity.detect is present
  bool returntoheight = false;
  bool incamera = false;
  bool default_behaviour = true;  ///< seed 004 SetUp applies only to the default behaviour
  bool smooth_stopping = false;

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"position"}, s.position);
    v(FieldInfo{"velocity"}, s.velocity);
    v(FieldInfo{"startpos"}, s.startpos);
    v(FieldInfo{"forcetarget"}, s.forcetarget);
    v(FieldInfo{"yaw"}, s.yaw);
    v(FieldInfo{"speed"}, s.speed);
    v(FieldInfo{"radius"}, s.radius);
    v(FieldInfo{"height"}, s.height);
    v(FieldInfo{"initialheight"}, s.initialheight);
    v(FieldInfo{"forcemultiplier"}, s.forcemultiplier);
    v(FieldInfo{"forcetimer"}, s.forcetimer);
    v(FieldInfo{"actioncooldown"}, s.actioncooldown);
    v(FieldInfo{"walkcooldown"}, s.walkcooldown);
    v(FieldInfo{"frequency"}, s.frequency);
    v(FieldInfo{"radiuslimit"}, s.radiuslimit);
    v(FieldInfo{"wanderradius"}, s.wanderradius);
    v(FieldInfo{"teleportradius"}, s.teleportradius);
    v(FieldInfo{"moverotater_yaw"}, s.moverotater_yaw);
    v(FieldInfo{"detect_yaw"}, s.detect_yaw);
    v(FieldInfo{"forcestop"}, s.forcestop);
    v(FieldInfo{"forceanim"}, s.forceanim);
    v(FieldInfo{"animstate"}, s.animstate);
    v(FieldInfo{"walkstate"}, s.walkstate);
    v(FieldInfo{"basestate"}, s.basestate);
    v(FieldInfo{"idlestate"}, s.idlestate);
    v(FieldInfo{"smoothstop_state"}, s.smoothstop_state);
    v(FieldInfo{"trycount"}, s.trycount);
    v(FieldInfo{"maxtries"}, s.maxtries);
    v(FieldInfo{"currentmode"}, s.currentmode);
    v(FieldInfo{"path"}, s.path);
    v(FieldInfo{"behaviour"}, s.behaviour);
    v(FieldInfo{"rng_draws"}, s.rng_draws);
    v(FieldInfo{"smoke_played"}, s.smoke_played);
    v(FieldInfo{"onground"}, s.onground);
    v(FieldInfo{"hitwall"}, s.hitwall);
    v(FieldInfo{"forcemove"}, s.forcemove);
    v(FieldInfo{"forcejump"}, s.forcejump);
    v(FieldInfo{"ignorey"}, s.ignorey);
    v(FieldInfo{"rigid_kinematic"}, s.rigid_kinematic);
    v(FieldInfo{"rigid_gravity"}, s.rigid_gravity);
    v(FieldInfo{"has_detect"}, s.has_detect);
    v(FieldInfo{"returntoheight"}, s.returntoheight);
    v(FieldInfo{"incamera"}, s.incamera);
    v(FieldInfo{"default_behaviour"}, s.default_behaviour);
    v(FieldInfo{"smooth_stopping"}, s.smooth_stopping);
  }
};

/// The world's random streams (rng.h). Each entity draws from its own
/// counter-based stream: key mix64(wander_key + index), counter rng_draws.
struct Rng {
  uint64_t wander_key = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"wander_key"}, s.wander_key);
  }
};

/// The whole state. Subsystems (one hash each) are its top-level fields.
struct State {
  uint64_t tick = 0;
  Rng rng;
  std::vector<Wanderer> entities;

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"tick"}, s.tick);
    v(FieldInfo{"rng"}, s.rng);
    v(FieldInfo{"entities"}, s.entities);
  }
};

// ---------------------------------------------------------------- inputs

enum class EventKind : int32_t {
  Impulse = 0,     ///< velocity += value
  Warp = 1,        ///< position = value, velocity = 0 (a knock-back, a script's placement)
  SetStart = 2,    ///< startpos = value
  StopSmooth = 3,  ///< StopForceMove(-1, smooth = true) (supplement)
};

struct Event {
  uint32_t entity = 0;
  EventKind kind = EventKind::Impulse;
  Vec3 value;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"entity"}, s.entity);
    v(FieldInfo{"kind"}, s.kind);
    v(FieldInfo{"value"}, s.value);
  }
};

/// One tick's input: external events, applied in order before the behaviours.
struct Input {
  std::vector<Event> events;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"events"}, s.events);
  }
};

// ---------------------------------------------------------------- scenario

/// A walkable top surface: the rectangle [x0, x1] x [z0, z1] at `height`.
struct Ground {
  float x0 = 0, z0 = 0, x1 = 0, z1 = 0, height = 0;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"x0"}, s.x0);
    v(FieldInfo{"z0"}, s.z0);
    v(FieldInfo{"x1"}, s.x1);
    v(FieldInfo{"z1"}, s.z1);
    v(FieldInfo{"height"}, s.height);
  }
};

/// A vertical wall: the segment (x0, z0)-(x1, z1), solid for bodies whose
/// feet are at bottom <= y < top.
struct Wall {
  float x0 = 0, z0 = 0, x1 = 0, z1 = 0;
  float bottom = -1.0e9f, top = 1.0e9f;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"x0"}, s.x0);
    v(FieldInfo{"z0"}, s.z0);
    v(FieldInfo{"x1"}, s.x1);
    v(FieldInfo{"z1"}, s.z1);
    v(FieldInfo{"bottom"}, s.bottom);
    v(FieldInfo{"top"}, s.top);
  }
};

struct Physics {
  float gravity = 9.81f;  ///< units/s^2, downward
  float step_up = 0.3f;   ///< a body steps onto ground at most this much higher
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"gravity"}, s.gravity);
    v(FieldInfo{"step_up"}, s.step_up);
  }
};

/// One entity as a scenario places it.
struct EntitySpec {
  Vec3 position;
  float yaw = 0;
  std::string behaviour = "wander";  ///< "wander" or "setpath"
  int32_t path = -1;                 ///< setpath: index into `paths`
  float speed = kDefaultSpeed;
  float radius = 0.35f;
  float frequency = 180;
  float radiuslimit = 10;
  float wanderradius = 15;
  float teleportradius = 30;
  float actioncooldown = 0;  ///< start value when not the default behaviour
  float height = 0;
  float initialheight = 0;
  int32_t walkstate = 1, basestate = 0, idlestate = 0;
  bool has_detect = true;
  bool returntoheight = false;
  bool incamera = false;
  bool default_behaviour = true;
  bool kinematic = false;
  bool gravity = true;

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"position"}, s.position);
    v(FieldInfo{"yaw"}, s.yaw);
    v(FieldInfo{"behaviour"}, s.behaviour);
    v(FieldInfo{"path"}, s.path);
    v(FieldInfo{"speed"}, s.speed);
    v(FieldInfo{"radius"}, s.radius);
    v(FieldInfo{"frequency"}, s.frequency);
    v(FieldInfo{"radiuslimit"}, s.radiuslimit);
    v(FieldInfo{"wanderradius"}, s.wanderradius);
    v(FieldInfo{"teleportradius"}, s.teleportradius);
    v(FieldInfo{"actioncooldown"}, s.actioncooldown);
    v(FieldInfo{"height"}, s.height);
    v(FieldInfo{"initialheight"}, s.initialheight);
    v(FieldInfo{"walkstate"}, s.walkstate);
    v(FieldInfo{"basestate"}, s.basestate);
    v(FieldInfo{"idlestate"}, s.idlestate);
    v(FieldInfo{"has_detect"}, s.has_detect);
    v(FieldInfo{"returntoheight"}, s.returntoheight);
    v(FieldInfo{"incamera"}, s.incamera);
    v(FieldInfo{"default_behaviour"}, s.default_behaviour);
    v(FieldInfo{"kinematic"}, s.kinematic);
    v(FieldInfo{"gravity"}, s.gravity);
  }
};

/// `count` copies of `entity` on a grid over [x0, x1] x [z0, z1] at height y,
/// row by row from (x0, z0); `entity.position` is replaced.
struct Crowd {
  uint32_t count = 0;
  float x0 = 0, z0 = 0, x1 = 0, z1 = 0, y = 0;
  EntitySpec entity;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"count"}, s.count);
    v(FieldInfo{"x0"}, s.x0);
    v(FieldInfo{"z0"}, s.z0);
    v(FieldInfo{"x1"}, s.x1);
    v(FieldInfo{"z1"}, s.z1);
    v(FieldInfo{"y"}, s.y);
    v(FieldInfo{"entity"}, s.entity);
  }
};

/// An input event the scenario itself schedules.
struct ScriptEvent {
  uint64_t tick = 0;
  uint32_t entity = 0;
  std::string kind = "impulse";  ///< impulse | warp | set_start | stop_smooth
  Vec3 value;
  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"tick"}, s.tick);
    v(FieldInfo{"entity"}, s.entity);
    v(FieldInfo{"kind"}, s.kind);
    v(FieldInfo{"value"}, s.value);
  }
};

struct Scenario {
  std::string model = "wander";
  std::string name;
  std::string description;
  uint64_t seed = 1;
  uint64_t ticks = 3600;  ///< the default run length
  Physics physics;
  std::vector<Ground> grounds;
  std::vector<Wall> walls;
  std::vector<std::vector<Vec3>> paths;  ///< SetPath's vectordata lists
  std::vector<EntitySpec> entities;
  std::vector<Crowd> crowds;  ///< placed after `entities`, in order
  std::vector<ScriptEvent> script;

  template <class S, class V>
  static void fields(S& s, V&& v) {
    v(FieldInfo{"model"}, s.model);
    v(FieldInfo{"name"}, s.name);
    v(FieldInfo{"description"}, s.description);
    v(FieldInfo{"seed"}, s.seed);
    v(FieldInfo{"ticks"}, s.ticks);
    v(FieldInfo{"physics"}, s.physics);
    v(FieldInfo{"grounds"}, s.grounds);
    v(FieldInfo{"walls"}, s.walls);
    v(FieldInfo{"paths"}, s.paths);
    v(FieldInfo{"entities"}, s.entities);
    v(FieldInfo{"crowds"}, s.crowds);
    v(FieldInfo{"script"}, s.script);
  }
};

/// Counts of what the behaviours did (diagnostics for tests and tools; not
/// state, not hashed).
struct Counters {
  uint64_t early_exit_hitwall = 0, early_exit_airborne = 0, early_exit_no_ground = 0;
  uint64_t wander_accepted = 0, wander_refused = 0, rounds_exhausted = 0;
  uint64_t return_home = 0, teleport = 0, stop_slow = 0, idle = 0;
  uint64_t arrived = 0, failsafe = 0, setpath_moves = 0, wall_hits = 0;

  Counters& operator+=(const Counters& o) {
    static_assert(sizeof(Counters) == 14 * sizeof(uint64_t), "add a new count here too");
    early_exit_hitwall += o.early_exit_hitwall;
    early_exit_airborne += o.early_exit_airborne;
    early_exit_no_ground += o.early_exit_no_ground;
    wander_accepted += o.wander_accepted;
    wander_refused += o.wander_refused;
    rounds_exhausted += o.rounds_exhausted;
    return_home += o.return_home;
    teleport += o.teleport;
    stop_slow += o.stop_slow;
    idle += o.idle;
    arrived += o.arrived;
    failsafe += o.failsafe;
    setpath_moves += o.setpath_moves;
    wall_hits += o.wall_hits;
    return *this;
  }
};

/// distance(a, b) > limit, the same answer, without the square root where the squared distance is
/// at most a quarter of limit's square: then sqrt(d2) <= limit / 2 x (1 + 2^-25) < limit, and its
/// rounding (monotone) is at most the float limit, so not farther. The bounds on limit keep
/// limit x limit a normal float (0.25 times it exact) that does not overflow.
inline bool farther_than(Vec3 a, Vec3 b, float limit) {
  const float d2 = sqr_length(a - b);  // distance's own sum
  if (limit >= 0x1p-60f && limit <= 0x1p60f && d2 <= 0.25f * (limit * limit)) return false;
  return dmath::sqrt(d2) > limit;
}

/// The world: ground and wall geometry, ray casts and the body physics.
class World {
 public:
  World() = default;
  /// `radius`: the largest body radius the walls' inner box is made for (clear_of_walls); a
  /// larger body goes through every wall's own test, as any body may.
  World(const Physics& p, std::vector<Ground> g, const std::vector<Wall>& w, float radius = 0.35f)
      : physics_(p), grounds_(std::move(g)), walls_(prepare(w)) {
    make_inner_box(radius);
    make_ahead_box();
  }

  /// The height of the highest ground containing (x, z) whose top lies in
  /// [y - max_len, y]: a ray cast straight down from (x, y, z). False when none.
  [[gnu::always_inline]] bool ray_down(float x, float y, float z, float max_len, float* hit_height) const {
    // The first hit going down is the highest top at or below the origin; it
    // counts when it lies within the ray's length. Grounds are scanned in their
    // listed order; equal heights are the same hit.
    bool found = false;
    float best = 0.0f;
    for (const Ground& g : grounds_) {
      if (x < g.x0 || x > g.x1 || z < g.z0 || z > g.z1) continue;
      if (g.height > y || g.height < y - max_len) continue;
      if (!found || g.height > best) {
        best = g.height;
        found = true;
      }
    }
    if (found) *hit_height = best;
    return found;
  }
  /// Whether every ground's plan test in ray_down (x, z inside its rectangle) comes out the same
  /// for every point (x + dx, z + dz) with |dx|, |dz| <= reach, the sums rounded as floats: then
  /// a ray from any such point falls as one from (x, z) does.
  [[gnu::always_inline]] bool plan_alike_within(float x, float z, float reach) const {
    // Rounding is monotone: for |d| <= reach, x - reach <= x + d <= x + reach hold for the rounded
    // sums too, so a point inside [lo, hi] on both axes passes or fails each test as all do.
    const float xl = x - reach, xh = x + reach, zl = z - reach, zh = z + reach;
    for (const Ground& g : grounds_) {
      const bool inside = xl >= g.x0 && xh <= g.x1 && zl >= g.z0 && zh <= g.z1;
      const bool outside = xh < g.x0 || xl > g.x1 || zh < g.z0 || zl > g.z1;
      if (!inside && !outside) return false;
    }
    return true;
  }

  /// Whether wall k (in listed order) can push a body of radius r at (x, z): the body lies within
  /// r of the wall's bounding box, r added and subtracted in floats. step_body skips a wall where
  /// this is false (and where the body's feet are outside the wall's band).
  bool wall_may_touch(std::size_t k, float x, float z, float r) const {
    const PreparedWall& w = walls_[k];
    return !(x < w.bx0 - r || x > w.bx1 + r || z < w.bz0 - r || z > w.bz1 + r);
  }
  /// Whether (x, z) lies strictly inside the walls' common inner box and r is at most the radius
  /// the box was made for: then wall_may_touch is false for every wall, and step_body skips the
  /// walls with one test instead of one per wall. False where the world has no such box.
  bool clear_of_walls(float x, float z, float r) const {
    return r <= inner_.r && x > inner_.x0 && x < inner_.x1 && z > inner_.z0 && z < inner_.z1;
  }
  std::size_t wall_count() const { return walls_.size(); }

  /// Whether (x, z) lies in the ground-ahead box: there plan_alike_within(x, z, kGroundAheadDist)
  /// holds, and the grounds whose rectangles hold (x, z) are the same everywhere (they hold the
  /// whole box; every other ground misses the box grown by kGroundAheadDist). False where the
  /// world has no such box.
  bool in_ahead_box(float x, float z) const {
    return x >= ahead_.x0 && x <= ahead_.x1 && z >= ahead_.z0 && z <= ahead_.z1;
  }
  /// ray_down(x, y, z, max_len) for any (x, z) in the ground-ahead box: the same answer, with the
  /// rectangles' tests already known (the grounds holding the box, in listed order).
  bool ray_down_ahead(float y, float max_len, float* hit_height) const {
    bool found = false;
    float best = 0.0f;
    for (const float h : ahead_heights_) {
      if (h > y || h < y - max_len) continue;
      if (!found || h > best) {
        best = h;
        found = true;
      }
    }
    if (found) *hit_height = best;
    return found;
  }

  /// One frame of a body: gravity, integration, walls, ground (docs/wander-world.md). Here in the
  /// header so that the step's loop gets it inline; the rare parts (a kinematic body, a body that
  /// may touch a wall, one beyond the world's limits) are out of line (world.cpp).
  [[gnu::always_inline]] void step_body(Wanderer& e) const {
    e.hitwall = false;
    if (e.rigid_kinematic) [[unlikely]] {
      step_kinematic(e);
      return;
    }
    // Gravity, then explicit Euler integration of the position.
    if (e.rigid_gravity) e.velocity.y = e.velocity.y - physics_.gravity * kDt;
    const float prev_y = e.position.y;
    e.position = e.position + e.velocity * kDt;
    // Walls: a body inside the walls' common inner box touches none of them (one test for all).
    if (!clear_of_walls(e.position.x, e.position.z, e.radius)) push_out_of_walls(e);
    // Ground: the ray from above the higher of the old and new feet, so a body
    // steps up at most step_up and never falls through a top it passed.
    const float oy = (prev_y > e.position.y ? prev_y : e.position.y) + physics_.step_up;
    float gh = 0.0f;
    if (ray_down(e.position.x, oy, e.position.z, 1.0e9f, &gh) && e.position.y <= gh) {
      e.position.y = gh;
      if (e.velocity.y < 0.0f) e.velocity.y = 0.0f;
      e.onground = true;
    } else {
      e.onground = false;
    }
    hold_inside(e);
  }

 private:
  /// A wall and what step_body derives from its ends alone: the same float operations, done
  /// once when the world is made instead of for every body every frame (no bit changes).
  struct PreparedWall {
    float x0 = 0, z0 = 0, bottom = 0, top = 0;
    float bx0 = 0, bx1 = 0, bz0 = 0, bz1 = 0;  ///< the segment's bounding box
    float abx = 0, abz = 0, len2 = 0;          ///< x1 - x0, z1 - z0, abx * abx + abz * abz
  };
  static std::vector<PreparedWall> prepare(const std::vector<Wall>& walls);
  void step_kinematic(Wanderer& e) const;
  /// Push the body's circle out of each wall in listed order; a wall is "hit" only when the
  /// body was moving into it (a resting contact is not).
  void push_out_of_walls(Wanderer& e) const;
  /// The world's limits (docs/spec-notes.md W18): every velocity component within +-kMaxSpeed and
  /// every coordinate within +-kWorldBound, so no later frame can overflow a float. Nothing inside
  /// the limits changes (each clamp gives back a value within its bound); a body that reaches the
  /// world's edge (a fall with no ground below) stays on it.
  static void hold_inside(Wanderer& e) {
    if (!within_bound(e.velocity, kMaxSpeed) || !within_bound(e.position, kWorldBound)) [[unlikely]]
      clamp_inside(e);
  }
  static void clamp_inside(Wanderer& e);
  /// |v.x|, |v.y|, |v.z| <= bound (bound >= 0), compared as the bits of the absolute values, which
  /// order as the values do; a NaN's are above every bound's, so a NaN is not within.
  static bool within_bound(Vec3 v, float bound) {
    const uint32_t b = std::bit_cast<uint32_t>(bound);
    const uint32_t x = std::bit_cast<uint32_t>(v.x) & 0x7fffffffu, y = std::bit_cast<uint32_t>(v.y) & 0x7fffffffu,
                   z = std::bit_cast<uint32_t>(v.z) & 0x7fffffffu;
    return (x <= b) & (y <= b) & (z <= b);
  }
  /// The walls' common inner box for bodies up to `radius` (world.cpp); none (r = -1) if the
  /// reference point lies within some wall's grown bounding box.
  void make_inner_box(float radius);
  /// The ground-ahead box and the heights of the grounds that hold it (world.cpp); none (an
  /// empty box) if the reference point's square of reach kGroundAheadDist straddles a ground's edge.
  void make_ahead_box();
  /// Where the boxes are made round: the middle of the grounds' bounding box (the origin if none).
  void reference_point(float* x, float* z) const;

  /// Bodies of radius <= r strictly inside (x0, x1) x (z0, z1) touch no wall.
  struct InnerBox {
    float r = -1.0f;
    float x0 = 0, x1 = 0, z0 = 0, z1 = 0;
  };

  Physics physics_;
  std::vector<Ground> grounds_;
  std::vector<PreparedWall> walls_;
  InnerBox inner_;
  /// The ground-ahead box, closed: [x0, x1] x [z0, z1] (empty when x0 > x1).
  struct AheadBox {
    float x0 = 1.0f, x1 = -1.0f, z0 = 1.0f, z1 = -1.0f;
  };
  AheadBox ahead_;
  std::vector<float> ahead_heights_;  ///< the grounds holding the ground-ahead box, in listed order
};

class WanderModel {
 public:
  using Scenario = wander::Scenario;
  using Input = wander::Input;
  using State = wander::State;
  static constexpr std::string_view kName = "wander";
  static constexpr uint32_t kVersion = 2;
  static constexpr uint32_t kTickRateHz = 60;
  /// The step's phases, in order (phases.h; `lockstep profile`).
  static constexpr std::array<std::string_view, 4> kPhases{"inputs", "behaviours", "force_move", "physics"};
  enum StepPhase : uint32_t { kInputs, kBehaviours, kForceMove, kPhysics };
  void set_phase_observer(PhaseObserver* o) { phases_.set(o); }
  /// Threads to step the entities on (workers.h): the same bits on any number of them.
  void set_workers(Workers* w) { workers_ = w; }
  /// Entities per range of the step's parallel part (any value gives the same bits).
  static constexpr uint32_t kGrain = 64;
  /// Fewer entities than this step on the calling thread even with workers: a tick of a thousand
  /// takes about 30 us, less than the pool's hand-overs cost (the same bits either way).
  static constexpr uint32_t kParallelMin = 2048;
  /// The model contract's entity count (model.h): every entity, always present.
  uint64_t entity_count() const { return state_.entities.size(); }

  /// Read and validate a scenario; errors name the JSON path.
  static Scenario load_scenario(const Json& j, const JsonReader& reader);
  /// Refuse an input this world cannot step (InputError naming the field, "events[2].value.x"):
  /// a missing entity, an unknown kind, an impulse or a place beyond the limits. step() runs it first.
  void check_input(const Input& input) const;

  explicit WanderModel(Scenario scenario);

  void step(const Input& input);
  Input scripted_input() const;
  uint64_t tick() const { return state_.tick; }
  const State& state() const { return state_; }
  /// Adopt a state (a restored snapshot); refused (InputError naming the field, state unchanged)
  /// when it cannot belong to this scenario (a SetPath index out of range, another entity count)
  /// or holds a value beyond the limits (docs/wander-world.md, "Limits").
  void set_state(const State& s);
  /// Direct access for tests that set up a situation field by field.
  State& mutable_state() { return state_; }
  const Scenario& scenario() const { return scenario_; }
  const World& world() const { return world_; }
  const Counters& counters() const { return counters_; }
  /// The model contract's drawing (drawing.h), in plan (x, z) as (x, y): the grounds, walls and
  /// SetPath paths once; each tick the entities (heading from their yaw), their homes, wander and
  /// teleport radii and force-move targets (draw.cpp).
  lockstep::Drawing scene_drawing() const;
  lockstep::Drawing tick_drawing() const;

  // The seed's operations, public so tests can drive them one by one.
  /// supplement MoveTowards(pos, multiplier, state, stopstate, ignore_y).
  static void move_towards(Wanderer& e, Vec3 pos, float multiplier, int32_t state, int32_t stopstate, bool ignore_y);
  /// supplement StopForceMove(targetstate, smooth).
  static void stop_force_move(Wanderer& e, int32_t targetstate = -1, bool smooth = false);
  /// supplement HasGroundAhead(target): turns the detector to the target first.
  bool has_ground_ahead(Wanderer& e, Vec3 target) const;
  /// supplement Move(target, multiplier, anim).
  static void move(Wanderer& e, Vec3 target, float multiplier, int32_t anim);
  /// supplement: one fixed update of the force move, the failsafe and a smooth stop.
  void force_move_update(Wanderer& e);
  /// seed 004 DoBehavior for entity i.
  void do_wander(std::size_t i);
  /// supplement SetPath for entity i.
  void do_setpath(std::size_t i);

 private:
  float draw_range(std::size_t i, float lo, float hi);

  Scenario scenario_;
  World world_;
  State state_;
  Counters counters_;
  std::vector<ScriptEvent> script_by_tick_;  ///< the script, stably sorted by tick
  PhaseHook phases_;  ///< the profiler's observer, if any (not state)
  /// Per entity, the last heading computed and the last direction of a yaw: pure functions of
  /// their arguments, kept by the arguments' bits, so any entry gives the value the call would
  /// (not state: never hashed, never restored, and right whatever state follows).
  struct TrigMemo {
    uint32_t dx_bits = 0, dz_bits = 0;  ///< the plan vector of `heading` (0, 0: none; look_yaw never asks)
    float heading = 0;
    uint32_t yaw_bits = 0x7fc00000u;  ///< the yaw of `dir` (a NaN's bits: none)
    float dir_x = 0, dir_z = 0;
  };
  std::vector<TrigMemo> trig_memo_;  ///< by entity index, sized by step()
  /// look_yaw (wander.cpp) through a memo: the same value, no atan2 when the plan vector is the
  /// one the memo last looked along (each tick of a force move the detector and then the move
  /// face the force target from the same place). No memo (nullptr): look_yaw.
  static float look_yaw_of(TrigMemo* memo, Vec3 from, Vec3 to, float old_yaw);
  /// angle::dir_of through a memo: the same values, no sincos when the yaw is the memo's last.
  static void dir_of(TrigMemo* memo, float yaw, float* dx, float* dz);
  bool has_ground_ahead(Wanderer& e, Vec3 target, TrigMemo* memo) const;
  void force_move_update(Wanderer& e, TrigMemo* memo, Counters& counters);
  void do_wander(std::size_t i, TrigMemo* memo, Counters& counters);
  void do_setpath(std::size_t i, Counters& counters);
  /// One entity's behaviour (phase 2) and physics (phase 4), counting into `c`.
  void behave(std::size_t i, Counters& c);
  void move_body(Wanderer& e, Counters& c) const;
  /// f(begin, end, counts) over the entities, on the workers in ranges of kGrain when there are
  /// any (and kParallelMin entities), else once over all of them.
  template <class F>
  void each_entity(F&& f);
  Workers* workers_ = nullptr;           ///< threads for the step, if any (not state)
  std::vector<Counters> range_counters_;  ///< each range's counts during a parallel step (not state)
};

}  // namespace lockstep::wander
