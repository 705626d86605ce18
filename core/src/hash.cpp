#define XXH_INLINE_ALL
#include <xxhash.h>

#include "lockstep/core/hash.h"

namespace lockstep {

Hasher::Hasher() : state_(XXH3_createState()) { XXH3_64bits_reset(static_cast<XXH3_state_t*>(state_)); }
Hasher::~Hasher() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

void Hasher::update(const void* data, std::size_t n) {
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state_), data, n);
}

void Hasher::flush() {
  if (used_ > 0) update(buf_, used_);
  used_ = 0;
}

uint64_t Hasher::digest() {
  flush();
  return XXH3_64bits_digest(static_cast<XXH3_state_t*>(state_));
}

uint64_t xxh3(const void* data, std::size_t n) { return XXH3_64bits(data, n); }

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
