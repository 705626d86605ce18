// The largest single allocation through operator new while a probe is alive
// (this thread), for tests that require "no allocation larger than a few MB
// before a size is checked". The test binary replaces the global operator new
// (alloc_probe.cpp); allocations by C libraries (zstd's own buffers) go
// through malloc and are seen only by the memory-limit test of the command line.
#pragma once

#include <cstddef>

namespace lockstep::test {

class AllocProbe {
 public:
  AllocProbe();
  ~AllocProbe();
  AllocProbe(const AllocProbe&) = delete;
  AllocProbe& operator=(const AllocProbe&) = delete;
  /// The largest single request since the probe began, in bytes.
  std::size_t largest() const;
};

}  // namespace lockstep::test
