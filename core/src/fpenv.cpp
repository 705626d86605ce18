// The floating-point environment (fpenv.h). Reads and writes the control
// register directly: <cfenv> has no portable way to name flush-to-zero.
#include "lockstep/core/fpenv.h"

#include <cstdio>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#define LOCKSTEP_FP_X86 1
#elif defined(__aarch64__)
#define LOCKSTEP_FP_ARM64 1
#endif

namespace lockstep {

namespace {

#if defined(LOCKSTEP_FP_X86)
// MXCSR: bits 0-5 are sticky exception flags (not a mode), 6 DAZ, 7-12 the
// exception masks (all set: no traps), 13-14 rounding, 15 FZ. Default 0x1f80.
constexpr uint32_t kFlags = 0x3f, kDaz = 1u << 6, kMasks = 0x1f80, kRound = 3u << 13, kFz = 1u << 15;
constexpr uint32_t kDefault = 0x1f80;
uint64_t read_control() { return _mm_getcsr(); }
void write_control(uint64_t v) { _mm_setcsr(static_cast<unsigned>(v)); }
FpEnv decode(uint64_t raw) {
  FpEnv e;
  const auto c = static_cast<uint32_t>(raw) & ~kFlags;
  e.control = c;
  e.denormals_are_zero = (c & kDaz) != 0;
  e.flush_to_zero = (c & kFz) != 0;
  e.rounding = static_cast<int>((c & kRound) >> 13);  // 0 nearest, 1 down, 2 up, 3 toward zero: as FpEnv
  e.traps = (c & kMasks) != kMasks;
  return e;
}
uint64_t default_control(uint64_t raw) { return (raw & kFlags) | kDefault; }
const char* kRegister = "MXCSR";
#elif defined(LOCKSTEP_FP_ARM64)
// FPCR: bits 8-12 and 15 trap enables, 19 FZ16 (half precision only), 22-23
// RMode (0 nearest, 1 toward +inf, 2 toward -inf, 3 toward zero), 24 FZ
// (flushes subnormal inputs and results), 25 DN (default NaN). Default 0.
constexpr uint64_t kTraps = 0x9f00, kRMode = 3u << 22, kFz = 1u << 24, kDn = 1u << 25;
uint64_t read_control() {
  uint64_t v;
  __asm__ volatile("mrs %0, fpcr" : "=r"(v));
  return v;
}
void write_control(uint64_t v) { __asm__ volatile("msr fpcr, %0" : : "r"(v)); }
FpEnv decode(uint64_t raw) {
  FpEnv e;
  e.control = static_cast<uint32_t>(raw);
  e.flush_to_zero = e.denormals_are_zero = (raw & kFz) != 0;
  const int rm = static_cast<int>((raw & kRMode) >> 22);
  e.rounding = rm == 1 ? 2 : rm == 2 ? 1 : rm;  // as FpEnv: 1 down, 2 up
  e.traps = (raw & kTraps) != 0;
  // DN changes only which NaN an operation returns; states hold no NaN (every model refuses one).
  (void)kDn;
  return e;
}
uint64_t default_control(uint64_t raw) { return raw & ~(kTraps | kRMode | kFz | (1u << 19)); }
const char* kRegister = "FPCR";
#else
uint64_t read_control() { return 0; }
void write_control(uint64_t) {}
FpEnv decode(uint64_t) { return {}; }
uint64_t default_control(uint64_t raw) { return raw; }
const char* kRegister = "control word";
#endif

// Read on the first call, not at static initialisation: crtfastmath.o comes
// last in the link, so its constructor runs after the C++ static initialisers.
const FpEnv& first_seen() {
  static const FpEnv e = decode(read_control());
  return e;
}

}  // namespace

std::string FpEnv::text() const {
  if (ieee_default()) return "IEEE default";
  std::string o;
  auto add = [&](const char* s) { o += (o.empty() ? "" : ", ") + std::string(s); };
  if (flush_to_zero) add("flush-to-zero");
  if (denormals_are_zero) add("denormals-are-zero");
  if (rounding == 1) add("rounding toward -inf");
  if (rounding == 2) add("rounding toward +inf");
  if (rounding == 3) add("rounding toward zero");
  if (traps) add("exception traps");
  char reg[48];
  std::snprintf(reg, sizeof reg, " (%s 0x%x)", kRegister, static_cast<unsigned>(control));
  return o + reg;
}

std::string FpEnv::difference() const {
  if (ieee_default()) return "uses the IEEE default floating-point mode";
  std::string o;
  auto add = [&](const std::string& s) { o += (o.empty() ? "" : " and ") + s; };
  if (flush_to_zero || denormals_are_zero) add("flushes denormals to zero");
  if (rounding == 1) add("rounds toward -inf");
  if (rounding == 2) add("rounds toward +inf");
  if (rounding == 3) add("rounds toward zero");
  if (traps) add("traps on floating-point exceptions");
  return o;
}

std::string fp_env_difference(const std::string& text) {
  std::string o;
  auto add = [&](const char* s) { o += (o.empty() ? "" : " and ") + std::string(s); };
  auto has = [&](const char* s) { return text.find(s) != std::string::npos; };
  if (has("flush-to-zero") || has("denormals-are-zero")) add("flushes denormals to zero");
  if (has("rounding toward -inf")) add("rounds toward -inf");
  if (has("rounding toward +inf")) add("rounds toward +inf");
  if (has("rounding toward zero")) add("rounds toward zero");
  if (has("exception traps")) add("traps on floating-point exceptions");
  return o;
}

FpEnv current_fp_env() { return decode(read_control()); }

FpEnv process_fp_env() { return first_seen(); }

IeeeFpScope::IeeeFpScope() {
  const uint64_t now = read_control();
  const uint64_t want = default_control(now);
  if (now != want) {
    saved_ = now;
    changed_ = true;
    write_control(want);
  }
}

IeeeFpScope::~IeeeFpScope() {
  if (changed_) write_control(saved_);
}

}  // namespace lockstep
