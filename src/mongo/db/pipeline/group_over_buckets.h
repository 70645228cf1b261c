// GroupOverBuckets: the block path of a $group that directly follows
// $_internalUnpackBucket. Instead of turning every measurement into a document and
// evaluating the group's expressions on it, it reads each bucket's decoded columns
// (BucketUnpacker::column) and folds whole runs of rows into the groups:
//
//   _id:  constants, paths into the meta field ("$tags.hostname"), the time field, and
//         {$dateTrunc: {date: "$<time>", unit: millisecond|second|minute|hour|day,
//         binSize: <const>, timezone: "UTC"|"GMT" (or absent)}}, in objects/arrays;
//   accumulators: $sum/$avg/$min/$max of a top-level measurement field "$f",
//         $sum of a constant, $count, $top/$bottom with sortBy {<time>: 1|-1} and an
//         output of top-level fields ("$f" or ["$f", ...]).
//   filter: buckets the unpack stage keeps whole; and, when its eventFilter only compares
//         the time field with dates, the kept rows of the other buckets.
//
// The meta part of the key is read once per bucket, the time part is a floor division
// per row (recomputed only when a row leaves the current bin). When all of a bucket's rows go
// to one group, a $min/$max of a field other than time whose control.min/max is a number or a
// date takes that bound (exact: the write path computes it from the rows, as the "$group on
// meta" rewrite also trusts) and its column is not decoded. A bucket the unpack
// stage's eventFilter does not keep whole (unless the filter is such a time range), or whose
// columns are not single-type scalar columns (v1 buckets, strings, mixed int32/int64, objects,
// decimals...), goes through the generic per-measurement path into the same groups. Results, types,
// group order (first seen) and the memory error (292) equal those of the generic $group
// (document_source_group.h); with allowDiskUse the groups stay in memory instead of spilling.
//
// Two threads: when the key reads the meta field (from its template) and there is no
// eventFilter and no $top/$bottom, processBuckets() splits the buckets by the meta part of
// their key between the calling thread and one helper thread (internalQueryBlockGroupThreads;
// two meta parts in three go to the helper, as the caller also reads the buckets from storage),
// once more than a few buckets have come. Keys equal under ValueEq have equal meta parts and
// so one thread: each group is fed by one thread in scan order, and the merged groups keep the
// first-seen order, so results are those of one thread, bit for bit. The helper runs the block
// path only; at the first bucket it cannot (the per-measurement path, an _id the template does
// not give) it stops and the calling thread carries on with its share in order.
// Thread safety: one owner (the helper thread is internal and joined before processBuckets
// returns or throws).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/bucket_unpacker.h"
#include "mongo/db/pipeline/expression_context.h"

namespace mongo {

class DocumentSourceInternalUnpackBucket;
class MatchExpression;

class GroupOverBuckets {
public:
    /** One output group. The accumulators' getValue() are the group's results. */
    struct Group {
        Value key;
        std::vector<std::unique_ptr<Accumulator>> accs;
    };

    /**
     * The block plan of $group `groupSpec` (the stage's argument object) over measurements
     * unpacked with `spec`, or nullptr when the spec is not eligible (file comment). Never
     * throws for an ineligible spec; a spec the generic $group rejects may throw its codes.
     */
    static std::unique_ptr<GroupOverBuckets> make(std::shared_ptr<ExpressionContext> expCtx,
                                                  const BSONObj& groupSpec, const BucketSpec& spec);
    /**
     * As above for the stage `unpack`; nullptr when that stage computes fields from meta
     * (computedMetaProjFields). With an eventFilter, buckets that match the stage's
     * wholeBucketFilter take the block path, the others the per-measurement path with the
     * filter applied, as the stage itself does.
     */
    static std::unique_ptr<GroupOverBuckets> make(std::shared_ptr<ExpressionContext> expCtx,
                                                  const BSONObj& groupSpec,
                                                  const DocumentSourceInternalUnpackBucket& unpack);

    ~GroupOverBuckets();

    /**
     * Folds the bucket `unpacker` was just reset() on into the groups. Throws
     * QueryExceededMemoryLimitNoDiskUseAllowed (292) past the memory limit without
     * allowDiskUse, and what the generic path throws for the bucket's measurements.
     */
    void processBucket(BucketUnpacker* unpacker);
    /** Reads every remaining bucket of `unpack` (nextBucketObjForBlockRead) and folds it in. */
    void processAll(DocumentSourceInternalUnpackBucket* unpack);
    /**
     * Folds in every bucket `next` returns (nullopt: the end), on two threads when the plan
     * allows (file comment) and more than `parallelAfter` buckets come. Throws what
     * processBucket() throws, from either thread. Afterwards only releaseGroups() may be
     * called. O(buckets); the helper holds at most a few dozen buckets queued.
     */
    void processBuckets(const std::function<std::optional<BSONObj>()>& next,
                        long long parallelAfter = kParallelAfterBuckets);
    /** The buckets read on one thread before the helper starts (its start is not free). */
    static constexpr long long kParallelAfterBuckets = 64;
    /** The groups in first-seen order; the object is spent afterwards. */
    std::vector<Group> releaseGroups();

    /** Buckets folded by the block path / by the per-measurement path (tests, bench). */
    long long blockBuckets() const {
        return _blockBuckets;
    }
    long long fallbackBuckets() const {
        return _fallbackBuckets;
    }

    /** Buckets folded by the helper thread (tests, bench). */
    long long helperBuckets() const {
        return _helperBuckets;
    }
    /** $min/$max inputs read from a bucket's control.min/max instead of its column. */
    long long controlBounds() const {
        return _controlBounds;
    }

    struct Plan;  // the analysed spec (group_over_buckets.cpp)

private:
    struct Helper;  // the second thread of processBuckets() (group_over_buckets.cpp)

    GroupOverBuckets(std::shared_ptr<ExpressionContext> expCtx, std::shared_ptr<Plan> plan);

    /** True when processBuckets() may split the buckets between two threads. */
    bool canSplit() const;
    /** The block path on the helper thread: false (nothing folded) when it cannot. */
    bool processOnHelper(BucketUnpacker* unpacker);
    /** Merges `other`'s groups (disjoint keys) into these, by first-seen order. */
    void mergeGroups(GroupOverBuckets* other);

    /** The per-measurement path for the current bucket, keeping what `filter` matches. */
    void processGeneric(BucketUnpacker* unpacker, const MatchExpression* filter);
    /**
     * False when the bucket needs the per-measurement path. `timeFiltered`: the bucket's rows
     * are kept by the plan's time range (Plan::timeRangeFilter), not all of them.
     */
    bool processBlock(BucketUnpacker* unpacker, bool timeFiltered);
    /**
     * Splits the rows [0, n) of the current bucket into `_runs` of one group each; with
     * `filtered`, rows outside the plan's time range form runs of no group (kSkipRows).
     */
    void buildRuns(const ScalarColumn* time, const BSONElement& meta, size_t n, bool filtered);
    /**
     * When the bucket's control.min and control.max times fall in one time bin of the key,
     * every row does: the bin's [start, end) and control.max's time. Its time column is then
     * not needed.
     */
    std::optional<std::pair<int64_t, int64_t>> singleTimeBin(const BSONObj& bucket) const;
    /** Feeds accumulator `a` ($top/$bottom on time) the chosen row of each of `_runs`. */
    void foldTopBottom(BucketUnpacker* unpacker, size_t a, const ScalarColumn& time);
    /** The group of `key` (evaluated, owned or not), created if new. */
    size_t groupFor(const Value& key);
    /** The group of the rows of the current bucket with meta id `metaId` and time `t`. */
    size_t groupForRow(uint32_t metaId, int64_t bin, int64_t t, const BSONElement& meta);
    uint32_t metaIdOf(const BSONElement& meta);
    void chargeMemory(size_t bytes);

    std::shared_ptr<ExpressionContext> _expCtx;
    std::shared_ptr<Plan> _plan;  // shared with the helper's instance, which only reads it
    std::vector<Group> _groups;
    // Per group, the scan position of the bucket that made it (processBuckets' merge order).
    std::vector<long long> _firstSeen;
    long long _bucketSeq = 0;  // of the bucket being folded
    bool _onHelper = false;    // groupForRow may not evaluate idExpr (Variables are not shared)
    // The groups by key: their positions in _groups, with each key's hash kept in _hashes,
    // so that growing the table moves integers, not Values.
    struct KeyProbe {
        const Value* key;
        size_t hash;
    };
    struct GroupIdHash {
        using is_transparent = void;
        const std::vector<size_t>* hashes;
        size_t operator()(uint32_t i) const {
            return (*hashes)[i];
        }
        size_t operator()(const KeyProbe& p) const {
            return p.hash;
        }
    };
    struct GroupIdEq {
        using is_transparent = void;
        const std::vector<Group>* groups;
        bool operator()(uint32_t a, uint32_t b) const {
            return a == b;
        }
        bool operator()(const KeyProbe& p, uint32_t i) const {
            return ValueEq{}(*p.key, (*groups)[i].key);
        }
        bool operator()(uint32_t i, const KeyProbe& p) const {
            return (*this)(p, i);
        }
    };
    std::vector<size_t> _hashes;  // of _groups[i].key
    absl::flat_hash_set<uint32_t, GroupIdHash, GroupIdEq> _index{0, GroupIdHash{&_hashes},
                                                                 GroupIdEq{&_groups}};
    absl::flat_hash_map<std::string, uint32_t> _metaIds;  // the meta element's bytes
    std::vector<BucketUnpacker::ColumnAccess> _cols;      // processBlock()'s columns
    std::vector<BSONElement> _bounds;  // processBlock()'s control bounds (EOO: the column)
    absl::flat_hash_map<std::pair<uint32_t, int64_t>, uint32_t> _rowGroups;  // (meta, bin)
    std::vector<std::pair<uint32_t, uint32_t>> _runs;  // (end row, group) of one bucket
    // Group memory, counted against the limit by both threads.
    std::shared_ptr<std::atomic<size_t>> _mem = std::make_shared<std::atomic<size_t>>(0);
    long long _blockBuckets = 0;
    long long _fallbackBuckets = 0;
    long long _helperBuckets = 0;
    long long _controlBounds = 0;
};

}  // namespace mongo
