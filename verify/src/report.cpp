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

/// printf onto a string, any length.
__attribute__((format(printf, 2, 3))) void appendf(std::string& o, const char* fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  const int n = std::vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  if (n > 0) {
    const std::size_t at = o.size();
    o.resize(at + static_cast<std::size_t>(n) + 1);
    std::vsnprintf(o.data() + at, static_cast<std::size_t>(n) + 1, fmt, again);
    o.resize(at + static_cast<std::size_t>(n));
  }
  va_end(again);
}

}  // namespace

std::string report_text(const RunDiff& d, const lsr::Recording& a, const lsr::Recording& b) {
  std::string o;
  auto describe = [](const lsr::Recording& r) {
    const auto& h = r.header();
    return h.model + " v" + std::to_string(h.model_version) + ", " + std::to_string(r.ticks()) + " ticks, " +
           h.build.compiler + " " + h.build.arch + ", revision " + h.build.revision;
  };
  appendf(o, "a           %s: %s\n", a.source().c_str(), describe(a).c_str());
  appendf(o, "b           %s: %s\n", b.source().c_str(), describe(b).c_str());
  for (const auto& n : d.notes) appendf(o, "note        %s\n", n.c_str());
  if (!d.tick) {
    if (d.hash_tick)
      appendf(o, "same        except in ignored fields (hashes part at tick %llu)\n", static_cast<unsigned long long>(*d.hash_tick));
    if (d.ticks_a == d.ticks_b) {
      appendf(o, "result      identical for all %llu ticks\n", static_cast<unsigned long long>(d.common_ticks));
    } else {
      appendf(o, "result      identical for the %llu ticks both hold; %s has %llu more\n",
                  static_cast<unsigned long long>(d.common_ticks), d.ticks_a > d.ticks_b ? "a" : "b",
                  static_cast<unsigned long long>(d.ticks_a > d.ticks_b ? d.ticks_a - d.ticks_b : d.ticks_b - d.ticks_a));
    }
    return o;
  }
  const uint64_t t = *d.tick;
  if (t == d.first_tick)  // no tick matches: "ticks 0-0 match" would say one does
    appendf(o, "DIVERGED    at tick %llu: the states after that step differ; no tick matches (the very first step already differs)\n",
                static_cast<unsigned long long>(t));
  else
    appendf(o, "DIVERGED    at tick %llu: the states after that step differ; ticks %llu-%llu match\n",
                static_cast<unsigned long long>(t), static_cast<unsigned long long>(d.first_tick),
                static_cast<unsigned long long>(t - 1));
  if (d.hash_tick && *d.hash_tick < t)
    appendf(o, "            (hashes part earlier, at tick %llu, in ignored fields)\n", static_cast<unsigned long long>(*d.hash_tick));
  appendf(o, "subsystem   %s\n", d.subsystems.empty() ? "(stored subsystem hashes agree)" : join(d.subsystems).c_str());
  for (const auto& who : d.not_reproduced)
    appendf(o, "note        re-simulated by this build, recording %s does not reproduce its own hash at tick %llu:\n"
                "            it was made by a build that computes differently (replay it in each build to see which)\n",
                who.c_str(), static_cast<unsigned long long>(t));
  if (d.keyframe_tick)
    appendf(o, "fields      as recorded at keyframe %llu, the first both recordings hold after the divergence\n",
                static_cast<unsigned long long>(*d.keyframe_tick));
  else if (!d.not_reproduced.empty())
    appendf(o, "fields      unknown: no keyframe both recordings hold comes after the divergence\n");
  for (const auto& f : d.fields) {
    appendf(o, "field       %s\n", f.path.c_str());
    if (f.is_size) {
      appendf(o, "  a         %zu elements\n  b         %zu elements\n", f.size_a, f.size_b);
      continue;
    }
    appendf(o, "  a         %s\n", value_with_bits(f.a).c_str());
    appendf(o, "  b         %s\n", value_with_bits(f.b).c_str());
    if (auto u = ulp_distance(f.a, f.b)) appendf(o, "  ulps      %llu\n", static_cast<unsigned long long>(*u));
  }
  if (d.ignored_fields) appendf(o, "ignored     %zu more divergent fields match the ignore list\n", d.ignored_fields);
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
  appendf(o, "input a     tick %llu: %s\n", static_cast<unsigned long long>(t), one_line(d.input_a).c_str());
  appendf(o, "input b     tick %llu: %s\n", static_cast<unsigned long long>(t), one_line(d.input_b).c_str());
  if (t > d.first_tick) {
    appendf(o, "before a    tick %llu: %s\n", static_cast<unsigned long long>(t - 1), one_line(d.prev_input_a).c_str());
    appendf(o, "before b    tick %llu: %s\n", static_cast<unsigned long long>(t - 1), one_line(d.prev_input_b).c_str());
  }
  if (d.fields.size() == 1) appendf(o, "more        --all lists every divergent field at that tick\n");
  return o;
}

}  // namespace lockstep::verify
