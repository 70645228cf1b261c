#include "mongo/util/periodic_thread.h"

namespace mongo {

PeriodicThread::PeriodicThread(std::function<void()> onStart, Interval interval,
                               std::function<void()> job, bool runAtStart)
    : _onStart(std::move(onStart)),
      _interval(std::move(interval)),
      _job(std::move(job)),
      _runAtStart(runAtStart) {}

PeriodicThread::~PeriodicThread() {
    shutdown();
}

void PeriodicThread::start() {
    _thread = std::thread([this] { _run(); });
}

void PeriodicThread::shutdown() {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _stop = true;
    }
    _cv.notify_all();
    if (_thread.joinable())
        _thread.join();
}

bool PeriodicThread::stopRequested() {
    std::lock_guard<std::mutex> lk(_mutex);
    return _stop;
}

void PeriodicThread::_run() {
    if (_onStart)
        _onStart();
    bool wait = !_runAtStart;
    while (true) {
        if (wait) {
            std::unique_lock<std::mutex> lk(_mutex);
            _cv.wait_for(lk, _interval(), [this] { return _stop; });
        }
        wait = true;
        if (stopRequested())
            return;
        _job();
    }
}

}  // namespace mongo
