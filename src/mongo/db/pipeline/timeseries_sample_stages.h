// The find-layer plan of a small $sample over a time-series view (spec §5.4 "$sample"), with
// upstream's explain names. When the unpack stage absorbed a $sample whose size is at most 1%
// of numBuckets x bucketMaxCount (timeseries_sample.h), the $cursor runs
//
//   TRIAL ── ARHASH: SAMPLE_FROM_TIMESERIES_BUCKET ── MULTI_ITERATOR (random buckets)
//        └─ backup: UNPACK_BUCKET ── COLLSCAN, sampled by a reservoir
//
// The trial runs ARHASH for a bounded number of bucket reads when the plan is built; if
// enough of them yield a measurement (the buckets are full enough) ARHASH wins and the plan
// becomes TRIAL ── OR(QUEUED_DATA (the trial's results), SAMPLE_FROM_TIMESERIES_BUCKET ...)
// (just QUEUED_DATA when the trial produced the whole sample); otherwise TRIAL ── UNPACK_BUCKET
// ── COLLSCAN. Either way the executor returns the sampled measurements and
// $_internalUnpackBucket passes them through (explain keeps its `sample`/`bucketMaxCount`).
#pragma once

#include <memory>
#include <random>
#include <set>
#include <utility>

#include "mongo/db/exec/plan_stage.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/pipeline/bucket_unpacker.h"
#include "mongo/db/pipeline/pipeline.h"

namespace mongo {

class Collection;

/** MULTI_ITERATOR: random existing buckets (uniform RecordId between the first and last). */
class RandomBucketStage : public PlanStage {
public:
    RandomBucketStage(std::shared_ptr<Collection> coll, std::mt19937_64* gen);
    /** A random bucket; nullopt after too many absent ids in a row (a sparse id range). */
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "MULTI_ITERATOR";
    }

private:
    std::shared_ptr<Collection> _coll;
    std::mt19937_64* _gen;
    std::optional<std::pair<std::int64_t, std::int64_t>> _range;
};

/**
 * SAMPLE_FROM_TIMESERIES_BUCKET: ARHASH. For each random bucket a random slot in
 * [0, bucketMaxCount); an empty slot discards the bucket, a slot already returned is a
 * dropped duplicate. Returns `size` distinct measurements, then EOF; EOF early with failed()
 * when the reads pass a bound (1000 + 200 x size) or its input ends.
 */
class SampleFromTimeseriesBucketStage : public PlanStage {
public:
    SampleFromTimeseriesBucketStage(std::unique_ptr<PlanStage> child, BucketSpec spec,
                                    long long size, long long bucketMaxCount, std::mt19937_64* gen);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "SAMPLE_FROM_TIMESERIES_BUCKET";
    }
    /** nBucketsUnpacked, nBucketsDiscarded, dupsTested, dupsDropped. */
    void appendExecutionStats(BSONObjBuilder* bob) const override;

    bool failed() const {
        return _failed;
    }
    long long bucketsRead() const {
        return _bucketsRead;
    }
    /** (bucket RecordId, measurement index) of every measurement returned. */
    const std::set<std::pair<std::int64_t, long long>>& taken() const {
        return _taken;
    }

private:
    BucketUnpacker _unpacker;
    long long _size;
    long long _bucketMaxCount;
    std::mt19937_64* _gen;
    std::set<std::pair<std::int64_t, long long>> _taken;
    bool _failed = false;
    long long _bucketsRead = 0;
    long long _discarded = 0;
    long long _dupsTested = 0;
    long long _dupsDropped = 0;
};

/** UNPACK_BUCKET: the measurements of its child's buckets, in order. */
class UnpackBucketStage : public PlanStage {
public:
    UnpackBucketStage(std::unique_ptr<PlanStage> child, BucketSpec spec);
    /** A measurement; `id` is its bucket's RecordId (index(): its position in the bucket). */
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "UNPACK_BUCKET";
    }
    void appendExecutionStats(BSONObjBuilder* bob) const override {
        bob->appendNumber("nBucketsUnpacked", _bucketsUnpacked);
    }
    long long index() const {
        return _index;
    }
    long long bucketsUnpacked() const {
        return _bucketsUnpacked;
    }

private:
    BucketUnpacker _unpacker;
    RecordId _bucketId;
    long long _index = -1;
    long long _bucketsUnpacked = 0;
};

/** TRIAL: see the file comment. Runs the trial in its constructor (like upstream's planning). */
class TimeseriesSampleTrialStage : public PlanStage {
public:
    TimeseriesSampleTrialStage(OperationContext* opCtx, std::shared_ptr<Collection> coll,
                               BucketSpec spec, long long size, long long bucketMaxCount);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "TRIAL";
    }
    bool arhashWon() const {
        return _arhash != nullptr;
    }
    /** Buckets read so far by whichever plan ran (trial included). */
    long long bucketsUnpacked() const;

private:
    /** The backup plan's output: a reservoir sample of the measurements not yet returned. */
    void _runBackup(OperationContext* opCtx);

    std::shared_ptr<Collection> _coll;
    BucketSpec _spec;
    long long _size;
    std::mt19937_64 _gen;
    SampleFromTimeseriesBucketStage* _arhash = nullptr;            // set when ARHASH won
    std::unique_ptr<SampleFromTimeseriesBucketStage> _arhashDone;  // the trial finished it
    long long _trialBuckets = 0;                                   // read by a losing trial
    UnpackBucketStage* _unpack = nullptr;                          // the backup plan, once built
    long long _scanned = 0;                                        // backup-plan measurements read
    std::vector<WorkingMember> _backupOut;
    size_t _backupPos = 0;
    bool _backupRan = false;
    long long _returned = 0;
};

/**
 * When `pipeline` starts with a $_internalUnpackBucket that absorbed a $sample small enough
 * for ARHASH over `coll` (and the find layer has nothing else to do), returns the TRIAL
 * executor and makes the unpack stage pass its output through; nullptr otherwise.
 */
std::unique_ptr<PlanExecutor> planTimeseriesSample(OperationContext* opCtx,
                                                   const std::shared_ptr<Collection>& coll,
                                                   Pipeline* pipeline,
                                                   const FindPlanParams& params);

}  // namespace mongo
