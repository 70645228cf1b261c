// WiredTigerRecoveryUnit: a RecoveryUnit over one session of the session cache.
// The WiredTiger transaction (isolation=snapshot) begins lazily on the first read
// or write and ends at commit/abort of the unit of work or at abandonSnapshot().
//
// Thread safety: one thread at a time.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_session_cache.h"

namespace mongo {

class WiredTigerRecoveryUnit : public RecoveryUnit {
public:
    explicit WiredTigerRecoveryUnit(WiredTigerSessionCache* cache) : _cache(cache) {}
    ~WiredTigerRecoveryUnit() override;

    void beginUnitOfWork() override;
    void commitUnitOfWork() override;
    void abortUnitOfWork() override;
    bool inUnitOfWork() const override {
        return _inUnitOfWork;
    }
    void abandonSnapshot() override;
    Status waitUntilDurable() override;
    void onCommitOrRollback(std::function<void()> onCommit,
                            std::function<void()> onRollback) override;

    /** The session, with a transaction running (begun now if needed). */
    WT_SESSION* getSession();
    /** Opens a cursor on `uri` in the current transaction. Throws on failure. */
    WtCursor openCursor(StringData uri, const char* config = nullptr);

    static WiredTigerRecoveryUnit* get(RecoveryUnit* ru) {
        return static_cast<WiredTigerRecoveryUnit*>(ru);
    }

private:
    void _txnClose(bool commit);

    WiredTigerSessionCache* _cache;
    WtSession _session;
    bool _active = false;  // a WT transaction is running
    bool _inUnitOfWork = false;
    std::vector<std::pair<std::function<void()>, std::function<void()>>> _changes;
};

}  // namespace mongo
