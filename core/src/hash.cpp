#define XXH_INLINE_ALL
#include <xxhash.h>

#include "lockstep/core/hash.h"

namespace lockstep {

namespace detail {
#if defined(__x86_64__) || defined(_M_X64)
void xxh3_update_avx2(void* state, const void* data, std::size_t n);
uint64_t xxh3_digest_avx2(void* state);
uint64_t xxh3_oneshot_avx2(const void* data, std::size_t n);
#endif
}  // namespace detail

namespace {

void update_portable(void* state, const void* data, std::size_t n) {
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state), data, n);
}
uint64_t digest_portable(void* state) { return XXH3_64bits_digest(static_cast<XXH3_state_t*>(state)); }
uint64_t oneshot_portable(const void* data, std::size_t n) { return XXH3_64bits(data, n); }

// The vector unit XXH3 runs on, chosen once. The hash is the same either way.
struct Impl {
  void (*update)(void*, const void*, std::size_t) = update_portable;
  uint64_t (*digest)(void*) = digest_portable;
  uint64_t (*oneshot)(const void*, std::size_t) = oneshot_portable;
};

Impl choose() {
  Impl impl;
#if defined(__x86_64__) || defined(_M_X64)
  if (__builtin_cpu_supports("avx2")) {
    impl.update = detail::xxh3_update_avx2;
    impl.digest = detail::xxh3_digest_avx2;
    impl.oneshot = detail::xxh3_oneshot_avx2;
  }
#endif
  return impl;
}

const Impl& impl() {
  static const Impl i = choose();
  return i;
}

}  // namespace

static_assert(sizeof(XXH3_state_t) <= 640 && alignof(XXH3_state_t) <= 64, "Hasher::kStateBytes is too small");

Hasher::Hasher() = default;
Hasher::~Hasher() = default;

void Hasher::update(const void* data, std::size_t n) {
  auto* st = reinterpret_cast<XXH3_state_t*>(state_);
  if (!streaming_) {
    XXH3_64bits_reset(st);
    streaming_ = true;
  }
  impl().update(st, data, n);
}

void Hasher::flush() {
  if (used_ > 0) update(buf_, used_);
  used_ = 0;
}

uint64_t Hasher::digest() {
  if (!streaming_) return impl().oneshot(buf_, used_);  // everything is still in the buffer
  flush();
  return impl().digest(reinterpret_cast<XXH3_state_t*>(state_));
}

uint64_t xxh3(const void* data, std::size_t n) { return impl().oneshot(data, n); }

uint64_t xxh3_portable(const void* data, std::size_t n) { return oneshot_portable(data, n); }

const char* hash_implementation() { return impl().oneshot == oneshot_portable ? "portable" : "avx2"; }

std::string hex64(uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i) {
    s[static_cast<std::size_t>(i)] = digits[v & 0xf];
    v >>= 4;
  }
  return s;
}

}  // namespace lockstep
