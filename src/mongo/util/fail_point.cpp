#include "mongo/util/fail_point.h"

namespace mongo {

namespace {
thread_local bool tlConnectionCloseRequested = false;
}  // namespace

FailPoint::FailPoint(std::string name) : _name(std::move(name)) {}

long long FailPoint::setMode(Settings settings) {
    std::lock_guard<std::mutex> lk(_mutex);
    long long before = _timesEntered;
    _settings = std::move(settings);
    _maybeActive.store(_settings.mode != Mode::kOff);
    return before;
}

std::optional<std::string> FailPoint::evaluate(
    const std::function<bool(const std::string&)>& applies) {
    if (!maybeActive())
        return std::nullopt;
    std::lock_guard<std::mutex> lk(_mutex);
    if (_settings.mode == Mode::kOff)
        return std::nullopt;
    if (applies && !applies(_settings.data))
        return std::nullopt;
    switch (_settings.mode) {
        case Mode::kOff:
            return std::nullopt;
        case Mode::kAlwaysOn:
            break;
        case Mode::kTimes:
            if (_settings.count <= 0)
                return std::nullopt;
            if (--_settings.count == 0) {
                _settings.mode = Mode::kOff;
                _maybeActive.store(false);
            }
            break;
        case Mode::kSkip:
            if (_settings.count > 0) {
                --_settings.count;
                return std::nullopt;
            }
            break;
        case Mode::kProbability: {
            std::uniform_real_distribution<double> dist(0.0, 1.0);
            if (dist(_rng) >= _settings.probability)
                return std::nullopt;
            break;
        }
    }
    ++_timesEntered;
    return _settings.data;
}

long long FailPoint::timesEntered() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _timesEntered;
}

FailPoint::Settings FailPoint::settings() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _settings;
}

FailPointRegistry& FailPointRegistry::get() {
    static FailPointRegistry registry;
    return registry;
}

void FailPointRegistry::add(FailPoint* point) {
    std::lock_guard<std::mutex> lk(_mutex);
    _points.emplace(point->name(), point);
}

FailPoint* FailPointRegistry::find(std::string_view name) const {
    std::lock_guard<std::mutex> lk(_mutex);
    auto it = _points.find(name);
    return it == _points.end() ? nullptr : it->second;
}

std::vector<FailPoint*> FailPointRegistry::all() const {
    std::lock_guard<std::mutex> lk(_mutex);
    std::vector<FailPoint*> out;
    for (const auto& [name, p] : _points)
        out.push_back(p);
    return out;
}

void requestConnectionClose() {
    tlConnectionCloseRequested = true;
}

bool takeConnectionCloseRequest() {
    bool r = tlConnectionCloseRequested;
    tlConnectionCloseRequested = false;
    return r;
}

}  // namespace mongo
