#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "core/thread_pool.h"

namespace dmltool {
namespace {

// Runs parallel_for and checks every index in [0, count) was visited exactly once, by non-empty ranges.
void expect_exact_cover(ThreadPool& pool, uint64_t count, uint64_t grain) {
    std::unique_ptr<std::atomic<uint32_t>[]> hits(new std::atomic<uint32_t>[count ? count : 1]);
    for (uint64_t i = 0; i < count; ++i) hits[i] = 0;
    std::atomic<uint64_t> bad_ranges{0}, calls{0};
    pool.parallel_for(
        count,
        [&](uint64_t begin, uint64_t end) {
            ++calls;
            if (begin >= end || end > count) ++bad_ranges;
            for (uint64_t i = begin; i < end && i < count; ++i) hits[i].fetch_add(1);
        },
        grain);
    EXPECT_EQ(bad_ranges.load(), 0u) << "count " << count << " grain " << grain;
    uint64_t wrong = 0, first_wrong = count;
    for (uint64_t i = 0; i < count; ++i)
        if (hits[i].load() != 1 && wrong++ == 0) first_wrong = i;
    EXPECT_EQ(wrong, 0u) << "count " << count << " grain " << grain << " threads " << pool.size() << ": index "
                         << first_wrong << " visited " << (wrong ? hits[first_wrong].load() : 1) << " times";
    if (count == 0) {
        EXPECT_EQ(calls.load(), 0u);
    }
}

TEST(ThreadPool, CoversEveryIndexExactlyOnce) {
    for (unsigned threads : {1u, 2u, 3u, 4u, 8u}) {
        ThreadPool pool(threads);
        EXPECT_EQ(pool.size(), threads);
        for (uint64_t count : {0ull, 1ull, 2ull, 3ull, 7ull, 63ull, 64ull, 65ull, 4095ull, 4096ull, 4097ull, 10000ull,
                               100003ull})
            for (uint64_t grain : {0ull, 1ull, 7ull, 64ull, 4096ull}) expect_exact_cover(pool, count, grain);
    }
}

TEST(ThreadPool, ReusableForManyJobs) {
    ThreadPool pool(4);
    for (int job = 0; job < 300; ++job) expect_exact_cover(pool, uint64_t(job * 37 % 1000 + 1), 1);
}

TEST(ThreadPool, SmallJobsRunInlineOnTheCaller) {
    ThreadPool pool(4);
    std::set<std::thread::id> ids;
    std::mutex m;
    pool.parallel_for(100, [&](uint64_t, uint64_t) {
        std::lock_guard lock(m);
        ids.insert(std::this_thread::get_id());
    });  // default grain 4096 > 100
    EXPECT_EQ(ids, (std::set<std::thread::id>{std::this_thread::get_id()}));
}

TEST(ThreadPool, ChunksAreAtLeastTheGrain) {
    ThreadPool pool(4);
    std::atomic<uint64_t> short_chunks{0};
    pool.parallel_for(
        100000,
        [&](uint64_t begin, uint64_t end) {
            if (end - begin < 1000 && end != 100000) ++short_chunks;  // only the tail may be shorter
        },
        1000);
    EXPECT_EQ(short_chunks.load(), 0u);
}

TEST(ThreadPool, DefaultUsesHardwareThreads) {
    ThreadPool pool;
    EXPECT_EQ(pool.size(), std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace
}  // namespace dmltool
