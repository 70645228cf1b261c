// Fail points: named switches that tests turn on at run time (configureFailPoint) to make
// the server misbehave on purpose at one place in the code. A point's `data` is opaque
// bytes here (the command layer stores a BSON document in it). Define a point with
// MONGO_FAIL_POINT_DEFINE(name) at namespace scope; it registers itself by name.
//
// Thread safety: every method may be called concurrently (one mutex per point).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace mongo {

class FailPoint {
public:
    enum class Mode { kOff, kAlwaysOn, kTimes, kSkip, kProbability };

    struct Settings {
        Mode mode = Mode::kOff;
        long long count = 0;       // kTimes: activations left; kSkip: evaluations to skip
        double probability = 0.0;  // kProbability: in [0, 1]
        std::string data;
    };

    explicit FailPoint(std::string name);
    FailPoint(const FailPoint&) = delete;
    FailPoint& operator=(const FailPoint&) = delete;

    const std::string& name() const {
        return _name;
    }

    /**
     * Installs `settings` (the activation count is kept). Returns how many times the point
     * was entered (activated) before this call, upstream's `count` reply field.
     */
    long long setMode(Settings settings);

    /**
     * Evaluates the point once. When it is on and `applies(data)` (if given) is true, the
     * evaluation counts against times/skip/probability; if the point then fires, returns its
     * data and counts one entry. An evaluation `applies` rejects consumes nothing. Cost:
     * one relaxed load when the point is off.
     */
    std::optional<std::string> evaluate(
        const std::function<bool(const std::string& data)>& applies = nullptr);

    /** True when the point is in any mode but kOff (a hint; evaluate() decides). */
    bool maybeActive() const {
        return _maybeActive.load(std::memory_order_relaxed);
    }
    long long timesEntered() const;
    Settings settings() const;

private:
    const std::string _name;
    std::atomic<bool> _maybeActive{false};
    mutable std::mutex _mutex;  // guards the fields below
    Settings _settings;
    long long _timesEntered = 0;
    std::mt19937_64 _rng{0x5eed};
};

/** Every fail point of the process by name. */
class FailPointRegistry {
public:
    static FailPointRegistry& get();
    /** REQUIRES: called at static-initialisation time with a unique name. */
    void add(FailPoint* point);
    /** The point named `name`, or null. */
    FailPoint* find(std::string_view name) const;
    std::vector<FailPoint*> all() const;

private:
    mutable std::mutex _mutex;
    std::map<std::string, FailPoint*, std::less<>> _points;
};

/**
 * A fail point asked that the calling thread's connection be closed without a reply once
 * the current command returns (failCommand/onPrimaryTransactionalWrite closeConnection).
 * The command dispatcher takes the request; it is per thread because a connection's
 * commands run on its own thread.
 */
void requestConnectionClose();
/** True (and clears the request) when requestConnectionClose() was called on this thread. */
bool takeConnectionCloseRequest();

}  // namespace mongo

#define MONGO_FAIL_POINT_DEFINE(fp)                                                           \
    ::mongo::FailPoint fp(#fp);                                                               \
    namespace {                                                                               \
    const bool fp##_failPointRegistered = (::mongo::FailPointRegistry::get().add(&fp), true); \
    }
