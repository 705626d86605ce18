// lockstep trajectory SCENARIO -o FILE: a run's bodies, frame by frame, in JuPedSim's SQLite layout (PedPy
// reads it); any model with the contract's body view (lockstep/core/body_view.h; the bundled station model has one).
#include <cstdio>
#include <stdexcept>

#include "command.h"
#include "lockstep/core/model.h"
#include "lockstep/trajectory/sqlite.h"
#include "progress.h"

namespace lockstep::cli {

namespace {

namespace tj = lockstep::trajectory;

class Trajectory final : public Command {
 public:
  explicit Trajectory(CLI::App& app) {
    sub = app.add_subcommand("trajectory",
                             "Write a run's trajectories for PedPy (JuPedSim's SQLite layout); any model with a body view (station has one)");
    add_scenario_arg(sub, scenario_);
    add_output_option(sub, out_, "The SQLite file to write (replaced if it exists)")->required();
    add_ticks_option(sub, ticks_);
    sub->add_option("--every", every_, "Write every Kth tick as a frame (default 2: 10 fps at dt 0.05 s)")
        ->check(CLI::Range(1LL, 1000000LL));
    sub->add_option("--floor", floor_, "The floor id to write (default: the first floor); PedPy has no height");
    sub->footer(
        "\nExample:\n  lockstep trajectory fixtures/station/hall.json -o hall.sqlite\n"
        "Frame n is tick n*K (fps = 20/K); a row per walker still walking on the floor: its slot as id, its\n"
        "position in metres and its heading (velocity, or desired direction when standing). The geometry is\n"
        "the floor minus its obstacles, holes and voids. In Python:\n"
        "  pedpy.load_trajectory_from_jupedsim_sqlite(trajectory_file=pathlib.Path(\"hall.sqlite\"))\n"
        "(docs/trajectories.md).\n\n"
        "Exit 0 when the file is written, 2 for a bad scenario or flag, a model without a body view, or a\n"
        "file that cannot be written.");
  }

  int run() override {
    auto model = load_scenario_file(scenario_);
    const std::vector<FloorView> floors = model->floors();
    if (floors.empty())
      throw InputError(scenario_, "$.model",
                       "trajectories need a model with a body view (floors and bodies); " + model->info().name + " has none");
    const uint32_t floor = pick_floor(floors);
    const uint64_t ticks = ticks_or(ticks_, model->default_ticks());
    const std::string wkt = walkable_wkt(floors[floor], floor);
    const double fps = static_cast<double>(model->info().tick_rate_hz) / static_cast<double>(every_);
    tj::SqliteTrajectoryWriter w(out_, fps, wkt);
    std::vector<tj::TrajectoryRow> rows;
    auto frame = [&](uint64_t n) {
      rows.clear();
      for (const BodyView& b : model->bodies())
        if (b.floor == floor) rows.push_back(tj::TrajectoryRow{b.id, b.x, b.y, b.hx, b.hy});
      w.write_frame(n, rows);
    };
    {
      Progress progress("trajectory", "tick", ticks);
      frame(0);
      const auto every = static_cast<uint64_t>(every_);
      for (uint64_t k = 1; k <= ticks; ++k) {
        model->step_scripted();
        if (k % every == 0) frame(k / every);
        progress.update(k);
      }
    }
    w.close();
    std::printf("wrote %s: %llu frames at %g fps, %llu rows, floor \"%s\"\n", out_.c_str(),
                static_cast<unsigned long long>(w.frames_written()), fps, static_cast<unsigned long long>(w.rows_written()),
                floors[floor].id.c_str());
    return kExitOk;
  }

 private:
  /// --floor by id, or the first floor.
  uint32_t pick_floor(const std::vector<FloorView>& floors) const {
    if (floor_.empty()) return 0;
    std::vector<std::string> ids;
    for (std::size_t f = 0; f < floors.size(); ++f) {
      if (floors[f].id == floor_) return static_cast<uint32_t>(f);
      ids.push_back(floors[f].id);
    }
    throw InputError(scenario_, "--floor", "no floor \"" + floor_ + "\" (floors: " + join(ids) + ")");
  }

  /// The walkable area as WKT: the floor's outlines minus its solids.
  std::string walkable_wkt(const FloorView& fl, uint32_t floor) const {
    auto ring = [](const std::vector<FloorPoint>& poly) {
      tj::Ring r;
      for (const auto& p : poly) r.emplace_back(p.x, p.y);
      return r;
    };
    std::vector<tj::Ring> walkable, solids;
    for (const auto& p : fl.walkable) walkable.push_back(ring(p));
    for (const auto& p : fl.solids) solids.push_back(ring(p));
    try {
      return tj::wkt_floor(walkable, solids);
    } catch (const std::invalid_argument& e) {
      throw InputError(scenario_, "$.floors[" + std::to_string(floor) + "]", e.what());
    }
  }

  std::string scenario_, out_, floor_;
  long long ticks_ = -1;
  long long every_ = 2;
};

}  // namespace

std::unique_ptr<Command> make_trajectory(CLI::App& app) { return std::make_unique<Trajectory>(app); }

}  // namespace lockstep::cli
