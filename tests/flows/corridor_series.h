// The speed-density band of the Wuppertal/Juelich unidirectional corridor
// series (2009's HERMES experiments, the Juelich pedestrian database), as
// tools/corridor-series-fd measures it from the series' trajectories: the
// classic density in an area 2 m long across the corridor and the frame's
// mean individual speed (+-5 frames), per 0.25 /m^2 bin with at least 100
// frames, the 10th, 50th and 90th percentile; inflow runs (exit as wide as
// the corridor) and queue runs (a narrower exit) apart (docs/validation.md,
// "The corridor series"). Regenerate with `tools/corridor-series-fd DIR --cxx`.
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
  {Branch::Inflow, 0.00, 0.25, 849, 1.19, 1.51, 1.74},
  {Branch::Inflow, 0.25, 0.50, 1881, 1.25, 1.47, 1.72},
  {Branch::Inflow, 0.50, 0.75, 3429, 1.25, 1.44, 1.63},
  {Branch::Inflow, 0.75, 1.00, 2067, 1.17, 1.37, 1.55},
  {Branch::Inflow, 1.00, 1.25, 1904, 1.05, 1.23, 1.47},
  {Branch::Inflow, 1.25, 1.50, 2198, 0.92, 1.14, 1.36},
  {Branch::Inflow, 1.50, 1.75, 2082, 0.83, 1.04, 1.22},
  {Branch::Inflow, 1.75, 2.00, 1169, 0.78, 0.91, 1.10},
  {Branch::Inflow, 2.00, 2.25, 637, 0.76, 0.84, 1.00},
  {Branch::Inflow, 2.25, 2.50, 132, 0.78, 0.82, 0.94},
  {Branch::Queue, 0.25, 0.50, 152, 0.49, 1.51, 2.02},
  {Branch::Queue, 0.50, 0.75, 191, 0.31, 1.46, 1.71},
  {Branch::Queue, 0.75, 1.00, 164, 0.33, 1.37, 1.62},
  {Branch::Queue, 1.00, 1.25, 272, 0.47, 1.28, 1.61},
  {Branch::Queue, 1.25, 1.50, 476, 0.49, 1.10, 1.37},
  {Branch::Queue, 1.50, 1.75, 830, 0.50, 0.75, 1.25},
  {Branch::Queue, 1.75, 2.00, 1083, 0.49, 0.61, 0.88},
  {Branch::Queue, 2.00, 2.25, 1974, 0.43, 0.57, 0.66},
  {Branch::Queue, 2.25, 2.50, 925, 0.46, 0.55, 0.64},
  {Branch::Queue, 2.50, 2.75, 1897, 0.39, 0.48, 0.61},
  {Branch::Queue, 2.75, 3.00, 801, 0.31, 0.42, 0.49},
  {Branch::Queue, 3.00, 3.25, 515, 0.30, 0.36, 0.45},
  {Branch::Queue, 3.25, 3.50, 241, 0.30, 0.34, 0.37},
};

/// The bin of `branch` holding the density `rho`, or nullptr where the series has too few frames.
inline const Bin* bin_at(Branch branch, double rho) {
  for (const Bin& b : kBins)
    if (b.branch == branch && rho >= b.rho_lo && rho < b.rho_hi) return &b;
  return nullptr;
}

}  // namespace lockstep::corridor_series
