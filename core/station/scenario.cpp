// Scenario loading and validation (errors name the JSON path), and the
// compiled geometry the step reads: wall segments and their 2 m grid.
#include <algorithm>
#include <cmath>
#include <string>

#include "station/station.h"

namespace lockstep::station {

namespace {

std::string at(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

int32_t floor_index(const Scenario& sc, const std::string& id) {
  if (id.empty()) return 0;
  for (std::size_t i = 0; i < sc.floors.size(); ++i)
    if (sc.floors[i].id == id) return static_cast<int32_t>(i);
  return -1;
}

int32_t portal_index(const Scenario& sc, const std::string& id) {
  for (std::size_t i = 0; i < sc.portals.size(); ++i)
    if (sc.portals[i].id == id) return static_cast<int32_t>(i);
  return -1;
}

int mode_code(const std::string& m) {
  if (m == "spawn") return 0;
  if (m == "despawn") return 1;
  if (m == "both") return 2;
  return -1;
}

// Limits (docs/station.md, "Limits"): every coordinate within +-10 km, so that
// no difference, product or grid index of the plan can overflow.
bool coord_ok(V2 p) { return p.x >= -kMaxCoord && p.x <= kMaxCoord && p.y >= -kMaxCoord && p.y <= kMaxCoord; }

void check_point(const JsonReader& r, V2 p, const std::string& path) {
  if (!coord_ok(p))
    r.fail(path, "a coordinate must lie within +-" + num_text(kMaxCoord) + " m of the origin (10 km), got [" + num_text(p.x) +
                     ", " + num_text(p.y) + "]");
}

void check_polygon(const JsonReader& r, const Polygon& p, const std::string& path) {
  if (p.size() < 3) r.fail(path, "a polygon needs at least 3 corners, got " + std::to_string(p.size()));
  for (std::size_t i = 0; i < p.size(); ++i) check_point(r, p[i], at(path, i));
  const float a = signed_area(p);
  if (!(a > 1e-6f || a < -1e-6f)) r.fail(path, "a polygon needs a non-zero area");
}

// S26: does the solid cross the edge of the outline: an edge of each crossing the
// other's properly, or corners strictly inside and strictly outside it (a
// corner on the outline's edge counts as neither)? The trajectory file's
// geometry is each outline with the solids inside it as holes, which a solid
// across the edge cannot be (docs/trajectories.md); run and trajectory refuse
// it alike.
bool solid_crosses(const Polygon& solid, const Polygon& outline) {
  const std::size_t ns = solid.size(), no = outline.size();
  for (std::size_t i = 0; i < ns; ++i)
    for (std::size_t k = 0; k < no; ++k) {
      const V2 a = solid[i], b = solid[(i + 1) % ns], c = outline[k], d = outline[(k + 1) % no];
      const float d1 = cross(b - a, c - a), d2 = cross(b - a, d - a), d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
      if (((d1 > 0.0f && d2 < 0.0f) || (d1 < 0.0f && d2 > 0.0f)) && ((d3 > 0.0f && d4 < 0.0f) || (d3 < 0.0f && d4 > 0.0f)))
        return true;
    }
  auto on_edge = [](const Polygon& poly, V2 p) {
    for (std::size_t k = 0; k < poly.size(); ++k)
      if (sqr_length(closest_on_segment(p, poly[k], poly[(k + 1) % poly.size()]) - p) < 1e-10f) return true;
    return false;
  };
  bool in = false, out = false;
  for (const V2& q : solid) {
    if (on_edge(outline, q)) continue;
    (inside(outline, q) ? in : out) = true;
  }
  for (const V2& q : outline) {
    if (on_edge(solid, q)) continue;
    if (inside(solid, q)) in = out = true;  // the outline reaches into the solid
  }
  return in && out;
}

// Do the two polygons share floor area: an edge of each crossing the other's
// properly, or a corner of one strictly inside the other?
bool polygons_overlap(const Polygon& a, const Polygon& b) {
  if (solid_crosses(a, b) || solid_crosses(b, a)) return true;
  for (const V2& q : a)
    if (inside(b, q)) return true;
  for (const V2& q : b)
    if (inside(a, q)) return true;
  return false;
}

// Whole metres of a span for a message (a span of any finite floats: the conversion stays in range).
std::string metres(double d) { return d < 1e15 ? std::to_string(static_cast<int64_t>(d)) : std::string("more than 10^15"); }

std::string floor_ids(const Scenario& sc) {
  std::string s;
  for (const auto& f : sc.floors) s += (s.empty() ? "" : ", ") + std::string("\"") + f.id + "\"";
  return s;
}

/// A floor's routing grid input: its outlines, its solid blockers and its walls, with its gates'
/// mouths as walls or not (the route runs through gates; S45's check of the way they run does not).
GridInput grid_input(const FloorGeom& g, bool gate_mouths) {
  GridInput gi;
  for (const auto& poly : g.walkable) gi.walkable.push_back(GridPolygon{poly});
  for (const auto& poly : g.blockers) gi.blockers.push_back(GridPolygon{poly});
  for (const Wall& w : g.walls)
    if (gate_mouths || w.kind != WallKind::GateMouth) gi.wall_set.push_back(WallSegment{w.a, w.b});
  return gi;
}

bool in_solid(const Scenario& sc, uint32_t f, V2 p) {
  const auto& fl = sc.floors[f];
  bool walk = false;
  for (const auto& w : fl.walkable) walk = walk || inside(w, p);
  if (!walk) return true;
  for (const auto* set : {&fl.obstacles, &fl.holes, &fl.voids})
    for (const auto& b : *set)
      if (inside(b, p)) return true;
  return false;
}

}  // namespace

Scenario StationModel::load_scenario(const Json& j, const JsonReader& r) {
  Scenario sc;
  r.read(j, sc, "$");
  if (sc.model != "station") r.fail("$.model", "expected \"station\", got \"" + sc.model + "\"");
  // S1: the tick is fixed at 20 Hz; a recording's tick rate is the model's.
  if (sc.dt != kDt)
    r.fail("$.dt", "the station model steps at 20 Hz: dt must be 0.05 s (got " + std::to_string(sc.dt) +
                       "); run more ticks for a longer time instead");
  if (sc.ticks > kMaxTicks)
    r.fail("$.ticks", "a run is at most " + std::to_string(kMaxTicks) + " ticks (a walker's done_tick is a u32), got " +
                          std::to_string(sc.ticks));
  if (sc.keep != "right" && sc.keep != "left") r.fail("$.keep", "expected \"right\" or \"left\", got \"" + sc.keep + "\"");
  if (!(sc.unstick_s > 0.0f)) r.fail("$.unstick_s", "expected a time > 0 s");
  if (sc.route != "stair" && sc.route != "elevator")
    r.fail("$.route", "expected \"stair\" (the default route) or \"elevator\" (everyone prefers the lift), got \"" + sc.route + "\"");
  if (!(sc.teleport_lock_s >= 0.0f && sc.teleport_lock_s <= kMaxTeleportLockS))
    r.fail("$.teleport_lock_s", "expected 0 .. " + num_text(kMaxTeleportLockS) + " s");
  const auto& pop = sc.population;
  if (!(pop.desired_speed > 0.0f)) r.fail("$.population.desired_speed", "expected a speed > 0 m/s");
  if (!(pop.radius > 0.0f)) r.fail("$.population.radius", "expected a radius > 0 m");
  if (!(pop.p_impaired >= 0.0f && pop.p_impaired <= 1.0f)) r.fail("$.population.p_impaired", "expected a probability 0..1");
  if (!(pop.p_disable >= 0.0f && pop.p_disable <= 1.0f)) r.fail("$.population.p_disable", "expected a probability 0..1");
  {
    // The fastest and largest walker sampling can make (u = 1: the speed, and
    // with it the radius, grows with u), against the limits: the routing
    // grid's largest body, and a speed whose moves stay inside the walls each
    // walker gathers per tick (docs/station.md, "Limits").
    const Sampled top = sample_body(pop, 1.0f);
    if (!(top.desired_speed <= kMaxDesiredSpeed))
      r.fail("$.population.desired_speed", "with speed_jitter " + num_text(pop.speed_jitter) + " the fastest walker would want " +
                                               num_text(top.desired_speed) + " m/s; at most " + num_text(kMaxDesiredSpeed) + " m/s");
    if (!(top.radius <= kMaxRadius))
      r.fail("$.population.radius", "the largest sampled body would be " + num_text(top.radius) + " m (1.02 x the base); at most " +
                                        num_text(kMaxRadius) + " m, the routing grid's largest body");
  }

  if (sc.floors.empty()) r.fail("$.floors", "expected at least one floor");
  for (std::size_t f = 0; f < sc.floors.size(); ++f) {
    const auto& fl = sc.floors[f];
    const std::string fp = at("$.floors", f);
    for (std::size_t g = 0; g < f; ++g)
      if (sc.floors[g].id == fl.id) r.fail(fp + ".id", "duplicate floor id \"" + fl.id + "\"");
    if (fl.walkable.empty()) r.fail(fp + ".walkable", "expected at least one walkable outline");
    {
      // The routing grid's size limit, checked here so that a vast floor is a
      // scenario error by JSON path and not a failed allocation later.
      double lx = 0, ly = 0, hx = 0, hy = 0;
      bool first = true;
      for (const auto& poly : fl.walkable)
        for (const auto& p : poly) {
          lx = first || p.x < lx ? p.x : lx, ly = first || p.y < ly ? p.y : ly;
          hx = first || p.x > hx ? p.x : hx, hy = first || p.y > hy ? p.y : hy;
          first = false;
        }
      const double cells = (std::floor((hx - lx) / kNavCell) + 1.0) * (std::floor((hy - ly) / kNavCell) + 1.0);
      if (!first && cells > static_cast<double>(NavGrid::kMaxCells))
        r.fail(fp + ".walkable", "the floor spans " + metres(hx - lx) + " x " + metres(hy - ly) +
                                     " m; its 0.7 m routing grid would need more than " +
                                     std::to_string(NavGrid::kMaxCells) + " cells");
    }
    // (After the span, so that a vast floor is named as one.)
    for (std::size_t k = 0; k < fl.walkable.size(); ++k) check_polygon(r, fl.walkable[k], at(fp + ".walkable", k));
    for (std::size_t k = 0; k < fl.obstacles.size(); ++k) check_polygon(r, fl.obstacles[k], at(fp + ".obstacles", k));
    for (std::size_t k = 0; k < fl.holes.size(); ++k) check_polygon(r, fl.holes[k], at(fp + ".holes", k));
    for (std::size_t k = 0; k < fl.voids.size(); ++k) check_polygon(r, fl.voids[k], at(fp + ".voids", k));
    for (const auto& [key, set] : {std::pair<const char*, const std::vector<Polygon>*>{".obstacles", &fl.obstacles},
                                   {".holes", &fl.holes}, {".voids", &fl.voids}})
      for (std::size_t k = 0; k < set->size(); ++k)
        for (std::size_t w = 0; w < fl.walkable.size(); ++w)
          if (solid_crosses((*set)[k], fl.walkable[w]))
            r.fail(at(fp + key, k), "crosses the edge of walkable outline " + std::to_string(w) +
                                        " (" + fp + ".walkable[" + std::to_string(w) + "]); clip it to the outline");
    for (std::size_t k = 0; k < fl.walls.size(); ++k) {
      const auto& w = fl.walls[k];
      if (!coord_ok(V2{w.x0, w.y0}) || !coord_ok(V2{w.x1, w.y1}))
        r.fail(at(fp + ".walls", k), "a coordinate must lie within +-" + num_text(kMaxCoord) + " m of the origin (10 km)");
      if (w.x0 == w.x1 && w.y0 == w.y1) r.fail(at(fp + ".walls", k), "a wall needs two distinct ends");
    }
  }

  // Zones (issue 19; docs/station-connectors.md): stairs, escalators and gates so far.
  {
    float body = sample_body(pop, 1.0f).radius;  // the largest body that may use a flight
    for (const auto& ws : sc.walkers) body = ws.radius > body ? ws.radius : body;
    for (std::size_t z = 0; z < sc.zones.size(); ++z) {
      const auto& zs = sc.zones[z];
      const std::string zp = at("$.zones", z);
      if (zs.id.empty()) r.fail(zp + ".id", "expected a zone id");
      for (std::size_t q = 0; q < z; ++q)
        if (sc.zones[q].id == zs.id) r.fail(zp + ".id", "duplicate zone id \"" + zs.id + "\"");
      const bool esc = zs.kind == "escalator", gate = zs.kind == "gate", lift = zs.kind == "elevator";
      if (zs.kind != "stair" && !esc && !gate && !lift)
        r.fail(zp + ".kind", "expected \"stair\", \"escalator\", \"gate\" or \"elevator\", got \"" + zs.kind + "\"");
      const std::string what = esc ? "an escalator" : (gate ? "a gate" : (lift ? "an elevator landing" : "a stair"));
      if (lift) {
        // seed 002, Elevator: "Two or more landings share the pair_id, one per floor the car stops on."
        if (zs.pair_id.empty()) r.fail(zp + ".pair_id", "an elevator landing needs the pair_id of its car (its landings share it)");
        std::size_t landings = 0;
        for (std::size_t q = 0; q < sc.zones.size(); ++q) {
          const auto& o = sc.zones[q];
          if (zs.pair_id.empty() || o.pair_id != zs.pair_id) continue;
          ++landings;
          if (q >= z) continue;
          if (o.kind != "elevator")
            r.fail(zp + ".pair_id", "zone \"" + o.id + "\" (a " + o.kind + ") has pair_id \"" + zs.pair_id + "\" too: a car's landings are elevator zones only");
          else if (floor_index(sc, o.floor) == floor_index(sc, zs.floor))
            r.fail(zp + ".floor", "zone \"" + o.id + "\" is this car's landing on floor \"" + zs.floor + "\" already: one landing per floor");
          else if (o.hold_s != zs.hold_s || o.delay_s != zs.delay_s || o.capacity != zs.capacity || o.door != zs.door)
            r.fail(zp, "zone \"" + o.id + "\" is a landing of the same car: give every landing the same hold_s, delay_s, capacity and door");
        }
        if (!zs.pair_id.empty() && landings < 2)
          r.fail(zp + ".pair_id", "an elevator's car needs two or more landings sharing pair_id \"" + zs.pair_id + "\"; this is its only one");
        if (!zs.to_floor.empty()) r.fail(zp + ".to_floor", "a landing is on one floor (its car joins the floors of its landings): leave to_floor out");
        if (!zs.dir.empty()) r.fail(zp + ".dir", "a car runs to any called floor: leave dir out");
        if (!(zs.hold_s > 0.0f && zs.hold_s <= kMaxHoldS)) r.fail(zp + ".hold_s", "expected a time > 0 .. " + num_text(kMaxHoldS) + " s");
        if (!(zs.delay_s > 0.0f && zs.delay_s <= kMaxLiftDelayS))
          r.fail(zp + ".delay_s", "expected a time > 0 .. " + num_text(kMaxLiftDelayS) + " s per storey");
        if (zs.capacity > kMaxCapacity) r.fail(zp + ".capacity", "expected 0 (by the landing's area) .. " + std::to_string(kMaxCapacity) + " riders");
      } else if (!gate) {
        if (zs.pair_id.empty()) r.fail(zp + ".pair_id", what + " needs a pair_id (seed 002: a zone with a pair_id)");
        for (std::size_t q = 0; q < z; ++q)
          if (!zs.pair_id.empty() && sc.zones[q].pair_id == zs.pair_id)
            r.fail(zp + ".pair_id", "zone \"" + sc.zones[q].id + "\" has pair_id \"" + zs.pair_id + "\" too: " + what + " is one zone, both its mouths");
      }
      const int32_t f0 = floor_index(sc, zs.floor);
      int32_t f1 = floor_index(sc, zs.to_floor);
      if (f0 < 0) r.fail(zp + ".floor", "no floor \"" + zs.floor + "\" (floors: " + floor_ids(sc) + ")");
      if (lift) {
        f1 = f0;
      } else if (gate) {
        // "Same-floor fare gates ... without a floor change": both mouths on `floor`.
        if (!zs.to_floor.empty()) r.fail(zp + ".to_floor", "a gate is on one floor (seed 002: without a floor change): leave to_floor out");
        f1 = f0;
      } else {
        if (zs.to_floor.empty()) r.fail(zp + ".to_floor", what + " joins two floors: expected the floor of its mouth 2");
        if (f1 < 0) r.fail(zp + ".to_floor", "no floor \"" + zs.to_floor + "\" (floors: " + floor_ids(sc) + ")");
        if (f0 == f1) r.fail(zp + ".to_floor", "the same floor as its mouth 0's: " + what + " joins two floors");
      }
      if (!zs.dir.empty() && zs.dir != "both" && zs.dir != "along" && zs.dir != "against")
        r.fail(zp + ".dir", "expected \"both\", \"along\" or \"against\", got \"" + zs.dir + "\"");
      else if (esc && zs.dir == "both")
        r.fail(zp + ".dir", "an escalator runs one way (seed 002): expected \"along\" (floor -> to_floor) or \"against\"");
      if (!(zs.stop_delay_s >= 0.0f && zs.stop_delay_s <= kMaxStopDelayS))
        r.fail(zp + ".stop_delay_s", "expected 0 .. " + num_text(kMaxStopDelayS) + " s (the walker is held this long the first time it enters)");
      if ((esc || gate) && !(zs.belt_speed >= kMinBeltSpeed && zs.belt_speed <= kMaxBeltSpeed))
        r.fail(zp + ".belt_speed", "expected " + num_text(kMinBeltSpeed) + " .. " + num_text(kMaxBeltSpeed) + " m/s");
      if (!(zs.speed_factor >= kMinStairFactor && zs.speed_factor <= kMaxStairFactor))
        r.fail(zp + ".speed_factor", "expected " + num_text(kMinStairFactor) + " .. " + num_text(kMaxStairFactor) + " (the speed on the flight is desired_speed x this)");
      const Polygon& pg = zs.polygon;
      if (pg.size() != 4) r.fail(zp + ".polygon", "a flight is a rectangle: expected 4 corners, got " + std::to_string(pg.size()));
      check_polygon(r, pg, zp + ".polygon");
      const V2 e0 = pg[1] - pg[0], e1 = pg[2] - pg[1];
      const float w = length(e0), l = length(e1);
      if (length(pg[0] + e1 - pg[3]) > 1e-3f || !(std::fabs(dot(e0, e1)) <= 1e-3f * (w > l ? w : l)))
        r.fail(zp + ".polygon", "a flight is a rectangle: its corners must make right angles (within 1 mm)");
      if (!(w >= 2.0f * body + 0.1f))
        r.fail(zp + ".polygon", "the flight is " + num_text(w) + " m wide (corners 0 -> 1); the largest body (radius " + num_text(body) +
                                    " m) needs " + num_text(2.0f * body + 0.1f) + " m");
      if (!(l >= 2.0f * body))
        r.fail(zp + ".polygon", "the flight is " + num_text(l) + " m long (corners 1 -> 2); at least " + num_text(2.0f * body) + " m");
      for (const auto& [fi, key] : {std::pair<int32_t, const char*>{f0, ".floor"}, {f1, ".to_floor"}}) {
        if (lift && zs.door) continue;  // a door landing is its shaft: solid (a void under it is the seed's "shaft")
        const auto& fl = sc.floors[static_cast<std::size_t>(fi)];
        for (const auto* set : {&fl.obstacles, &fl.holes, &fl.voids})
          for (const auto& b : *set)
            if (polygons_overlap(b, pg))
              r.fail(zp + ".polygon", "the flight overlaps a solid (obstacle, hole or void) of floor \"" + fl.id +
                                          "\": leave the flight's footprint out of it");
        (void)key;
      }
      // Each mouth opens onto its floor: the point 0.1 m out of its middle is open floor.
      const V2 ax = e1 * (1.0f / l);
      const V2 m0 = (pg[0] + pg[1]) * 0.5f - ax * 0.1f, m2 = (pg[2] + pg[3]) * 0.5f + ax * 0.1f;
      if ((!lift || zs.door) && in_solid(sc, static_cast<uint32_t>(f0), m0))
        r.fail(zp + ".polygon", std::string(lift ? "the door" : "mouth 0") + " (corners 0 -> 1) does not open onto floor \"" + sc.floors[static_cast<std::size_t>(f0)].id +
                                    "\": the floor must meet the " + (lift ? "door" : "mouth"));
      if (lift && !zs.door && in_solid(sc, static_cast<uint32_t>(f0), (pg[0] + pg[2]) * 0.5f))
        r.fail(zp + ".polygon", "a landing without a door is entered from any edge and stepped off across it: it must lie on open floor");
      if (!lift && in_solid(sc, static_cast<uint32_t>(f1), m2))
        r.fail(zp + ".polygon", "mouth 2 (corners 2 -> 3) does not open onto floor \"" + sc.floors[static_cast<std::size_t>(f1)].id +
                                    "\": the floor must meet the mouth");
      for (std::size_t q = 0; q < z; ++q) {
        const auto& o = sc.zones[q];
        const int32_t g0 = floor_index(sc, o.floor), g1 = o.kind == "gate" || o.kind == "elevator" ? g0 : floor_index(sc, o.to_floor);
        const bool shared = g0 == f0 || g0 == f1 || g1 == f0 || g1 == f1;
        if (shared && polygons_overlap(o.polygon, pg)) r.fail(zp + ".polygon", "overlaps zone \"" + o.id + "\"'s flight on a floor they share");
      }
    }
  }

  const auto n_portals = sc.portals.size();
  for (std::size_t p = 0; p < n_portals; ++p) {
    const auto& po = sc.portals[p];
    const std::string pp = at("$.portals", p);
    if (po.id.empty()) r.fail(pp + ".id", "expected a portal id");
    for (std::size_t q = 0; q < p; ++q)
      if (sc.portals[q].id == po.id) r.fail(pp + ".id", "duplicate portal id \"" + po.id + "\"");
    if (floor_index(sc, po.floor) < 0) r.fail(pp + ".floor", "no floor \"" + po.floor + "\" (floors: " + floor_ids(sc) + ")");
    check_polygon(r, po.polygon, pp + ".polygon");
    if (mode_code(po.mode) < 0) r.fail(pp + ".mode", "expected \"spawn\", \"despawn\" or \"both\", got \"" + po.mode + "\"");
    if (!(po.rate_per_min >= 0.0f)) r.fail(pp + ".rate_per_min", "expected a rate >= 0 per minute");
    if (!(po.start_s >= 0.0f)) r.fail(pp + ".start_s", "expected a time >= 0 s");
  }
  auto accepts = [&](int32_t q) { return q >= 0 && mode_code(sc.portals[static_cast<std::size_t>(q)].mode) != 0; };
  uint64_t total = sc.walkers.size();
  for (std::size_t p = 0; p < n_portals; ++p) {
    const auto& po = sc.portals[p];
    const std::string pp = at("$.portals", p);
    bool positive = false;
    for (std::size_t t = 0; t < po.targets.size(); ++t) {
      const auto& tg = po.targets[t];
      const std::string tp = at(pp + ".targets", t);
      const int32_t q = portal_index(sc, tg.portal);
      if (q < 0) r.fail(tp + ".portal", "no portal \"" + tg.portal + "\"");
      if (!accepts(q)) r.fail(tp + ".portal", "portal \"" + tg.portal + "\" does not accept arrivals (its mode is spawn)");
      if (!(tg.weight >= 0.0f && tg.weight <= kMaxWeight))
        r.fail(tp + ".weight", "expected a weight 0 .. " + num_text(kMaxWeight) + " (their sum must stay finite)");
      if (tg.weight > 0.0f) positive = true;
    }
    if (!po.targets.empty() && !positive) r.fail(pp + ".targets", "expected at least one target with a weight > 0");
    if (!po.target.empty()) {
      const int32_t q = portal_index(sc, po.target);
      if (q < 0) r.fail(pp + ".target", "no portal \"" + po.target + "\"");
      if (!accepts(q)) r.fail(pp + ".target", "portal \"" + po.target + "\" does not accept arrivals (its mode is spawn)");
    }
    const bool spawns = mode_code(po.mode) != 1 && po.count > 0;
    if (spawns && po.targets.empty() && po.target.empty()) {
      bool any = false;
      for (std::size_t q = 0; q < n_portals; ++q) any = any || (q != p && accepts(static_cast<int32_t>(q)));
      if (!any) r.fail(pp, "spawns walkers but no other portal accepts arrivals");
    }
    if (mode_code(po.mode) != 1) total += po.count;
  }
  if (total > kMaxWalkers) r.fail("$", "more than 2,000,000 walkers (" + std::to_string(total) + ")");

  for (std::size_t w = 0; w < sc.walkers.size(); ++w) {
    const auto& ws = sc.walkers[w];
    const std::string wp = at("$.walkers", w);
    const int32_t f = floor_index(sc, ws.floor);
    if (f < 0) r.fail(wp + ".floor", "no floor \"" + ws.floor + "\" (floors: " + floor_ids(sc) + ")");
    const int32_t d = portal_index(sc, ws.destination);
    if (d < 0) r.fail(wp + ".destination", "no portal \"" + ws.destination + "\"");
    if (!accepts(d)) r.fail(wp + ".destination", "portal \"" + ws.destination + "\" does not accept arrivals (its mode is spawn)");
    if (!ws.trip.empty() && ws.trip != "board" && ws.trip != "alight")
      r.fail(wp + ".trip", "expected \"board\" or \"alight\", got \"" + ws.trip + "\"");
    if (!(ws.desired_speed >= 0.0f && ws.desired_speed <= kMaxDesiredSpeed))
      r.fail(wp + ".desired_speed", "expected a speed 0 .. " + num_text(kMaxDesiredSpeed) + " m/s (0: the population's)");
    if (!(ws.radius >= 0.0f && ws.radius <= kMaxRadius))
      r.fail(wp + ".radius", "expected a radius 0 .. " + num_text(kMaxRadius) + " m (0: the population's; " +
                                 num_text(kMaxRadius) + " m is the routing grid's largest body)");
    if (!(std::fabs(ws.velocity.x) <= kMaxImpulse && std::fabs(ws.velocity.y) <= kMaxImpulse))
      r.fail(wp + ".velocity", "expected at most " + num_text(kMaxImpulse) + " m/s in x and in y, got [" + num_text(ws.velocity.x) +
                                   ", " + num_text(ws.velocity.y) + "]");
    for (std::size_t k = 0; k < ws.waypoints.size(); ++k) check_point(r, ws.waypoints[k], at(wp + ".waypoints", k));
    bool on_flight = false;  // a flight is part of both floors it joins
    for (const auto& zs : sc.zones)
      on_flight = on_flight || (zs.kind != "elevator" && inside(zs.polygon, ws.position) &&
                                (floor_index(sc, zs.floor) == f || floor_index(sc, zs.to_floor) == f));
    if (!on_flight && in_solid(sc, static_cast<uint32_t>(f), ws.position))
      r.fail(wp + ".position", "the walker stands outside the walkable floor or inside a solid");
    for (std::size_t k = 0; k < w; ++k)
      if (sc.walkers[k].position == ws.position && floor_index(sc, sc.walkers[k].floor) == f)
        r.fail(wp + ".position", "walker " + std::to_string(k) + " stands on the same spot");
  }
  for (std::size_t a = 0; a < sc.areas.size(); ++a) {
    const auto& ar = sc.areas[a];
    if (floor_index(sc, ar.floor) < 0)
      r.fail(at("$.areas", a) + ".floor", "no floor \"" + ar.floor + "\" (floors: " + floor_ids(sc) + ")");
    check_polygon(r, ar.polygon, at("$.areas", a) + ".polygon");
  }
  for (std::size_t e = 0; e < sc.script.size(); ++e) {
    const auto& ev = sc.script[e];
    if (ev.kind != "impulse" && ev.kind != "remove")
      r.fail(at("$.script", e) + ".kind", "expected \"impulse\" or \"remove\", got \"" + ev.kind + "\"");
    if (ev.walker >= total)
      r.fail(at("$.script", e) + ".walker",
             "no walker " + std::to_string(ev.walker) + " (the scenario can have " + std::to_string(total) + ")");
    if (ev.tick >= kMaxTicks)
      r.fail(at("$.script", e) + ".tick", "expected a tick below " + std::to_string(kMaxTicks) + " (the longest run), got " +
                                              std::to_string(ev.tick));
    if (ev.kind == "impulse" && !(std::fabs(ev.value.x) <= kMaxImpulse && std::fabs(ev.value.y) <= kMaxImpulse))
      r.fail(at("$.script", e) + ".value", "an impulse is a velocity change of at most " + num_text(kMaxImpulse) +
                                               " m/s in x and in y, got [" + num_text(ev.value.x) + ", " + num_text(ev.value.y) + "]");
  }
  return sc;
}

namespace {

void build_wall_grid(FloorGeom& g) {
  CellGrid& gr = g.wall_grid;
  gr.cell = 2.0f;
  gr.x0 = g.minx - 1.0f;
  gr.y0 = g.miny - 1.0f;
  // The floor lies within +-10 km (load_scenario): nx, ny <= 10,002, indices below 2^27.
  gr.nx = static_cast<int32_t>((g.maxx + 1.0f - gr.x0) / gr.cell) + 1;
  gr.ny = static_cast<int32_t>((g.maxy + 1.0f - gr.y0) / gr.cell) + 1;
  const std::size_t ncell = static_cast<std::size_t>(gr.nx) * static_cast<std::size_t>(gr.ny);
  std::vector<std::vector<uint32_t>> cells(ncell);
  for (std::size_t w = 0; w < g.walls.size(); ++w) {
    const Wall& wl = g.walls[w];
    const int32_t x0 = gr.cx(std::min(wl.a.x, wl.b.x)), x1 = gr.cx(std::max(wl.a.x, wl.b.x));
    const int32_t y0 = gr.cy(std::min(wl.a.y, wl.b.y)), y1 = gr.cy(std::max(wl.a.y, wl.b.y));
    for (int32_t y = y0; y <= y1; ++y)
      for (int32_t x = x0; x <= x1; ++x) {
        // Only cells the segment comes within half a cell diagonal of.
        const V2 c{gr.x0 + (static_cast<float>(x) + 0.5f) * gr.cell, gr.y0 + (static_cast<float>(y) + 0.5f) * gr.cell};
        if (sqr_length(closest_on_segment(c, wl.a, wl.b) - c) <= 2.0f * gr.cell * gr.cell * 0.25f + 1e-3f)
          cells[static_cast<std::size_t>(y) * static_cast<std::size_t>(gr.nx) + static_cast<std::size_t>(x)].push_back(
              static_cast<uint32_t>(w));
      }
  }
  gr.start.assign(ncell + 1, 0);
  gr.items.clear();
  for (std::size_t c = 0; c < ncell; ++c) {
    gr.start[c] = static_cast<uint32_t>(gr.items.size());
    gr.items.insert(gr.items.end(), cells[c].begin(), cells[c].end());
  }
  gr.start[ncell] = static_cast<uint32_t>(gr.items.size());
}

}  // namespace

StationModel::StationModel(Scenario scenario) : scenario_(std::move(scenario)) {
  const Scenario& sc = scenario_;
  keep_right_ = sc.keep != "left";
  lift_route_ = sc.route == "elevator";
  lock_ticks_ = static_cast<uint32_t>(sc.teleport_lock_s * static_cast<float>(kTickRateHz) + 0.5f);
  // Stairs (issue 19): each flight, and its rectangle on both floors it joins.
  for (const auto& zs : sc.zones) {
    FlightGeom fg;
    fg.gate = zs.kind == "gate";
    fg.lift = zs.kind == "elevator";
    fg.door = fg.lift && zs.door;
    fg.from = static_cast<uint32_t>(floor_index(sc, zs.floor));
    fg.to = fg.gate || fg.lift ? fg.from : static_cast<uint32_t>(floor_index(sc, zs.to_floor));
    for (int k = 0; k < 4; ++k) fg.c[k] = zs.polygon[static_cast<std::size_t>(k)];
    fg.mid0 = (fg.c[0] + fg.c[1]) * 0.5f;
    fg.mid2 = (fg.c[2] + fg.c[3]) * 0.5f;
    fg.width = length(fg.c[1] - fg.c[0]);
    fg.length = length(fg.mid2 - fg.mid0);
    fg.axis = unit(fg.mid2 - fg.mid0);
    fg.across = unit(fg.c[1] - fg.c[0]);
    fg.z0 = sc.floors[fg.from].z;
    fg.z2 = sc.floors[fg.to].z;
    // dir: a stair both ways when the zone gives none, a belt along ("Default dir is one-way along the rise").
    fg.belt = zs.kind == "escalator" || fg.gate;
    const std::string dir = !zs.dir.empty() ? zs.dir : (fg.belt ? "along" : "both");
    fg.up_allowed = dir != "against";
    fg.down_allowed = dir != "along";
    fg.factor = zs.speed_factor;
    fg.belt_speed = fg.belt ? zs.belt_speed : 0.0f;
    fg.spacing = fg.gate ? kGateSpacing : kEscalatorSpacing;
    flights_.push_back(fg);
  }
  // Elevators (seed 002, Elevator): one car per pair_id, in the order of their first landing zone;
  // its landings lowest floor first (S50: storeys counted by the floors' order in height).
  for (uint32_t f = 0; f < sc.floors.size(); ++f) floor_rank_.push_back(f);
  std::stable_sort(floor_rank_.begin(), floor_rank_.end(), [&](uint32_t a, uint32_t b) { return sc.floors[a].z < sc.floors[b].z; });
  {
    std::vector<uint32_t> rank(sc.floors.size(), 0);
    for (uint32_t k = 0; k < floor_rank_.size(); ++k) rank[floor_rank_[k]] = k;
    floor_rank_ = rank;
  }
  for (std::size_t z = 0; z < sc.zones.size(); ++z) {
    if (!flights_[z].lift || flights_[z].car >= 0) continue;
    const auto car = static_cast<int32_t>(lifts_.size());
    LiftGeom lg;
    for (std::size_t q = z; q < sc.zones.size(); ++q)
      if (flights_[q].lift && sc.zones[q].pair_id == sc.zones[z].pair_id) {
        flights_[q].car = car;
        lg.landings.push_back(static_cast<uint32_t>(q));
      }
    std::stable_sort(lg.landings.begin(), lg.landings.end(),
                     [&](uint32_t a, uint32_t b) { return floor_rank_[flights_[a].from] < floor_rank_[flights_[b].from]; });
    const ZoneSpec& zs = sc.zones[z];
    const auto by_area = static_cast<uint32_t>(flights_[z].width * flights_[z].length / kRiderArea);
    lg.capacity = zs.capacity > 0 ? zs.capacity : (by_area > 0 ? by_area : 1u);
    lg.hold_ticks = static_cast<uint32_t>(zs.hold_s * static_cast<float>(kTickRateHz) + 0.5f);
    lg.delay_ticks = static_cast<uint32_t>(zs.delay_s * static_cast<float>(kTickRateHz) + 0.5f);
    lg.hold_ticks = lg.hold_ticks > 0 ? lg.hold_ticks : 1u;
    lg.delay_ticks = lg.delay_ticks > 0 ? lg.delay_ticks : 1u;
    lifts_.push_back(std::move(lg));
  }
  // Floors: walls from the union of the outlines (and the flights on the
  // floor), every solid's edges, extra walls, each flight's side walls and
  // far edge.
  for (std::size_t fi = 0; fi < sc.floors.size(); ++fi) {
    const auto& fl = sc.floors[fi];
    FloorGeom g;
    g.walkable = fl.walkable;
    for (const FlightGeom& fg : flights_)
      if (!fg.lift && (fg.from == fi || fg.to == fi)) g.walkable.push_back(Polygon{fg.c[0], fg.c[1], fg.c[2], fg.c[3]});
    g.minx = g.maxx = fl.walkable[0][0].x;
    g.miny = g.maxy = fl.walkable[0][0].y;
    for (const auto& poly : g.walkable)
      for (const V2& p : poly) {
        g.minx = std::min(g.minx, p.x), g.maxx = std::max(g.maxx, p.x);
        g.miny = std::min(g.miny, p.y), g.maxy = std::max(g.maxy, p.y);
      }
    outline_walls(g.walkable, g.walls);
    for (std::size_t z = 0; z < flights_.size(); ++z) {
      const FlightGeom& fg = flights_[z];
      if (fg.lift || (fg.from != fi && fg.to != fi)) continue;
      // The side walls (edges 1 and 3) on both floors; the far edge on each:
      // edge 2 on the floor of mouth 0, edge 0 on the floor of mouth 2. A
      // gate's two mouths are both open on its one floor.
      const std::array<std::pair<int, WallKind>, 3> walled = {
          std::pair<int, WallKind>{1, WallKind::Flight}, {3, WallKind::Flight}, {fg.from == fi ? 2 : 0, WallKind::Landing}};
      for (const auto& [e, kind] : walled) {
        if (fg.gate && kind == WallKind::Landing) {
          // A gate's two mouths: walls to all but its own walkers (S45).
          for (const int m : {0, 2}) g.walls.push_back(Wall{fg.c[m], fg.c[m + 1], WallKind::GateMouth, static_cast<int32_t>(z)});
          continue;
        }
        const V2 a = fg.c[e], b = fg.c[(e + 1) % 4];
        drop_outline_along(g.walls, a, b);
        g.walls.push_back(Wall{a, b, kind, static_cast<int32_t>(z)});
      }
    }
    auto add_blockers = [&](const std::vector<Polygon>& set, WallKind kind) {
      for (const auto& poly : set) {
        const auto id = static_cast<int32_t>(g.blockers.size());
        g.blockers.push_back(poly);
        g.blocker_kind.push_back(kind);
        solid_walls(poly, kind, id, g.walls);
      }
    };
    add_blockers(fl.obstacles, WallKind::Obstacle);
    add_blockers(fl.holes, WallKind::Hole);
    add_blockers(fl.voids, WallKind::Void);
    // A landing with a door is its car's shaft: solid, walled on every edge, never ignored by recovery
    // (seed 002, Recovery: "An elevator shaft ... is never ignored"); it is entered through the door only.
    std::vector<Polygon> shafts;
    for (const FlightGeom& fg : flights_)
      if (fg.lift && fg.door && fg.from == fi) shafts.push_back(Polygon{fg.c[0], fg.c[1], fg.c[2], fg.c[3]});
    add_blockers(shafts, WallKind::Void);
    for (const auto& w : fl.walls) g.walls.push_back(Wall{{w.x0, w.y0}, {w.x1, w.y1}, WallKind::Extra, -1});
    build_wall_grid(g);
    // The routing grid (seed 002, Route): the floor outlines, every solid blocker, the walls (open
    // gates: the grid routes through them).
    grids_.push_back(std::make_shared<const NavGrid>(grid_input(g, false)));
    floors_.push_back(std::move(g));
  }
  for (const auto& fl : sc.floors) floors_z_.push_back(fl.z);
  build_floor_hops();
  build_aprons();
  // Gate banks (S44): gates on one floor side by side, their axes parallel and their mouths in line
  // (within 0.5 m along the axis), each within 3 m of the next across; joined in scenario order.
  floor_gates_.assign(floors_.size(), 0);
  for (std::size_t z = 0; z < flights_.size(); ++z) {
    FlightGeom& fg = flights_[z];
    if (!fg.gate) continue;
    floor_gates_[fg.from] = 1;
    fg.bank = static_cast<int32_t>(z);
    for (std::size_t q = 0; q < z; ++q) {
      const FlightGeom& o = flights_[q];
      if (!o.gate || o.from != fg.from || std::fabs(dot(o.axis, fg.axis)) < 0.999f) continue;
      const V2 d = (o.mid0 + o.mid2) * 0.5f - (fg.mid0 + fg.mid2) * 0.5f;
      const float gap = std::fabs(dot(d, fg.across)) - 0.5f * (o.width + fg.width);
      if (std::fabs(dot(d, fg.axis)) <= 0.5f && gap <= 3.0f) {
        const int32_t from = fg.bank, to = o.bank;  // merge fg's bank into o's
        for (std::size_t k = 0; k <= z; ++k)
          if (flights_[k].gate && flights_[k].bank == from) flights_[k].bank = to;
      }
    }
  }
  // Each gate's place across its bank (S46): -1 .. 1 from one end gate to the other, along the
  // across direction of the bank's first gate.
  for (FlightGeom& fg : flights_) {
    if (!fg.gate) continue;
    float lo = 0.0f, hi = 0.0f;
    bool first = true;
    V2 across{};
    for (const FlightGeom& o : flights_) {
      if (!o.gate || o.bank != fg.bank) continue;
      if (first) across = o.across;
      const float s = dot((o.mid0 + o.mid2) * 0.5f, across);
      lo = first ? s : std::min(lo, s), hi = first ? s : std::max(hi, s);
      first = false;
    }
    const float at = dot((fg.mid0 + fg.mid2) * 0.5f, across);
    fg.bank_place = hi > lo ? 2.0f * (at - lo) / (hi - lo) - 1.0f : 0.0f;
  }
  stair_traffic_.assign(flights_.size(), {0u, 0u});  // placed walkers plan with nobody counted yet
  bound_dist_.assign(flights_.size(), {});
  belt_last_.assign(flights_.size(), {kNoRider, kNoRider});
  belt_riders_.assign(flights_.size(), 0);
  line_of_.assign(flights_.size(), {});
  line_t_.assign(flights_.size(), {});
  band_cells_.assign(flights_.size(), {});
  lift_wait_.assign(flights_.size(), 0);
  lift_coming_.assign(flights_.size(), 0);
  lift_unload_.assign(lifts_.size(), 0);
  // Portals.
  for (const auto& po : sc.portals) {
    PortalGeom g;
    g.floor = static_cast<uint32_t>(floor_index(sc, po.floor));
    g.mode = static_cast<PortalMode>(mode_code(po.mode));
    g.street = po.id.rfind("street_", 0) == 0;
    g.minx = g.maxx = po.polygon[0].x;
    g.miny = g.maxy = po.polygon[0].y;
    for (const V2& p : po.polygon) {
      g.minx = std::min(g.minx, p.x), g.maxx = std::max(g.maxx, p.x);
      g.miny = std::min(g.miny, p.y), g.maxy = std::max(g.maxy, p.y);
    }
    g.centre = vertex_mean(po.polygon);
    for (const auto& t : po.targets)
      if (t.weight > 0.0f) {
        g.target_portals.push_back(static_cast<uint32_t>(portal_index(sc, t.portal)));
        g.target_weights.push_back(t.weight);
      }
    g.named_target = po.target.empty() ? -1 : portal_index(sc, po.target);
    portals_.push_back(std::move(g));
  }
  // Each portal's free patch (C5): fixed geometry, so once.
  goal_patch_.resize(portals_.size());
  for (uint32_t p = 0; p < portals_.size(); ++p) goal_patch_[p] = goal_patch(p);
  for (const auto& ar : sc.areas) {
    AreaGeom g;
    g.floor = static_cast<uint32_t>(floor_index(sc, ar.floor));
    const float a = signed_area(ar.polygon);
    g.area_m2 = a < 0.0f ? -a : a;
    areas_.push_back(g);
  }
  check_layout();
  script_by_tick_.resize(sc.script.size());
  for (std::size_t e = 0; e < sc.script.size(); ++e) script_by_tick_[e] = static_cast<uint32_t>(e);
  std::stable_sort(script_by_tick_.begin(), script_by_tick_.end(),
                   [&](uint32_t a, uint32_t b) { return sc.script[a].tick < sc.script[b].tick; });

  // The state at tick 0.
  state_.rng = RngStream(sc.seed, "station.spawn");
  state_.portals.assign(sc.portals.size(), PortalState{});
  state_.areas.assign(sc.areas.size(), AreaState{});
  state_.crowd.resize(grids_.size());
  state_.cars.assign(lifts_.size(), CarState{});  // each car stands at its lowest landing
  for (std::size_t f = 0; f < grids_.size(); ++f) {
    const auto cells = static_cast<std::size_t>(grids_[f]->cell_count());
    CrowdField& cf = state_.crowd[f];
    cf.standing.assign(cells, 0.0f);
    cf.moving.assign(cells, 0.0f);
    cf.vx.assign(cells, 0.0f);
    cf.vy.assign(cells, 0.0f);
  }
  for (const auto& ws : sc.walkers) {
    Walker w;
    w.pos = ws.position;
    w.vel = ws.velocity;
    w.floor = static_cast<uint32_t>(floor_index(sc, ws.floor));
    w.destination = static_cast<uint32_t>(portal_index(sc, ws.destination));
    w.desired_speed = ws.desired_speed > 0.0f ? ws.desired_speed : sc.population.desired_speed;
    w.radius = ws.radius > 0.0f ? ws.radius : sc.population.radius;
    w.trip = ws.trip == "alight" ? Trip::Alight
             : ws.trip == "board" ? Trip::Board
             : portals_[w.destination].street ? Trip::Alight : Trip::Board;
    w.lane_share = 0.0f;  // seed 002, Route: placed walkers follow the centre line
    Route rt;
    rt.anchors = ws.waypoints;
    state_.walkers.push_back(w);
    state_.routes.push_back(std::move(rt));
    start_route(static_cast<uint32_t>(state_.walkers.size() - 1));
  }
}

void StationModel::check_layout() const {
  // What the loader cannot see without the floors' walls and routing grids
  // (spec note S26; docs/station.md, "Scenario"): a portal off its floor, a placed
  // body over a wall or solid, a portal's destination its walkers cannot reach. Errors name
  // the JSON path; the model factory adds the scenario's file.
  const Scenario& sc = scenario_;
  auto fail = [](const std::string& place, const std::string& what) { throw InputError("", place, what); };
  auto floor_name = [&](uint32_t f) { return "\"" + sc.floors[f].id + "\""; };
  // A point of each portal on its floor: the first of a 32 x 32 sampling of its
  // box, row by row, inside its polygon, on the walkable floor and off every solid.
  std::vector<V2> spot(portals_.size());
  for (std::size_t p = 0; p < portals_.size(); ++p) {
    const PortalGeom& g = portals_[p];
    const FloorGeom& fl = floors_[g.floor];
    bool found = false;
    for (int j = 0; j < 32 && !found; ++j)
      for (int i = 0; i < 32 && !found; ++i) {
        const V2 q{g.minx + (g.maxx - g.minx) * (static_cast<float>(i) + 0.5f) / 32.0f,
                   g.miny + (g.maxy - g.miny) * (static_cast<float>(j) + 0.5f) / 32.0f};
        if (!inside(sc.portals[p].polygon, q)) continue;
        bool ok = false;
        for (const auto& w : fl.walkable) ok = ok || inside(w, q);
        for (const auto& b : fl.blockers) ok = ok && !inside(b, q);
        if (ok) spot[p] = q, found = true;
      }
    if (!found)
      fail(at("$.portals", p) + ".polygon", "portal \"" + sc.portals[p].id + "\" lies off its floor " + floor_name(g.floor) +
                                                ": no part of it is on the walkable floor (outside every outline, or inside a solid)");
  }
  // Placed bodies clear of every wall: outline, solid edge or extra wall.
  for (std::size_t i = 0; i < sc.walkers.size(); ++i) {
    const WalkerSpec& ws = sc.walkers[i];
    const uint32_t f = static_cast<uint32_t>(floor_index(sc, ws.floor));
    const float r = ws.radius > 0.0f ? ws.radius : sc.population.radius;
    const V2 c = ws.position;
    const FloorGeom& fl = floors_[f];
    // Only the walls the floor's wall grid lists near the body; the first it lists is named.
    fl.wall_grid.each(fl.wall_grid.box(c.x - r, c.y - r, c.x + r, c.y + r), [&](uint32_t k) {
      const Wall& wl = fl.walls[k];
      const float d = length(closest_on_segment(c, wl.a, wl.b) - c);
      if (d < r)
        fail(at("$.walkers", i) + ".position",
             "walker " + std::to_string(i) + "'s body (radius " + num_text(r) + " m) overlaps " +
                 (wl.kind == WallKind::Outline ? std::string("the floor's edge")
                  : wl.kind == WallKind::Extra || wl.kind == WallKind::Flight || wl.kind == WallKind::Landing ? std::string("a wall")
                                               : std::string("a solid's edge")) +
                 ": its centre is " + num_text(d) + " m from it");
      return true;
    });
  }
  // Connected sets of a floor's grid for a body of radius r, each computed once: the label of the
  // set holding q's nearest open node, -1 none.
  using Sets = std::vector<std::pair<std::pair<uint32_t, float>, std::vector<int32_t>>>;  // (floor, radius) -> labels
  auto set_of = [](const NavGrid& grid, Sets& sets, uint32_t f, float r, V2 q) -> int32_t {
    const std::vector<int32_t>* lab = nullptr;
    for (const auto& e : sets)
      if (e.first.first == f && e.first.second == r) lab = &e.second;
    if (!lab) {
      sets.push_back({{f, r}, grid.reachable_sets(r)});
      lab = &sets.back().second;
    }
    int32_t cell = -1;
    if (!grid.nearest_open_node(q, r, nullptr, &cell)) return -1;
    return (*lab)[static_cast<std::size_t>(cell)];
  };
  // Destinations reachable on the routing grid: the nearest open nodes of the
  // start and of the goal in one connected set, for the body that walks it.
  Sets sets;
  auto label = [&](uint32_t f, float r, V2 q) { return set_of(*grids_[f], sets, f, r, q); };
  // Reachable through the gates the way they run (S45): on a floor with gates, the routing grid
  // with every gate's mouths closed, its connected sets, and each gate an edge from the set
  // before its entry mouth to the set past its exit (0.4 m out of each mouth's middle).
  Sets closed_sets;
  std::vector<std::shared_ptr<const NavGrid>> closed(floors_.size());
  auto closed_label = [&](uint32_t f, float r, V2 q) {
    if (!closed[f]) closed[f] = std::make_shared<const NavGrid>(grid_input(floors_[f], true));
    return set_of(*closed[f], closed_sets, f, r, q);
  };
  auto gated_reach = [&](uint32_t f, float r, V2 from, V2 goal) {
    if (!floor_gates_[f]) return true;
    const int32_t start = closed_label(f, r, from), end = closed_label(f, r, goal);
    std::vector<int32_t> seen{start}, frontier{start};
    while (!frontier.empty()) {
      std::vector<int32_t> next;
      for (const int32_t s : frontier)
        for (const FlightGeom& fg : flights_) {
          if (!fg.gate || fg.from != f) continue;
          for (const int sense : {1, -1}) {
            if (!fg.runs(sense)) continue;
            const int32_t in = closed_label(f, r, fg.entry_mid(sense) - fg.travel(sense) * 0.4f);
            const int32_t out = closed_label(f, r, fg.exit_mid(sense) + fg.travel(sense) * 0.4f);
            if (in != s || out < 0 || std::find(seen.begin(), seen.end(), out) != seen.end()) continue;
            seen.push_back(out);
            next.push_back(out);
          }
        }
      frontier.swap(next);
    }
    return std::find(seen.begin(), seen.end(), end) != seen.end();
  };
  // To another floor: the parts of floors a body can walk (each floor's connected sets), joined
  // by every stair and escalator the way its dir allows (0.4 m out of each mouth) and by every
  // car between its landings (0.4 m in front of a door, or a doorless landing's middle): the
  // goal's part must be among those reached from `from` (fare gates are not followed here: a
  // floor is one part for this check however its gates run).
  auto way_to_floor = [&](uint32_t f, float r, V2 from, uint32_t dest) {
    const PortalGeom& g = portals_[dest];
    std::vector<std::pair<uint32_t, int32_t>> seen, frontier;
    const int32_t s0 = label(f, r, from);
    if (s0 < 0) return false;
    seen.push_back({f, s0});
    frontier = seen;
    bool found = false;
    auto arrive = [&](uint32_t fl, V2 p, std::vector<std::pair<uint32_t, int32_t>>& next) {
      const int32_t part = label(fl, r, p);
      if (part < 0 || std::find(seen.begin(), seen.end(), std::make_pair(fl, part)) != seen.end()) return;
      seen.push_back({fl, part});
      next.push_back({fl, part});
      if (fl == g.floor && label(fl, r, portal_goal(dest, p)) == part) found = true;
    };
    auto landing_front = [](const FlightGeom& fg) { return fg.door ? fg.mid0 - fg.axis * 0.4f : (fg.mid0 + fg.mid2) * 0.5f; };
    while (!frontier.empty() && !found) {
      std::vector<std::pair<uint32_t, int32_t>> next;
      for (const auto& [fl, part] : frontier)
        for (const FlightGeom& fg : flights_) {
          if (fg.gate) continue;
          if (fg.lift) {
            if (fg.from != fl || label(fl, r, landing_front(fg)) != part) continue;
            for (const FlightGeom& other : flights_)
              if (other.lift && other.car == fg.car && other.from != fl) arrive(other.from, landing_front(other), next);
            continue;
          }
          for (const int sense : {1, -1}) {
            if (!fg.runs(sense) || fg.entry_floor(sense) != fl) continue;
            if (label(fl, r, fg.entry_mid(sense) - fg.travel(sense) * 0.4f) != part) continue;
            arrive(sense > 0 ? fg.to : fg.from, fg.exit_mid(sense) + fg.travel(sense) * 0.4f, next);
          }
        }
      frontier.swap(next);
    }
    return found;
  };
  // The radius checked is the body's less 0.07 m, half the grid's node
  // sampling: a door the body fits through (2 r + 0.1 m, issue 14) is never
  // refused for where the 0.7 m cells happen to fall; a way cut off is.
  auto reach = [&](const std::string& place, const std::string& who, uint32_t f, float body, V2 from, uint32_t dest) {
    const float r = body > 0.07f ? body - 0.07f : 0.0f;
    const PortalGeom& g = portals_[dest];
    const std::string name = "portal \"" + sc.portals[dest].id + "\"";
    if (g.floor != f) {
      // Another floor: a chain of stairs and escalators, each the way its dir allows, must lead there.
      if (!floors_joined(f, g.floor))
        fail(place, name + " is on floor " + floor_name(g.floor) + " and " + who + " on floor " + floor_name(f) +
                        ": no stair or escalator (nor a chain of them, each the way its dir allows), nor an elevator, leads there");
      if (!way_to_floor(f, r, from, dest))
        fail(place, name + " on floor " + floor_name(g.floor) + " cannot be reached from " + who + " on floor " + floor_name(f) +
                        " by a body of radius " + num_text(body) +
                        " m: walls or solids cut every way to, between or from the stairs, escalators and elevators that join the floors");
      return;
    }
    const int32_t a = label(f, r, from);
    const V2 goal = portal_goal(dest, from);
    if (a < 0 || a != label(f, r, goal))
      fail(place, name + " on floor " + floor_name(f) + " cannot be reached from " + who + " by a body of radius " + num_text(body) +
                      " m: walls or solids cut every way");
    // Through fare gates only the way each runs (S45): the floor's parts with every gate's mouths
    // closed, joined by each gate from the part before its entry mouth to the part past its exit.
    if (!gated_reach(f, r, from, goal))
      fail(place, name + " on floor " + floor_name(f) + " cannot be reached from " + who +
                      ": every way runs through a fare gate the other way (a gate is passed only the way its dir allows)");
  };
  const float spawned_r = sample_body(sc.population, 1.0f).radius;  // the largest a portal spawns
  for (std::size_t p = 0; p < portals_.size(); ++p) {
    const PortalSpec& po = sc.portals[p];
    if (portals_[p].mode == PortalMode::Despawn || po.count == 0) continue;
    const std::string who = "portal \"" + po.id + "\"";
    bool weighted = false;
    for (std::size_t k = 0; k < po.targets.size(); ++k)
      if (po.targets[k].weight > 0.0f) {
        weighted = true;
        reach(at(at("$.portals", p) + ".targets", k) + ".portal", who, portals_[p].floor, spawned_r, spot[p],
              static_cast<uint32_t>(portal_index(sc, po.targets[k].portal)));
      }
    if (!weighted && portals_[p].named_target >= 0)
      reach(at("$.portals", p) + ".target", who, portals_[p].floor, spawned_r, spot[p], static_cast<uint32_t>(portals_[p].named_target));
    if (po.targets.empty() && portals_[p].named_target < 0) {
      // A rotation runs over the accepting portals its floor leads to: there must be one.
      bool any = false;
      for (std::size_t q = 0; q < portals_.size(); ++q)
        any = any || (q != p && portals_[q].accepts() && floors_joined(portals_[p].floor, portals_[q].floor));
      if (!any)
        fail(at("$.portals", p), "spawns walkers but no portal that accepts arrivals is on its floor or reached from it by stairs, escalators or an elevator");
    }
  }
  // Placed walkers are not checked on their floor: a placed walker is the
  // scenario's own set-up (RiMEA's stand-ins, the tests' pinned bodies), and
  // one the grid finds no way for drives straight at its goal and recovers
  // (docs/station.md). A destination on another floor needs a stair to it.
  for (std::size_t i = 0; i < sc.walkers.size(); ++i) {
    const auto f = static_cast<uint32_t>(floor_index(sc, sc.walkers[i].floor));
    const auto d = static_cast<uint32_t>(portal_index(sc, sc.walkers[i].destination));
    if (portals_[d].floor != f && !floors_joined(f, portals_[d].floor))
      fail(at("$.walkers", i) + ".destination", "portal \"" + sc.portals[d].id + "\" is on floor " + floor_name(portals_[d].floor) +
                                                    " and walker " + std::to_string(i) + " on floor " + floor_name(f) +
                                                    ": no stair or escalator (nor a chain of them, each the way its dir allows), nor an elevator, leads there");
  }
}

void StationModel::set_state(const State& s) {
  // Refuse every state the model could never have made (the model contract;
  // docs/station.md, "Limits"; spec note S23), naming the field: sizes against
  // each other and the scenario, every index, every count against what it
  // counts, every timer within its period, bodies as population sampling or
  // the scenario made them, points within the floor (positions) or the plan's
  // 10 km (drive points, corners), speeds within 50 m/s. NaN and infinities
  // were refused before (the adapter). Nothing is changed unless all pass.
  auto bad = [](const std::string& at, const std::string& what) { throw InputError("state", at, what); };
  auto within = [](float v, float lo, float hi) { return v >= lo && v <= hi; };
  const Scenario& sc = scenario_;
  const std::size_t n_placed = sc.walkers.size();
  const std::size_t n = s.walkers.size();

  // ---- the world, its sizes
  if (s.tick > kMaxTicks) bad("tick", "a run is at most " + std::to_string(kMaxTicks) + " ticks, got " + std::to_string(s.tick));
  if (s.rng.key != RngStream(sc.seed, "station.spawn").key)
    bad("rng.key", "not the scenario's spawn stream (\"station.spawn\" of seed " + std::to_string(sc.seed) + ")");
  if (s.routes.size() != n)
    bad("routes", "expected one route per walker (" + std::to_string(n) + "), got " + std::to_string(s.routes.size()));
  if (s.portals.size() != portals_.size()) bad("portals", "expected " + std::to_string(portals_.size()) + " portals");
  if (s.areas.size() != areas_.size()) bad("areas", "expected " + std::to_string(areas_.size()) + " areas");
  if (s.crowd.size() != grids_.size()) bad("crowd", "expected " + std::to_string(grids_.size()) + " crowd fields (one per floor)");
  if (s.cars.size() != lifts_.size()) bad("cars", "expected " + std::to_string(lifts_.size()) + " cars (one per elevator pair_id)");
  for (std::size_t c = 0; c < s.cars.size(); ++c) {
    const CarState& car = s.cars[c];
    const LiftGeom& lg = lifts_[c];
    const std::string cp = "cars[" + std::to_string(c) + "]";
    if (car.at >= lg.landings.size()) bad(cp + ".at", "expected a landing 0 .. " + std::to_string(lg.landings.size() - 1));
    const uint32_t most_storeys = static_cast<uint32_t>(floors_.size());
    if (car.run_ticks > lg.delay_ticks * most_storeys)
      bad(cp + ".run_ticks", "expected at most delay_s x the storeys of the longest ride (" + std::to_string(lg.delay_ticks * most_storeys) + " ticks)");
    if (car.riders > lg.capacity) bad(cp + ".riders", "more than its capacity " + std::to_string(lg.capacity));
    if (car.going < -1 || car.going > 1) bad(cp + ".going", "expected -1 (down), 0 or 1 (up), got " + std::to_string(car.going));
  }
  std::vector<uint32_t> aboard(lifts_.size(), 0);
  const bool any_belt = std::any_of(flights_.begin(), flights_.end(), [](const FlightGeom& fg) { return fg.belt; });
  if (n < n_placed)
    bad("walkers", "expected the scenario's " + std::to_string(n_placed) + " placed walkers and those spawned since, got " +
                       std::to_string(n) + " walkers");
  const std::size_t spawned = n - n_placed;
  if (s.spawn_serial != spawned)
    bad("spawn_serial", "expected the number of spawned walkers (" + std::to_string(spawned) + "), got " + std::to_string(s.spawn_serial));
  if (s.stats.spawned != spawned)
    bad("stats.spawned", "expected the number of spawned walkers (" + std::to_string(spawned) + "), got " + std::to_string(s.stats.spawned));

  // ---- the crowd fields: counts of bodies over a window, so 0 .. every walker there can be
  const float most = static_cast<float>(kMaxWalkers);
  for (std::size_t f = 0; f < grids_.size(); ++f) {
    const auto cells = static_cast<std::size_t>(grids_[f]->cell_count());
    const CrowdField& cf = s.crowd[f];
    const std::string fp = "crowd[" + std::to_string(f) + "]";
    if (cf.standing.size() != cells || cf.moving.size() != cells || cf.vx.size() != cells || cf.vy.size() != cells)
      bad(fp, "expected " + std::to_string(cells) + " cells in each of standing, moving, vx, vy");
    for (std::size_t c = 0; c < cells; ++c) {
      const std::string cp = "[" + std::to_string(c) + "]";
      if (!within(cf.standing[c], 0.0f, most)) bad(fp + ".standing" + cp, "expected a count of bodies 0 .. 2,000,000");
      if (!within(cf.moving[c], 0.0f, most)) bad(fp + ".moving" + cp, "expected a count of bodies 0 .. 2,000,000");
      if (!within(cf.vx[c], -most, most)) bad(fp + ".vx" + cp, "expected a sum of unit velocities within +-2,000,000");
      if (!within(cf.vy[c], -most, most)) bad(fp + ".vy" + cp, "expected a sum of unit velocities within +-2,000,000");
    }
  }

  // ---- walkers and their routes
  constexpr float kWorld = kMaxCoord + 2.0f;     // drive points and corners: the plan's points, a lane shift off
  constexpr float kMaxDistance = 3.0f * kMaxCoord;  // any distance within the plan
  constexpr float kMaxYaw = 0.6f;                 // sight's largest turn (forces.cpp, kSidestepMaxYaw)
  const float max_crowd_ref = kCrowdCheckM * kCrowdWeight * kCrowdMaxExcess * 1.01f;  // 15 m at 5 per metre, rounding
  const Sampled slow = sample_body(sc.population, -1.0f), fast = sample_body(sc.population, 1.0f);
  std::vector<uint32_t> emitted(portals_.size(), 0), arrived(portals_.size(), 0);
  uint32_t done = 0, removed = 0, unsticks = 0;  // unsticks: the u32 sum, as the stats count it
  for (std::size_t i = 0; i < n; ++i) {
    const Walker& w = s.walkers[i];
    const Route& rt = s.routes[i];
    const std::string p = "walkers[" + std::to_string(i) + "]";
    const std::string rp = "routes[" + std::to_string(i) + "]";
    if (static_cast<uint8_t>(w.phase) > 3) bad(p + ".phase", "unknown phase " + std::to_string(static_cast<int>(w.phase)));
    if (static_cast<uint8_t>(w.trip) > 1) bad(p + ".trip", "unknown trip " + std::to_string(static_cast<int>(w.trip)));
    if (w.floor >= floors_.size()) bad(p + ".floor", "no floor " + std::to_string(w.floor));
    if (w.destination >= portals_.size()) bad(p + ".destination", "no portal " + std::to_string(w.destination));
    if (!portals_[w.destination].accepts())
      bad(p + ".destination", "portal " + std::to_string(w.destination) + " does not accept arrivals (its mode is spawn)");
    // Who made the body: the scenario (the first walkers, in its order) or a portal's sampling.
    if (i < n_placed) {
      const WalkerSpec& ws = sc.walkers[i];
      const std::string by = " (walker " + std::to_string(i) + " is the scenario's $.walkers[" + std::to_string(i) + "])";
      const auto dest = static_cast<uint32_t>(portal_index(sc, ws.destination));
      const Trip trip = ws.trip == "alight" ? Trip::Alight
                        : ws.trip == "board" ? Trip::Board
                        : portals_[dest].street ? Trip::Alight : Trip::Board;
      if (w.origin != -1) bad(p + ".origin", "expected -1" + by);
      const auto start = static_cast<uint32_t>(floor_index(sc, ws.floor));
      if (w.floor >= floors_.size() || !floors_joined(start, w.floor))
        bad(p + ".floor", "not its floor, nor one its floor's stairs, escalators and elevators lead to" + by);
      if (w.destination != dest) bad(p + ".destination", "not its destination" + by);
      if (w.trip != trip) bad(p + ".trip", "not its trip" + by);
      if (w.desired_speed != (ws.desired_speed > 0.0f ? ws.desired_speed : sc.population.desired_speed))
        bad(p + ".desired_speed", "not its desired speed" + by);
      if (w.radius != (ws.radius > 0.0f ? ws.radius : sc.population.radius)) bad(p + ".radius", "not its radius" + by);
      if (w.lane_share != 0.0f) bad(p + ".lane_share", "expected 0: placed walkers follow the centre line" + by);
      if (rt.anchors != ws.waypoints) bad(rp + ".anchors", "not its waypoints" + by);
    } else {
      if (w.origin < 0 || static_cast<std::size_t>(w.origin) >= portals_.size() ||
          portals_[static_cast<std::size_t>(w.origin)].mode == PortalMode::Despawn)
        bad(p + ".origin", "expected the portal that spawned it, got " + std::to_string(w.origin));
      const auto o = static_cast<std::size_t>(w.origin);
      const PortalGeom& g = portals_[o];
      if (w.floor >= floors_.size() || !floors_joined(g.floor, w.floor))
        bad(p + ".floor", "not the floor of its portal " + std::to_string(o) + ", nor one that floor's stairs, escalators and elevators lead to");
      if (w.trip != (g.street ? Trip::Board : Trip::Alight)) bad(p + ".trip", "not the trip its portal " + std::to_string(o) + " gives");
      bool can = false;  // a destination its portal can draw (spawn.cpp, draw_destination)
      if (!g.target_portals.empty()) {
        for (uint32_t t : g.target_portals) can = can || t == w.destination;
      } else if (g.named_target >= 0) {
        can = w.destination == static_cast<uint32_t>(g.named_target);
      } else {
        can = w.destination != o;
      }
      if (!can) bad(p + ".destination", "portal " + std::to_string(o) + " never sends walkers to portal " + std::to_string(w.destination));
      if (!within(w.desired_speed, slow.desired_speed, fast.desired_speed))
        bad(p + ".desired_speed", "expected a sampled speed " + num_text(slow.desired_speed) + " .. " + num_text(fast.desired_speed) +
                                      " m/s (seed 002, Population), got " + num_text(w.desired_speed));
      if (!within(w.radius, slow.radius, fast.radius))
        bad(p + ".radius", "expected a sampled radius " + num_text(slow.radius) + " .. " + num_text(fast.radius) + " m, got " +
                               num_text(w.radius));
      if (w.lane_share != lane_share_of(emitted[o]))
        bad(p + ".lane_share", "not the lane share of portal " + std::to_string(o) + "'s spawn " + std::to_string(emitted[o]) + " (S5)");
      if (!rt.anchors.empty()) bad(rp + ".anchors", "spawned walkers have no waypoints of their own");
      ++emitted[o];
    }
    // Where it is: on its floor (within the floor's box and a margin); its plan's points within the plan.
    const FloorGeom& fl = floors_[w.floor];
    auto on_floor = [&](V2 q) {
      return within(q.x, fl.minx - kStateMargin, fl.maxx + kStateMargin) && within(q.y, fl.miny - kStateMargin, fl.maxy + kStateMargin);
    };
    auto in_world = [&](V2 q) { return within(q.x, -kWorld, kWorld) && within(q.y, -kWorld, kWorld); };
    if (!on_floor(w.pos)) {
      const bool x = !within(w.pos.x, fl.minx - kStateMargin, fl.maxx + kStateMargin);
      bad(p + (x ? ".pos.x" : ".pos.y"), num_text(x ? w.pos.x : w.pos.y) + " m is off floor " + std::to_string(w.floor) + " (" +
                                             (x ? num_text(fl.minx) + " .. " + num_text(fl.maxx) : num_text(fl.miny) + " .. " + num_text(fl.maxy)) +
                                             " m, and 1 m beyond)");
    }
    if (w.lift < -1 || w.lift >= static_cast<int32_t>(lifts_.size()))
      bad(p + ".lift", "no elevator " + std::to_string(w.lift) + " (-1: none; a car's index, 0 .. " + std::to_string(lifts_.size()) + " - 1)");
    else if (w.lift >= 0 && landing_on(static_cast<uint32_t>(w.lift), w.floor) < 0)
      bad(p + ".lift", "elevator " + std::to_string(w.lift) + " has no landing on the walker's floor " + std::to_string(w.floor));
    if (w.lock_ticks > lock_ticks_) bad(p + ".lock_ticks", "expected 0 .. teleport_lock_s (" + std::to_string(lock_ticks_) + " ticks)");
    if (w.phase == Phase::Riding) {
      if (w.lift < 0) bad(p + ".lift", "a rider is in a car: expected its index");
      if (!(w.vel == V2{})) bad(p + ".vel", "expected 0: a rider stands in its car");
      if (w.done_tick != 0) bad(p + ".done_tick", "expected 0 for a rider");
      if (w.flight != -1) bad(p + ".flight", "expected -1 for a rider");
      ++aboard[static_cast<std::size_t>(w.lift)];
    } else if (w.phase == Phase::Walking) {
      if (!within(w.vel.x, -kMaxImpulse, kMaxImpulse)) bad(p + ".vel.x", "expected at most 50 m/s, got " + num_text(w.vel.x));
      if (!within(w.vel.y, -kMaxImpulse, kMaxImpulse)) bad(p + ".vel.y", "expected at most 50 m/s, got " + num_text(w.vel.y));
      if (w.done_tick != 0) bad(p + ".done_tick", "expected 0 for a walking walker");
    } else {
      if (!(w.vel == V2{})) bad(p + ".vel", "expected 0: a done or removed walker stands");
      if (!(w.done_tick < s.tick)) bad(p + ".done_tick", "expected a tick before the state's " + std::to_string(s.tick));
      if (w.phase == Phase::Done) ++done, ++arrived[w.destination];
      else ++removed;
    }
    if (!(sqr_length(w.dir) <= 1.001f)) bad(p + ".dir", "expected a unit direction or zero");
    if (!in_world(w.drive)) bad(p + ".drive", "expected a point within the plan's 10 km");
    if (!within(w.slack_left, 0.0f, kMaxSlack)) bad(p + ".slack_left", "expected 0 .. 1.5 m");
    if (!within(w.slack_right, 0.0f, kMaxSlack)) bad(p + ".slack_right", "expected 0 .. 1.5 m");
    if (!within(w.sight_yaw, -kMaxYaw, kMaxYaw)) bad(p + ".sight_yaw", "expected -0.6 .. 0.6 rad");
    if (!within(w.headway, 0.0f, kHeadwayCap)) bad(p + ".headway", "expected 0 .. 3 m");
    if (!within(w.progress_ref, 0.0f, kMaxDistance)) bad(p + ".progress_ref", "expected a distance within the plan");
    if (!within(w.stuck_s, 0.0f, sc.unstick_s)) bad(p + ".stuck_s", "expected 0 .. unstick_s (" + num_text(sc.unstick_s) + " s)");
    if (!within(w.recheck_s, 0.0f, kLegRecheckS)) bad(p + ".recheck_s", "expected 0 .. 0.5 s");
    if (!within(w.ignore_s, 0.0f, kIgnoreObstacleS)) bad(p + ".ignore_s", "expected 0 .. 1.6 s");
    if (!within(w.crowd_check_s, 0.0f, kCrowdCheckS)) bad(p + ".crowd_check_s", "expected 0 .. 2 s");
    if (!within(w.crowd_ref, 0.0f, max_crowd_ref)) bad(p + ".crowd_ref", "expected 0 .. 75 m equivalent (15 m at most 5 per metre)");
    if (!within(w.hold_s, 0.0f, kMaxStopDelayS)) bad(p + ".hold_s", "expected 0 .. 60 s (a zone's stop_delay_s at most)");
    for (std::size_t k = 0; k < rt.stopped.size(); ++k)
      if (rt.stopped[k] >= flights_.size() ||
          std::count(rt.stopped.begin(), rt.stopped.end(), rt.stopped[k]) != 1)
        bad(rp + ".stopped[" + std::to_string(k) + "]", "expected a zone index below " + std::to_string(flights_.size()) + ", each once");
    if (w.ignore_blocker < -1 || w.ignore_blocker >= static_cast<int32_t>(fl.blockers.size()))
      bad(p + ".ignore_blocker", "no blocker " + std::to_string(w.ignore_blocker) + " on floor " + std::to_string(w.floor) + " (-1: none)");
    // Stairs: each a zone on this floor (on it, bound through it, or just stepped off it).
    auto flight_here = [&](int32_t z, bool none_ok) {
      if (z == -1) return none_ok;
      if (z < 0 || z >= static_cast<int32_t>(flights_.size())) return false;
      const FlightGeom& fg = flights_[static_cast<std::size_t>(z)];
      return !fg.lift && (fg.from == w.floor || fg.to == w.floor);  // a landing is no walked zone
    };
    const std::string nz = " (-1: none; a stair's, an escalator's or a gate's zone index on the walker's floor)";
    if (!flight_here(w.flight, true)) bad(p + ".flight", "no zone " + std::to_string(w.flight) + " on floor " + std::to_string(w.floor) + nz);
    if (!flight_here(w.via, true)) bad(p + ".via", "no zone " + std::to_string(w.via) + " on floor " + std::to_string(w.floor) + nz);
    if (w.gate != -1 && !(flight_here(w.gate, false) && flights_[static_cast<std::size_t>(w.gate)].gate))
      bad(p + ".gate", "no gate " + std::to_string(w.gate) + " on floor " + std::to_string(w.floor) + " (-1: none; a gate's zone index on the walker's floor)");
    if (!flight_here(w.off_flight, true))
      bad(p + ".off_flight", "no stair " + std::to_string(w.off_flight) + " on floor " + std::to_string(w.floor) + nz);
    if (w.off_flight >= 0 && !coord_ok(w.step_off)) bad(p + ".step_off", "expected a point within the plan's 10 km");
    const bool riding = flight_here(w.flight, false) && flights_[static_cast<std::size_t>(w.flight)].belt;
    if (riding) {
      const FlightGeom& fg = flights_[static_cast<std::size_t>(w.flight)];
      if (!((w.sense == 1 || w.sense == -1) && fg.runs(w.sense)))
        bad(p + ".sense", "a rider's way on zone " + std::to_string(w.flight) + ": expected " +
                              (fg.up_allowed && fg.down_allowed ? std::string("1 or -1") : std::to_string(fg.sense_of_escalator())) +
                              ", got " + std::to_string(w.sense));
      else if (fg.entry_floor(w.sense) != w.floor)
        bad(p + ".flight", "escalator " + std::to_string(w.flight) + " is boarded on floor " + std::to_string(fg.entry_floor(w.sense)) +
                               " only; the walker is on floor " + std::to_string(w.floor));
    } else if (w.sense != 0) {
      bad(p + ".sense", "expected 0 for a walker not on a belt, got " + std::to_string(w.sense));
    }
    // The line is the place form_lines gave as the tick started: by its end the walker may have boarded,
    // chosen another gate or walked off, so only a plan with a belt can have one (S47).
    if (w.line >= 0 && !any_belt)
      bad(p + ".line", "a place in a line, but the plan has no escalator or gate: expected -1");
    else if (w.line < -1 || w.line >= static_cast<int32_t>(s.walkers.size()))
      bad(p + ".line", "expected -1 (not in a line) or a place in a line, 0 .. " + std::to_string(s.walkers.size() - 1) + ", got " +
                           std::to_string(w.line));
    unsticks += w.unsticks;
    // The route: a planned leg (never empty), its indices within it.
    if (rt.waypoints.empty()) bad(rp + ".waypoints", "expected at least one corner (the last is the anchor or the goal)");
    if (rt.next >= rt.waypoints.size())
      bad(rp + ".next", "corner " + std::to_string(rt.next) + " of " + std::to_string(rt.waypoints.size()));
    if (rt.next_anchor > rt.anchors.size())
      bad(rp + ".next_anchor", "anchor " + std::to_string(rt.next_anchor) + " of " + std::to_string(rt.anchors.size()));
    // (A rider's route is the one it boarded with, planned on the floor it left: it plans anew on stepping out.)
    if (w.phase == Phase::Riding ? !in_world(rt.leg_start) : !on_floor(rt.leg_start))
      bad(rp + ".leg_start", w.phase == Phase::Riding ? std::string("expected a point within the plan's 10 km")
                                                      : "off floor " + std::to_string(w.floor) + " (its box and 1 m)");
    for (std::size_t k = 0; k < rt.waypoints.size(); ++k)
      if (!in_world(rt.waypoints[k])) bad(rp + ".waypoints[" + std::to_string(k) + "]", "expected a point within the plan's 10 km");
    if (rt.back_k < -1 || rt.back_k >= static_cast<int32_t>(rt.waypoints.size()))
      bad(rp + ".back_k", "expected -1 (not walking round a line) or a corner of its waypoints, 0 .. " +
                              std::to_string(rt.waypoints.size()) + " - 1, got " + std::to_string(rt.back_k));
    if (!in_world(rt.back)) bad(rp + ".back", "expected a point within the plan's 10 km");
  }

  // ---- counts against what they count
  for (std::size_t q = 0; q < portals_.size(); ++q) {
    const PortalState& ps = s.portals[q];
    const std::string pp = "portals[" + std::to_string(q) + "]";
    if (ps.emitted != emitted[q])
      bad(pp + ".emitted", "expected the " + std::to_string(emitted[q]) + " walkers it spawned, got " + std::to_string(ps.emitted));
    if (ps.emitted > sc.portals[q].count)
      bad(pp + ".emitted", "more than its count " + std::to_string(sc.portals[q].count));
    if (ps.arrived != arrived[q])
      bad(pp + ".arrived", "expected the " + std::to_string(arrived[q]) + " walkers done there, got " + std::to_string(ps.arrived));
    if (ps.rotation > ps.emitted) bad(pp + ".rotation", "more turns than spawns (" + std::to_string(ps.emitted) + ")");
    if (ps.failed > s.tick) bad(pp + ".failed", "more failed spawns than ticks (at most one a tick)");
  }
  for (std::size_t c = 0; c < s.cars.size(); ++c)
    if (s.cars[c].riders != aboard[c])
      bad("cars[" + std::to_string(c) + "].riders", "expected the " + std::to_string(aboard[c]) + " walkers riding it");
  if (s.stats.done != done) bad("stats.done", "expected the " + std::to_string(done) + " done walkers");
  if (s.stats.removed != removed) bad("stats.removed", "expected the " + std::to_string(removed) + " removed walkers");
  if (s.stats.unsticks != unsticks) bad("stats.unsticks", "expected the sum of the walkers' unsticks (" + std::to_string(unsticks) + ")");
  for (std::size_t a = 0; a < areas_.size(); ++a) {
    const AreaState& ar = s.areas[a];
    const std::string ap = "areas[" + std::to_string(a) + "]";
    if (ar.count > n) bad(ap + ".count", "more than the " + std::to_string(n) + " walkers");
    if (!(ar.density >= 0.0f)) bad(ap + ".density", "expected a density >= 0");
    if (!(ar.mean_speed >= 0.0f)) bad(ap + ".mean_speed", "expected a speed >= 0");
    if (!(ar.flow_per_min >= 0.0f)) bad(ap + ".flow_per_min", "expected a flow >= 0");
    if (static_cast<uint8_t>(ar.los) > static_cast<uint8_t>(Los::F)) bad(ap + ".los", "expected 0 (A) .. 5 (F)");
    if (static_cast<uint8_t>(ar.los_peak) > static_cast<uint8_t>(Los::F)) bad(ap + ".los_peak", "expected 0 (A) .. 5 (F)");
    if (ar.los_peak < ar.los) bad(ap + ".los_peak", "below this tick's level of service");
    if (ar.ticks_above_bc > s.tick) bad(ap + ".ticks_above_bc", "more ticks than the state's " + std::to_string(s.tick));
  }
  state_ = s;
  crowd_fresh_.clear();
}

Input StationModel::scripted_input() const {
  Input in;
  auto it = std::lower_bound(script_by_tick_.begin(), script_by_tick_.end(), state_.tick,
                             [&](uint32_t e, uint64_t t) { return scenario_.script[e].tick < t; });
  for (; it != script_by_tick_.end() && scenario_.script[*it].tick == state_.tick; ++it) {
    const ScriptEvent& e = scenario_.script[*it];
    in.events.push_back(Event{e.walker, e.kind == "remove" ? EventKind::Remove : EventKind::Impulse, e.value});
  }
  return in;
}

}  // namespace lockstep::station
