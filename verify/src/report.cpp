#include <cstdarg>
#include <cstdio>

#include "lockstep/core/text.h"
#include "lockstep/verify/rundiff.h"

namespace lockstep::verify {

namespace {

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string o;
  for (const auto& s : v) o += (o.empty() ? "" : sep) + s;
  return o;
}

}  // namespace

std::string report_text(const RunDiff& d, const lsr::Recording& a, const lsr::Recording& b) {
  std::string o;
  auto out = [&](const char* fmt, auto... args) {
    char buf[4096];
    std::snprintf(buf, sizeof buf, fmt, args...);
    o += buf;
  };
  auto describe = [](const lsr::Recording& r) {
    const auto& h = r.header();
    return h.model + " v" + std::to_string(h.model_version) + ", " + std::to_string(r.ticks()) + " ticks, " +
           h.build.compiler + " " + h.build.arch + ", revision " + h.build.revision;
  };
  out("a           %s: %s\n", a.source().c_str(), describe(a).c_str());
  out("b           %s: %s\n", b.source().c_str(), describe(b).c_str());
  for (const auto& n : d.notes) out("note        %s\n", n.c_str());
  if (!d.tick) {
    if (d.hash_tick)
      out("same        except in ignored fields (hashes part at tick %llu)\n", static_cast<unsigned long long>(*d.hash_tick));
    if (d.ticks_a == d.ticks_b) {
      out("result      identical for all %llu ticks\n", static_cast<unsigned long long>(d.common_ticks));
    } else {
      out("result      identical for the %llu ticks both hold; %s has %llu more\n",
                  static_cast<unsigned long long>(d.common_ticks), d.ticks_a > d.ticks_b ? "a" : "b",
                  static_cast<unsigned long long>(d.ticks_a > d.ticks_b ? d.ticks_a - d.ticks_b : d.ticks_b - d.ticks_a));
    }
    return o;
  }
  const uint64_t t = *d.tick;
  out("DIVERGED    at tick %llu: the states after that step differ; ticks %llu-%llu match\n",
              static_cast<unsigned long long>(t), static_cast<unsigned long long>(d.first_tick),
              static_cast<unsigned long long>(t == d.first_tick ? t : t - 1));
  if (t == d.first_tick) out("            (the very first step already differs)\n");
  if (d.hash_tick && *d.hash_tick < t)
    out("            (hashes part earlier, at tick %llu, in ignored fields)\n", static_cast<unsigned long long>(*d.hash_tick));
  out("subsystem   %s\n", d.subsystems.empty() ? "(stored subsystem hashes agree)" : join(d.subsystems).c_str());
  for (const auto& who : d.not_reproduced)
    out("note        re-simulated by this build, recording %s does not reproduce its own hash at tick %llu:\n"
                "            it was made by a build that computes differently (replay it in each build to see which)\n",
                who.c_str(), static_cast<unsigned long long>(t));
  if (d.keyframe_tick)
    out("fields      as recorded at keyframe %llu, the first both recordings hold after the divergence\n",
                static_cast<unsigned long long>(*d.keyframe_tick));
  else if (!d.not_reproduced.empty())
    out("fields      unknown: no keyframe both recordings hold comes after the divergence\n");
  for (const auto& f : d.fields) {
    out("field       %s\n", f.path.c_str());
    if (f.is_size) {
      out("  a         %zu elements\n  b         %zu elements\n", f.size_a, f.size_b);
      continue;
    }
    out("  a         %s\n", value_with_bits(f.a).c_str());
    out("  b         %s\n", value_with_bits(f.b).c_str());
    if (auto u = ulp_distance(f.a, f.b)) out("  ulps      %llu\n", static_cast<unsigned long long>(*u));
  }
  if (d.ignored_fields) out("ignored     %zu more divergent fields match the ignore list\n", d.ignored_fields);
  auto one_line = [](const std::string& text) {
    std::string line;
    bool space = false;
    for (char c : text) {
      if (c == '\n' || c == ' ') {
        space = true;
        continue;
      }
      if (space && !line.empty()) line += ' ';
      space = false;
      line += c;
    }
    return line;
  };
  out("input a     tick %llu: %s\n", static_cast<unsigned long long>(t), one_line(d.input_a).c_str());
  out("input b     tick %llu: %s\n", static_cast<unsigned long long>(t), one_line(d.input_b).c_str());
  if (t > d.first_tick) {
    out("before a    tick %llu: %s\n", static_cast<unsigned long long>(t - 1), one_line(d.prev_input_a).c_str());
    out("before b    tick %llu: %s\n", static_cast<unsigned long long>(t - 1), one_line(d.prev_input_b).c_str());
  }
  if (d.fields.size() == 1) out("more        --all lists every divergent field at that tick\n");
  return o;
}

}  // namespace lockstep::verify
