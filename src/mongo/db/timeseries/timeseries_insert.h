// The time-series insert path in the server (spec timeseries-semantics.md §3.9-§3.10):
// measurements inserted into a time-series view are staged in the bucket catalog
// (reopening archived or queried buckets on request), then each resulting write batch is
// committed to system.buckets.<coll> in its own unit of work (insert of a new bucket,
// DocDiff update or whole replacement), with finish/abort and retries of cleared buckets.
//
// Called by the insert command hook (commands/write_commands.cpp) while it holds the
// buckets collection (AutoGetCollection). Thread-safe: concurrent inserts share write
// batches through the catalog's group commit.
#pragma once

#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/ops/write_error.h"
#include "mongo/db/timeseries/timeseries_commands.h"

namespace mongo {
class OperationContext;
namespace repl {
class RetryableSession;
}
}  // namespace mongo

namespace mongo::timeseries {

struct TimeseriesInsertResult {
    long long n = 0;
    std::vector<WriteError> errors;  // ordered by index
};

/**
 * The statements of a retryable time-series insert: measurement i is statement stmtIds[i];
 * those with alreadyExecuted[i] ran before (they count as inserted and are not staged).
 * Each bucket write records the statements of the measurements it holds, in its own
 * storage transaction, whoever commits it (repl/retryable_write_scope.h).
 */
struct RetryableInsertStatements {
    repl::RetryableSession* session;
    long long txnNumber;
    std::vector<int> stmtIds;
    std::vector<bool> alreadyExecuted;
};

/**
 * Inserts `measurements` into the time-series collection `ts`. Ordered: stops at the first
 * failing measurement (one error, n = measurements before it). Unordered: every failing
 * measurement gets an error, n = the others. Per-measurement codes: BadValue (time field),
 * BSONObjectTooLarge, TimeseriesBucketCompressionFailed, DocumentValidationFailure...
 * `writerId`: the client connection's id (bucket_catalog::CollectionInfo::writerId); 0 for
 * internal writers.
 */
TimeseriesInsertResult performTimeseriesInserts(
    OperationContext* opCtx, const TimeseriesCollection& ts,
    const std::vector<BSONObj>& measurements, bool ordered,
    const RetryableInsertStatements* retryable = nullptr, int64_t writerId = 0);

/** The bucket document with `_id` == `id` in `ts.buckets`, or an empty object. */
BSONObj findBucketById(OperationContext* opCtx, const TimeseriesCollection& ts,
                       const BSONElement& id);

}  // namespace mongo::timeseries
