// XXH3 compiled for AVX2, chosen at run time when the CPU has it (hash.cpp).
// XXH3's output is defined independently of the vector unit that computes it,
// so this changes speed only; the tests compare it with the portable path.
//
// Each entry point ends with VZEROUPPER. GCC 12 emits none on the way back from
// XXH3's long-input loop (its 256-bit work ends in a call to a local function, and
// neither that call nor the return has one before it), and with the YMM registers'
// upper halves left in use the SSE code the models run afterwards was slowed: a
// station tick took 1.75 times as long after each tick's hash while recording
// (docs/performance.md, "The hash's AVX2 path and the step after it").
#if defined(__x86_64__) || defined(_M_X64)
#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_AVX2
#include <immintrin.h>
#include <xxhash.h>

#include <cstddef>
#include <cstdint>

namespace lockstep::detail {

void xxh3_update_avx2(void* state, const void* data, std::size_t n) {
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state), data, n);
  _mm256_zeroupper();
}
uint64_t xxh3_digest_avx2(void* state) {
  const uint64_t h = XXH3_64bits_digest(static_cast<XXH3_state_t*>(state));
  _mm256_zeroupper();
  return h;
}
uint64_t xxh3_oneshot_avx2(const void* data, std::size_t n) {
  const uint64_t h = XXH3_64bits(data, n);
  _mm256_zeroupper();
  return h;
}

}  // namespace lockstep::detail
#endif
