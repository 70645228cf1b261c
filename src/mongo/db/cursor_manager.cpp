#include "mongo/db/cursor_manager.h"

#include <algorithm>
#include <random>

#include "mongo/db/storage/recovery_unit.h"

namespace mongo {

namespace {
long long randomCursorId() {
    static thread_local std::mt19937_64 gen(std::random_device{}());
    long long id;
    do {
        id = static_cast<long long>(gen() & 0x7FFFFFFFFFFFFFFFull);
    } while (id == 0);
    return id;
}
}  // namespace

long long CursorManager::registerCursor(std::unique_ptr<ClientCursor> cursor) {
    std::lock_guard<std::mutex> lk(_mutex);
    long long id;
    do {
        id = randomCursorId();
    } while (_idle.count(id) || _pinned.count(id));
    cursor->id = id;
    cursor->lastUsed = Date_t::now();
    _idle[id] = std::move(cursor);
    ++_totalOpened;
    return id;
}

StatusWith<std::unique_ptr<ClientCursor>> CursorManager::checkOut(long long id,
                                                                  const NamespaceString& nss) {
    std::lock_guard<std::mutex> lk(_mutex);
    if (_pinned.count(id))
        return Status(ErrorCodes::CursorInUse,
                      "cursor id " + std::to_string(id) + " is already in use");
    auto it = _idle.find(id);
    if (it == _idle.end())
        return Status(ErrorCodes::CursorNotFound, "cursor id " + std::to_string(id) + " not found");
    if (it->second->nss != nss)
        return Status(ErrorCodes::Unauthorized,
                      "Requested getMore on namespace '" + nss.ns() +
                          "', but cursor belongs to a different namespace " + it->second->nss.ns());
    auto c = std::move(it->second);
    _idle.erase(it);
    _pinned[id] = Pinned{c->nss, c->noCursorTimeout};
    return c;
}

void CursorManager::checkIn(std::unique_ptr<ClientCursor> cursor) {
    std::unique_ptr<ClientCursor> doomed;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        long long id = cursor->id;
        _pinned.erase(id);
        auto k = std::find(_killPending.begin(), _killPending.end(), id);
        if (k != _killPending.end()) {
            _killPending.erase(k);
            doomed = std::move(cursor);
        } else {
            cursor->lastUsed = Date_t::now();
            _idle[id] = std::move(cursor);
        }
    }
}

bool CursorManager::kill(long long id) {
    std::unique_ptr<ClientCursor> doomed;
    std::lock_guard<std::mutex> lk(_mutex);
    auto it = _idle.find(id);
    if (it != _idle.end()) {
        doomed = std::move(it->second);
        _idle.erase(it);
        return true;
    }
    if (_pinned.count(id)) {
        _killPending.push_back(id);
        return true;
    }
    return false;
}

void CursorManager::killForNamespace(const NamespaceString& nss) {
    std::vector<std::unique_ptr<ClientCursor>> doomed;
    std::lock_guard<std::mutex> lk(_mutex);
    for (auto it = _idle.begin(); it != _idle.end();) {
        if (it->second->nss == nss) {
            doomed.push_back(std::move(it->second));
            it = _idle.erase(it);
        } else {
            ++it;
        }
    }
    for (const auto& [id, pinned] : _pinned) {
        if (pinned.nss == nss)
            _killPending.push_back(id);
    }
}

void CursorManager::killAll() {
    std::map<long long, std::unique_ptr<ClientCursor>> doomed;
    std::lock_guard<std::mutex> lk(_mutex);
    doomed.swap(_idle);
}

int CursorManager::timeoutCursors(long long timeoutMillis) {
    std::vector<std::unique_ptr<ClientCursor>> doomed;
    std::lock_guard<std::mutex> lk(_mutex);
    Date_t now = Date_t::now();
    for (auto it = _idle.begin(); it != _idle.end();) {
        if (!it->second->noCursorTimeout && (now - it->second->lastUsed).count() > timeoutMillis) {
            doomed.push_back(std::move(it->second));
            it = _idle.erase(it);
            ++_timedOut;
        } else {
            ++it;
        }
    }
    return static_cast<int>(doomed.size());
}

size_t CursorManager::numOpenNoTimeout() const {
    std::lock_guard<std::mutex> lk(_mutex);
    size_t n = 0;
    for (const auto& [id, c] : _idle)
        n += c->noCursorTimeout ? 1 : 0;
    for (const auto& [id, p] : _pinned)
        n += p.noCursorTimeout ? 1 : 0;
    return n;
}

void CursorManager::forEachIdle(const std::function<void(const ClientCursor&)>& fn) const {
    std::lock_guard<std::mutex> lk(_mutex);
    for (const auto& [id, c] : _idle)
        fn(*c);
}

size_t CursorManager::numOpen() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _idle.size() + _pinned.size();
}

}  // namespace mongo
