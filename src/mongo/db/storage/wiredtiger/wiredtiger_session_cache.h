// WiredTigerSessionCache: a pool of idle snapshot-isolation sessions, so that a
// RecoveryUnit does not pay open_session/close per operation. Each session keeps
// WiredTiger's own cursor cache (cache_cursors), so reopening a cursor is cheap.
//
// Thread safety: acquire/release/closeIdle may be called concurrently.
#pragma once

#include <wiredtiger.h>

#include <mutex>
#include <vector>

#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"

namespace mongo {

class WiredTigerSessionCache {
public:
    explicit WiredTigerSessionCache(WT_CONNECTION* conn) : _conn(conn) {}
    ~WiredTigerSessionCache() {
        closeIdle();
    }

    /** An idle session from the pool, or a new one. Invariant on failure to open. */
    WtSession acquire();
    /** Returns a session (no transaction running) to the pool. */
    void release(WtSession s);
    /** Closes every pooled session (releasing their cached cursors and handles). */
    void closeIdle();

    WT_CONNECTION* conn() const {
        return _conn;
    }

private:
    WT_CONNECTION* _conn;
    std::mutex _mutex;
    std::vector<WtSession> _idle;
};

}  // namespace mongo
