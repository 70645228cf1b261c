// $_internalUnpackBucket: the first stage of a time-series view's pipeline. It
// reads bucket documents from the buckets collection and returns the
// measurements they hold (BucketUnpacker), optionally filtered by `eventFilter`
// (skipped for buckets matching `wholeBucketFilter`). The spec fields and parse
// errors are those of spec §5.2. optimizeAt() applies the rewrites of spec §5.3-5.4
// (helpers in bucket_level_predicates.h and timeseries_rewrites.h): $match split into
// bucket predicates + eventFilter, $sort on meta and $limit moved before unpacking,
// $sort on time turned into $_internalBoundedSort, $group on meta with $min/$max/count
// answered from the bucket control fields (this stage then removed), field pruning,
// $addFields/$set/$project fields computed from meta only evaluated once per bucket (a
// bucket-level $addFields + computedMetaProjFields), a top-level inclusion/exclusion
// $project absorbed into include/exclude, a $group monotonic in time after the bounded sort
// made $_internalStreamingGroup, and $match conjuncts on those fields
// run on the buckets. A $sample right after it is done by this stage (ARHASH over random
// buckets when the sample is small, timeseries_sample.h), or, when the find layer plans it
// (TRIAL, timeseries_sample_stages.h), returned from the $cursor unchanged.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "mongo/db/matcher/expression.h"
#include "mongo/db/pipeline/bucket_row_filter.h"
#include "mongo/db/pipeline/bucket_unpacker.h"
#include "mongo/db/pipeline/document_source.h"

namespace mongo {

class DocumentSourceInternalUnpackBucket final : public DocumentSource {
public:
    static constexpr StringData kStageName = "$_internalUnpackBucket";
    static constexpr StringData kStageNameExternal = "$_unpackBucket";

    /** Parses either form (external: `$_unpackBucket`). Throws the 5346500-range errors. */
    static StagePtr createFromBson(const BSONElement& spec,
                                   const std::shared_ptr<ExpressionContext>& expCtx);

    DocumentSourceInternalUnpackBucket(std::shared_ptr<ExpressionContext> expCtx, BucketSpec spec,
                                       int bucketMaxSpanSeconds);

    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return "$_internalUnpackBucket";
    }
    void serialize(BSONArrayBuilder* out) const override;
    StageConstraints constraints() const override;
    /**
     * Absorbs a following $match into `eventFilter`, derives `wholeBucketFilter`, and
     * puts a bucket-level $match (bucket_level_predicates.h) in front of this stage,
     * where the find layer can serve it from the buckets collection's indexes.
     */
    StageList::iterator optimizeAt(StageList::iterator it, StageList* container) override;
    void appendExplainStats(BSONObjBuilder* b) const override;

    int bucketMaxSpanSeconds() const {
        return _bucketMaxSpanSeconds;
    }
    const BucketSpec& bucketSpec() const {
        return _unpacker.spec();
    }
    /**
     * Block access for a consumer that reads whole buckets instead of getNext()
     * (group_over_buckets.h): the next bucket of the source, counted as examined; nullopt at
     * the end. The caller unpacks it and applies the stage's filters itself.
     */
    std::optional<BSONObj> nextBucketObjForBlockRead() {
        std::optional<BSONObj> bucket = _source ? _source->getNext() : std::nullopt;
        if (bucket)
            ++_bucketsExamined;
        return bucket;
    }
    /** The size of the $sample this stage absorbed (nullopt: none). */
    std::optional<long long> sampleSize() const {
        return _sampleSize;
    }
    /**
     * The find layer takes the sample (timeseries_sample_stages.h): getNext() returns its
     * input unchanged and explain's nBucketsUnpacked is `bucketsUnpacked()`.
     */
    void setSampledByPlan(std::function<long long()> bucketsUnpacked) {
        _planSampleBuckets = std::move(bucketsUnpacked);
    }
    /** The bucket the last returned measurement came from (empty before the first). */
    const BSONObj& currentBucket() const {
        return _unpacker.bucket();
    }

private:
    /** The next unpacked measurement passing the eventFilter (the non-sample path). */
    std::optional<BSONObj> _nextMeasurement();
    /** A $sample right after this stage -> sampled here (timeseries_sample.h). True when taken. */
    bool _absorbSample(StageList::iterator it, StageList::iterator next, StageList* container);
    /** Fills _sampleOut: ARHASH over random buckets when small enough, else a reservoir. */
    void _runSample();
    /** Restricts unpacking to the fields the stages after `next` need (once). */
    void _pruneUnusedFields(StageList::iterator next, StageList* container);
    /** Absorbs the $match at `next` (see optimizeAt). */
    void _absorbMatch(StageList::iterator it, StageList::iterator next, StageList* container);
    /**
     * $addFields/$set/$project computing fields from meta only -> a bucket-level $addFields
     * before this stage and computedMetaProjFields (spec §5.4). True when applied.
     */
    bool _pushDownComputedMetaProjection(StageList::iterator it, StageList::iterator next,
                                         StageList* container);
    /**
     * An inclusion/exclusion $project (or $unset) of top-level fields at `next` -> this
     * stage's include/exclude list; the $project is removed. True when applied.
     */
    bool _internalizeProject(StageList::iterator next, StageList* container);
    /** $sort on meta only -> bucket-level $sort before this stage. True when moved. */
    bool _moveMetaSort(StageList::iterator it, StageList::iterator next, StageList* container);
    /** $sort on [meta...,] time -> bucket $sort + $_internalBoundedSort. */
    void _useBoundedSort(StageList::iterator it, StageList::iterator next, StageList* container);
    /**
     * A $group after the bounded sort at `boundedSort` (on the time key only) whose _id is
     * monotonic in time -> $_internalStreamingGroup (spec §5.4).
     */
    void _useStreamingGroup(StageList::iterator boundedSort, StageList* container);
    /**
     * $group answered from control fields: replaces this stage and the $group; sets
     * `*resume` to the first replacement stage. True when applied (`this` is destroyed).
     */
    bool _rewriteGroup(StageList::iterator it, StageList::iterator next, StageList* container,
                       StageList::iterator* resume);
    /**
     * Last-point: [$sort on meta + time,] $group with $first/$last/$top/$bottom per series ->
     * bucket-level stages (timeseries_lastpoint_rewrite.h) before this stage. True when applied.
     */
    bool _rewriteLastPoint(StageList::iterator it, StageList::iterator next, StageList* container);
    /** A copy of a following $limit before this stage (no measurement filter). */
    void _copyLimit(StageList::iterator it, StageList::iterator next, StageList* container);
    /** Where a bucket-level stage of kind "match" goes (before any bucket $sort). */
    StageList::iterator _bucketMatchPosition(StageList::iterator it, StageList* container);

    BucketUnpacker _unpacker;
    bool _fieldsPruned = false;
    int _bucketMaxSpanSeconds;
    bool _assumeNoMixedSchemaData = false;
    bool _usesExtendedRange = false;
    bool _fixedBuckets = false;
    bool _includeMinTime = false;
    bool _includeMaxTime = false;
    BSONObj _eventFilterSpec;
    BSONObj _wholeBucketFilterSpec;
    std::unique_ptr<MatchExpression> _eventFilter;
    std::unique_ptr<MatchExpression> _wholeBucketFilter;
    bool _bucketMatchesWhole = false;
    // The eventFilter's comparisons that block-decoded columns answer (bucket_row_filter.h):
    // the rows of each bucket that may match, so that the others are never built.
    std::optional<BucketRowFilter> _rowFilter;  // made at the first measurement
    std::vector<uint64_t> _rowMask;
    bool _useRowMask = false;
    const DocumentSource* _bucketMatch = nullptr;  // the $match this stage put before itself
    const DocumentSource* _bucketSort = nullptr;   // the $sort this stage put before itself
    std::vector<const DocumentSource*> _bucketProjections;  // pushed computed meta $addFields
    BSONObj _predicateSpec;              // the eventFilter parts mapped to bucket-level predicates
    bool _predicatesPartial = false;     // some eventFilter part reads a computed meta field
    bool _eventFilterRedundant = false;  // the bucket $match is exact (meta-only filter)
    std::optional<long long> _sampleSize;           // an absorbed $sample's size
    std::function<long long()> _planSampleBuckets;  // set: the find layer samples
    bool _sampled = false;
    std::vector<BSONObj> _sampleOut;
    size_t _samplePos = 0;
    long long _bucketsExamined = 0;
    long long _nReturned = 0;  // measurements returned by getNext() (explain)
};

}  // namespace mongo
