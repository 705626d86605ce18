// XXH3 compiled for AVX2, chosen at run time when the CPU has it (hash.cpp).
// XXH3's output is defined independently of the vector unit that computes it,
// so this changes speed only; the tests compare it with the portable path.
#if defined(__x86_64__) || defined(_M_X64)
#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_AVX2
#include <xxhash.h>

#include <cstddef>
#include <cstdint>

namespace lockstep::detail {

void xxh3_update_avx2(void* state, const void* data, std::size_t n) {
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state), data, n);
}
uint64_t xxh3_digest_avx2(void* state) { return XXH3_64bits_digest(static_cast<XXH3_state_t*>(state)); }
uint64_t xxh3_oneshot_avx2(const void* data, std::size_t n) { return XXH3_64bits(data, n); }

}  // namespace lockstep::detail
#endif
