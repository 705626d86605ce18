#include "lockstep/pool/thread_pool.h"

#include <chrono>

#include "lockstep/core/fpenv.h"

namespace lockstep {

ThreadPool::ThreadPool(uint32_t threads, bool eager) : wanted_(threads > 1 ? threads : 1), eager_(eager) {}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

uint32_t ThreadPool::cores() {
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? n : 1;
}

void ThreadPool::take_tasks() {
  // Called with mu_ unlocked. Tasks are handed out one at a time under the lock; which thread
  // runs which task changes nothing a task computes (workers.h).
  IeeeFpScope fp;  // tasks run in the IEEE default mode, whatever this thread's mode was
  std::unique_lock<std::mutex> lock(mu_);
  while (fn_ != nullptr && next_ < tasks_) {
    const uint32_t task = next_++;
    const auto* fn = fn_;
    ++busy_;
    lock.unlock();
    std::exception_ptr err;
    try {
      (*fn)(task);
    } catch (...) {
      err = std::current_exception();
    }
    lock.lock();
    --busy_;
    if (err && (!failed_ || task < failed_task_)) failed_ = err, failed_task_ = task;
    left_.fetch_sub(1, std::memory_order_release);
    if (++finished_ == tasks_) done_.notify_all();
  }
}

void ThreadPool::work() {
  // A model hands out a dozen batches a tick with little serial work between them: a thread that
  // went to sleep after each would be woken for the next one tens of microseconds late, while the
  // caller ran the batch's first tasks alone. So it first looks for the next batch for a while
  // (kSpin) and sleeps only after that.
  uint64_t seen = 0;
  for (;;) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    while (generation_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_.load(std::memory_order_relaxed) != seen; });
      if (stop_) return;
      seen = generation_.load(std::memory_order_relaxed);
    }
    take_tasks();
  }
}

void ThreadPool::run(uint32_t tasks, const std::function<void(uint32_t)>& fn) {
  if (tasks == 0) return;
  if (wanted_ == 1 || tasks == 1) {  // on this thread alone, with the same promises
    IeeeFpScope fp;
    std::exception_ptr first;
    for (uint32_t k = 0; k < tasks; ++k) {
      try {
        fn(k);
      } catch (...) {
        if (!first) first = std::current_exception();
      }
    }
    if (first) std::rethrow_exception(first);
    return;
  }
  if (threads_.empty()) {
    threads_.reserve(wanted_ - 1);
    for (uint32_t k = 1; k < wanted_; ++k) threads_.emplace_back([this] { work(); });
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    fn_ = &fn;
    tasks_ = tasks;
    next_ = finished_ = 0;
    left_.store(tasks, std::memory_order_relaxed);
    failed_ = nullptr;
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  take_tasks();
  // The last tasks, on the other threads, end soon: look for a while before sleeping.
  const auto until = std::chrono::steady_clock::now() + kSpin;
  while (left_.load(std::memory_order_acquire) != 0 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  std::exception_ptr err;
  {
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [&] { return finished_ == tasks_ && busy_ == 0; });
    fn_ = nullptr;
    err = failed_;
    failed_ = nullptr;
  }
  if (err) std::rethrow_exception(err);
}

}  // namespace lockstep
