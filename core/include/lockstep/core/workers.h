// Workers: the model contract's optional hook for stepping on several threads (model.h).
//
// core/ starts no thread and reads no clock (docs/architecture.md): a tool that wants a step on
// several cores gives the model a Workers (a fixed pool of threads, pool/thread_pool.h) with
//   model->set_workers(&pool);
// and the model runs the parts of its step that compute every entity from the same state with
//   parallel_ranges(workers_, n, kGrain, [&](uint32_t begin, uint32_t end) { ... items begin..end ... });
// Same bits on any number of threads is the model's side of the bargain: the split into ranges
// depends on n and the grain only (never on the thread count), and the body of a range reads
// only what no range writes and writes only its own items' slots. Sums across items are then
// made on the calling thread, in item order, after the ranges have run (or in integers, which
// do not depend on the order). Without workers (the default) the ranges run in order here.
#pragma once

#include <cstdint>
#include <functional>

namespace lockstep {

/// Runs independent tasks on a fixed set of threads. Each task runs exactly once; run() returns
/// when all have. Tasks run in the IEEE default floating-point mode (fpenv.h). An exception from
/// a task is rethrown by run() (the lowest-numbered failing task's) after every task has ended.
class Workers {
 public:
  virtual ~Workers() = default;
  /// How many threads run tasks (the calling thread included).
  virtual uint32_t threads() const = 0;
  /// Whether a model should use the threads even for work too small to gain from them (a model may
  /// step a small crowd on the calling thread alone: the bits are the same either way). True for the
  /// tests that prove the same bits on any number of threads, which must run the threads.
  virtual bool eager() const { return false; }
  virtual void run(uint32_t tasks, const std::function<void(uint32_t task)>& fn) = 0;
};

/// body(begin, end) for [0, n) cut into ranges of `grain` items (the last shorter), on `w`'s
/// threads, or in order on this thread when `w` is null, has one thread, or there is one range.
template <class Body>
void parallel_ranges(Workers* w, uint32_t n, uint32_t grain, Body&& body) {
  if (n == 0) return;
  const uint32_t ranges = (n + grain - 1) / grain;
  if (w == nullptr || w->threads() <= 1 || ranges == 1) {
    for (uint32_t r = 0; r < ranges; ++r) body(r * grain, r + 1 == ranges ? n : (r + 1) * grain);
    return;
  }
  w->run(ranges, [&](uint32_t r) { body(r * grain, r + 1 == ranges ? n : (r + 1) * grain); });
}

}  // namespace lockstep
