#include "core/thread_pool.h"

#include <algorithm>

namespace dmltool {

ThreadPool::ThreadPool(unsigned thread_count) {
    if (thread_count == 0) thread_count = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 1; i < thread_count; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    work_ready_.notify_all();
    for (auto& worker : workers_) worker.join();
}

// Claims and runs one chunk of the current job; false when none is left. Called with the lock held.
bool ThreadPool::run_one_chunk(std::unique_lock<std::mutex>& lock) {
    if (!job_.fn || job_.next >= job_.count) return false;
    const uint64_t begin = job_.next;
    const uint64_t end = std::min(job_.count, begin + job_.chunk);
    job_.next = end;
    const auto* fn = job_.fn;
    lock.unlock();
    (*fn)(begin, end);
    lock.lock();
    return true;
}

void ThreadPool::worker_loop() {
    uint64_t seen_generation = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
        work_ready_.wait(lock, [&] { return stopping_ || (job_.fn && job_.generation != seen_generation); });
        if (stopping_) return;
        seen_generation = job_.generation;
        ++job_.running;
        while (run_one_chunk(lock)) {
        }
        if (--job_.running == 0) work_done_.notify_all();
    }
}

void ThreadPool::parallel_for(uint64_t count, const std::function<void(uint64_t, uint64_t)>& fn, uint64_t grain) {
    if (count == 0) return;
    grain = std::max<uint64_t>(grain, 1);
    if (workers_.empty() || count <= grain) {
        fn(0, count);
        return;
    }
    // About four chunks per thread balances uneven work without much hand-off overhead.
    const uint64_t chunk = std::max(grain, (count + size() * 4 - 1) / (size() * 4));
    std::unique_lock lock(mutex_);
    job_.fn = &fn;
    job_.count = count;
    job_.chunk = chunk;
    job_.next = 0;
    ++job_.generation;
    work_ready_.notify_all();
    while (run_one_chunk(lock)) {
    }
    work_done_.wait(lock, [&] { return job_.running == 0; });
    job_.fn = nullptr;
}

}  // namespace dmltool
