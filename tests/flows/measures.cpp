// PedPy's measures (docs/validation.md, "Flows"). Test-side code: doubles and
// std::exp are fine here, nothing of this reaches a model's state.
#include "measures.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace flows {

double area_of(const Poly& p) {
  double s = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const P2 a = p[i], b = p[(i + 1) % p.size()];
    s += a.x * b.y - b.x * a.y;
  }
  return std::fabs(s) * 0.5;
}

namespace {
double cross(P2 o, P2 a, P2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }
double orientation(const Poly& p) {
  double s = 0;
  for (std::size_t i = 0; i < p.size(); ++i) s += p[i].x * p[(i + 1) % p.size()].y - p[(i + 1) % p.size()].x * p[i].y;
  return s;
}
// Keep the part of `p` on the side of the directed line a->b where cross > 0 (left), `sign` flips it.
Poly clip_half(const Poly& p, P2 a, P2 b, double sign) {
  Poly out;
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) {
    const P2 c = p[i], d = p[(i + 1) % n];
    const double sc = sign * cross(a, b, c), sd = sign * cross(a, b, d);
    if (sc >= 0) out.push_back(c);
    if ((sc >= 0) != (sd >= 0)) {
      const double t = sc / (sc - sd);
      out.push_back(P2{c.x + t * (d.x - c.x), c.y + t * (d.y - c.y)});
    }
  }
  return out;
}
}  // namespace

bool inside(const Poly& p, P2 q) {
  bool in = false;
  for (std::size_t i = 0, j = p.size() - 1; i < p.size(); j = i++) {
    if ((p[i].y > q.y) != (p[j].y > q.y) && q.x < (p[j].x - p[i].x) * (q.y - p[i].y) / (p[j].y - p[i].y) + p[i].x) in = !in;
  }
  return in;
}

Poly clip_convex(const Poly& p, const Poly& clip) {
  Poly out = p;
  const double sign = orientation(clip) >= 0 ? 1.0 : -1.0;
  for (std::size_t i = 0; i < clip.size() && !out.empty(); ++i) out = clip_half(out, clip[i], clip[(i + 1) % clip.size()], sign);
  return out;
}

Poly box(double x0, double y0, double x1, double y1) { return Poly{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

std::vector<uint32_t> crossing_frames(const Trajectory& t, P2 a, P2 b) {
  std::unordered_map<uint32_t, P2> last;
  std::unordered_map<uint32_t, uint32_t> first;
  for (uint32_t k = 0; k < t.frames.size(); ++k) {
    for (const Agent& g : t.frames[k]) {
      const P2 q{g.x, g.y};
      auto it = last.find(g.id);
      if (it != last.end() && first.find(g.id) == first.end()) {
        const P2 p = it->second;
        const double d1 = cross(a, b, p), d2 = cross(a, b, q), d3 = cross(p, q, a), d4 = cross(p, q, b);
        // The step p -> q crosses the line segment: the ends on opposite sides (or q on it).
        if (((d1 < 0 && d2 >= 0) || (d1 > 0 && d2 <= 0)) && ((d3 <= 0 && d4 >= 0) || (d3 >= 0 && d4 <= 0))) first[g.id] = k;
      }
      last[g.id] = q;
    }
  }
  std::vector<uint32_t> out;
  out.reserve(first.size());
  for (const auto& [id, k] : first) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

double flow_between(const std::vector<uint32_t>& c, double fps, double lo, double hi) {
  if (c.size() < 2) return 0;
  const auto n = static_cast<double>(c.size() - 1);
  const auto i = static_cast<std::size_t>(std::floor(lo * n)), j = static_cast<std::size_t>(std::ceil(hi * n));
  if (j <= i || c[j] == c[i]) return 0;
  return static_cast<double>(j - i) / (static_cast<double>(c[j] - c[i]) / fps);
}

double classic_density(const std::vector<Agent>& frame, const Poly& area) {
  std::size_t n = 0;
  for (const Agent& g : frame) n += inside(area, P2{g.x, g.y}) ? 1 : 0;
  return static_cast<double>(n) / area_of(area);
}

Speeds individual_speeds(const Trajectory& t, int s) {
  Speeds out;
  out.step = s;
  out.at.resize(t.frames.size());
  std::vector<std::unordered_map<uint32_t, P2>> pos(t.frames.size());
  for (std::size_t k = 0; k < t.frames.size(); ++k)
    for (const Agent& g : t.frames[k]) pos[k][g.id] = P2{g.x, g.y};
  const double span = 2.0 * s / t.frame_rate;
  for (std::size_t k = 0; k < t.frames.size(); ++k) {
    out.at[k].assign(t.frames[k].size(), std::numeric_limits<double>::quiet_NaN());
    if (k < static_cast<std::size_t>(s) || k + static_cast<std::size_t>(s) >= t.frames.size()) continue;
    for (std::size_t q = 0; q < t.frames[k].size(); ++q) {
      const uint32_t id = t.frames[k][q].id;
      auto a = pos[k - s].find(id), b = pos[k + s].find(id);
      if (a == pos[k - s].end() || b == pos[k + s].end()) continue;
      out.at[k][q] = std::hypot(b->second.x - a->second.x, b->second.y - a->second.y) / span;
    }
  }
  return out;
}

std::vector<Poly> voronoi_cells(const std::vector<Agent>& frame, const Poly& bounds, double cutoff) {
  std::vector<Poly> cells(frame.size());
  // Sort by x so that only agents within 2 cut-offs are tried.
  std::vector<std::size_t> order(frame.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return frame[a].x < frame[b].x; });
  for (std::size_t oi = 0; oi < order.size(); ++oi) {
    const Agent& g = frame[order[oi]];
    Poly c;
    for (int k = 0; k < 12; ++k) {
      const double a = 2.0 * M_PI * k / 12.0;
      c.push_back(P2{g.x + cutoff * std::cos(a), g.y + cutoff * std::sin(a)});
    }
    c = clip_convex(c, bounds);
    for (std::size_t oj = 0; oj < order.size() && !c.empty(); ++oj) {
      if (oj == oi) continue;
      const Agent& h = frame[order[oj]];
      if (std::fabs(h.x - g.x) >= 2 * cutoff || std::fabs(h.y - g.y) >= 2 * cutoff) continue;
      if (h.x == g.x && h.y == g.y) continue;
      // Keep the half-plane nearer g: the bisector's normal points from h to g.
      const P2 m{(g.x + h.x) / 2, (g.y + h.y) / 2};
      const P2 dir{g.y - h.y, -(g.x - h.x)};  // the bisector, turned so that g is on its left
      c = clip_half(c, m, P2{m.x + dir.x, m.y + dir.y}, 1.0);
    }
    cells[order[oi]] = c;
  }
  return cells;
}

VoronoiMeasure voronoi_measure(const std::vector<Agent>& frame, const std::vector<double>& speeds, const Poly& bounds,
                               const Poly& area, double cutoff) {
  // Only agents near the area can have a cell in it.
  std::vector<Agent> near;
  std::vector<double> v;
  double ax0 = 1e300, ax1 = -1e300, ay0 = 1e300, ay1 = -1e300;
  for (const P2& p : area) ax0 = std::min(ax0, p.x), ax1 = std::max(ax1, p.x), ay0 = std::min(ay0, p.y), ay1 = std::max(ay1, p.y);
  for (std::size_t i = 0; i < frame.size(); ++i) {
    const Agent& g = frame[i];
    if (g.x < ax0 - 3 * cutoff || g.x > ax1 + 3 * cutoff || g.y < ay0 - 3 * cutoff || g.y > ay1 + 3 * cutoff) continue;
    near.push_back(g);
    v.push_back(speeds[i]);
  }
  const auto cells = voronoi_cells(near, bounds, cutoff);
  VoronoiMeasure m;
  const double am = area_of(area);
  double covered = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].size() < 3 || std::isnan(v[i])) continue;
    const double ai = area_of(cells[i]);
    if (!(ai > 0)) continue;
    const double part = area_of(clip_convex(cells[i], area));
    m.density += part / ai;
    m.speed += v[i] * part;
    covered += part;
  }
  m.density /= am;
  // PedPy divides by |A|, which with a cut-off counts the area no cell covers
  // as standing still; the mean over the covered part is the crowd's speed.
  m.speed = covered > 0 ? m.speed / covered : 0;
  return m;
}

namespace {
uint64_t splitmix64(uint64_t& state) {
  state += 0x9E3779B97F4A7C15ull;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

int cusum_threshold(double acf) {
  acf = std::min(std::max(acf, 0.0), 0.999);
  const double c = std::sqrt(1.0 - acf * acf);
  const double two_pi = 6.283185307179586;
  uint64_t state = 0x5EED;
  double x = 0, spare = 0;
  bool have_spare = false;
  int s = 0;
  std::vector<long> hist(kCusumMax + 1, 0);
  for (int step = 0; step < kCusumArSteps; ++step) {
    double z;
    if (!have_spare) {  // Box-Muller: two normals from two uniforms, u1 in (0, 1], u2 in [0, 1)
      const uint64_t a = splitmix64(state), b = splitmix64(state);
      const double u1 = static_cast<double>((a >> 11) + 1) * (1.0 / 9007199254740992.0);
      const double u2 = static_cast<double>(b >> 11) * (1.0 / 9007199254740992.0);
      const double r = std::sqrt(-2.0 * std::log(u1));
      z = r * std::cos(two_pi * u2);
      spare = r * std::sin(two_pi * u2);
      have_spare = true;
    } else {
      z = spare;
      have_spare = false;
    }
    x = step == 0 ? z : acf * x + c * z;
    s = std::min(std::max(0, s + (std::fabs(x) > kCusumQ ? 1 : -1)), kCusumMax);
    ++hist[static_cast<std::size_t>(s)];
  }
  int theta = 1;
  long below = hist[0];
  while (theta < kCusumMax && static_cast<double>(below + hist[static_cast<std::size_t>(theta)]) < kCusumGamma * kCusumArSteps)
    below += hist[static_cast<std::size_t>(theta++)];
  return theta;
}

Reference reference_of(const std::vector<double>& x, std::size_t lo, std::size_t hi) {
  Reference r;
  hi = std::min(hi, x.size());
  if (lo >= hi) return r;
  const double n = static_cast<double>(hi - lo);
  for (std::size_t k = lo; k < hi; ++k) r.mean += x[k];
  r.mean /= n;
  double var = 0;
  for (std::size_t k = lo; k < hi; ++k) var += (x[k] - r.mean) * (x[k] - r.mean);
  r.std = std::sqrt(var / n);
  if (hi - lo > 2) {  // Pearson's r of (x[k], x[k+1]) over the stretch
    const double m = static_cast<double>(hi - lo - 1);
    double ma = 0, mb = 0;
    for (std::size_t k = lo; k + 1 < hi; ++k) ma += x[k], mb += x[k + 1];
    ma /= m, mb /= m;
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t k = lo; k + 1 < hi; ++k) {
      sab += (x[k] - ma) * (x[k + 1] - mb);
      saa += (x[k] - ma) * (x[k] - ma);
      sbb += (x[k + 1] - mb) * (x[k + 1] - mb);
    }
    if (saa > 0 && sbb > 0) r.acf = sab / std::sqrt(saa * sbb);
  }
  return r;
}

std::vector<Interval> steady_intervals(const std::vector<double>& x, std::size_t lo, std::size_t hi) {
  const Reference ref = reference_of(x, lo, hi);
  const int theta = cusum_threshold(ref.acf);
  std::vector<char> steady(x.size());
  int s = kCusumMax;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double dev = ref.std > 0 ? std::fabs(x[k] - ref.mean) / ref.std
                                   : (x[k] == ref.mean ? 0.0 : std::numeric_limits<double>::infinity());
    s = std::min(std::max(0, s + (dev > kCusumQ ? 1 : -1)), kCusumMax);
    steady[k] = s < theta;
  }
  std::vector<Interval> out;
  const auto back = static_cast<std::ptrdiff_t>(kCusumMax - theta), lag = static_cast<std::ptrdiff_t>(theta);
  for (std::size_t k = 0; k < x.size();) {
    if (!steady[k]) {
      ++k;
      continue;
    }
    const std::size_t a = k;
    while (k < x.size() && steady[k]) ++k;
    const std::ptrdiff_t begin = std::max<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(a) - back);
    const std::ptrdiff_t end = static_cast<std::ptrdiff_t>(k) - 1 - lag;
    if (begin >= end) continue;
    const Interval i{static_cast<std::size_t>(begin), static_cast<std::size_t>(end)};
    if (!out.empty() && i.begin <= out.back().end + 1) out.back().end = std::max(out.back().end, i.end);
    else out.push_back(i);
  }
  return out;
}

std::vector<Interval> intersect(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  for (const Interval& p : a)
    for (const Interval& q : b) {
      const std::size_t lo = std::max(p.begin, q.begin), hi = std::min(p.end, q.end);
      if (lo < hi) out.push_back(Interval{lo, hi});
    }
  std::sort(out.begin(), out.end(), [](const Interval& l, const Interval& r) { return l.begin < r.begin; });
  return out;
}

double drift_of(const std::vector<double>& x, const std::vector<Interval>& steady) {
  std::vector<double> v;
  for (const Interval& i : steady)
    for (std::size_t k = i.begin; k <= i.end && k < x.size(); ++k) v.push_back(x[k]);
  if (v.size() < 2) return 0;
  const std::size_t h = v.size() / 2;
  double a = 0, b = 0;
  for (std::size_t k = 0; k < h; ++k) a += v[k];
  for (std::size_t k = h; k < v.size(); ++k) b += v[k];
  const double mean = (a + b) / static_cast<double>(v.size());
  return mean > 0 ? (b / static_cast<double>(v.size() - h) - a / static_cast<double>(h)) / mean : 0.0;
}

Fit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  Fit f;
  const auto n = static_cast<double>(x.size());
  if (x.size() < 2) return f;
  double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i], syy += y[i] * y[i];
  const double vx = sxx - sx * sx / n, vy = syy - sy * sy / n, cxy = sxy - sx * sy / n;
  f.b = cxy / vx;
  f.a = (sy - f.b * sx) / n;
  f.r2 = vy > 0 ? cxy * cxy / (vx * vy) : 1.0;
  return f;
}

double weidmann(double rho) {
  if (!(rho > 0)) return 1.34;
  const double v = 1.34 * (1.0 - std::exp(-1.913 * (1.0 / rho - 1.0 / 5.4)));
  return v > 0 ? v : 0.0;
}

namespace {
// SFPE (Nelson & Mowrer): S = k - a k D, k = 1.40 m/s for a corridor, a = 0.266 m^2, D in persons/m^2.
double sfpe(double rho) { return std::max(0.0, 1.40 * (1.0 - 0.266 * rho)); }
}  // namespace

// The band of the published data: Weidmann's and SFPE's curves widened (0.1
// m/s below the lower of the two, 0.15 m/s above Weidmann), joined with the
// 10th to 90th percentile of the Wuppertal/Juelich corridor series' own
// branch at that density where the series has the bin (corridor_series.h);
// at most 1.5 m/s (docs/validation.md, "Flows", "The corridor series").
double band_lo(double rho, lockstep::corridor_series::Branch branch) {
  double lo = std::max(0.0, std::min(weidmann(rho), sfpe(rho)) - 0.1);
  if (const auto* b = lockstep::corridor_series::bin_at(branch, rho)) lo = std::min(lo, b->p10);
  return lo;
}
double band_hi(double rho, lockstep::corridor_series::Branch branch) {
  double hi = weidmann(rho) + 0.15;
  if (const auto* b = lockstep::corridor_series::bin_at(branch, rho)) hi = std::max(hi, b->p90);
  return std::min(1.5, hi);
}

}  // namespace flows
