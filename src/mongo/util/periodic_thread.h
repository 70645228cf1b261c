// PeriodicThread: a background thread that runs a job, waits an interval (read again before
// each wait, so a runtime parameter takes effect), and repeats until shutdown(). The TTL
// monitor and the rollup catch-up are built on it.
// Thread safety: start() and shutdown() from the owning thread; stopRequested() from any.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace mongo {

class PeriodicThread {
public:
    using Interval = std::function<std::chrono::milliseconds()>;

    /**
     * `onStart` runs once on the new thread (e.g. to name it); `job` after each wait, and
     * also right after the start when `runAtStart`.
     */
    PeriodicThread(std::function<void()> onStart, Interval interval, std::function<void()> job,
                   bool runAtStart);
    ~PeriodicThread();
    PeriodicThread(const PeriodicThread&) = delete;
    PeriodicThread& operator=(const PeriodicThread&) = delete;

    void start();
    /** Wakes the thread, lets the running job (if any) return, and joins it. */
    void shutdown();
    /** True once shutdown() began: long jobs check it between steps. */
    bool stopRequested();

private:
    void _run();

    std::function<void()> _onStart;
    Interval _interval;
    std::function<void()> _job;
    bool _runAtStart;
    std::thread _thread;
    std::mutex _mutex;
    std::condition_variable _cv;
    bool _stop = false;
};

}  // namespace mongo
