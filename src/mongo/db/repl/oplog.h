// The local oplog, `local.oplog.rs`: a capped collection without an _id index
// whose RecordId is the entry's timestamp (so natural order is ts order), and
// the process-wide clock that hands out those timestamps. Entries are written by
// OpObserverImpl inside the unit of work of the write they describe. Format of
// one entry: README.md in this folder.
//
// Thread safety: all methods may be called concurrently. Timestamp allocation
// and the record insert happen under one mutex, so RecordIds are inserted in ts
// order; transactions may still commit out of ts order, so a reader may briefly
// see a later entry before an earlier one becomes visible (no visibility point).
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/timestamp.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/repl/optime.h"
#include "mongo/util/time_support.h"

namespace mongo {

class Collection;
class OperationContext;

namespace repl {

/** The oplog's namespace, local.oplog.rs. */
const NamespaceString& oplogNss();

/**
 * Upstream's default oplog size: 5% of the free space of `dbpath`, at least
 * 990 MB and at most 50 GB. Returns bytes.
 */
long long defaultOplogSizeBytes(const std::string& dbpath);

/** The fields of one entry, before the metadata (ts, t, v, wall) is added. */
struct OplogEntryParams {
    char opType = 'n';  // i, u, d, c, n
    std::string ns;     // "db.coll", or "db.$cmd" for commands, "" for no-ops
    std::string uuid;   // 16 raw bytes, or empty (no `ui`)
    BSONObj o;
    BSONObj o2;  // empty: no `o2`
    // Retryable writes (transaction_table.h): empty lsid = none.
    BSONObj lsid;
    long long txnNumber = 0;
    std::vector<int> stmtIds;  // one: `stmtId: <int>`; several: `stmtId: [<int>...]`
    OpTime prevOpTime;
    std::string needsRetryImage;  // "preImage" / "postImage" (findAndModify), or empty
};

/**
 * Builds an entry in upstream's field order: {op, ns, ui, o, o2, ts, t, v: 2L, wall}; a
 * retryable write's entry is {lsid, txnNumber, op, ns, ui, o, o2, needsRetryImage,
 * stmtId, ts, t, v, wall, prevOpTime}.
 */
BSONObj makeOplogEntry(const OplogEntryParams& params, const OpTime& opTime, Date_t wall);

class LocalOplog {
public:
    static LocalOplog* get();

    /** Maximum size in bytes used when the oplog is created. */
    void setMaxSizeBytes(long long bytes) {
        _maxSizeBytes = bytes;
    }
    long long maxSizeBytes() const {
        return _maxSizeBytes;
    }

    /**
     * Opens local.oplog.rs, creating it (capped, size maxSizeBytes(), no _id index)
     * when missing, and moves the clock past its newest entry.
     */
    Status createOrOpen(OperationContext* opCtx);
    /** True once createOrOpen succeeded. */
    bool isOpen() const;
    std::shared_ptr<Collection> collection() const;

    /** The term stamped on new entries (set by the replication coordinator). */
    void setTerm(long long term) {
        _term.store(term);
    }
    long long term() const {
        return _term.load();
    }

    /**
     * Allocates the next timestamp and inserts the entry into the oplog; deletes
     * the oldest entries while the oplog is over its size. REQUIRES: in a unit of
     * work and isOpen(). Throws (WriteConflictException...) on storage errors. `wall`
     * receives the entry's wall-clock time when given.
     */
    OpTime logOp(OperationContext* opCtx, const OplogEntryParams& params, Date_t* wall = nullptr);

    /** The newest committed entry written by this process (null before any). */
    OpTime lastAppliedOpTime() const;
    Date_t lastAppliedWallTime() const;

    /** Counts commits of capped-collection inserts (oplog entries included). */
    unsigned long long insertGeneration() const;
    /**
     * Waits until insertGeneration() differs from `generation` or `deadline`
     * passes, whichever first. Used by awaitData getMores.
     */
    void waitForInsertAfter(unsigned long long generation, Date_t deadline);
    /** Bumps the generation and wakes waiters (on commit of a capped insert). */
    void notifyInserted();

private:
    Timestamp _allocateTimestamp();  // REQUIRES: _mutex held
    void _truncateIfNeeded(OperationContext* opCtx, Collection* coll);
    void _advanceLastApplied(const OpTime& t, Date_t wall);

    std::atomic<long long> _maxSizeBytes{990LL * 1024 * 1024};
    std::atomic<long long> _term{OpTime::kUninitializedTerm};

    mutable std::mutex _mutex;  // guards everything below
    std::shared_ptr<Collection> _coll;
    Timestamp _lastTs;
    OpTime _lastApplied;
    Date_t _lastAppliedWall;
    std::condition_variable _inserted;
    unsigned long long _insertGeneration = 0;
};

}  // namespace repl
}  // namespace mongo
