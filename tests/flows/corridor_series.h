// The speed-density band of the Wuppertal/Juelich unidirectional corridor
// series (2009's HERMES experiments, the Juelich pedestrian database), as
// tools/corridor-series-fd measures it from the series' trajectories: the
// classic density in an area 2 m long across the corridor and the frame's
// mean individual speed (+-5 frames), per 0.25 /m^2 bin with at least 100
// frames of the runs' steady states (Liao et al. 2016's CUSUM; docs/validation.md,
// "Steady state"), the 10th, 50th and 90th percentile; inflow runs (exit as
// wide as the corridor) and queue runs (a narrower exit) apart
// (docs/validation.md, "The corridor series"). Regenerate with
// `tools/corridor-series-fd DIR --cxx`.
// Header-only: both the flow runner and the RiMEA 4 test use it.
#pragma once

#include <cstddef>

namespace lockstep::corridor_series {

enum class Branch { Inflow, Queue };

struct Bin {
  Branch branch;
  double rho_lo, rho_hi;  ///< /m^2
  int frames;
  double p10, p50, p90;  ///< m/s
};

inline constexpr Bin kBins[] = {
  {Branch::Inflow, 0.00, 0.25, 602, 1.26, 1.49, 1.68},
  {Branch::Inflow, 0.25, 0.50, 1405, 1.26, 1.44, 1.64},
  {Branch::Inflow, 0.50, 0.75, 2866, 1.27, 1.43, 1.59},
  {Branch::Inflow, 0.75, 1.00, 1703, 1.17, 1.36, 1.53},
  {Branch::Inflow, 1.00, 1.25, 1308, 1.05, 1.21, 1.41},
  {Branch::Inflow, 1.25, 1.50, 1474, 0.94, 1.11, 1.29},
  {Branch::Inflow, 1.50, 1.75, 1456, 0.85, 1.03, 1.20},
  {Branch::Inflow, 1.75, 2.00, 838, 0.80, 0.94, 1.06},
  {Branch::Inflow, 2.00, 2.25, 521, 0.77, 0.84, 1.00},
  {Branch::Inflow, 2.25, 2.50, 117, 0.77, 0.82, 0.94},
  {Branch::Queue, 1.50, 1.75, 279, 0.50, 0.60, 0.66},
  {Branch::Queue, 1.75, 2.00, 757, 0.48, 0.59, 0.65},
  {Branch::Queue, 2.00, 2.25, 1638, 0.44, 0.56, 0.64},
  {Branch::Queue, 2.25, 2.50, 856, 0.46, 0.54, 0.62},
  {Branch::Queue, 2.50, 2.75, 1703, 0.41, 0.49, 0.60},
  {Branch::Queue, 2.75, 3.00, 709, 0.31, 0.43, 0.51},
  {Branch::Queue, 3.00, 3.25, 445, 0.30, 0.35, 0.45},
  {Branch::Queue, 3.25, 3.50, 222, 0.30, 0.34, 0.37},
};

/// The bin of `branch` holding the density `rho`, or nullptr where the series has too few frames.
inline const Bin* bin_at(Branch branch, double rho) {
  for (const Bin& b : kBins)
    if (b.branch == branch && rho >= b.rho_lo && rho < b.rho_hi) return &b;
  return nullptr;
}

}  // namespace lockstep::corridor_series
