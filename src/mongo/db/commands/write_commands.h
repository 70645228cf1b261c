// Shared pieces of the write commands (insert, update, delete, findAndModify):
// document checks before insert and the writeErrors reply format.
#pragma once

#include <optional>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/retryable_write_scope.h"
#include "mongo/db/repl/transaction_table.h"
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
 * The document as stored: `_id` first (generated when missing). Errors:
 * BSONObjectTooLarge 10334, InvalidIdField 53.
 */
StatusWith<BSONObj> fixDocumentForInsert(const BSONObj& doc);

/** One failed statement of a write command. */
struct WriteError {
    int index;
    Status status;
    std::shared_ptr<const ErrorExtraInfo> extra;
};

/**
 * A retried statement's oplog entry must be of the same kind as the retry: `code` (upstream's
 * 40636 insert, 40637 delete, 40638 update) otherwise.
 */
void checkRetriedEntryKind(const BSONObj& entry, StringData what, int code,
                           std::initializer_list<StringData> allowedOps);

/** Appends writeErrors: [{index, code, errmsg, ...extra}] when there are any. */
void appendWriteErrors(const std::vector<WriteError>& errors, BSONObjBuilder& result);

/**
 * appendWriteErrors() for the per-statement errors of a time-series write result
 * (`{index, status}` with an optional `extra`).
 */
template <typename E>
void appendWriteErrorsOf(const std::vector<E>& from, BSONObjBuilder& result) {
    std::vector<WriteError> errors;
    errors.reserve(from.size());
    for (const auto& e : from) {
        if constexpr (requires { e.extra; })
            errors.push_back(WriteError{e.index, e.status, e.extra});
        else
            errors.push_back(WriteError{e.index, e.status, nullptr});
    }
    appendWriteErrors(errors, result);
}

/** Runs `f`, turning a DBException into a WriteError for statement `index`. */
template <typename F>
bool runStatement(int index, std::vector<WriteError>* errors, F&& f) {
    try {
        f();
        return true;
    } catch (const DBException& ex) {
        errors->push_back(WriteError{index, ex.toStatus(), ex.sharedExtraInfo()});
        return false;
    }
}

/**
 * Inserts already-fixed documents in one unit of work (write conflicts retried). With a
 * `retryable` owner, each document's oplog entry carries the owner's next stmtId.
 */
void insertDocumentsInOneUnit(OperationContext* opCtx, Collection* coll,
                              const std::vector<BSONObj>& docs,
                              const repl::RetryableWriteScope::Owner* retryable = nullptr);

}  // namespace mongo
