// Tasks run each once, spread over worker threads and a consumer that needs
// their results in its own order: the workers take the tasks in index
// order, and the consumer runs a task no one has taken yet itself (and,
// while a worker runs the one it needs, the next ones no one has taken).
// With no worker the consumer runs each task when it first needs it, as a
// plain loop would; what the tasks compute never depends on how many
// threads ran them.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace lg::util {

// The most workers the setting 0 starts (one per core, up to this).
inline constexpr unsigned k_max_workers = 4;

// The worker count a thread setting asks for: 0 one per core, up to
// k_max_workers; N: N (1: the calling thread alone).
unsigned worker_count(unsigned setting);

class Tasks {
 public:
  // Tasks 0 .. count−1, each `run(i)`; `workers` threads besides the
  // consumer start taking them at once. `run` must not throw, and may be
  // called on any of those threads.
  Tasks(std::size_t count, std::function<void(std::size_t)> run, unsigned workers);
  // Stops handing out tasks and joins the workers (the tasks they are
  // running finish).
  ~Tasks();
  Tasks(const Tasks&) = delete;
  Tasks& operator=(const Tasks&) = delete;

  // Returns once task `i` has run: runs it here when no thread has taken
  // it, else runs untaken ones until it is done (or waits, when none is
  // left). Its results are then visible to the caller.
  void need(std::size_t i);
  // Runs the tasks no thread has taken yet, as a worker does, until none
  // is left or stop is called.
  void help();
  // Hands out no more tasks to the workers and helpers (need still runs
  // the one it is asked for).
  void stop();

 private:
  enum : unsigned char { k_todo, k_running, k_done };
  bool take(std::size_t i);  // runs `i` when no one has taken it
  void work();

  std::function<void(std::size_t)> m_run;
  std::unique_ptr<std::atomic<unsigned char>[]> m_state;
  std::size_t m_count;
  std::atomic<std::size_t> m_next{0};
  std::atomic<bool> m_stop{false};
  std::vector<std::thread> m_threads;
};

}  // namespace lg::util
