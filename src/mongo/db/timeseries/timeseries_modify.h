// Deletes and updates of measurements through a time-series view, one statement at a time
// (spec timeseries-semantics.md §6.3, §6.4; the "TS_MODIFY" of upstream's explain).
//
// The query is split (timeseries_update_delete_util.h) into a bucket filter and a residual
// predicate. Candidate buckets are read first (so new buckets written by an update are never
// visited again), then each one is unpacked and its measurements tested:
//   delete: all match -> the bucket is deleted; some -> rewritten in place with the
//           survivors (same _id); none -> untouched. Without a residual, multi deletes remove
//           whole buckets unread.
//   update: non-matching measurements stay in the source bucket (rewritten in place, or the
//           bucket deleted when none is left); modified ones go into NEW buckets.
// All writes of one statement run in one WriteUnitOfWork (write conflicts retry the whole
// statement), as ordinary writes of system.buckets.<coll> (oplog entries in replica-set
// mode). Modified or deleted buckets are forgotten by the bucket catalog.
//
// Callers: timeseries_write_ops.cpp (delete/update commands), explain (kExplain mode runs
// the statement's reads and counts without writing). The caller holds the buckets
// collection (TimeseriesCollection::buckets). Errors are thrown (uassert).
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/db/timeseries/timeseries_update_delete_util.h"

namespace mongo {
class CollatorInterface;
class OperationContext;
class UpdateDriver;
}  // namespace mongo

namespace mongo::timeseries {

enum class ModifyMode { kWrite, kExplain };

/** Counters of one statement (explain's executionStats of TS_MODIFY). */
struct TimeseriesModifyStats {
    long long nBucketsUnpacked = 0;
    long long nMeasurementsMatched = 0;
    long long nMeasurementsDeleted = 0;
    long long nMeasurementsUpdated = 0;  // matched and changed
    long long nMeasurementsUpserted = 0;
    long long nBucketsDeleted = 0;
    long long nBucketsRewritten = 0;
    long long nBucketsInserted = 0;
};

struct TimeseriesDeleteOp {
    BSONObj query;
    BSONObj hint;  // as the user gave it (translated here); {"$hint": name} for a name
    bool multi = true;
    /** The statement's collation; nullopt: the collection's default. */
    std::optional<BSONObj> collation;
    /**
     * When set, called inside the statement's unit of work after it deleted something, with
     * its counters and the first measurement deleted (when asked for): a retryable write
     * records the statement's outcome there, atomically with the writes.
     */
    std::function<void(const TimeseriesModifyStats&, const std::optional<BSONObj>& firstDeleted)>
        inUnitOfWork;
};

struct TimeseriesUpdateOutcome {
    TimeseriesModifyStats stats;
    std::optional<BSONObj> upsertedId;  // {_id: <value>}
    std::optional<BSONObj> preImage;    // the first matched measurement
    std::optional<BSONObj> postImage;   // its updated form (or the upserted measurement)
};

struct TimeseriesUpdateOp {
    BSONObj query;
    const UpdateDriver* driver = nullptr;  // REQUIRES: not null
    BSONObj hint;
    bool multi = false;
    bool upsert = false;
    /** The statement's collation; nullopt: the collection's default. */
    std::optional<BSONObj> collation;
    /**
     * When set, called inside the statement's unit of work after it changed or upserted a
     * measurement, with its outcome (see TimeseriesDeleteOp::inUnitOfWork).
     */
    std::function<void(const TimeseriesUpdateOutcome&)> inUnitOfWork;
};

/** The collation a statement runs with: its own (a non-empty one), else the collection's. */
struct StatementCollation {
    std::shared_ptr<const CollatorInterface> collator;  // null: simple
    bool matchesDefault = true;
};

/** Errors: those of makeCollator() (BadValue 2, FailedToParse 9, TypeMismatch 14). */
StatementCollation resolveStatementCollation(const TimeseriesCollection& ts,
                                             const std::optional<BSONObj>& collation);

/**
 * The query split and the bucket hint of a statement. Errors: BadValue (filter parse error,
 * hint that does not convert).
 */
TimeseriesQuerySplit prepareTimeseriesModify(const TimeseriesCollection& ts, const BSONObj& query,
                                             bool collationMatchesDefault = true);

/**
 * Deletes the measurements matching `op.query` (the first one only when !multi).
 * Returns the counters; nMeasurementsDeleted is the `n` of the delete command. When
 * `firstDeleted` is given it receives the first deleted measurement (findAndModify).
 * Errors: BadValue (query, hint), TimeseriesBucketCompressionFailed (409, frozen bucket),
 * storage errors. Cost: reads every bucket passing the bucket filter.
 */
TimeseriesModifyStats deleteTimeseriesMeasurements(OperationContext* opCtx,
                                                   const TimeseriesCollection& ts,
                                                   const TimeseriesDeleteOp& op,
                                                   ModifyMode mode = ModifyMode::kWrite,
                                                   std::optional<BSONObj>* firstDeleted = nullptr);

/**
 * Applies `op.driver` to the matching measurements (the first one only when !multi), or
 * upserts. n = nMeasurementsMatched (+1 for an upsert), nModified = nMeasurementsUpdated.
 * Errors: BadValue (time field removed or not a date, upsert without a valid time, query),
 * FailedToParse (multi with a replacement), update errors of UpdateDriver,
 * BSONObjectTooLarge, TimeseriesBucketCompressionFailed (409).
 */
TimeseriesUpdateOutcome updateTimeseriesMeasurements(OperationContext* opCtx,
                                                     const TimeseriesCollection& ts,
                                                     const TimeseriesUpdateOp& op,
                                                     ModifyMode mode = ModifyMode::kWrite);

/**
 * The explain document of a statement's plan: {stage: "TS_MODIFY", opType, bucketFilter,
 * residualFilter, inputStage: <bucket scan>} or, for a multi delete without residual,
 * {stage: "DELETE", inputStage: <bucket scan>}. With `stats`, their counters are added.
 */
BSONObj explainTimeseriesModify(OperationContext* opCtx, const TimeseriesCollection& ts,
                                const BSONObj& query, const BSONObj& hint, bool isDelete,
                                bool multi, const std::optional<BSONObj>& collation,
                                const TimeseriesModifyStats* stats);

/**
 * The query over the buckets a statement with `query` and `collation` (nullopt: the
 * collection's) reads, flattened and in canonical order: explain's parsedQuery, as upstream
 * shows it.
 */
BSONObj timeseriesModifyBucketFilter(const TimeseriesCollection& ts, const BSONObj& query,
                                     const std::optional<BSONObj>& collation);

}  // namespace mongo::timeseries
