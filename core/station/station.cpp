// The station model's step: a short list of phases in a fixed order
// (docs/station-step.md).
#include <algorithm>
#include <cmath>

#include "station/station.h"

namespace lockstep::station {

void StationModel::step(const Input& input) {
  // Small crowds step on this thread alone (kParallelWalkers; the same bits either way).
  workers_ = pool_ != nullptr && (state_.walkers.size() >= kParallelWalkers || pool_->eager()) ? pool_ : nullptr;
  // Each phase reports to the profiler's observer when one listens (phases.h); a no-op otherwise.
  {
    const auto phase = phases_.scope(kInputs);
    crowd_fresh_.assign(floors_.size(), 0);  // the crowd costs follow the state (built on first use)
    apply_inputs(input);                     // 1. the tick's input events, in order
    count_stair_traffic();  // the stairs' lane-band counts, from the state as the tick starts (stairs.cpp, S38)
    count_belts();          // who is bound for each connector, and each belt's last boarder (S40)
    form_lines();           // the lines at the belts' mouths (S47)
    count_lifts();          // the teleport locks; who waits at or walks up to each elevator landing (S52)
  }
  {
    const auto phase = phases_.scope(kSpawn);
    spawn_phase();  // 2. portals emit, in portal order
  }
  {
    const auto phase = phases_.scope(kNeighbours);
    rebuild_neighbours();  // 3. the walker grid, force neighbours, nearby walls
  }
  {
    const auto phase = phases_.scope(kPlan);
    plan_phase();  // 4. routes, lanes, progress and recovery, sight yaw: every walker from the same state
  }
  {
    const auto phase = phases_.scope(kForces);
    force_phase();  // 5. the force law, 4 sub-steps: all accelerations, then all moves
  }
  {
    const auto phase = phases_.scope(kConnectors);
    connectors_phase();  // 6. belts carry and let off; stairs: on a flight, the hand-over, the step off; belts board
  }
  {
    const auto phase = phases_.scope(kArrival);
    arrival_phase();  // 7. geometric arrival: Done
  }
  {
    const auto phase = phases_.scope(kCrowd);
    crowd_phase();  // 8. the crowd field: decay, then this tick's walking bodies
  }
  {
    const auto phase = phases_.scope(kMeasure);
    measure_phase();  // 9. density and level of service per area
  }
  ++state_.tick;  // 10.
}

void StationModel::check_input(const Input& input) const {
  // The model contract's hook (model.h): NaN and infinities are refused before
  // this; here everything else an event can get wrong, by its field. The
  // impulse bound (kMaxImpulse, docs/station.md "Limits") keeps every velocity
  // sum finite (an impulse of 3e38 overflowed the force phase's sums to
  // infinity and NaN); the integrator caps the speed at 1.3 v0 before the move
  // anyway, so a bigger shove could mean nothing more.
  const auto& ws = state_.walkers;
  const std::string tick = std::to_string(state_.tick);
  // The scenario's own script entries for this tick, in the order scripted_input() lists them.
  auto first = std::lower_bound(script_by_tick_.begin(), script_by_tick_.end(), state_.tick,
                                [&](uint32_t e, uint64_t t) { return scenario_.script[e].tick < t; });
  for (std::size_t k = 0; k < input.events.size(); ++k) {
    const Event& ev = input.events[k];
    const std::string at = "events[" + std::to_string(k) + "]";
    const auto kind = static_cast<int32_t>(ev.kind);
    if (kind < 0 || kind > 1)
      throw InputError("input", at + ".kind", "unknown event kind " + std::to_string(kind) + " (0 impulse, 1 remove)");
    if (ev.walker >= ws.size()) {
      // A scripted event for a walker that spawns later passes loading (the
      // walker may exist by then); name the script entry that asked for it.
      std::string whose;
      const std::size_t here = static_cast<std::size_t>(first - script_by_tick_.begin()) + k;
      if (here < script_by_tick_.size()) {
        const ScriptEvent& se = scenario_.script[script_by_tick_[here]];
        if (se.tick == state_.tick && se.walker == ev.walker && (se.kind == "remove") == (ev.kind == EventKind::Remove))
          whose = "; the scenario's $.script[" + std::to_string(script_by_tick_[here]) +
                  "] names a walker that has not spawned by then";
      }
      throw InputError("input", at + ".walker",
                       "no walker " + std::to_string(ev.walker) + " at tick " + tick + " (the world has " +
                           std::to_string(ws.size()) + ")" + whose);
    }
    if (ev.kind == EventKind::Impulse &&
        !(ev.value.x >= -kMaxImpulse && ev.value.x <= kMaxImpulse && ev.value.y >= -kMaxImpulse && ev.value.y <= kMaxImpulse))
      throw InputError("input", at + ".value",
                       "an impulse is a velocity change of at most " + std::to_string(static_cast<int>(kMaxImpulse)) +
                           " m/s in x and in y, got [" + num_text(ev.value.x) + ", " + num_text(ev.value.y) + "]");
    // An event for a walker that is done or removed is allowed and does nothing
    // (a script cannot know when a walker arrives; docs/station.md, "Inputs").
  }
}

void StationModel::apply_inputs(const Input& input) {
  auto& ws = state_.walkers;
  check_input(input);  // validate all before applying any (the adapter has checked already; direct callers too)
  for (const auto& ev : input.events) {
    Walker& w = ws[ev.walker];
    if (w.phase == Phase::Riding && ev.kind == EventKind::Remove) {
      // A rider removed: out of its car (an impulse on a rider does nothing).
      --state_.cars[static_cast<std::size_t>(w.lift)].riders;
      w.phase = Phase::Removed;
      w.done_tick = static_cast<uint32_t>(state_.tick);
      ++state_.stats.removed;
      continue;
    }
    if (w.phase != Phase::Walking) continue;  // done and removed bodies are out of the run
    if (ev.kind == EventKind::Impulse) {
      w.vel = w.vel + ev.value;
    } else {
      w.phase = Phase::Removed;
      w.vel = V2{};
      w.done_tick = static_cast<uint32_t>(state_.tick);  // tick < kMaxTicks (a u32): set_state and the scenario's ticks
      ++state_.stats.removed;
    }
  }
}

void StationModel::plan_phase() {
  const auto n = static_cast<uint32_t>(state_.walkers.size());
  // Routes: each walker writes only its own route and plan fields and its
  // own counts, and reads no other walker's plan, so the order they are
  // planned in does not matter and every walker is planned on the workers. A
  // search reads the floor's crowd field through its own view (crowd_view)
  // and takes its own scratch from the grid; the field is built first, here,
  // for each floor where someone may search, check the crowd or recover this
  // tick (plan_may_search).
  std::vector<uint8_t> kick(n, 0);
  std::vector<uint8_t> may_search(n, 0);
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    for (uint32_t i = begin; i < end; ++i)
      if (state_.walkers[i].phase == Phase::Walking && plan_may_search(i)) may_search[i] = 1;
  });
  for (uint32_t i = 0; i < n; ++i)
    if (may_search[i]) crowd_costs(state_.walkers[i].floor);
  plan_counts_.assign(n, {});
  struct OnWorkers {
    bool& flag;
    explicit OnWorkers(bool& f) : flag(f) { flag = true; }
    ~OnWorkers() { flag = false; }
    OnWorkers(const OnWorkers&) = delete;
    OnWorkers& operator=(const OnWorkers&) = delete;
  };
  {
    const OnWorkers on_workers(planning_on_workers_);
    parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
      for (uint32_t i = begin; i < end; ++i)
        if (state_.walkers[i].phase == Phase::Walking) plan_walker(i, kick);
    });
  }
  for (uint32_t i = 0; i < n; ++i) {
    state_.stats.rebuilt_paths += plan_counts_[i][kCountRebuilt];
    state_.stats.crowd_rebuilds += plan_counts_[i][kCountCrowdRebuilds];
    state_.stats.unsticks += plan_counts_[i][kCountUnsticks];
  }
  // The body's half-width this tick (S59): its radius at rest, less the
  // shoulders' sway as it nears its desired speed (the generalised
  // centrifugal-force model's b, from 0.25 m standing to 0.20 m walking).
  // A body moving along close to a wall turns its shoulders (S60): down to its
  // half-depth kDepth r across, in full within r + kTurnNear of a wall straight
  // across its heading (last tick's direction) on either side, not at all from
  // r + kTurnFar on, and only as it moves (in full from kTurnSpeed of its
  // desired speed; at rest it stands square). The turn reads that room at the
  // body and kTurnAhead ahead along the heading, the larger (S62): a body
  // turns as it steps into a narrow opening.
  // The standing gap's room factor (S61): 1 - t_room, S60's measure of a
  // wall straight across the heading, whatever the speed (a standing body
  // beside a wall closes up as well); 1 before its first heading. 0, no
  // standing gap, on a flight (the tread kept free is its standing gap, S35)
  // and in a line at a belt's or gate's mouth (the seed's spacing, S47); the
  // headway pass below also clears it where a belt's or car's spacing holds.
  half_w_.resize(n);
  stand_room_.resize(n);
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    for (uint32_t i = begin; i < end; ++i) {
      const Walker& w = state_.walkers[i];
      const float v0 = w.desired_speed;
      const float v = dmath::sqrt(sqr_length(w.vel));
      const float f = v0 > 0.0f ? (v < v0 ? v / v0 : 1.0f) : 0.0f;
      float hw = w.radius * (1.0f - kSway * f);
      const bool turns = w.phase == Phase::Walking && w.flight < 0 && v0 > 0.0f;
      const float room = turns ? wall_room(w, w.pos) : 0.0f;
      if (turns && v > 0.0f) {
        const float slow = kTurnSpeed * v0;  // the turn grows with the speed up to here (S60)
        const float turn = turn_room(w, room);  // and reads the room just ahead (S62)
        hw -= (hw - kDepth * w.radius) * (v < slow ? turn * (v / slow) : turn);
      }
      half_w_[i] = hw;
      stand_room_[i] = w.flight < 0 && w.line < 0 ? 1.0f - room : 0.0f;
    }
  });
  // Sight: reads every walker's position, velocity, last direction and
  // headway, which nothing above changed; all yaws first, then all directions.
  std::vector<float> yaw(n, 0.0f);
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    for (uint32_t i = begin; i < end; ++i) {
      const Walker& w = state_.walkers[i];
      if (w.phase != Phase::Walking || on_belt(w) || w.line >= 0) continue;  // a rider faces the belt's way; in line, sight yaw is off (S47)
      const V2 e0 = unit(w.drive - w.pos);
      yaw[i] = e0 == V2{} ? 0.0f : sight_yaw(i, e0);
    }
  });
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    for (uint32_t i = begin; i < end; ++i) {
      Walker& w = state_.walkers[i];
      if (w.phase != Phase::Walking) continue;
      const V2 e0 = unit(w.drive - w.pos);
      w.sight_yaw = yaw[i];
      w.dir = yaw[i] == 0.0f ? e0 : rotated(e0, yaw[i]);
    }
  });
  // Walls (S24, seed 002 Motion): a body whose way is blocked by a wall within kSlideGap slides
  // along it (its direction loses the part into the wall); then the wall gap
  // along the direction it takes (docs/station-forces.md, "Walls steer; what
  // is in the way slows"). Each walker reads only its own state and the walls.
  // The slide turns only the body's own motion (move_dir_): its `dir`, what
  // the others see of where it is going (headway, sight), stays its wish.
  wall_gap_.assign(n, kHeadwayCap);
  move_dir_.assign(n, V2{});
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    for (uint32_t i = begin; i < end; ++i) {
      const Walker& w = state_.walkers[i];
      if (w.phase != Phase::Walking) continue;
      V2 nrm;
      V2 e = w.dir;
      float g = wall_gap_of(i, e, &nrm);
      const float into = dot(e, nrm);
      if (g < kSlideGap && into < 0.0f) {
        const V2 slide = unit(e - nrm * into);
        if (!(slide == V2{})) {
          e = slide;
          g = wall_gap_of(i, slide, &nrm);
        }
      }
      wall_gap_[i] = g;
      move_dir_[i] = e;
    }
  });
  // Headway: reads every walker's position and this tick's direction.
  std::vector<float> hw(n, kHeadwayCap);
  parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) {
    for (uint32_t i = begin; i < end; ++i)
      if (state_.walkers[i].phase == Phase::Walking) {
        const float own = headway_of(i), held = std::min(belt_hold_gap(i), lift_gap(i));
        hw[i] = std::min(own, held);
        if (held <= own) stand_room_[i] = 0.0f;  // a belt's or a car's spacing holds it, the seed's own: no standing gap (S61)
      }
  });
  for (uint32_t i = 0; i < n; ++i) state_.walkers[i].headway = hw[i];
  // Recovery's sideways velocity, applied after everyone has looked.
  for (uint32_t i = 0; i < n; ++i) {
    if (kick[i] == 0) continue;
    Walker& w = state_.walkers[i];
    const V2 e = unit(w.drive - w.pos);
    const V2 side = kick[i] == 1 ? left_of(e) : left_of(e) * -1.0f;
    w.vel = side * (0.5f * w.desired_speed);  // S15
  }
}

void StationModel::measure_phase() {
  // Measurements, not feedback (seed 002): density, mean speed, specific flow
  // and Fruin's walkway level of service per area. Sums in fixed point (2^-20
  // m/s per unit) so they do not depend on the walkers' order.
  for (std::size_t a = 0; a < areas_.size(); ++a) {
    const AreaGeom& g = areas_[a];
    const Polygon& poly = scenario_.areas[a].polygon;
    uint32_t count = 0;
    int64_t speed_sum = 0;
    for (const Walker& w : state_.walkers) {
      if (w.phase != Phase::Walking || w.floor != g.floor || !inside(poly, w.pos)) continue;
      ++count;
      // After the force phase a walking body is no faster than 1.3 v0 <= 13 m/s
      // (v0 <= 10 m/s, docs/station.md "Limits"): under 2^24 units, and 2,000,000 of them far inside int64.
      speed_sum += static_cast<int64_t>(length(w.vel) * 1048576.0f);
    }
    AreaState& st = state_.areas[a];
    st.count = count;
    st.density = static_cast<float>(count) / g.area_m2;
    st.mean_speed = count ? static_cast<float>(speed_sum) / 1048576.0f / static_cast<float>(count) : 0.0f;
    st.flow_per_min = st.density * st.mean_speed * 60.0f;
    st.los = fruin_los(st.flow_per_min);
    if (st.los > st.los_peak) st.los_peak = st.los;
    if (st.density > kFruinBCDensity) ++st.ticks_above_bc;
  }
}

std::vector<lockstep::FloorView> StationModel::floor_views() const {
  std::vector<lockstep::FloorView> out;
  auto ring = [](const std::vector<V2>& poly) {
    std::vector<lockstep::FloorPoint> r;
    for (const V2& p : poly) r.push_back({static_cast<double>(p.x), static_cast<double>(p.y)});
    return r;
  };
  for (std::size_t k = 0; k < scenario_.floors.size(); ++k) {
    const auto& f = scenario_.floors[k];
    lockstep::FloorView v;
    v.id = f.id;
    for (const auto& p : floors_[k].walkable) v.walkable.push_back(ring(p));  // the outlines, then the stairs' flights
    for (const auto* set : {&f.obstacles, &f.holes, &f.voids})
      for (const auto& p : *set) v.solids.push_back(ring(p));
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<lockstep::BodyView> StationModel::bodies() const {
  // Heading: along the velocity when the body moves (above 1 mm/s), else its
  // direction, else +x.
  std::vector<lockstep::BodyView> out;
  const auto& ws = state_.walkers;
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const Walker& w = ws[i];
    if (w.phase != Phase::Walking) continue;
    // In double, as the trajectory writer always did (an output, not state).
    double hx = w.vel.x, hy = w.vel.y;
    double len = std::sqrt(hx * hx + hy * hy);
    if (len < 1e-3) hx = w.dir.x, hy = w.dir.y, len = std::sqrt(hx * hx + hy * hy);
    if (len < 1e-6) hx = 1.0, hy = 0.0, len = 1.0;
    out.push_back(lockstep::BodyView{static_cast<int64_t>(i), w.floor, static_cast<double>(w.pos.x), static_cast<double>(w.pos.y),
                                     hx / len, hy / len, static_cast<double>(w.radius)});
  }
  return out;
}

}  // namespace lockstep::station

namespace lockstep::station {

namespace {

lockstep::FloorPoint point_of(V2 p) { return {static_cast<double>(p.x), static_cast<double>(p.y)}; }

/// A walker's state as the viewer colours it.
const char* state_word(const Walker& w) {
  if (w.ignore_s > 0) return "recovering";
  if (w.stuck_s >= 1.0f) return "stuck";
  return w.trip == Trip::Board ? "boarding" : "alighting";
}

}  // namespace

lockstep::Drawing StationModel::scene_drawing() const {
  using K = lockstep::DrawShape::Kind;
  lockstep::Drawing d;
  auto ring = [](const Polygon& poly) {
    std::vector<lockstep::FloorPoint> r;
    for (const V2& p : poly) r.push_back(point_of(p));
    return r;
  };
  for (std::size_t f = 0; f < scenario_.floors.size(); ++f) {
    const auto& fl = scenario_.floors[f];
    const auto fi = static_cast<uint32_t>(f);
    for (const auto& p : fl.walkable) d.shapes.push_back({K::Polygon, "floor", ring(p), 0, {}, -1, fi});
    for (const auto& p : fl.obstacles) d.shapes.push_back({K::Polygon, "obstacle", ring(p), 0, {}, -1, fi});
    for (const auto& p : fl.holes) d.shapes.push_back({K::Polygon, "hole", ring(p), 0, {}, -1, fi});
    for (const auto& p : fl.voids) d.shapes.push_back({K::Polygon, "void", ring(p), 0, {}, -1, fi});
    for (const auto& w : fl.walls) d.shapes.push_back({K::Line, "wall", {{w.x0, w.y0}, {w.x1, w.y1}}, 0, {}, -1, fi});
    // Stairs: the flight is floor on both floors it joins, walled along its sides and across its far end.
    for (std::size_t z = 0; z < flights_.size(); ++z) {
      const FlightGeom& fg = flights_[z];
      if (fg.from != f && fg.to != f) continue;
      if (fg.lift) {
        // An elevator landing: its shaft (a door landing is solid) or its platform, the door, its id.
        const Polygon box{fg.c[0], fg.c[1], fg.c[2], fg.c[3]};
        d.shapes.push_back({K::Polygon, fg.door ? "void" : "floor", ring(box), 0, {}, -1, fi});
        if (fg.door) d.shapes.push_back({K::Line, "portal", {point_of(fg.c[0]), point_of(fg.c[1])}, 0, {}, -1, fi});
        d.shapes.push_back({K::Label, "floor", {point_of((fg.mid0 + fg.mid2) * 0.5f)}, 0, scenario_.zones[z].id, -1, fi});
        continue;
      }
      d.shapes.push_back({K::Polygon, "floor", ring(Polygon{fg.c[0], fg.c[1], fg.c[2], fg.c[3]}), 0, {}, -1, fi});
      for (const Wall& w : floors_[f].walls)
        if ((w.kind == WallKind::Flight || w.kind == WallKind::Landing) && w.blocker == static_cast<int32_t>(z))
          d.shapes.push_back({K::Line, "wall", {point_of(w.a), point_of(w.b)}, 0, {}, -1, fi});
      d.shapes.push_back({K::Label, "floor", {point_of((fg.mid0 + fg.mid2) * 0.5f)}, 0, scenario_.zones[z].id, -1, fi});
    }
  }
  for (std::size_t p = 0; p < scenario_.portals.size() && p < portals_.size(); ++p) {
    const auto fi = portals_[p].floor;
    d.shapes.push_back({K::Polygon, "portal", ring(scenario_.portals[p].polygon), 0, {}, -1, fi});
    d.shapes.push_back({K::Label, "portal", {point_of(portals_[p].centre)}, 0, scenario_.portals[p].id, -1, fi});
  }
  for (std::size_t a = 0; a < scenario_.areas.size() && a < areas_.size(); ++a)
    d.shapes.push_back({K::Polygon, "area", ring(scenario_.areas[a].polygon), 0, {}, -1, areas_[a].floor});
  return d;
}

lockstep::Drawing StationModel::tick_drawing() const {
  using K = lockstep::DrawShape::Kind;
  lockstep::Drawing d;
  const auto bodies_now = bodies();
  for (const auto& b : bodies_now) {
    const auto i = static_cast<std::size_t>(b.id);
    const Walker& w = state_.walkers[i];
    d.bodies.push_back({b, "walkers[" + std::to_string(i) + "]", {}, state_word(w)});
    if (i < state_.routes.size()) {
      d.bodies.back().more_paths.push_back("routes[" + std::to_string(i) + "]");
      const Route& r = state_.routes[i];
      lockstep::DrawShape path{K::Line, "path", {point_of(w.pos)}, 0, {}, b.id, w.floor};
      for (std::size_t k = r.next; k < r.waypoints.size(); ++k) path.points.push_back(point_of(r.waypoints[k]));
      if (path.points.size() > 1) d.shapes.push_back(std::move(path));
    }
  }
  // Each car, at the landing it stands at ("car: 3 aboard") or runs to ("car coming: 3 aboard"); its
  // riders have no body (seed 002: "stands still inside the car").
  for (std::size_t c = 0; c < lifts_.size() && c < state_.cars.size(); ++c) {
    const CarState& car = state_.cars[c];
    const FlightGeom& fg = flights_[lifts_[c].landings[car.at]];
    const std::string text = std::string(car.run_ticks > 0 ? "car coming: " : "car: ") + std::to_string(car.riders) + " aboard";
    const V2 at = fg.door ? fg.c[1] - fg.axis * 0.4f : (fg.mid0 + fg.mid2) * 0.5f;  // beside the door (the shaft is dark)
    d.shapes.push_back({K::Label, "portal", {point_of(at)}, 0, text, -1, fg.from});
  }
  return d;
}

}  // namespace lockstep::station
