// The delete and update commands on a time-series view (spec timeseries-semantics.md §6.3,
// §6.4): every statement runs through timeseries_modify.h in its own unit of work; a failing
// statement becomes a write error (ordered: the batch stops there).
//
// Called by the command hooks in commands/write_commands.cpp (delete) and
// commands/update_cmd.cpp (update) after timeseries::lookupTimeseriesCollection found the
// namespace to be a time-series view, with the buckets collection held
// (TimeseriesCollection::buckets set).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/ops/write_error.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/idl/write_ops_gen.h"

namespace mongo {
class OperationContext;
}

namespace mongo::timeseries {

/**
 * Exactly-once for the statements of a retryable write (lsid + txnNumber), implemented by the
 * command layer over the session's transaction table. A statement that already ran is not run
 * again: its recorded outcome is the result. A statement that writes records its outcome
 * inside its own unit of work, so the outcome exists if and only if the writes do. Outcomes
 * are small documents whose shape this file owns (update {n, nModified, upserted?}, delete
 * {n}, findAndModify {n, updatedExisting, upserted?, value?}).
 */
class TimeseriesStatementLog {
public:
    virtual ~TimeseriesStatementLog() = default;
    /**
     * The outcome recorded for statement `index`, or nullopt when it has not run. Throws when
     * it ran as another kind of write (upstream's 40637/40638/40606) or its history is gone
     * (IncompleteTransactionHistory 217).
     */
    virtual std::optional<BSONObj> recorded(OperationContext* opCtx, size_t index) = 0;
    /** Records `outcome` of statement `index`. REQUIRES: in the statement's unit of work. */
    virtual void record(OperationContext* opCtx, size_t index, const BSONObj& outcome) = 0;
};

struct TimeseriesWriteResult {
    long long n = 0;                                // measurements deleted / matched (+ upserted)
    long long nModified = 0;                        // measurements changed (update)
    std::vector<std::pair<int, BSONObj>> upserted;  // (statement index, {_id: v})
    std::vector<WriteError> errors;                 // by statement index
};

/**
 * The statements of a delete command. Per-statement errors: FailedToParse (limit not 0/1),
 * BadValue (query, hint), TimeseriesBucketCompressionFailed, storage errors; with a `log`
 * (retryable write, else null) InvalidOptions for limit 0.
 */
TimeseriesWriteResult performTimeseriesDeletes(OperationContext* opCtx,
                                               const TimeseriesCollection& ts,
                                               const std::vector<DeleteOpEntry>& deletes,
                                               bool ordered, TimeseriesStatementLog* log);

/**
 * The statements of an update command (modifiers, replacements and pipelines, whose `let`
 * and `c` variables they see). Per-statement errors: InvalidOptions (sort, a pipeline stage
 * an update refuses), FailedToParse (multi replacement), BadValue (time field removed or not
 * a date, upsert without a time), the update operators' codes, BSONObjectTooLarge; with a
 * `log` (retryable write, else null) InvalidOptions for multi.
 */
TimeseriesWriteResult performTimeseriesUpdates(OperationContext* opCtx,
                                               const TimeseriesCollection& ts,
                                               const UpdateCommandRequest& cmd,
                                               TimeseriesStatementLog* log);

struct TimeseriesFindAndModifyResult {
    long long n = 0;
    bool updatedExisting = false;
    std::optional<BSONObj> upsertedId;  // {_id: v}
    std::optional<BSONObj> value;       // the measurement (pre or post image), unprojected
};

/**
 * findAndModify on a time-series view: remove or update (one measurement) or upsert. The
 * caller has checked the option combinations. With a `log` (retryable write, else null) a
 * retry returns the recorded result. Errors: InvalidOptions (sort, pipeline update), and
 * those of the delete/update statements.
 */
TimeseriesFindAndModifyResult performTimeseriesFindAndModify(OperationContext* opCtx,
                                                             const TimeseriesCollection& ts,
                                                             const FindAndModifyCommandRequest& cmd,
                                                             TimeseriesStatementLog* log);

/** A hint argument as the modify engine takes it: {$hint: name} for an index name. */
BSONObj hintToBSON(const std::optional<std::variant<std::string, BSONObj>>& hint);

}  // namespace mongo::timeseries
