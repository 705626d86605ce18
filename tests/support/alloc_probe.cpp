// Replaces the global operator new and delete of the test binary to record
// the largest request while an AllocProbe is alive (alloc_probe.h).
#include "alloc_probe.h"

#include <cstdlib>
#include <new>

namespace {
thread_local int probes = 0;
thread_local std::size_t largest_request = 0;

void* allocate(std::size_t n) {
  if (probes > 0 && n > largest_request) largest_request = n;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
}  // namespace

namespace lockstep::test {
AllocProbe::AllocProbe() {
  if (probes++ == 0) largest_request = 0;
}
AllocProbe::~AllocProbe() { --probes; }
std::size_t AllocProbe::largest() const { return largest_request; }
}  // namespace lockstep::test

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
