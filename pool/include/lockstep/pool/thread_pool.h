// A fixed pool of threads that runs a model's parallel parts (the Workers of
// lockstep/core/workers.h): the tools' side of stepping on several cores. A model gives the same
// bits on any number of threads (workers.h says how); this pool only runs the tasks.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "lockstep/core/workers.h"

namespace lockstep {

class ThreadPool final : public Workers {
 public:
  /// `threads` threads in all: the caller of run() and threads - 1 more, started by the first
  /// run() that has work for them (a model that never asks costs no thread).
  /// `eager`: models use the threads whatever the size of their work (Workers::eager; tests).
  explicit ThreadPool(uint32_t threads, bool eager = false);
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  uint32_t threads() const override { return wanted_; }
  bool eager() const override { return eager_; }
  void run(uint32_t tasks, const std::function<void(uint32_t)>& fn) override;

  /// The machine's cores (at least 1): `run`'s default.
  static uint32_t cores();

  /// How long an idle thread looks for the next batch before it sleeps, and the caller for the
  /// batch's end before it sleeps.
  static constexpr std::chrono::microseconds kSpin{200};

 private:
  void work();
  void take_tasks();

  uint32_t wanted_ = 1;
  bool eager_ = false;
  std::vector<std::thread> threads_;  // the wanted_ - 1 extra threads, once started
  std::mutex mu_;
  std::condition_variable wake_, done_;
  std::atomic<uint64_t> generation_{0};  // a new batch of tasks (written under mu_; read unlocked while spinning)
  std::atomic<uint32_t> left_{0};        // tasks of the batch not yet finished (read unlocked while spinning)
  bool stop_ = false;
  // The batch (under mu_):
  const std::function<void(uint32_t)>* fn_ = nullptr;
  uint32_t tasks_ = 0, next_ = 0, finished_ = 0, busy_ = 0;
  uint32_t failed_task_ = 0;
  std::exception_ptr failed_;
};

}  // namespace lockstep
