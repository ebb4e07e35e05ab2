// A fixed pool of worker threads for CPU references. Built once in main and passed by reference: no global
// pool, so tests can make their own with any thread count.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dmltool {

class ThreadPool {
public:
    // 0 = one thread per hardware thread.
    explicit ThreadPool(unsigned thread_count = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned size() const { return unsigned(workers_.size()) + 1; }  // workers + the calling thread

    // Calls fn(begin, end) over disjoint ranges covering [0, count); returns when all are done. Ranges are at
    // least `grain` long so that tiny loops run inline instead of paying for a hand-off.
    void parallel_for(uint64_t count, const std::function<void(uint64_t begin, uint64_t end)>& fn,
                      uint64_t grain = 4096);

private:
    struct Job {
        const std::function<void(uint64_t, uint64_t)>* fn = nullptr;
        uint64_t count = 0;
        uint64_t chunk = 0;
        uint64_t next = 0;     // next unclaimed start, guarded by mutex_
        unsigned running = 0;  // workers still inside the job
        uint64_t generation = 0;
    };
    void worker_loop();
    bool run_one_chunk(std::unique_lock<std::mutex>& lock);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable work_ready_;
    std::condition_variable work_done_;
    Job job_;
    bool stopping_ = false;
};

}  // namespace dmltool
