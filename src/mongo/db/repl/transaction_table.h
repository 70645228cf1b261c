// The session transaction table of retryable writes: per logical session (lsid) the
// highest txnNumber started and, for it, which statements (stmtIds) already ran and at
// which oplog entry. Persisted as upstream: config.transactions holds {_id: <lsid>, txnNum,
// lastWriteOpTime, lastWriteDate}, written in the storage transaction of each write, and
// the statements are re-derived from the oplog entries (lsid, txnNumber, stmtId,
// prevOpTime chain) when a session is first used after a restart. README.md has the
// formats. Commands check a session out for the whole command (CheckedOutSession).
//
// Thread safety: TransactionTable is thread-safe. A session is used by the command that
// checked it out; the session's recorded state also changes when another thread commits a
// shared time-series batch for it, hence the per-session state mutex.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/repl/optime.h"
#include "mongo/util/time_support.h"

namespace mongo {

class OperationContext;

namespace repl {

/** stmtId of a write without one (not recorded). */
constexpr int kUninitializedStmtId = -1;

/** config.transactions */
const NamespaceString& transactionsNss();
/** config.image_collection: findAndModify pre/post images of retryable writes. */
const NamespaceString& imageCollectionNss();

class RetryableSession : public std::enable_shared_from_this<RetryableSession> {
public:
    explicit RetryableSession(BSONObj lsid) : _lsid(lsid.getOwned()) {}
    const BSONObj& lsid() const {
        return _lsid;
    }

    /** The newest committed write of `txnNumber` for this session (null if none). */
    OpTime lastWriteOpTime(long long txnNumber) const;
    /**
     * The `prevOpTime` of the next entry of `txnNumber`: the newest entry logged, committed
     * or not (units of work of one command can log several entries before committing).
     */
    OpTime chainHead(long long txnNumber) const;
    /** `opTime` was just logged for `txnNumber`; back to the committed head on rollback. */
    void advanceChainHead(long long txnNumber, const OpTime& opTime);
    void resetChainHead();
    /** Remembers a committed write of `stmtIds` at `opTime` (runs on commit). */
    void onWriteCommitted(long long txnNumber, const std::vector<int>& stmtIds,
                          const OpTime& opTime, Date_t wall);

private:
    friend class TransactionTable;
    friend class CheckedOutSession;

    const BSONObj _lsid;
    std::timed_mutex _checkOutMutex;  // held by the command that checked the session out
    mutable std::mutex _mutex;        // guards the fields below
    bool _loaded = false;
    bool _forgotten = false;  // removed from the table by forgetSessions()
    long long _txnNumber = -1;
    std::map<int, OpTime> _executed;  // stmtId -> oplog entry that ran it
    bool _incompleteHistory = false;  // the oplog chain was truncated
    OpTime _lastWriteOpTime;
    Date_t _lastWriteDate;
    OpTime _chainHead;  // newest entry logged for _txnNumber, maybe not committed yet
};

/** A session checked out by one command for one txnNumber (released on destruction). */
class CheckedOutSession {
public:
    CheckedOutSession(std::shared_ptr<RetryableSession> session, long long txnNumber,
                      std::unique_lock<std::timed_mutex> lock)
        : _session(std::move(session)), _txnNumber(txnNumber), _lock(std::move(lock)) {}

    RetryableSession* session() const {
        return _session.get();
    }
    long long txnNumber() const {
        return _txnNumber;
    }

    /**
     * The oplog entry that executed `stmtId` in this transaction, or nothing if the
     * statement has not run. IncompleteTransactionHistory 217 when the entry (or, for a
     * statement not found, part of the history) was truncated from the oplog.
     */
    std::optional<BSONObj> checkStatementExecuted(OperationContext* opCtx, int stmtId) const;

private:
    std::shared_ptr<RetryableSession> _session;
    long long _txnNumber;
    std::unique_lock<std::timed_mutex> _lock;
};

class TransactionTable {
public:
    static TransactionTable* get();

    /**
     * Checks the session of `lsid` out for `txnNumber`, waiting while another command
     * uses it; the wait ends with the operation's interruption (MaxTimeMSExpired 50 past
     * maxTimeMS, Interrupted 11601 from killOp/killSessions, ClientDisconnect...). Loads the
     * session from config.transactions and the oplog on first use in this process, and creates
     * config.transactions/config.image_collection when missing. A higher txnNumber starts a new
     * retryable write (forgetting the statements of the old one). TransactionTooOld 225 when a
     * newer txnNumber has started.
     */
    CheckedOutSession checkOut(OperationContext* opCtx, const BSONObj& lsid, long long txnNumber);

    /**
     * Writes the session's config.transactions record for a write of `txnNumber` logged at
     * `opTime`, and on commit records `stmtIds` in memory. REQUIRES: in the unit of work of
     * the write.
     */
    void recordWrite(OperationContext* opCtx, RetryableSession* session, long long txnNumber,
                     const std::vector<int>& stmtIds, const OpTime& opTime, Date_t wall);

    /**
     * Stores a findAndModify image: {_id: lsid, txnNum, ts, imageKind, image}. REQUIRES: in
     * the unit of work of the write.
     */
    void writeImage(OperationContext* opCtx, RetryableSession* session, long long txnNumber,
                    const Timestamp& ts, StringData imageKind, const BSONObj& image);
    /** The image stored for the session's `txnNumber` at `ts`, if any. */
    std::optional<BSONObj> readImage(OperationContext* opCtx, const BSONObj& lsid,
                                     long long txnNumber, const Timestamp& ts);

    /** Forgets every in-memory session (they are reloaded from storage on next use). */
    void clearInMemory();
    /**
     * Forgets the in-memory state of the sessions of `lsids` that no command has checked out
     * (ended or expired sessions; reloaded from config.transactions if used again).
     * Returns how many were forgotten.
     */
    size_t forgetSessions(const std::vector<BSONObj>& lsids);

private:
    void _load(OperationContext* opCtx, RetryableSession* session);

    std::mutex _mutex;
    std::map<std::string, std::shared_ptr<RetryableSession>> _sessions;  // lsid bytes ->
};

}  // namespace repl
}  // namespace mongo
