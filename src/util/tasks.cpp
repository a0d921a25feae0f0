// Tasks shared by worker threads and an in-order consumer (tasks.hpp).
#include "ledgergate/util/tasks.hpp"

#include <algorithm>

namespace lg::util {

unsigned worker_count(unsigned setting) {
  return setting != 0 ? setting : std::min(k_max_workers, std::max(1u, std::thread::hardware_concurrency()));
}

Tasks::Tasks(std::size_t count, std::function<void(std::size_t)> run, unsigned workers)
    : m_run(std::move(run)), m_state(new std::atomic<unsigned char>[count]), m_count(count) {
  for (std::size_t i = 0; i < count; ++i) m_state[i].store(k_todo, std::memory_order_relaxed);
  for (unsigned w = 0; w < workers && w < count; ++w) m_threads.emplace_back(&Tasks::work, this);
}

Tasks::~Tasks() {
  stop();
  for (std::thread& t : m_threads) t.join();
}

bool Tasks::take(std::size_t i) {
  unsigned char todo = k_todo;
  if (!m_state[i].compare_exchange_strong(todo, k_running, std::memory_order_acquire)) return false;
  m_run(i);
  m_state[i].store(k_done, std::memory_order_release);
  m_state[i].notify_all();
  return true;
}

void Tasks::work() {
  while (!m_stop.load(std::memory_order_relaxed)) {
    const std::size_t i = m_next.fetch_add(1, std::memory_order_relaxed);
    if (i >= m_count) return;
    take(i);
  }
}

void Tasks::help() { work(); }

void Tasks::stop() { m_stop.store(true, std::memory_order_relaxed); }

void Tasks::need(std::size_t i) {
  if (take(i)) return;
  // Taken by a worker: meanwhile the tasks no one has taken yet are run
  // here, in order, rather than waited beside.
  while (m_state[i].load(std::memory_order_acquire) != k_done) {
    const std::size_t next = m_next.fetch_add(1, std::memory_order_relaxed);
    if (next < m_count) {
      take(next);
      continue;
    }
    for (unsigned char s = m_state[i].load(std::memory_order_acquire); s != k_done;
         s = m_state[i].load(std::memory_order_acquire)) {
      m_state[i].wait(s, std::memory_order_acquire);
    }
  }
}

}  // namespace lg::util
