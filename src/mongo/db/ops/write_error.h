// One failed statement of a write command (insert, update, delete), the one statement runner
// their per-statement loops share, and the `writeErrors` reply field. Used by the plain
// write commands (db/commands/) and the time-series write path (db/timeseries/) alike.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "mongo/base/error_extra_info.h"
#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/util/assert_util.h"

namespace mongo {

/** One failed statement: its index in the command's batch and why it failed. */
struct WriteError {
    int index;
    Status status;
    std::shared_ptr<const ErrorExtraInfo> extra;  // appended to the reply entry when set
};

/** Appends writeErrors: [{index, code, ...extra, errmsg}] when there are any. */
void appendWriteErrors(const std::vector<WriteError>& errors, BSONObjBuilder& result);

/**
 * Runs `f`; a DBException it throws becomes a WriteError for statement `index` in `errors`.
 * Returns whether `f` succeeded.
 */
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
 * The statement loop of a write command, over statements 0..count-1 in order. For each,
 * `before(i)` runs outside the statement (what it throws fails the whole command; false skips
 * the statement, e.g. a retried statement that already ran), then `run(i)` under
 * runStatement(). Ordered: stops after the first failed statement; unordered: runs them all.
 */
template <typename Before, typename Run>
void runStatements(size_t count, bool ordered, std::vector<WriteError>* errors, Before&& before,
                   Run&& run) {
    for (size_t i = 0; i < count; ++i) {
        if (!before(i))
            continue;
        if (!runStatement(static_cast<int>(i), errors, [&] { run(i); }) && ordered)
            break;
    }
}

}  // namespace mongo
