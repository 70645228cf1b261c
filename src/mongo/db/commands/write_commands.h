// Shared pieces of the write commands (insert, update, delete, findAndModify): retryable
// statements and document checks before insert (write errors: db/ops/write_error.h).
#pragma once

#include <optional>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/ops/write_error.h"
#include "mongo/db/repl/retryable_write_scope.h"
#include "mongo/db/repl/transaction_table.h"
#include "mongo/db/timeseries/timeseries_write_ops.h"
#include "mongo/util/assert_util.h"

namespace mongo {

class Collection;
class OperationContext;
struct CommandRequest;

/**
 * The retryable-write state of one write command: the checked-out session (when the
 * command carries lsid + txnNumber) and the statement id of each op (from `stmtIds`, else
 * `stmtId` + index, else the index, as upstream).
 */
class RetryableWrite {
public:
    /** Checks the session out when `req` is a retryable write; BadValue for bad stmtIds. */
    RetryableWrite(OperationContext* opCtx, const CommandRequest& req, size_t numOps);

    bool active() const {
        return _session.has_value();
    }
    int stmtId(size_t opIndex) const;
    /** The oplog entry that already executed op `opIndex`, if any (see transaction_table.h). */
    std::optional<BSONObj> executed(OperationContext* opCtx, size_t opIndex) const;
    /** A scope owner for ops `opIndexes` (active() only). */
    repl::RetryableWriteScope::Owner owner(const std::vector<size_t>& opIndexes) const;
    /** Opens `scope` for op `opIndex` when active() (else leaves it empty). */
    void openScope(std::optional<repl::RetryableWriteScope>& scope, size_t opIndex) const;
    const repl::CheckedOutSession* session() const {
        return _session ? &*_session : nullptr;
    }

private:
    std::optional<repl::CheckedOutSession> _session;
    std::optional<int> _firstStmtId;
    std::vector<int> _stmtIds;
};

/**
 * Exactly-once time-series updates, deletes and findAndModify (timeseries_write_ops.h) over
 * the session of a retryable write: a statement's outcome is a no-op oplog entry stamped with
 * its stmtId, logged in the statement's unit of work: {op: "n", ns: <buckets>, o: {msg},
 * o2: {timeseriesStatement: <kind>, outcome: {...}}}. A retry finds it through the session's
 * executed statements (also after a restart: the entry is in the session's oplog chain).
 */
class RetryableTimeseriesStatements final : public timeseries::TimeseriesStatementLog {
public:
    /** `kind` is "update", "delete" or "findAndModify"; `mismatchCode` is thrown for a
     * statement that ran as something else (40638, 40637, 40606). REQUIRES: retryable.active(). */
    RetryableTimeseriesStatements(const RetryableWrite& retryable, StringData kind,
                                  int mismatchCode, const NamespaceString& bucketsNss,
                                  std::string bucketsUuid);
    std::optional<BSONObj> recorded(OperationContext* opCtx, size_t index) override;
    void record(OperationContext* opCtx, size_t index, const BSONObj& outcome) override;

private:
    const RetryableWrite& _retryable;
    std::string _kind;
    int _mismatchCode;
    std::string _ns;
    std::string _uuid;
};

/**
 * The document as stored: `_id` first (generated when missing). Errors:
 * BSONObjectTooLarge 10334, InvalidIdField 53.
 */
StatusWith<BSONObj> fixDocumentForInsert(const BSONObj& doc);

/**
 * A retried statement's oplog entry must be of the same kind as the retry: `code` (upstream's
 * 40636 insert, 40637 delete, 40638 update) otherwise.
 */
void checkRetriedEntryKind(const BSONObj& entry, StringData what, int code,
                           std::initializer_list<StringData> allowedOps);

/**
 * Inserts already-fixed documents in one unit of work (write conflicts retried). With a
 * `retryable` owner, each document's oplog entry carries the owner's next stmtId.
 */
void insertDocumentsInOneUnit(OperationContext* opCtx, Collection* coll,
                              const std::vector<BSONObj>& docs,
                              const repl::RetryableWriteScope::Owner* retryable = nullptr);

}  // namespace mongo
