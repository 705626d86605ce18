// Crowd measures computed from trajectories the way PedPy defines them
// (docs/validation.md, "Flows"): the N-t curve at a line and the flow from
// it, classic and Voronoi density in an area, individual speed by a centred
// difference. Independent of the station model: a trajectory is frames of
// (id, x, y), so the tests can check each measure on hand-made walks.
#pragma once

#include "corridor_series.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace flows {

struct P2 {
  double x = 0, y = 0;
};
using Poly = std::vector<P2>;  // a convex polygon, either winding

struct Agent {
  uint32_t id = 0;
  double x = 0, y = 0;
};

struct Trajectory {
  double frame_rate = 20.0;          ///< frames per second
  std::vector<std::vector<Agent>> frames;  ///< frame k: the agents present, in any order
};

double area_of(const Poly& p);
bool inside(const Poly& p, P2 q);
/// The part of the convex polygon `p` inside the convex polygon `clip` (Sutherland-Hodgman).
Poly clip_convex(const Poly& p, const Poly& clip);
Poly box(double x0, double y0, double x1, double y1);

/// PedPy's N-t: the frame at which each agent first crosses the line a-b (its
/// step from frame k-1 to k crosses the segment), sorted. One entry per agent.
std::vector<uint32_t> crossing_frames(const Trajectory& t, P2 a, P2 b);

/// Flow over the crossings from the `lo` to the `hi` fraction of them (the
/// steady state): (N_hi - N_lo) / (t_hi - t_lo), persons per second. 0 when
/// fewer than two crossings fall in.
double flow_between(const std::vector<uint32_t>& crossings, double frame_rate, double lo, double hi);

/// Classic density: agents inside the area / its size.
double classic_density(const std::vector<Agent>& frame, const Poly& area);

/// PedPy's individual speed, speed_calculation BORDER_EXCLUDE: |x(k + s) - x(k - s)| / (2 s / fps),
/// for every agent present at k - s, k and k + s; keyed by frame and agent id.
struct Speeds {
  int step = 5;
  // speed[k][id] for the agents of frame k (NaN where not computable).
  std::vector<std::vector<double>> at;  // parallel to t.frames[k]
};
Speeds individual_speeds(const Trajectory& t, int frame_step);

/// Voronoi cells (PedPy compute_individual_voronoi_polygons) of one frame,
/// each clipped to the convex `bounds` and to a cut-off circle of `cutoff` m
/// (a regular 12-gon, PedPy's Cutoff(radius, quad_segments=3)).
std::vector<Poly> voronoi_cells(const std::vector<Agent>& frame, const Poly& bounds, double cutoff);

/// PedPy's Voronoi density in `area`: sum over agents of |V_i ∩ A| / |V_i|, over |A|;
/// and the Voronoi speed, sum of v_i |V_i ∩ A| over the area the cells cover (PedPy divides by |A|,
/// the same where the cells cover the area; agents without a speed left out of both).
struct VoronoiMeasure {
  double density = 0, speed = 0;
};
VoronoiMeasure voronoi_measure(const std::vector<Agent>& frame, const std::vector<double>& speeds,
                               const Poly& bounds, const Poly& area, double cutoff);

/// Steady state of a time series: Liao, Tordeux, Seyfried, Chraibi et al. (2016)'s modified
/// CUSUM, as JPSreport's SteadyState script runs it (docs/validation.md, "Steady state";
/// tools/corridor-series-fd has the same for the corridor series). Against a reference stretch
/// (its mean, standard deviation and lag-1 autocorrelation) the statistic starts at kCusumMax
/// and moves +1 at a sample more than kCusumQ standard deviations off the mean, -1 otherwise,
/// kept in 0 .. kCusumMax; a sample is steady while the statistic is under the threshold.
inline constexpr double kCusumQ = 2.3263478740408408;  ///< the standard normal's 0.99 quantile
inline constexpr double kCusumGamma = 0.99;
inline constexpr int kCusumMax = 100;
inline constexpr int kCusumArSteps = 400000;
struct Interval {
  std::size_t begin = 0, end = 0;  ///< samples begin .. end, both included
};
/// The threshold: the 0.99 quantile (at least 1) of the statistic over a stationary AR(1)
/// process with lag-1 autocorrelation `acf` (simulated from a fixed seed; the same numbers as
/// tools/corridor-series-fd's).
int cusum_threshold(double acf);
/// The mean, standard deviation (over n) and lag-1 autocorrelation of x[lo, hi).
struct Reference {
  double mean = 0, std = 0, acf = 0;
};
Reference reference_of(const std::vector<double>& x, std::size_t lo, std::size_t hi);
/// The steady intervals of x against the reference x[lo, hi): each run of steady samples
/// [a, b] becomes [a - (kCusumMax - theta), b - theta] (the statistic's reaction time, the
/// start clamped at 0), kept where begin < end; intervals that then touch or overlap are joined.
std::vector<Interval> steady_intervals(const std::vector<double>& x, std::size_t lo, std::size_t hi);
/// The samples in both a and b (each sorted and disjoint), as intervals with begin < end.
std::vector<Interval> intersect(const std::vector<Interval>& a, const std::vector<Interval>& b);
/// A drift guard on the automatic reference (the middle third, which a series that only ramps
/// would also pass): the mean of x over the second half of the samples in `steady` (in order)
/// less its mean over the first half, over the mean of all of them. A steady state's density
/// drifts by less than a fifth.
inline constexpr double kSteadyMaxDrift = 0.2;
double drift_of(const std::vector<double>& x, const std::vector<Interval>& steady);

/// Least squares line y = a + b x and its R^2.
struct Fit {
  double a = 0, b = 0, r2 = 0;
};
Fit fit_line(const std::vector<double>& x, const std::vector<double>& y);

/// Weidmann's fundamental diagram (crowd.md) and the band of published data
/// the fundamental-diagram check uses for a branch (inflow or queue) of the
/// corridor (docs/validation.md, "Flows" and "The corridor series").
double weidmann(double rho);
double band_lo(double rho, lockstep::corridor_series::Branch branch);
double band_hi(double rho, lockstep::corridor_series::Branch branch);

}  // namespace flows
