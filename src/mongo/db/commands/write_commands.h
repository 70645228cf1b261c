// Shared pieces of the write commands (insert, update, delete, findAndModify):
// document checks before insert and the writeErrors reply format.
#pragma once

#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/util/assert_util.h"

namespace mongo {

class Collection;
class OperationContext;

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

/** Inserts already-fixed documents in one unit of work (write conflicts retried). */
void insertDocumentsInOneUnit(OperationContext* opCtx, Collection* coll,
                              const std::vector<BSONObj>& docs);

}  // namespace mongo
