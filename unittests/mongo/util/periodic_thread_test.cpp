#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "mongo/util/periodic_thread.h"

namespace mongo {
namespace {

using namespace std::chrono_literals;

TEST(PeriodicThread, RunsAtStartThenEveryInterval) {
    std::atomic<int> runs{0}, starts{0};
    PeriodicThread t([&] { ++starts; }, [] { return 5ms; }, [&] { ++runs; }, true);
    t.start();
    for (int i = 0; i < 400 && runs.load() < 3; ++i)
        std::this_thread::sleep_for(5ms);
    t.shutdown();
    EXPECT_GE(runs.load(), 3);
    EXPECT_EQ(1, starts.load());
    const int after = runs.load();
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(after, runs.load());  // stopped for good
}

TEST(PeriodicThread, WaitsFirstWithoutRunAtStartAndShutdownWakesIt) {
    std::atomic<int> runs{0};
    PeriodicThread t(
        nullptr, [] { return std::chrono::milliseconds(3600 * 1000); }, [&] { ++runs; }, false);
    t.start();
    std::this_thread::sleep_for(10ms);
    const auto begin = std::chrono::steady_clock::now();
    t.shutdown();  // does not wait out the hour
    EXPECT_LT(std::chrono::steady_clock::now() - begin, 5s);
    EXPECT_EQ(0, runs.load());
    EXPECT_TRUE(t.stopRequested());
}

TEST(PeriodicThread, ReadsTheIntervalBeforeEachWait) {
    std::atomic<int> runs{0};
    std::atomic<long long> interval{3600 * 1000};
    PeriodicThread t(
        nullptr, [&] { return std::chrono::milliseconds(interval.load()); },
        [&] {
            ++runs;
            interval = 1;  // a runtime parameter change
        },
        true);
    t.start();
    for (int i = 0; i < 400 && runs.load() < 3; ++i)
        std::this_thread::sleep_for(5ms);
    t.shutdown();
    EXPECT_GE(runs.load(), 3);
}

}  // namespace
}  // namespace mongo
