// The warriors model: scenario loading, inputs and the tick (see warriors.h).
#include "warriors/warriors.h"

#include <algorithm>
#include <charconv>

#include "lockstep/core/angle.h"
#include "lockstep/core/diff.h"
#include "lockstep/core/error.h"
#include "lockstep/core/validate.h"
#include "warriors/navgeom.h"

namespace lockstep::warriors {

namespace {

// The goals of the seed's gait table ("The gait each goal asks for") that only choose a gait and a
// move. Gait -1: the script's argument. GoalMoveToFlag's start delay is Random_IntRange(0, 250) ms.
const std::vector<GoalEntry> kGoals = {
    {"MoveToFlag", -1, true},     {"MoveToFlagNetFlag", -1, false}, {"MoveToUseFlag", -1, false},
    {"MoveToPosition", -1, false}, {"MoveToHuman", -1, false},      {"TravelPath", -1, false},
    {"Wander", -1, false},        {"DestroyItem", -1, false},       {"DestroyCar", -1, false},
    {"Patrol", -1, false},
    {"PedFlag", 2, false},        {"AreaWalker", 2, false},         {"Hooker", 2, false},
    {"Peddler", 2, false},        {"StandIdle", 2, false},          {"Mark", 2, false},
    {"Scout", 2, false},          {"PathScout", 2, false},          {"Backoff", 2, false},
    {"Ring", 2, false},           {"StandGround", 2, false},        {"Confront", 2, false},
    {"CopPatrol", 2, false},      {"CopInteract", 2, false},        {"CopperGuardArrested", 2, false},
    {"HoldPosition", 2, false},
    {"ChaseSupport", 3, false},   {"BigThrower", 3, false},         {"StationaryShooter", 3, false},
    {"EngageEnemy", 4, false},    {"GoalRiot", 4, false},           {"Investigate", 4, false},
    {"Respond", 4, false},        {"RiotCop", 4, false},            {"Tag", 4, false},
    {"GrabTarget", 4, false},     {"Mace", 4, false},               {"Grabber", 4, false},
    {"BigDefender", 4, false},    {"LeftTurf", 4, false},           {"FollowAndAttack", 4, false},
    {"FollowAndDefend", 4, false},
    {"Scatter", 5, false},        {"RunFromTrain", 5, false},       {"CallGang", 5, false},
    {"Hide", 5, false},
};

constexpr int32_t kGoalDelayMaxMs = 250;

ClassSpec rembrandt() {
  ClassSpec c;
  c.name = "rembrandt";  // seed 000, "Gaits and speeds": Rembrandt's speeds (the ClassSpec defaults)
  return c;
}

struct FieldName {
  const char* name;
  SetField field;
};
const FieldName kFields[] = {
    {"detail", SetField::Detail},           {"turn_boost", SetField::TurnBoost},
    {"start_boost", SetField::StartBoost},  {"wounded", SetField::Wounded},
    {"fight_stance", SetField::FightStance}, {"grabbing", SetField::Grabbing},
    {"held_flags", SetField::HeldFlags},    {"hold", SetField::Hold},
    {"turn_limited", SetField::TurnLimited}, {"rear_grabber", SetField::RearGrabber},
    {"held_object", SetField::HeldObject},  {"held_keep", SetField::HeldKeep},
    {"airborne", SetField::Airborne},       {"reacting", SetField::Reacting},
    {"down", SetField::Down},               {"side_flag", SetField::SideFlag},
    {"target", SetField::Target},           {"fast_climber", SetField::FastClimber},
    {"follows", SetField::Follows},         {"gang", SetField::Gang},
    {"gang_leader", SetField::GangLeader},  {"steering", SetField::Steering},
};

std::string field_names() {
  std::string s;
  for (const auto& f : kFields) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}

int32_t field_code(const std::string& n) {
  for (const auto& f : kFields)
    if (n == f.name) return static_cast<int32_t>(f.field);
  return -1;
}

// ------------------------------------------------------------ limits (docs/warriors.md, "Limits")

std::string num(float v) { return shortest(v); }

/// A scenario's or a level's point (JSON path `at`) within the world's bound.
void check_place(const JsonReader& r, const std::string& at, Vec3 v) {
  if (const char* c = beyond(v, kWorldBound))
    r.fail(at, "expected |x|, |y|, |z| <= " + num(kWorldBound) + " m (the world's bound), got " + c + " = " +
                   num(component(v, c)));
}

const std::string kWorldText = num(kWorldBound);

}  // namespace

const std::vector<GoalEntry>& goal_table() { return kGoals; }

int32_t goal_index(const std::string& name) {
  for (std::size_t i = 0; i < kGoals.size(); ++i)
    if (name == kGoals[i].name) return static_cast<int32_t>(i);
  return -1;
}

// ------------------------------------------------------------ scenario

namespace {

int32_t slot_by_name(const Scenario& sc, const std::string& name) {
  for (std::size_t i = 0; i < sc.humans.size(); ++i)
    if (sc.humans[i].name == name && !name.empty()) return static_cast<int32_t>(i);
  if (!name.empty() && std::all_of(name.begin(), name.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) &&
      name.size() < 4) {
    const int32_t v = std::stoi(name);
    if (v >= 0 && static_cast<std::size_t>(v) < sc.humans.size()) return v;
  }
  return -1;
}

std::vector<ClassSpec> class_table(const Scenario& sc) {
  std::vector<ClassSpec> t = {rembrandt()};
  for (const auto& c : sc.classes) {
    auto it = std::find_if(t.begin(), t.end(), [&](const ClassSpec& x) { return x.name == c.name; });
    if (it != t.end()) *it = c;
    else t.push_back(c);
  }
  return t;
}

Command to_command(const Scenario& sc, const ScriptSpec& s, const JsonReader& r, const std::string& at) {
  Command c;
  if (s.command == "open_door" || s.command == "close_door") {
    c.kind = CommandKind::Door;
    c.field = s.command == "open_door" ? 1 : 0;
    c.value = s.value;
    if (std::none_of(sc.level.doors.begin(), sc.level.doors.end(),
                     [&](const NavDoor& d) { return d.number == static_cast<uint32_t>(s.value); }))
      r.fail(at + ".value", "no door number " + std::to_string(s.value) + " in the level");
    c.human = 0;
    return c;
  }
  const int32_t who = slot_by_name(sc, s.human);
  std::string names;
  for (const auto& h : sc.humans) names += (names.empty() ? "" : ", ") + h.name;
  if (who < 0) r.fail(at + ".human", "no human \"" + s.human + "\" (humans: " + names + ")");
  c.human = static_cast<uint32_t>(who);
  const bool ai_only = s.command != "set";
  if (ai_only && sc.humans[static_cast<std::size_t>(who)].pad)
    r.fail(at + ".human", "\"" + s.human + "\" is a player (pad: true); only AI humans take " + s.command);
  auto point = [&]() {
    if (!s.flag.empty()) {
      for (const auto& f : sc.flags)
        if (f.name == s.flag) return f.position;
      r.fail(at + ".flag", "no flag \"" + s.flag + "\"");
    }
    if (s.point.size() != 3) r.fail(at + ".point", "expected [x, y, z] (or a \"flag\")");
    const Vec3 p{s.point[0], s.point[1], s.point[2]};
    check_place(r, at + ".point", p);
    return p;
  };
  auto other = [&](const std::string& name, const std::string& key) {
    const int32_t o = slot_by_name(sc, name);
    if (o < 0) r.fail(at + "." + key, "no human \"" + name + "\" (humans: " + names + ")");
    if (o == who) r.fail(at + "." + key, "a human cannot " + (key == "face" ? std::string("face") : "approach") + " himself");
    return o;
  };
  if (s.gait < 0 || s.gait > 5) r.fail(at + ".gait", "expected a gait from 0 (stand) to 5 (sprint)");
  if (!(s.radius >= 0.0f)) r.fail(at + ".radius", "expected a radius >= 0");
  if (!(s.radius <= kWorldBound)) r.fail(at + ".radius", "expected a radius at most " + kWorldText + " m, got " + num(s.radius));
  if (s.delay_ms < 0) r.fail(at + ".delay_ms", "expected a delay >= 0 ms");
  if (s.delay_ms > kMaxClockMs)
    r.fail(at + ".delay_ms", "expected a delay at most 1073741824 ms (2^30, the clock's limit), got " + std::to_string(s.delay_ms));
  c.gait = s.gait;
  c.radius = s.radius;
  c.delay_ms = s.delay_ms;
  if (s.command == "move_to") {
    c.kind = CommandKind::MoveTo;
    c.point = point();
    if (!s.face.empty()) c.face = other(s.face, "face");
  } else if (s.command == "move_to_human") {
    c.kind = CommandKind::MoveToHuman;
    if (s.target.empty()) r.fail(at + ".target", "move_to_human needs a target human");
    c.target = other(s.target, "target");
    if (!(s.near >= 0.0f) || !(s.far >= s.near)) r.fail(at + ".near", "expected 0 <= near <= far");
    if (!(s.far <= kWorldBound)) r.fail(at + ".far", "expected a range at most " + kWorldText + " m, got " + num(s.far));
    if (s.limit_ms < 0) r.fail(at + ".limit_ms", "expected a time limit >= 0 ms");
    c.near_dist = s.near;
    c.far_dist = s.far;
    c.limit_ms = s.limit_ms;
  } else if (s.command == "stop") {
    c.kind = CommandKind::Stop;
  } else if (s.command == "set") {
    c.kind = CommandKind::Set;
    c.field = field_code(s.field);
    if (c.field < 0) r.fail(at + ".field", "unknown field \"" + s.field + "\" (one of: " + field_names() + ")");
    c.value = s.value;
    const auto f = static_cast<SetField>(c.field);
    if (f == SetField::Detail && (s.value < 0 || s.value > 3)) r.fail(at + ".value", "a detail level is 0 to 3");
    if ((f == SetField::TurnBoost || f == SetField::StartBoost) && (s.value < -128 || s.value > 127))
      r.fail(at + ".value", "a boost is a signed byte (-128 to 127)");
    if (f == SetField::TurnLimited && s.value != 0 && s.value != 4 && s.value != 6)
      r.fail(at + ".value", "turn_limited is 0, 4 or 6 (degrees per update)");
    if (f == SetField::Target || f == SetField::Follows) {
      if (s.target.empty()) c.value = -1;
      else c.value = other(s.target, "target");
    }
    if (f == SetField::Gang && (s.value < 0 || s.value > 255)) r.fail(at + ".value", "a gang is 0 (none) to 255");
  } else if (s.command == "join_queue" || s.command == "leave_queue") {
    c.kind = s.command == "join_queue" ? CommandKind::JoinQueue : CommandKind::LeaveQueue;
    c.value = s.value;
    if (c.kind == CommandKind::JoinQueue && (s.value < 0 || static_cast<std::size_t>(s.value) >= sc.queues.size()))
      r.fail(at + ".value", "no waypoint queue " + std::to_string(s.value) + " (the scenario has " +
                                std::to_string(sc.queues.size()) + ")");
  } else if (s.command == "give_way") {
    // The script's ActGiveWay (Action_GiveWay 0x002fe4b0): `human` gives way to `target`.
    c.kind = CommandKind::GiveWay;
    if (s.target.empty()) r.fail(at + ".target", "give_way needs a target human (the one to make way for)");
    c.target = other(s.target, "target");
  } else if (s.command == "goal") {
    c.kind = CommandKind::Goal;
    c.goal = goal_index(s.goal);
    if (c.goal < 0) {
      std::string gs;
      for (const auto& g : goal_table()) gs += (gs.empty() ? "" : ", ") + std::string(g.name);
      r.fail(at + ".goal", "unknown goal \"" + s.goal + "\" (one of: " + gs + ")");
    }
    if (!s.target.empty()) {
      c.target = other(s.target, "target");  // the human's position at the command is the point
    } else {
      c.point = point();
    }
  } else {
    r.fail(at + ".command", "unknown command \"" + s.command + "\" (one of: move_to, move_to_human, stop, set, goal, give_way, join_queue, leave_queue, open_door, close_door)");
  }
  return c;
}

}  // namespace

namespace {

bool finite3(Vec3 v) { return v.x - v.x == 0.0f && v.y - v.y == 0.0f && v.z - v.z == 0.0f; }

/// Validate the level (errors by JSON path) and derive its A records, boxes and link numbering.
void check_level(Level& lv, const JsonReader& r) {
  const std::string at = "$.level";
  if (lv.nodes.size() >= kNoNode) r.fail(at + ".nodes", "at most 65534 nodes (u16 indices)");
  for (std::size_t a = 0; a < lv.areas.size(); ++a) {
    const NavArea& ar = lv.areas[a];
    const std::string aa = at + ".areas[" + std::to_string(a) + "]";
    if (ar.polygons.empty()) r.fail(aa + ".polygons", "an area needs its outline (polygons[0])");
    for (std::size_t p = 0; p < ar.polygons.size(); ++p) {
      const NavPolygon& pg = ar.polygons[p];
      const std::string pp = aa + ".polygons[" + std::to_string(p) + "]";
      if (pg.points.size() < 3) r.fail(pp + ".points", "a polygon needs at least 3 points");
      if (pg.points.size() > 0xffff) r.fail(pp + ".points", "too many points");
      for (std::size_t k = 0; k < pg.points.size(); ++k) check_place(r, pp + ".points[" + std::to_string(k) + "]", pg.points[k]);
      if (pg.slabs.size() > 16) r.fail(pp + ".slabs", "at most 16 slabs per polygon");
      for (std::size_t k = 0; k < pg.slabs.size(); ++k)
        for (std::size_t e = 0; e < pg.slabs[k].size(); ++e)
          if (pg.slabs[k][e] >= pg.points.size())
            r.fail(pp + ".slabs[" + std::to_string(k) + "][" + std::to_string(e) + "]",
                   "no edge " + std::to_string(pg.slabs[k][e]) + " (the polygon has " + std::to_string(pg.points.size()) + ")");
    }
  }
  // Nodes are grouped by area, in area order (the A records are runs of them; Level::derive).
  int32_t last_area = -1;
  for (std::size_t n = 0; n < lv.nodes.size(); ++n) {
    const NavNode& nd = lv.nodes[n];
    const std::string nn = at + ".nodes[" + std::to_string(n) + "]";
    if (nd.area < 0 || static_cast<std::size_t>(nd.area) >= lv.areas.size())
      r.fail(nn + ".area", "no area " + std::to_string(nd.area) + " (the level has " + std::to_string(lv.areas.size()) + ")");
    if (nd.area < last_area) r.fail(nn + ".area", "nodes must be grouped by area in area order (an area's nodes are one run)");
    last_area = nd.area;
    if (nd.pair != kNoNode && nd.pair >= lv.nodes.size()) r.fail(nn + ".pair", "no node " + std::to_string(nd.pair));
    if (!finite3(nd.position)) r.fail(nn + ".position", "not a finite point");
    check_place(r, nn + ".position", nd.position);
    for (std::size_t k = 0; k < nd.links.size(); ++k) {
      const NavLink& l = nd.links[k];
      const std::string ll = nn + ".links[" + std::to_string(k) + "]";
      if (l.from >= lv.nodes.size()) r.fail(ll + ".from", "no node " + std::to_string(l.from));
      if (l.from == n) r.fail(ll + ".from", "a link from the node to itself");
      if (l.kind == 0) r.fail(ll + ".kind", "a link needs its kind (1, 2, 4, 8, 0x10, 0x40, 0x80)");
      if (l.door > 0x1fff) r.fail(ll + ".door", "a door number has 13 bits (0 to 8191)");
    }
  }
  for (std::size_t d = 0; d < lv.doors.size(); ++d) {
    const NavDoor& dr = lv.doors[d];
    const std::string dd = at + ".doors[" + std::to_string(d) + "]";
    if (dr.area < 0 || static_cast<std::size_t>(dr.area) >= lv.areas.size()) r.fail(dd + ".area", "no such area");
    if (dr.hole < 1 || static_cast<std::size_t>(dr.hole) >= lv.areas[static_cast<std::size_t>(dr.area)].polygons.size())
      r.fail(dd + ".hole", "a door's hole is one of the area's holes (polygon 1 or above)");
    if (dr.number == 0 || dr.number > 0x1fff) r.fail(dd + ".number", "a door number is 1 to 8191");
  }
  for (std::size_t t = 0; t < lv.triangles.size(); ++t) {
    const NavTriangle& tri = lv.triangles[t];
    const std::string tt = at + ".triangles[" + std::to_string(t) + "]";
    check_place(r, tt + ".a", tri.a);
    check_place(r, tt + ".b", tri.b);
    check_place(r, tt + ".c", tri.c);
  }
  if (lv.hazards.size() > kHazardSlots) r.fail(at + ".hazards", "at most 64 hazard spheres");
  for (std::size_t h = 0; h < lv.hazards.size(); ++h) {
    const std::string hh = at + ".hazards[" + std::to_string(h) + "]";
    if (!(lv.hazards[h].radius > 0.0f)) r.fail(hh + ".radius", "expected a radius > 0");
    if (!(lv.hazards[h].radius <= kMaxHazardRadius))
      r.fail(hh + ".radius", "expected a radius at most " + num(kMaxHazardRadius) + " m, got " + num(lv.hazards[h].radius));
    check_place(r, hh + ".centre", lv.hazards[h].centre);
  }
  lv.derive();
}

}  // namespace

Scenario WarriorsModel::load_scenario(const Json& j, const JsonReader& r) {
  Scenario sc;
  r.read(j, sc, "$");
  if (sc.model != "warriors") r.fail("$.model", "expected \"warriors\", got \"" + sc.model + "\"");
  if (sc.ticks > kMaxTicks)
    r.fail("$.ticks", "expected at most " + std::to_string(kMaxTicks) + " updates (the clock's limit, 2^30 ms), got " +
                          std::to_string(sc.ticks));
  if (!within(sc.ground.z, kWorldBound))
    r.fail("$.ground.z", "expected a height within +-" + kWorldText + " m (the world's bound), got " + num(sc.ground.z));
  check_level(sc.level, r);
  if (sc.queues.size() > kQueueRecords)
    r.fail("$.queues", "at most 20 waypoint queues (the original's records), got " + std::to_string(sc.queues.size()));
  for (std::size_t i = 0; i < sc.queues.size(); ++i) {
    check_place(r, "$.queues[" + std::to_string(i) + "].a", sc.queues[i].a);
    check_place(r, "$.queues[" + std::to_string(i) + "].b", sc.queues[i].b);
  }
  if (sc.humans.size() > kSlots)
    r.fail("$.humans", "at most " + std::to_string(kSlots) + " humans (the position table's slots), got " +
                           std::to_string(sc.humans.size()));
  for (std::size_t i = 0; i < sc.classes.size(); ++i) {
    const auto& c = sc.classes[i];
    const std::string at = "$.classes[" + std::to_string(i) + "]";
    if (c.name.empty()) r.fail(at + ".name", "a class needs a name");
    const float sp[] = {c.sneak, c.walk, c.jog, c.run, c.sprint, c.stance, c.melee_far};
    for (float v : sp)
      if (!(v >= 0.0f)) r.fail(at, "speeds and ranges must be >= 0");
    // A32: a clip speed is at most 25 m/s, the speed control's cap on a wanted speed (step 2).
    const std::pair<const char*, float> speeds[] = {{"sneak", c.sneak}, {"walk", c.walk},     {"jog", c.jog},
                                                    {"run", c.run},     {"sprint", c.sprint}, {"stance", c.stance}};
    for (const auto& [name, v] : speeds)
      if (!(v <= kMaxSpeed)) r.fail(at + "." + name, "expected a speed at most 25 m/s, got " + num(v));
    if (!(c.melee_far <= kWorldBound))
      r.fail(at + ".melee_far", "expected a range at most " + kWorldText + " m, got " + num(c.melee_far));
  }
  const auto classes = class_table(sc);
  for (std::size_t i = 0; i < sc.humans.size(); ++i) {
    const auto& h = sc.humans[i];
    const std::string at = "$.humans[" + std::to_string(i) + "]";
    if (h.name.empty()) r.fail(at + ".name", "a human needs a name");
    for (std::size_t k = 0; k < i; ++k)
      if (sc.humans[k].name == h.name) r.fail(at + ".name", "the name \"" + h.name + "\" is taken by humans[" + std::to_string(k) + "]");
    if (std::none_of(classes.begin(), classes.end(), [&](const ClassSpec& c) { return c.name == h.cls; })) {
      std::string names;
      for (const auto& c : classes) names += (names.empty() ? "" : ", ") + c.name;
      r.fail(at + ".class", "no class \"" + h.cls + "\" (classes: " + names + ")");
    }
    if (h.detail < 0 || h.detail > 3) r.fail(at + ".detail", "a detail level is 0 to 3");
    if (h.turn_boost < -128 || h.turn_boost > 127) r.fail(at + ".turn_boost", "a boost is a signed byte (-128 to 127)");
    if (h.start_boost < -128 || h.start_boost > 127) r.fail(at + ".start_boost", "a boost is a signed byte (-128 to 127)");
    check_place(r, at + ".position", h.position);
  }
  for (std::size_t i = 0; i < sc.flags.size(); ++i) {
    if (sc.flags[i].name.empty()) r.fail("$.flags[" + std::to_string(i) + "].name", "a flag needs a name");
    check_place(r, "$.flags[" + std::to_string(i) + "].position", sc.flags[i].position);
  }
  auto check_tick = [&](const std::string& at, uint64_t tick) {
    if (tick >= kMaxTicks)
      r.fail(at, "expected a tick below " + std::to_string(kMaxTicks) + " (the longest run, 2^30 ms), got " + std::to_string(tick));
  };
  for (std::size_t i = 0; i < sc.script.size(); ++i) {
    check_tick("$.script[" + std::to_string(i) + "].tick", sc.script[i].tick);
    (void)to_command(sc, sc.script[i], r, "$.script[" + std::to_string(i) + "]");
  }
  for (std::size_t i = 0; i < sc.pads.size(); ++i) {
    const auto& p = sc.pads[i];
    const std::string at = "$.pads[" + std::to_string(i) + "]";
    const int32_t who = slot_by_name(sc, p.human);
    if (who < 0) r.fail(at + ".human", "no human \"" + p.human + "\"");
    if (!sc.humans[static_cast<std::size_t>(who)].pad) r.fail(at + ".human", "\"" + p.human + "\" has no pad (pad: false)");
    if (!(p.stick_x >= -1.0f && p.stick_x <= 1.0f)) r.fail(at + ".stick_x", "a stick axis is in [-1, 1], got " + num(p.stick_x));
    if (!(p.stick_y >= -1.0f && p.stick_y <= 1.0f)) r.fail(at + ".stick_y", "a stick axis is in [-1, 1], got " + num(p.stick_y));
    check_tick(at + ".tick", p.tick);
    if (p.buttons > kPadButtonsMask)
      r.fail(at + ".buttons", "the pad has 16 buttons (0 to 65535), got " + std::to_string(p.buttons));
  }
  return sc;
}

WarriorsModel::WarriorsModel(Scenario scenario) : scenario_(std::move(scenario)) {
  classes_ = class_table(scenario_);
  scenario_.level.derive();  // (a scenario made in code may skip the loader)
  state_.nav = NavState::initial(scenario_.level);
  for (const auto& hz : scenario_.level.hazards) add_hazard(scenario_.level, state_.nav, hz.centre, hz.radius, hz.word);
  state_.rng.goals = RngStream(scenario_.seed, "warriors.goals");
  for (std::size_t i = 0; i < scenario_.queues.size() && i < kQueueRecords; ++i)
    lay_queue(state_.queues[i], scenario_.queues[i].a, scenario_.queues[i].b);
  for (std::size_t i = 0; i < scenario_.humans.size(); ++i) {
    const HumanSpec& s = scenario_.humans[i];
    Human& h = state_.humans[i];
    h.in_use = 1;
    h.index = static_cast<int32_t>(i);
    h.position = s.position;
    if (scenario_.level.empty()) h.position.z = scenario_.ground.z;  // the open floor; a level keeps each height
    h.heading = angle::wrap_pi(angle::deg_to_rad(s.heading));
    for (std::size_t k = 0; k < classes_.size(); ++k)
      if (classes_[k].name == s.cls) h.cls = static_cast<int32_t>(k);
    h.has_pad = s.pad ? 1 : 0;
    h.is_ai = s.pad ? 0 : 1;
    h.detail = s.detail;
    h.wounded = s.wounded;
    h.fight_stance = s.fight_stance;
    h.clip = kClipIdle;
    h.brain.turn_boost = s.turn_boost;
    h.brain.start_boost = s.start_boost;
    h.brain.move_heading = h.heading;
  }
  JsonReader r("scenario");
  for (std::size_t i = 0; i < scenario_.script.size(); ++i)
    script_.emplace_back(scenario_.script[i].tick, to_command(scenario_, scenario_.script[i], r, "$.script"));
  std::stable_sort(script_.begin(), script_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& p : scenario_.pads)
    pad_script_.emplace_back(p.tick, Pad{static_cast<uint32_t>(slot_by_name(scenario_, p.human)), p.stick_x, p.stick_y, p.buttons});
  std::stable_sort(pad_script_.begin(), pad_script_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

int32_t WarriorsModel::human_slot(const std::string& name) const { return slot_by_name(scenario_, name); }

void WarriorsModel::set_state(const State& s) {
  auto bad = [](const std::string& at, const std::string& what) { throw InputError("state", at, what); };
  auto slot_ok = [](int32_t v) { return v >= -1 && v < static_cast<int32_t>(kSlots); };
  auto in = [](int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; };
  auto range_text = [](int64_t lo, int64_t hi, int64_t v) {
    return "expected " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + std::to_string(v);
  };
  // Every float of a state the model makes is finite. A leaf's path is spelt only for the
  // message: spelling every leaf's (list_leaves) was most of a restore's time.
  {
    Path p;
    walk_leaves(s, p, [&](const Path& path, const auto& leaf) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(leaf)>, float>)
        if (!(leaf - leaf == 0.0f)) bad(path.str(), "not a finite number");
    });
  }
  // The clock (A30): at most kMaxTicks updates; the time is the last update's, tick x 1000 / 30 ms.
  if (s.tick > kMaxTicks)
    bad("tick", "expected at most " + std::to_string(kMaxTicks) + " updates (the clock's limit, 2^30 ms), got " +
                    std::to_string(s.tick));
  const auto now = static_cast<int32_t>(s.tick * 1000u / kTickRateHz);  // <= 2^30 by the line above
  if (s.clock.now_ms != now)
    bad("clock.now_ms", "expected " + std::to_string(now) + " ms, the time of update " + std::to_string(s.tick) +
                            ", got " + std::to_string(s.clock.now_ms));
  // Points: within the state's bound (a human can run from the world's bound for the longest run).
  auto point = [&](const std::string& at, Vec3 v) {
    if (const char* c = beyond(v, kStateBound))
      bad(at + "." + c, "expected a coordinate within +-" + num(kStateBound) + " m (the state's bound), got " + num(component(v, c)));
  };
  auto speed = [&](const std::string& at, float v) {
    if (!(v >= 0.0f && v <= kMaxSpeed)) bad(at, "expected a speed from 0 to 25 m/s, got " + num(v));
  };
  auto length = [&](const std::string& at, float v, float hi) {
    if (!(v >= 0.0f && v <= hi)) bad(at, "expected 0 to " + num(hi) + " m, got " + num(v));
  };
  // The navigation state must fit this scenario's level.
  {
    const Level& lv = scenario_.level;
    const NavState& n = s.nav;
    auto sized = [&](std::size_t have, std::size_t want, const char* what) {
      if (have != want)
        bad(std::string("nav.") + what, std::to_string(have) + " entries, the level has " + std::to_string(want));
    };
    sized(n.polygon_flags.size(), lv.polygon_count(), "polygon_flags");
    sized(n.link_marks.size(), lv.link_count(), "link_marks");
    sized(n.node_use.size(), lv.nodes.size(), "node_use");
    sized(n.node_f.size(), lv.nodes.size(), "node_f");
    sized(n.node_g.size(), lv.nodes.size(), "node_g");
    sized(n.node_h.size(), lv.nodes.size(), "node_h");
    sized(n.node_parent.size(), lv.nodes.size(), "node_parent");
    sized(n.door_open.size(), lv.doors.size(), "door_open");
    // The search fields' values are any u16: a search resets the parents and reads a g of 0xfabc as closed (N10).
    if (!in(n.hazard_count, 0, kHazardSlots)) bad("nav.hazard_count", "0 to 64");
    for (std::size_t k = 0; k < kHazardSlots; ++k) {
      const std::string at = "nav.hazards[" + std::to_string(k) + "]";
      point(at + ".centre", n.hazards[k].centre);
      point(at + ".box_min", n.hazards[k].box_min);
      point(at + ".box_max", n.hazards[k].box_max);
    }
    for (std::size_t r = 0; r < kRoutePool; ++r) {
      const Route& rt = n.routes[r];
      const std::string at = "nav.routes[" + std::to_string(r) + "]";
      if (!in(rt.count, 0, kRouteMaxNodes)) bad(at + ".count", "0 to 128");
      for (int32_t k = 0; k < rt.count; ++k)
        if (rt.nodes[static_cast<std::size_t>(k)] >= lv.nodes.size()) bad(at + ".nodes", "a node the level lacks");
      // start_node, last_node and dest_area are written, never read.
    }
    for (std::size_t c = 0; c < kClaimSlots; ++c) {
      const Claim& cl = n.claims[c];
      if (!in(cl.node, -1, static_cast<int64_t>(lv.nodes.size()) - 1) || !slot_ok(cl.human) || ((cl.node < 0) != (cl.human < 0)))
        bad("nav.claims[" + std::to_string(c) + "]", "not a node and a human");
    }
    for (std::size_t i = 0; i < kSlots; ++i) {
      const RouteState& rs = s.humans[i].brain.route;
      const std::string at = "humans[" + std::to_string(i) + "].brain.route";
      if (!in(rs.route, -1, kRoutePool - 1) || (rs.route >= 0 && !n.routes[static_cast<std::size_t>(rs.route)].in_use))
        bad(at + ".route", "not a route in use");
      if (rs.route >= 0 && !in(rs.index, 0, n.routes[static_cast<std::size_t>(rs.route)].count - 1))
        bad(at + ".index", "past the route's waypoints");
      if (!in(rs.mask, 0, 0xffff)) bad(at + ".mask", "a u16 mask");
      if (!in(rs.skip, 0, 6)) bad(at + ".skip", "0 to 6");
      if (!in(rs.state, 0, 5)) bad(at + ".state", range_text(0, 5, rs.state));
      if (!in(rs.climb_fails, 0, kClimbMaxFails)) bad(at + ".climb_fails", range_text(0, kClimbMaxFails, rs.climb_fails));
      length(at + ".radius", rs.radius, kWorldBound);
      if (!in(s.humans[i].nav_area, -1, static_cast<int64_t>(lv.areas.size()) - 1)) bad("humans[" + std::to_string(i) + "].nav_area", "no such area");
    }
  }
  for (std::size_t i = 0; i < kSlots; ++i) {
    const Human& h = s.humans[i];
    const std::string at = "humans[" + std::to_string(i) + "]";
    // The slots the scenario fills, with a player or an AI as it says; the model never adds a human.
    const bool placed = i < scenario_.humans.size();
    if (h.in_use != (placed ? 1 : 0))
      bad(at + ".in_use", placed ? "expected 1: the scenario's human \"" + scenario_.humans[i].name + "\""
                                 : "expected 0: the scenario has " + std::to_string(scenario_.humans.size()) + " humans");
    if (placed) {
      const bool pad = scenario_.humans[i].pad;
      if (h.has_pad != (pad ? 1 : 0) || h.is_ai != (pad ? 0 : 1))
        bad(at + (h.has_pad != (pad ? 1 : 0) ? ".has_pad" : ".is_ai"),
            "\"" + scenario_.humans[i].name + "\" is " + (pad ? "a player (pad: true)" : "an AI (pad: false)"));
      if (h.index != static_cast<int32_t>(i)) bad(at + ".index", "expected the slot, " + std::to_string(i) + ", got " + std::to_string(h.index));
    }
    if (h.cls < 0 || static_cast<std::size_t>(h.cls) >= classes_.size())
      bad(at + ".cls", "no class " + std::to_string(h.cls) + " in this scenario (it has " + std::to_string(classes_.size()) + ")");
    if (h.detail < 0 || h.detail > 3) bad(at + ".detail", "a detail level is 0 to 3");
    if (h.brain.queue_count < 0 || h.brain.queue_count > static_cast<int32_t>(kQueueSize))
      bad(at + ".brain.queue_count", "expected 0 to " + std::to_string(kQueueSize));
    if (!slot_ok(h.brain.target)) bad(at + ".brain.target", "not a human slot");
    const Brain& b = h.brain;
    if (!in(b.turn_boost, -128, 127)) bad(at + ".brain.turn_boost", "a boost is a signed byte");
    if (!in(b.start_boost, -128, 127)) bad(at + ".brain.start_boost", "a boost is a signed byte");
    // Times: a think's is a past update's (so the next think's "since" is 0 to 2^30 ms, A30).
    if (!in(b.last_think_ms, 0, now)) bad(at + ".brain.last_think_ms", range_text(0, now, b.last_think_ms) + " (a past update's time)");
    if (!in(b.steering.override_count, 0, 0xffff)) bad(at + ".brain.steering.override_count", "a u16 count");
    if (!slot_ok(b.steering.avoiding)) bad(at + ".brain.steering.avoiding", "not a human slot");
    const std::pair<const char*, int32_t> bytes[] = {{"since_decision", b.steering.since_decision},
                                                     {"slow_decisions", b.steering.slow_decisions},
                                                     {"decisions", b.steering.decisions}};
    for (const auto& [name, v] : bytes)
      if (!in(v, 0, 255)) bad(at + ".brain.steering." + name, "a u8 count: " + range_text(0, 255, v));
    if (!in(h.turn_limited, 0, 6) || (h.turn_limited != 0 && h.turn_limited != 4 && h.turn_limited != 6))
      bad(at + ".turn_limited", "0, 4 or 6");
    if (h.action != kActNone && h.action != kActWalkStart && h.action != kActRunStart && h.action != kActBoostStart &&
        h.action != kActStop && h.action != kActTurnOnSpot && h.action != kActClimb && h.action != kActJump)
      bad(at + ".action", "unknown human action " + std::to_string(h.action));
    if (!in(h.action_updates, 0, kRunStopUpdates)) bad(at + ".action_updates", "out of range");
    if (!in(h.leg_elapsed, 0, kMaxLegUpdates)) bad(at + ".leg_elapsed", range_text(0, kMaxLegUpdates, h.leg_elapsed));
    if (!in(h.leg_updates, 0, kMaxLegUpdates)) bad(at + ".leg_updates", range_text(0, kMaxLegUpdates, h.leg_updates));
    if (!(h.leg_vz >= 0.0f && h.leg_vz <= kJumpVzLast))
      bad(at + ".leg_vz", "expected a launch speed from 0 to 5.5 m/s, got " + num(h.leg_vz));
    if (!in(h.gait, 0, 5)) bad(at + ".gait", "a gait is 0 to 5");
    // Headings (heading, turn_target, pad_step, pad_error, move_heading, sectors.heading) may be any
    // finite angle: angle.h reduces every finite float exactly.
    point(at + ".position", h.position);
    point(at + ".leg_from", h.leg_from);
    point(at + ".leg_to", h.leg_to);
    point(at + ".nav_point", h.nav_point);
    point(at + ".brain.aim", b.aim);
    point(at + ".brain.steering.held_point", b.steering.held_point);
    point(at + ".brain.steering.contact", b.steering.contact);
    if (!in(b.steering.boosted, 0, 1)) bad(at + ".brain.steering.boosted", "0 or 1");
    if (!in(b.way_flags, 0, 7)) bad(at + ".brain.way_flags", "bits 1, 2 and 4");
    if (!in(b.queued, 0, 2)) bad(at + ".brain.queued", "0, 1 or 2");
    if (!in(b.thinks, 0, static_cast<int64_t>(s.tick))) bad(at + ".brain.thinks", "at most one a tick");
    if (!slot_ok(h.follows)) bad(at + ".follows", "not a human slot");
    if (!in(h.gang, 0, 255)) bad(at + ".gang", "0 to 255");
    if (!in(h.gang_leader, 0, 1)) bad(at + ".gang_leader", "0 or 1");
    if (!in(h.gang_timer_ms, -kMaxClockMs, kMaxClockMs)) bad(at + ".gang_timer_ms", "out of range");
    speed(at + ".speed", h.speed);
    speed(at + ".brain.move_speed", b.move_speed);
    speed(at + ".brain.steering.override_speed", b.steering.override_speed);
    length(at + ".brain.aim_radius", b.aim_radius, kWorldBound);
    // The sector record: the next refresh compares now with time_ms + 1000; PickSide sums flags + 2 x count.
    if (!in(h.sectors.time_ms, kSectorsNever, now))
      bad(at + ".sectors.time_ms", range_text(kSectorsNever, now, h.sectors.time_ms) + " (a past update's time, or never)");
    for (std::size_t k = 0; k < 8; ++k) {
      const Sector& sec = h.sectors.sector[k];
      const std::string sk = at + ".sectors.sector[" + std::to_string(k) + "]";
      if (!slot_ok(sec.nearest)) bad(sk + ".nearest", "not a human slot");
      if (!in(sec.flags, 0, 15)) bad(sk + ".flags", "flags 1, 2, 4 and 8: " + range_text(0, 15, sec.flags));
      if (!in(sec.probe, 0, 1)) bad(sk + ".probe", range_text(0, 1, sec.probe));
      if (!in(sec.count, 0, kSlots - 1)) bad(sk + ".count", "humans in the sector: " + range_text(0, kSlots - 1, sec.count));
    }
    for (std::size_t q = 0; q < kQueueSize; ++q) {
      const Action& a = h.brain.queue[q];
      const std::string aq = at + ".brain.queue[" + std::to_string(q) + "]";
      if (a.type != 0 && a.type != 1 && a.type != 2 && a.type != kActGiveWay)
        bad(aq + ".type", "unknown action type " + std::to_string(a.type));
      if (!slot_ok(a.look_at)) bad(aq + ".look_at", "not a human slot");
      if (!in(a.way_updates, 0, kGiveWayMaxUpdates)) bad(aq + ".way_updates", "0 to 30");
      if (!(a.way_heading - a.way_heading == 0.0f)) bad(aq + ".way_heading", "not finite");
      if (static_cast<int32_t>(q) < h.brain.queue_count && a.type == 0) bad(aq + ".type", "an empty action in the queue");
      if (!slot_ok(a.face)) bad(aq + ".face", "not a human slot");
      if (!slot_ok(a.target) || (a.type == 2 && a.target < 0)) bad(aq + ".target", "not a human slot");
      if (a.gait < 0 || a.gait > 5) bad(aq + ".gait", "a gait is 0 to 5");
      if (!in(a.corner_count, -128, 127)) bad(aq + ".corner_count", "a signed byte");
      if (!in(a.straight_count, 0, kStraightCheckEvery)) bad(aq + ".straight_count", "out of range");
      if (!in(a.stuck_count, 0, kStuckUpdates + 1)) bad(aq + ".stuck_count", "out of range");
      // The update count (step 2's every-30) rises at most once an update since the action was queued.
      if (!in(a.updates, 0, static_cast<int64_t>(s.tick))) bad(aq + ".updates", range_text(0, static_cast<int64_t>(s.tick), a.updates) + " (at most one an update)");
      // A delay counts down by the time since the previous think (0 to 2^30 ms): within +-2^30 it cannot overflow.
      if (!in(a.delay_ms, -kMaxClockMs, kMaxClockMs)) bad(aq + ".delay_ms", range_text(-kMaxClockMs, kMaxClockMs, a.delay_ms));
      // limit_ms may be any int32: it is only compared with the clock (Start saturates its sum).
      if (!in(a.side, -kMeleeCount, kMeleeCount) || !in(a.radial, -kMeleeCount, kMeleeCount))
        bad(aq, "MoveMelee's counters are -10 to 10");
      if (!in(a.saved_boost, -128, 127)) bad(aq + ".saved_boost", "a signed byte");
      point(aq + ".point", a.point);
      point(aq + ".saved_aim", a.saved_aim);
      point(aq + ".stuck_point", a.stuck_point);
      length(aq + ".radius", a.radius, kWorldBound);
      speed(aq + ".speed", a.speed);
      speed(aq + ".corner1", a.corner1);
      speed(aq + ".corner2", a.corner2);
      length(aq + ".near_sq", a.near_sq, kWorldBound * kWorldBound);
      length(aq + ".far_sq", a.far_sq, kWorldBound * kWorldBound);
      // brake_sq is only compared with a squared distance.
    }
  }
  for (std::size_t i = 0; i < kQueueRecords; ++i) {
    const WaypointQueue& q = s.queues[i];
    const std::string at = "queues[" + std::to_string(i) + "]";
    if (!in(q.in_use, 0, 1)) bad(at + ".in_use", "0 or 1");
    if (!in(q.count, 0, kQueuePoints)) bad(at + ".count", "0 to 6 points");
    for (std::size_t k = 0; k < static_cast<std::size_t>(kQueuePoints); ++k) {
      const int32_t hk = q.humans[k];
      if (!slot_ok(hk) || (hk >= 0 && !s.humans[static_cast<std::size_t>(hk)].in_use))
        bad(at + ".humans[" + std::to_string(k) + "]", "not a human in use");
      if (!in(q.settled[k], 0, 1)) bad(at + ".settled[" + std::to_string(k) + "]", "0 or 1");
      point(at + ".points[" + std::to_string(k) + "]", q.points[k]);
    }
    point(at + ".end_a", q.end_a);
    point(at + ".end_b", q.end_b);
  }
  state_ = s;
}

Input WarriorsModel::scripted_input() const {
  Input in;
  // Each player's pad: the last scripted entry at or before this tick (held until the next).
  std::array<int32_t, kSlots> last{};
  last.fill(-1);
  for (std::size_t i = 0; i < pad_script_.size() && pad_script_[i].first <= state_.tick; ++i)
    last[pad_script_[i].second.human] = static_cast<int32_t>(i);
  for (std::size_t s = 0; s < kSlots; ++s)
    if (last[s] >= 0) in.pads.push_back(pad_script_[static_cast<std::size_t>(last[s])].second);
  auto it = std::lower_bound(script_.begin(), script_.end(), state_.tick,
                             [](const auto& e, uint64_t t) { return e.first < t; });
  for (; it != script_.end() && it->first == state_.tick; ++it) in.commands.push_back(it->second);
  return in;
}

// ------------------------------------------------------------ inputs

void WarriorsModel::apply_pad(const Pad& p) { pads_[p.human] = p; }

void WarriorsModel::apply_command(const Command& c) {
  const auto who = static_cast<int32_t>(c.human);
  Human& h = state_.humans[c.human];
  Action a;
  switch (c.kind) {
    case CommandKind::MoveTo:
    case CommandKind::Goal: {
      int32_t gait = c.gait;
      int32_t delay = c.delay_ms;
      Vec3 point = c.point;
      if (c.kind == CommandKind::Goal) {
        const GoalEntry& g = goal_table()[static_cast<std::size_t>(c.goal)];
        if (g.gait >= 0) gait = g.gait;
        if (g.random_delay) delay = state_.rng.goals.next_int(0, kGoalDelayMaxMs);  // Random_IntRange(0, 250)
        if (c.target >= 0) point = state_.humans[static_cast<std::size_t>(c.target)].position;
        clear_actions(who);  // the goal's Resume: Brain_ClearActions, Human_DropTarget
        h.brain.target = -1;
      }
      a.type = 1;
      a.point = point;
      a.radius = c.radius;
      a.gait = gait;
      a.speed = gait == kStand ? 0.0f : speed_for_gait(class_of(h), gait);  // +0x40
      a.delay_ms = delay;
      a.face = c.face;
      queue_action(who, a);
      break;
    }
    case CommandKind::MoveToHuman: {
      a.type = 2;
      a.target = c.target;
      a.near_sq = c.near_dist * c.near_dist;
      a.far_sq = c.far_dist * c.far_dist;
      a.limit_ms = c.limit_ms;
      a.delay_ms = c.delay_ms;
      a.no_stance = (class_of(h).kind == 6 || class_of(h).kind == 7) ? 1 : 0;  // Brain_IsKind6Or7
      queue_action(who, a);
      break;
    }
    case CommandKind::Stop: clear_actions(who); break;
    case CommandKind::JoinQueue: join_queue(who, c.value); break;
    case CommandKind::LeaveQueue: leave_queue(who); break;
    case CommandKind::GiveWay: {
      // Action_GiveWay (0x002fe4b0): for a stander with fewer than 8 queued actions, Brain_PushAside(the
      // other, the stander, the other's position, his forward).
      if (h.brain.queue_count >= static_cast<int32_t>(kQueueSize) || c.target < 0) break;
      const Human& o = state_.humans[static_cast<std::size_t>(c.target)];
      float fx = 0, fy = 0;
      angle::dir_of(o.heading, &fx, &fy);
      push_aside(c.target, who, o.position, Vec3{fx, fy, 0.0f});
      break;
    }
    case CommandKind::Door: set_door_open(static_cast<uint32_t>(c.value), c.field != 0); break;
    case CommandKind::Set: {
      const int32_t v = c.value;
      switch (static_cast<SetField>(c.field)) {
        case SetField::Detail: h.detail = v; break;
        case SetField::TurnBoost: h.brain.turn_boost = v; break;
        case SetField::StartBoost: h.brain.start_boost = v; break;
        case SetField::Wounded: h.wounded = v != 0; break;
        case SetField::FightStance: h.fight_stance = v != 0; break;
        case SetField::Grabbing: h.grabbing = v != 0; break;
        case SetField::HeldFlags: h.held_flags = v != 0; break;
        case SetField::Hold: h.hold = v != 0; break;
        case SetField::TurnLimited: h.turn_limited = v; break;
        case SetField::RearGrabber: h.rear_grabber = v != 0; break;
        case SetField::HeldObject: h.held_object = v; break;
        case SetField::HeldKeep: h.held_keep = v != 0; break;
        case SetField::Airborne: h.airborne = v != 0; break;
        case SetField::Reacting: h.reacting = v != 0; break;
        case SetField::Down: h.down = v != 0; break;
        case SetField::SideFlag: h.side_flag = v != 0; break;
        case SetField::Target: h.brain.target = v; break;
        case SetField::FastClimber: h.fast_climber = v != 0; break;
        case SetField::Follows: h.follows = v; break;
        case SetField::Gang: h.gang = v; break;
        case SetField::GangLeader: h.gang_leader = v != 0; break;
        case SetField::Steering: h.brain.steering.enabled = v != 0; break;
      }
      break;
    }
  }
}

void WarriorsModel::check_input(const Input& in) const {
  const State& st = state_;
  for (std::size_t i = 0; i < in.pads.size(); ++i) {
    const Pad& p = in.pads[i];
    const std::string at = "pads[" + std::to_string(i) + "]";
    if (p.human >= kSlots || !st.humans[p.human].in_use || !st.humans[p.human].has_pad)
      throw InputError("input", at + ".human", "slot " + std::to_string(p.human) + " is not a player with a pad");
    for (std::size_t k = 0; k < i; ++k)
      if (in.pads[k].human == p.human)
        throw InputError("input", at + ".human", "a second pad for slot " + std::to_string(p.human) + " (pads[" +
                                                     std::to_string(k) + "] is his): one pad a player an update");
    // A31: each axis as the pad reports it, [-1, 1]; 16 buttons.
    if (!(p.stick_x >= -1.0f && p.stick_x <= 1.0f))
      throw InputError("input", at + ".stick_x", "a stick axis is in [-1, 1], got " + num(p.stick_x));
    if (!(p.stick_y >= -1.0f && p.stick_y <= 1.0f))
      throw InputError("input", at + ".stick_y", "a stick axis is in [-1, 1], got " + num(p.stick_y));
    if (p.buttons > kPadButtonsMask)
      throw InputError("input", at + ".buttons", "the pad has 16 buttons (0 to 65535), got " + std::to_string(p.buttons));
  }
  auto slot = [&](int32_t v, bool allow_none) {
    return (allow_none && v == -1) || (v >= 0 && v < static_cast<int32_t>(kSlots) && st.humans[static_cast<std::size_t>(v)].in_use);
  };
  for (std::size_t i = 0; i < in.commands.size(); ++i) {
    const Command& c = in.commands[i];
    const std::string at = "commands[" + std::to_string(i) + "]";
    if (c.kind == CommandKind::Door) continue;  // any door number: one the level lacks does nothing
    if (c.human >= kSlots || !st.humans[c.human].in_use)
      throw InputError("input", at + ".human", "slot " + std::to_string(c.human) + " holds no human");
    const int32_t k = static_cast<int32_t>(c.kind);
    if (c.kind == CommandKind::JoinQueue &&
        (c.value < 0 || c.value >= static_cast<int32_t>(kQueueRecords) || !st.queues[static_cast<std::size_t>(c.value)].in_use))
      throw InputError("input", at + ".value", "no waypoint queue " + std::to_string(c.value));
    if (k < 1 || k > 9) throw InputError("input", at + ".kind", "unknown command kind " + std::to_string(k));
    if (c.kind != CommandKind::Set && !st.humans[c.human].is_ai)
      throw InputError("input", at + ".human", "slot " + std::to_string(c.human) + " has no brain");
    if (c.gait < 0 || c.gait > 5) throw InputError("input", at + ".gait", "a gait is 0 to 5");
    auto finite = [](float v) { return v - v == 0.0f; };
    if (!finite(c.point.x) || !finite(c.point.y) || !finite(c.point.z))
      throw InputError("input", at + ".point", "not a finite point");
    if (const char* xyz = beyond(c.point, kWorldBound))
      throw InputError("input", at + ".point." + xyz, "expected a coordinate within +-" + kWorldText +
                                                          " m (the world's bound), got " + num(component(c.point, xyz)));
    if (!finite(c.radius) || c.radius < 0.0f) throw InputError("input", at + ".radius", "expected a radius >= 0");
    if (!(c.radius <= kWorldBound))
      throw InputError("input", at + ".radius", "expected a radius at most " + kWorldText + " m, got " + num(c.radius));
    if (c.delay_ms < 0) throw InputError("input", at + ".delay_ms", "expected a delay >= 0 ms");
    if (c.delay_ms > kMaxClockMs)
      throw InputError("input", at + ".delay_ms",
                       "expected a delay at most 1073741824 ms (2^30, the clock's limit), got " + std::to_string(c.delay_ms));
    if (c.limit_ms < 0) throw InputError("input", at + ".limit_ms", "expected a time limit >= 0 ms");
    if (!finite(c.near_dist) || !finite(c.far_dist) || c.near_dist < 0.0f || c.far_dist < c.near_dist)
      throw InputError("input", at + ".near", "expected 0 <= near <= far");
    if (!(c.far_dist <= kWorldBound))
      throw InputError("input", at + ".far", "expected a range at most " + kWorldText + " m, got " + num(c.far_dist));
    if (c.face == static_cast<int32_t>(c.human) || (c.target == static_cast<int32_t>(c.human) && c.kind != CommandKind::Set))
      throw InputError("input", at + ".target", "a human cannot face or approach himself");
    if (!slot(c.face, true)) throw InputError("input", at + ".face", "not a human's slot");
    if (!slot(c.target, c.kind != CommandKind::MoveToHuman))
      throw InputError("input", at + ".target", "not a human's slot");
    if (c.kind == CommandKind::Goal && (c.goal < 0 || static_cast<std::size_t>(c.goal) >= goal_table().size()))
      throw InputError("input", at + ".goal", "unknown goal " + std::to_string(c.goal));
    if (c.kind == CommandKind::Set) {
      if (c.field < 1 || c.field > static_cast<int32_t>(SetField::Steering))
        throw InputError("input", at + ".field", "unknown field " + std::to_string(c.field));
      const auto f = static_cast<SetField>(c.field);
      if (f == SetField::Detail && (c.value < 0 || c.value > 3)) throw InputError("input", at + ".value", "a detail level is 0 to 3");
      if ((f == SetField::Target || f == SetField::Follows) && !slot(c.value, true))
        throw InputError("input", at + ".value", "not a human's slot");
      if (f == SetField::Gang && (c.value < 0 || c.value > 255)) throw InputError("input", at + ".value", "a gang is 0 to 255");
      if (f == SetField::TurnLimited && c.value != 0 && c.value != 4 && c.value != 6)
        throw InputError("input", at + ".value", "turn_limited is 0, 4 or 6");
      if ((f == SetField::TurnBoost || f == SetField::StartBoost) && (c.value < -128 || c.value > 127))
        throw InputError("input", at + ".value", "a boost is a signed byte");
    }
  }
}

// ------------------------------------------------------------ the tick

void WarriorsModel::step(const Input& input) {
  {
    const auto phase = phases_.scope(kInputs);
    check_input(input);  // refused before anything changes
    // A30: the clock of the next update must stay within 2^30 ms.
    if (state_.tick >= kMaxTicks)
      throw InputError("state", "tick", "the run is at its longest, " + std::to_string(kMaxTicks) +
                                            " updates (the clock's limit, 2^30 ms = 12.4 days)");
    // 1. The clock: integer milliseconds of the update being run.
    state_.clock.now_ms = static_cast<int32_t>((state_.tick + 1) * 1000u / kTickRateHz);  // <= 2^30: tick < kMaxTicks
    // 2. Inputs.
    for (auto& p : pads_) p = Pad{};
    for (const auto& p : input.pads) apply_pad(p);
    for (const auto& c : input.commands) apply_command(c);
  }
  {
    // 3. Brains think, by slot.
    const auto phase = phases_.scope(kThink);
    for (uint32_t i = 0; i < kSlots; ++i) {
      think_pos_[i] = state_.humans[i].position;
      think_used_[i] = state_.humans[i].in_use ? 1 : 0;
    }
    think_pos_valid_ = true;
    for (uint32_t i = 0; i < kSlots; ++i) {
      const Human& h = state_.humans[i];
      if (h.in_use && h.is_ai) think(static_cast<int32_t>(i));
    }
    // WarriorFollowTactic: each gang's leader clears his way on its timer, every 1000 ms (250 while he
    // holds an object), 5 ms after a call that pushed someone (G7: after the brains, by slot).
    for (uint32_t i = 0; i < kSlots; ++i) {
      Human& h = state_.humans[i];
      if (!h.in_use || !h.gang_leader || h.gang == 0 || state_.clock.now_ms < h.gang_timer_ms) continue;
      const bool pushed = gang_clear_way(static_cast<int32_t>(i), 40.0f);
      h.gang_timer_ms = state_.clock.now_ms + (pushed ? kGangTimerPushedMs : h.held_object ? kGangTimerHeldMs : kGangTimerMs);
    }
    think_pos_valid_ = false;
    // The waypoint queues, after the brains (0x00299778).
    update_queues();
  }
  {
    // 4. Controls and moves, by slot.
    const auto phase = phases_.scope(kControl);
    for (uint32_t i = 0; i < kSlots; ++i) {
      const Human& h = state_.humans[i];
      if (!h.in_use) continue;
      if (h.has_pad) player_locomotion(static_cast<int32_t>(i));
      else if (h.is_ai) control(static_cast<int32_t>(i));
    }
  }
  ++state_.tick;
}

}  // namespace lockstep::warriors
