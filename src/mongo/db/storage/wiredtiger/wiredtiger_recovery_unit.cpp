#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"

#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/fail_point.h"

namespace mongo {

WtSession WiredTigerSessionCache::acquire() {
    {
        std::lock_guard lk(_mutex);
        if (!_idle.empty()) {
            WtSession s = std::move(_idle.back());
            _idle.pop_back();
            return s;
        }
    }
    auto sw = WtSession::open(_conn);
    invariantWithMsg(sw.isOK(), sw.getStatus().toString());
    return std::move(sw.getValue());
}

void WiredTigerSessionCache::release(WtSession s) {
    std::lock_guard lk(_mutex);
    _idle.push_back(std::move(s));
}

void WiredTigerSessionCache::closeIdle() {
    std::vector<WtSession> toClose;
    {
        std::lock_guard lk(_mutex);
        toClose.swap(_idle);
    }
    // Destructors close the sessions.
}

WiredTigerRecoveryUnit::~WiredTigerRecoveryUnit() {
    if (_inUnitOfWork)
        abortUnitOfWork();
    if (_active)
        _txnClose(false);
    if (_session.get())
        _cache->release(std::move(_session));
}

void WiredTigerRecoveryUnit::beginUnitOfWork() {
    invariant(!_inUnitOfWork);
    _inUnitOfWork = true;
}

void WiredTigerRecoveryUnit::commitUnitOfWork() {
    invariant(_inUnitOfWork);
    int rc = 0;
    if (_active) {
        rc = _session->commit_transaction(_session.get(), nullptr);
        _active = false;
    }
    _inUnitOfWork = false;
    auto changes = std::move(_changes);
    _changes.clear();
    if (rc != 0) {
        // WiredTiger rolled the transaction back.
        for (auto it = changes.rbegin(); it != changes.rend(); ++it)
            if (it->second)
                it->second();
        Status s = wtRCToStatusOrThrowWCE(rc, _session.get(), "commit_transaction");
        throw DBException(s);
    }
    for (auto& c : changes)
        if (c.first)
            c.first();
}

void WiredTigerRecoveryUnit::abortUnitOfWork() {
    invariant(_inUnitOfWork);
    if (_active)
        _txnClose(false);
    _inUnitOfWork = false;
    auto changes = std::move(_changes);
    _changes.clear();
    for (auto it = changes.rbegin(); it != changes.rend(); ++it)
        if (it->second)
            it->second();
}

void WiredTigerRecoveryUnit::abandonSnapshot() {
    if (_inUnitOfWork || !_active)
        return;
    _txnClose(false);
}

void WiredTigerRecoveryUnit::_txnClose(bool commit) {
    invariant(_active);
    int rc = commit ? _session->commit_transaction(_session.get(), nullptr)
                    : _session->rollback_transaction(_session.get(), nullptr);
    _active = false;
    invariantWithMsg(rc == 0, wtRCToStatus(rc, _session.get(), "ending transaction").toString());
}

// Test-only: the next journal flushes fail (as an I/O error would), so callers' handling of a
// failed flush can be tested.
MONGO_FAIL_POINT_DEFINE(failJournalFlush)

Status WiredTigerRecoveryUnit::waitUntilDurable() {
    if (failJournalFlush.maybeActive() && failJournalFlush.evaluate())
        return Status(ErrorCodes::UnknownError, "log_flush: failed by fail point failJournalFlush");
    if (!_session.get())
        _session = _cache->acquire();
    int rc = _session->log_flush(_session.get(), "sync=on");
    return wtRCToStatus(rc, _session.get(), "log_flush");
}

void WiredTigerRecoveryUnit::onCommitOrRollback(std::function<void()> onCommit,
                                                std::function<void()> onRollback) {
    invariant(_inUnitOfWork);
    _changes.emplace_back(std::move(onCommit), std::move(onRollback));
}

WT_SESSION* WiredTigerRecoveryUnit::getSession() {
    if (!_session.get())
        _session = _cache->acquire();
    if (!_active) {
        int rc = _session->begin_transaction(_session.get(), "isolation=snapshot");
        invariantWithMsg(rc == 0, wtRCToStatus(rc, _session.get(), "begin_transaction").toString());
        _active = true;
    }
    return _session.get();
}

WtCursor WiredTigerRecoveryUnit::openCursor(StringData uri, const char* config) {
    WT_SESSION* s = getSession();
    auto sw = WtCursor::open(s, uri, config);
    if (!sw.isOK())
        throw DBException(sw.getStatus());
    return std::move(sw.getValue());
}

}  // namespace mongo
