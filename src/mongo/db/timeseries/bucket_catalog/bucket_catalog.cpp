#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"

#include <algorithm>
#include <set>

#include "mongo/db/timeseries/bucket_catalog/reopening.h"
#include "mongo/db/timeseries/metadata.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/db/timeseries/timeseries_write_util.h"
#include "mongo/idl/server_parameters_gen.h"

namespace mongo::timeseries::bucket_catalog {
namespace {

constexpr int64_t kArchivedBucketMemory = 64;
constexpr int kBucketIdCollisionCode = 6130900;

std::mutex gFrozenMutex;
std::set<BucketId> gFrozen;

Stripe& stripeFor(BucketCatalog& catalog, std::size_t hash) {
    return *catalog.stripes[hash % catalog.stripes.size()];
}

ExecutionStatsController statsFor(BucketCatalog& catalog, const std::string& uuid) {
    std::lock_guard lk(catalog.statsMutex);
    auto& s = catalog.collectionStats[uuid];
    if (!s)
        s = std::make_shared<ExecutionStats>();
    return ExecutionStatsController(s, &catalog.globalStats);
}

void resolve(WriteBatch& batch, Status status) {
    try {
        batch.promise.set_value(std::move(status));
    } catch (const std::future_error&) {
        // Already resolved (abort after a failed prepare).
    }
}

int numDigits(uint32_t n) {
    int d = 1;
    while (n >= 10) {
        n /= 10;
        ++d;
    }
    return d;
}

/**
 * The top-level layout of a measurement (metaField excepted), read in one pass: a hash of
 * its field names and shape classes in order, whether it is flat (no object or array
 * field), and its value bytes. Consecutive measurements of a series nearly always share
 * their layout; a bucket remembers the last flat one it accepted, and a measurement with
 * the same layout has no new field and the same shapes, so the schema and new-field work
 * is skipped for it.
 */
struct Layout {
    uint64_t signature = 0;
    bool flat = true;
    int64_t valueBytes = 0;  // sum of (value size + 2)
    int64_t fields = 0;
};

Layout layoutOf(const BSONObj& doc, const std::optional<std::string>& metaField) {
    Layout l;
    uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (auto&& e : doc) {
        StringData name = e.fieldNameStringData();
        if (metaField && name == *metaField)
            continue;
        for (char c : name)
            h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
        const auto type = e.type();
        if (type == BSONType::kObject || type == BSONType::kArray)
            l.flat = false;
        h = (h ^ (0x100u + static_cast<unsigned>(canonicalizeBSONType(type)))) * 1099511628211ULL;
        l.valueBytes += e.valuesize() + 2;
        ++l.fields;
    }
    l.signature = h | 1;  // never 0 (0 = no layout remembered)
    return l;
}

/** Uncompressed-size estimate of adding `doc` to `bucket` (§3.5). */
int64_t sizeToBeAdded(const Bucket& bucket, const BSONObj& doc,
                      const std::optional<std::string>& metaField) {
    int64_t size = 0;
    const int digits = numDigits(bucket.numMeasurements);
    for (auto&& e : doc) {
        StringData name = e.fieldNameStringData();
        if (metaField && name == *metaField)
            continue;
        size += e.valuesize() + 2 + digits;
        if (!bucket.fieldNames.count(name))
            size += 3 * (static_cast<int64_t>(name.size()) + 1) + 2 * e.valuesize();
    }
    return size;
}

void adjustMemory(BucketCatalog& catalog, int64_t delta) {
    catalog.memoryUsage.fetch_add(delta, std::memory_order_relaxed);
}

void markIdle(Stripe& stripe, WithLock, Bucket& bucket) {
    if (bucket.idlePosition || bucket.hasUncommitted())
        return;
    stripe.idleBuckets.push_front(&bucket);
    bucket.idlePosition = stripe.idleBuckets.begin();
}

void markActive(Stripe& stripe, WithLock, Bucket& bucket) {
    if (bucket.idlePosition) {
        stripe.idleBuckets.erase(*bucket.idlePosition);
        bucket.idlePosition.reset();
    }
}

enum class RemovalMode { kClose, kArchive };

/** Forgets `bucket` as a rolled-over bucket awaiting its commits, if it is one. */
void forgetRolledOver(Stripe& stripe, WithLock, Bucket& bucket) {
    auto [from, to] = stripe.rolledOverByKey.equal_range(bucket.key);
    for (auto it = from; it != to; ++it) {
        if (it->second == &bucket) {
            stripe.rolledOverByKey.erase(it);
            return;
        }
    }
}

void removeBucket(BucketCatalog& catalog, Stripe& stripe, WithLock lk, Bucket& bucket,
                  RemovalMode mode) {
    markActive(stripe, lk, bucket);
    forgetRolledOver(stripe, lk, bucket);
    if (auto it = stripe.openBucketsByKey.find(bucket.key);
        it != stripe.openBucketsByKey.end() && it->second == &bucket)
        stripe.openBucketsByKey.erase(it);
    if (mode == RemovalMode::kArchive && bucket.existsOnDisk) {
        auto& byTime = stripe.archived[{bucket.key.collectionUUID, bucket.key.hash}];
        if (byTime
                .emplace(bucket.minTime,
                         ArchivedBucket{bucket.bucketId.oid, bucket.minTime, bucket.disordered})
                .second) {
            ++stripe.numArchived;
            adjustMemory(catalog, kArchivedBucketMemory);
        }
    }
    if (bucket.activeBatch)
        resolve(*bucket.activeBatch,
                Status(ErrorCodes::TimeseriesBucketCleared, "time-series bucket was cleared"));
    adjustMemory(catalog, -bucket.memoryUsage());
    catalog.numOpenBuckets.fetch_sub(1);
    stripe.openBucketsById.erase(bucket.bucketId);
}

/** Rolls `bucket` over; removal waits for its uncommitted batches when it has any. */
void rollover(BucketCatalog& catalog, Stripe& stripe, WithLock lk, Bucket& bucket,
              RolloverAction action) {
    if (bucket.hasUncommitted()) {
        bucket.rolloverAction = action;
        if (auto it = stripe.openBucketsByKey.find(bucket.key);
            it != stripe.openBucketsByKey.end() && it->second == &bucket)
            stripe.openBucketsByKey.erase(it);
        if (action == RolloverAction::kArchive || action == RolloverAction::kSoftClose)
            stripe.rolledOverByKey.emplace(bucket.key, &bucket);
        return;
    }
    removeBucket(catalog, stripe, lk, bucket,
                 action == RolloverAction::kArchive ? RemovalMode::kArchive : RemovalMode::kClose);
}

void recordRollover(const ExecutionStatsController& stats, RolloverReason reason) {
    switch (reason) {
        case RolloverReason::kNone:
            return;
        case RolloverReason::kTimeForward:
            return stats.inc(&ExecutionStats::numBucketsClosedDueToTimeForward);
        case RolloverReason::kTimeBackward:
            return stats.inc(&ExecutionStats::numBucketsArchivedDueToTimeBackward);
        case RolloverReason::kCount:
            return stats.inc(&ExecutionStats::numBucketsClosedDueToCount);
        case RolloverReason::kSchemaChange:
            return stats.inc(&ExecutionStats::numBucketsClosedDueToSchemaChange);
        case RolloverReason::kCachePressure:
            return stats.inc(&ExecutionStats::numBucketsClosedDueToCachePressure);
        case RolloverReason::kSize:
            return stats.inc(&ExecutionStats::numBucketsClosedDueToSize);
    }
}

/** Archives idle buckets, then drops archived ones, while memory is above the threshold. */
void expireIdleBuckets(BucketCatalog& catalog, Stripe& stripe, WithLock lk,
                       const ExecutionStatsController& stats, const BucketLimits& limits) {
    int expired = 0;
    auto above = [&] {
        return catalog.memoryUsage.load() > limits.idleExpiryMemoryThresholdBytes &&
               expired <= limits.idleExpiryMaxCountPerAttempt;
    };
    while (above() && !stripe.idleBuckets.empty()) {
        Bucket* b = stripe.idleBuckets.back();
        removeBucket(catalog, stripe, lk, *b, RemovalMode::kArchive);
        stats.inc(&ExecutionStats::numBucketsArchivedDueToMemoryThreshold);
        ++expired;
    }
    while (above() && stripe.numArchived > 0) {
        auto it = stripe.archived.begin();
        it->second.erase(it->second.begin());
        if (it->second.empty())
            stripe.archived.erase(it);
        --stripe.numArchived;
        adjustMemory(catalog, -kArchivedBucketMemory);
        stats.inc(&ExecutionStats::numBucketsClosedDueToMemoryThreshold);
        ++expired;
    }
}

StatusWith<Bucket*> installBucket(BucketCatalog& catalog, Stripe& stripe, WithLock lk,
                                  std::unique_ptr<Bucket> bucket) {
    Bucket* raw = bucket.get();
    adjustMemory(catalog, raw->memoryUsage());
    catalog.numOpenBuckets.fetch_add(1);
    stripe.openBucketsByKey[raw->key] = raw;
    stripe.openBucketsById.emplace(raw->bucketId, std::move(bucket));
    return raw;
}

using RolledOut = RolledOutBucket;

/**
 * The start of a new bucket for a measurement at `time` of the series `key`: the time rounded
 * down (§3.5), except when the catalog knows buckets of the series (archived, or rolled over
 * with a commit running) on both sides of `time`, none covering it. The measurement then
 * arrived after others of its series that are later in time, as happens with concurrent
 * writers, and more such may follow: the bucket starts as early as covers the gap up to the
 * later bucket without overlapping the earlier one (rounded down; never after `time`), so that
 * one bucket takes them all instead of one new bucket per step back.
 */
Date_t newBucketStart(const Stripe& stripe, WithLock, const CollectionInfo& coll,
                      const BucketKey& key, Date_t time, const RolledOut& rolledOut,
                      bool* disordered) {
    const Date_t rounded = roundTimestampToGranularity(time, coll.options);
    const std::chrono::milliseconds span(getMaxSpanSeconds(coll.options) * 1000LL);
    // Rolling forward out of a bucket of a series whose measurements arrive out of order
    // (concurrent writers): the next bucket starts where that one ends, so that the earlier
    // measurements still on their way find it, and the series' buckets keep their alignment
    // instead of drifting by the arrival order at each boundary. An in-order series gets
    // the rounded time, as upstream.
    if (rolledOut.valid && rolledOut.forward && rolledOut.disordered &&
        rolledOut.minTime + span <= time && time < rolledOut.minTime + span + span)
        return std::min(rounded,
                        roundTimestampToGranularity(rolledOut.minTime + span, coll.options));
    std::optional<Date_t> prev, next;
    bool prevCommitting = false;
    bool prevDisordered = false;
    auto consider = [&](Date_t minTime, bool committing, bool isDisordered) {
        if (minTime <= time) {
            if (!prev || minTime > *prev) {
                prev = minTime;
                prevCommitting = committing;
                prevDisordered = isDisordered;
            }
        } else if (!next || minTime < *next) {
            next = minTime;
        }
    };
    if (auto it = stripe.archived.find({key.collectionUUID, key.hash}); it != stripe.archived.end())
        for (const auto& [minTime, archived] : it->second)
            consider(minTime, false, archived.disordered);
    auto [from, to] = stripe.rolledOverByKey.equal_range(key);
    for (auto it = from; it != to; ++it)
        consider(it->second->minTime, true, it->second->disordered);
    *disordered = prevDisordered;
    if (!next) {
        // Time forward while the earlier bucket's commit still runs: another writer is
        // inserting this series at the same moment, and its measurements may be older than
        // this one. The bucket then continues the earlier bucket's spans (rounded down),
        // so that those measurements find it instead of opening a bucket per writer. So
        // also after a bucket of a disordered series (archived meanwhile, e.g. by a late
        // measurement of the span before).
        if (prev && (prevCommitting || prevDisordered) && *prev + span <= time) {
            const auto spans = (time - *prev).count() / span.count();
            Date_t start = *prev + std::chrono::milliseconds(spans * span.count());
            return std::min(rounded, roundTimestampToGranularity(start, coll.options));
        }
        return rounded;
    }
    if (!prev)
        return rounded;
    const Date_t start = std::max(*next - span, *prev + span);
    if (start > time || start >= rounded)
        return rounded;
    return roundTimestampToGranularity(start, coll.options);
}

/**
 * An _id for a bucket of `coll` starting at `start` that no open bucket has; none after
 * timeseriesInsertMaxRetriesOnDuplicates attempts.
 */
std::optional<BucketId> unusedBucketId(const Stripe& stripe, WithLock, const CollectionInfo& coll,
                                       Date_t start) {
    const int maxRetries = std::max(1, gTimeseriesInsertMaxRetriesOnDuplicates.load());
    for (int attempt = 0; attempt < maxRetries; ++attempt) {
        BucketId id{coll.uuid, generateBucketOID(start)};
        if (!stripe.openBucketsById.count(id))
            return id;
        resetBucketOIDCounter();
    }
    return std::nullopt;
}

/** Opens a bucket of `key` starting at `start`; `disordered`: Bucket::disordered. */
StatusWith<Bucket*> allocateBucketAt(BucketCatalog& catalog, Stripe& stripe, WithLock lk,
                                     const CollectionInfo& coll, const BucketKey& key, Date_t start,
                                     bool disordered, const ExecutionStatsController& stats,
                                     const BucketLimits& limits) {
    auto id = unusedBucketId(stripe, lk, coll, start);
    if (!id)
        return Status(static_cast<ErrorCodes::Error>(kBucketIdCollisionCode),
                      "Unable to insert documents due to internal OID generation collision. "
                      "Increase the value of server parameter "
                      "'timeseriesInsertMaxRetriesOnDuplicates' and try again");
    auto bucket = std::make_unique<Bucket>(*id, key, start, coll.collator);
    bucket->size = key.metadata.objsize();
    bucket->disordered = disordered;
    auto installed = installBucket(catalog, stripe, lk, std::move(bucket));
    expireIdleBuckets(catalog, stripe, lk, stats, limits);
    return installed;
}

/** True when the catalog knows a bucket of `key` other than its open one. */
bool knowsOtherBuckets(const Stripe& stripe, WithLock, const BucketKey& key) {
    auto it = stripe.archived.find({key.collectionUUID, key.hash});
    return (it != stripe.archived.end() && !it->second.empty()) ||
           stripe.rolledOverByKey.count(key) > 0;
}

StatusWith<Bucket*> allocateBucket(BucketCatalog& catalog, Stripe& stripe, WithLock lk,
                                   const CollectionInfo& coll, const BucketKey& key, Date_t time,
                                   const ExecutionStatsController& stats,
                                   const BucketLimits& limits, const RolledOut& rolledOut) {
    bool prevDisordered = false;
    const Date_t start = newBucketStart(stripe, lk, coll, key, time, rolledOut, &prevDisordered);
    // Opened for a measurement earlier than its series' open bucket, or after one whose
    // series was out of order: see Bucket::disordered.
    const bool disordered =
        prevDisordered || (rolledOut.valid && (rolledOut.disordered || !rolledOut.forward));
    const bool newSeries = !rolledOut.valid && !knowsOtherBuckets(stripe, lk, key);
    auto opened =
        allocateBucketAt(catalog, stripe, lk, coll, key, start, disordered, stats, limits);
    if (opened.isOK())
        opened.getValue()->newSeries = newSeries;
    return opened;
}

/** The most writers a bucket remembers as its stagers (Bucket::stagers). */
constexpr size_t kMaxStagers = 8;

void stage(Bucket& bucket, Stripe& stripe, WithLock lk, BucketCatalog& catalog,
           const std::optional<std::string>& metaField, int64_t writer, const BSONObj& doc,
           Date_t time, int64_t userIndex, int64_t sizeToAdd, const ExecutionStatsController& stats,
           bool openedDueToMetadata, const Layout& layout, bool schemaUpdated = false,
           bool knownLayout = false) {
    if (!bucket.activeBatch) {
        bucket.activeBatch = std::make_shared<WriteBatch>(bucket.bucketId, bucket.key, stats);
        bucket.activeBatch->openedDueToMetadata = openedDueToMetadata;
    }
    bucket.activeBatch->measurements.push_back(doc.getOwned());
    if (time < bucket.latestTime)
        bucket.disordered = true;
    bucket.latestTime = std::max(bucket.latestTime, time);
    bucket.activeBatch->userIndices.push_back(userIndex);
    // A batch stages many measurements of one writer: the last stager is checked first.
    if (writer != 0 && !bucket.manyStagers &&
        (bucket.stagers.empty() || bucket.stagers.back() != writer) &&
        std::find(bucket.stagers.begin(), bucket.stagers.end(), writer) == bucket.stagers.end()) {
        if (bucket.stagers.size() < kMaxStagers)
            bucket.stagers.push_back(writer);
        else
            bucket.manyStagers = true;
    }
    if (!schemaUpdated)
        (void)bucket.schema.update(doc, metaField);
    if (!knownLayout) {
        for (auto&& e : doc) {
            StringData name = e.fieldNameStringData();
            if (bucket.fieldNames.find(name) == bucket.fieldNames.end())
                bucket.fieldNames.emplace(std::string(name), true);
        }
    }
    bucket.lastLayout = layout.flat ? layout.signature : 0;
    const int64_t before = bucket.memoryUsage();
    bucket.size += sizeToAdd;
    adjustMemory(catalog, bucket.memoryUsage() - before);
    ++bucket.numMeasurements;
    markActive(stripe, lk, bucket);
}

/** A measurement's time and series key; the key is owned, or borrowed from a key cache. */
struct Extracted {
    Date_t time;
    std::optional<BucketKey> owned;
    const BucketKey* borrowed = nullptr;

    const BucketKey& key() const {
        return owned ? *owned : *borrowed;
    }
};

StatusWith<Extracted> extract(const CollectionInfo& coll, const BSONObj& doc,
                              BucketKeyCache* keys) {
    const std::string& timeField = coll.options.getTimeField();
    const auto& metaField = coll.options.getMetaField();
    // One pass over the top-level fields finds both the time and the meta value.
    BSONElement t, rawMeta;
    for (auto&& e : doc) {
        StringData name = e.fieldNameStringData();
        if (t.eoo() && name == timeField)
            t = e;
        else if (metaField && rawMeta.eoo() && name == *metaField)
            rawMeta = e;
    }
    if (t.type() != BSONType::kDate)
        return Status(
            ErrorCodes::BadValue,
            "'" + timeField + "' must be present and contain a valid BSON UTC datetime value");
    if (!metaField)
        return Extracted{t.date(), BucketKey(coll.uuid, BSONObj()), nullptr};
    if (keys)
        return Extracted{t.date(), std::nullopt, &keys->get(coll.uuid, rawMeta)};
    return Extracted{t.date(),
                     BucketKey(coll.uuid, metadata::normalizeAs(rawMeta, kBucketMetaFieldName)),
                     nullptr};
}

/**
 * Reopening from memory: a bucket of `key` rolled over by time whose commit is still running
 * (so neither archived nor surely on disk yet) and whose span holds `time` becomes the open
 * bucket again. Concurrent writers with slightly out-of-order times otherwise open a new
 * bucket each time one of them crosses a bucket boundary before the others.
 */
bool reopenFromMemory(Stripe& stripe, WithLock lk, const CollectionInfo& coll, const BucketKey& key,
                      Date_t time, const ExecutionStatsController& stats) {
    if (stripe.openBucketsByKey.count(key))
        return false;
    const long long spanMs = getMaxSpanSeconds(coll.options) * 1000LL;
    auto [from, to] = stripe.rolledOverByKey.equal_range(key);
    for (auto it = from; it != to; ++it) {
        Bucket& b = *it->second;
        if (time < b.minTime || (time - b.minTime).count() >= spanMs)
            continue;
        stripe.rolledOverByKey.erase(it);
        b.rolloverAction = RolloverAction::kNone;
        stripe.openBucketsByKey[key] = &b;
        stats.inc(&ExecutionStats::numBucketsReopened);
        return true;
    }
    return false;
}

/**
 * True when a bucket of `key` starting at `start` starts inside the span of another known
 * bucket of the series (archived, or rolled over with a commit running) that starts earlier.
 * Such a bucket was opened by a measurement that arrived before earlier ones of its series
 * (concurrent writers); reopening it when the earlier bucket's span ends would carry that
 * offset into every later bucket of the series.
 */
/** True when a bucket starting at `start` starts inside the span of one starting at `other`. */
bool startsInside(Date_t start, Date_t other, long long spanMs) {
    return other < start && (start - other).count() < spanMs;
}

bool startsInsideEarlierBucket(const Stripe& stripe, WithLock, const BucketKey& key, Date_t start,
                               long long spanMs, const RolledOut& rolledOut) {
    auto inside = [&](Date_t other) { return startsInside(start, other, spanMs); };
    if (rolledOut.valid && inside(rolledOut.minTime))
        return true;
    if (auto it = stripe.archived.find({key.collectionUUID, key.hash}); it != stripe.archived.end())
        for (const auto& [minTime, archived] : it->second)
            if (inside(minTime))
                return true;
    auto [from, to] = stripe.rolledOverByKey.equal_range(key);
    for (auto it = from; it != to; ++it)
        if (inside(it->second->minTime))
            return true;
    return false;
}

/** Looks for a reopening candidate; nullopt when none applies. */
std::optional<ReopeningRequest> findReopeningCandidate(Stripe& stripe, WithLock lk,
                                                       const CollectionInfo& coll,
                                                       const BucketKey& key, Date_t time,
                                                       const BucketLimits& limits,
                                                       const RolledOut& rolledOut) {
    auto it = stripe.archived.find({key.collectionUUID, key.hash});
    if (it != stripe.archived.end()) {
        auto& byTime = it->second;
        auto pos = byTime.upper_bound(time);
        if (pos != byTime.begin()) {
            --pos;
            const long long spanMs = getMaxSpanSeconds(coll.options) * 1000LL;
            if ((time - pos->first).count() < spanMs) {
                // A bucket that overlaps an earlier one of the series (see above) stays
                // archived: a new bucket starts at the rounded time instead. Not asking for
                // a query either, which would find that same bucket.
                if (startsInsideEarlierBucket(stripe, lk, key, pos->first, spanMs, rolledOut))
                    return std::nullopt;
                OID oid = pos->second.oid;
                byTime.erase(pos);
                if (byTime.empty())
                    stripe.archived.erase(it);
                --stripe.numArchived;
                return ReopeningRequest{oid};
            }
        }
    }
    if (coll.hasReopeningIndex) {
        return ReopeningRequest{generateReopeningPipeline(coll.options, time, key.metaElement(),
                                                          limits.maxCount, limits.maxSize)};
    }
    return std::nullopt;
}

/** The most measurements a bucket may hold to be moved (moveEarlier): the cost of a move. */
constexpr uint32_t kMaxMovedMeasurements = 100;

/**
 * Stages the committed measurements of `from`, moved to `to` (moveEarlier), in the first batch
 * of `to`, which is still open. False, nothing staged, when they cannot be read back.
 */
bool stageMovedMeasurements(BucketCatalog& catalog, Stripe& stripe, WithLock lk, Bucket& to,
                            const Bucket& from, const std::string& timeField,
                            const std::optional<std::string>& metaField) {
    if (!to.activeBatch || !to.movedFrom || to.movedFrom->oid != from.bucketId.oid ||
        to.movedStaged() || from.numCommittedMeasurements == 0)
        return false;
    auto measurements = extractMeasurements(
        makeBucketDocument(from.bucketId.oid, BSONElement(), from.version, from.committedMin,
                           from.committedMax, from.numCommittedMeasurements, from.columns),
        timeField, std::nullopt);
    if (!measurements.isOK() || measurements.getValue().size() != from.numCommittedMeasurements)
        return false;
    for (const auto& m : measurements.getValue())
        if (m[timeField].type() != BSONType::kDate)
            return false;
    for (const auto& m : measurements.getValue())
        stage(to, stripe, lk, catalog, metaField, 0, m, m[timeField].date(), 0,
              sizeToBeAdded(to, m, metaField), to.activeBatch->stats, false,
              layoutOf(m, metaField));
    to.movedFrom->recordId = from.recordId;
    to.movedFrom->count = from.numCommittedMeasurements;  // > 0: movedStaged()
    return true;
}

/** True when only writers other than `writer` staged into `bucket` (and it knows them all). */
bool stagedByOthersOnly(const Bucket& bucket, int64_t writer) {
    return writer != 0 && !bucket.manyStagers && !bucket.stagers.empty() &&
           std::find(bucket.stagers.begin(), bucket.stagers.end(), writer) == bucket.stagers.end();
}

/**
 * Gives the never committed `bucket`, and its open batch, a new _id for the earlier `start`.
 * False, nothing changed, when no unused _id was found.
 */
bool restartAt(Stripe& stripe, WithLock lk, const CollectionInfo& coll, Bucket& bucket,
               Date_t start) {
    auto id = unusedBucketId(stripe, lk, coll, start);
    if (!id)
        return false;
    auto node = stripe.openBucketsById.extract(bucket.bucketId);
    node.key() = *id;
    bucket.bucketId = *id;
    bucket.minTime = start;
    bucket.activeBatch->bucketId = *id;
    stripe.openBucketsById.insert(std::move(node));
    return true;
}

/**
 * Moving the open bucket of a series to an earlier start, for a measurement at `time` before
 * it (§3.5 would archive it and open a bucket at the rounded time), so that one bucket takes
 * them all. Concurrent writers make this happen: the first measurements of a series come in
 * several commands at once, and the one with the earliest times is not always first.
 * Archiving would leave the first bucket with only the measurements of the commands that came
 * before (seen: 10-30 per series).
 *
 * Only then: the bucket was opened for a series the catalog knew nothing of, and it knows no
 * other bucket of it since (later buckets follow it: reopening serves them); only other writers
 * (connections) staged into it (so a single writer gets 8.0's bucketing); it holds at most
 * kMaxMovedMeasurements and would still fit in one span with the measurement, by size and
 * schema too; no direct write to it is running.
 *
 * How, by the bucket's state:
 * - never committed, its first batch open: it gets the earlier start and a new _id;
 * - otherwise (stored, or with batches of other writers being committed or still open): a
 *   new bucket at the earlier start takes the measurement, and the old bucket's measurements
 *   once its batches are done (finish()); the new bucket's first commit waits for that (the
 *   writers of those batches do not wait for this one's), then inserts the new bucket and
 *   deletes the old one in one unit of work, after checking that the stored bucket is the one
 *   moved (deleteMovedBucket in timeseries_insert.cpp).
 *
 * True when moved, `doc` staged; false: nothing changed.
 */
bool moveEarlier(BucketCatalog& catalog, Stripe& stripe, WithLock lk, const CollectionInfo& coll,
                 Bucket& bucket, const BSONObj& doc, Date_t time, int64_t userIndex,
                 const Layout& layout, const ExecutionStatsController& stats,
                 const BucketLimits& limits) {
    const auto& metaField = coll.options.getMetaField();
    const bool neverCommitted = !bucket.preparedBatch && !bucket.existsOnDisk &&
                                bucket.numCommittedMeasurements == 0 && bucket.activeBatch;
    // Batches of other writers still to commit: the move completes once they are done.
    const bool pending = !neverCommitted && (bucket.preparedBatch || bucket.activeBatch);
    if (!bucket.newSeries || bucket.movedTo || bucket.needsRewrite ||
        bucket.version == kTimeseriesControlUncompressedVersion || bucket.numMeasurements == 0 ||
        bucket.numMeasurements > std::min<uint32_t>(kMaxMovedMeasurements, limits.maxCount - 1))
        return false;
    if (!neverCommitted && !pending && !bucket.existsOnDisk)
        return false;
    const Date_t start = roundTimestampToGranularity(time, coll.options);
    const long long spanMs = getMaxSpanSeconds(coll.options) * 1000LL;
    if (start.toMillisSinceEpoch() < 0 || (bucket.latestTime - start).count() >= spanMs)
        return false;
    if (knowsOtherBuckets(stripe, lk, bucket.key))
        return false;
    // The size and schema rules of a measurement staged into the bucket.
    if (bucket.size + sizeToBeAdded(bucket, doc, metaField) > limits.maxSize)
        return false;
    Schema schema = bucket.schema;
    if (schema.update(doc, metaField) == Schema::UpdateStatus::kFailed)
        return false;
    if (!stagedByOthersOnly(bucket, coll.writerId))
        return false;
    if (neverCommitted) {
        if (!restartAt(stripe, lk, coll, bucket, start))
            return false;
        stage(bucket, stripe, lk, catalog, metaField, coll.writerId, doc, time, userIndex,
              sizeToBeAdded(bucket, doc, metaField), stats, false, layout);
        bucket.disordered = true;
        return true;
    }
    {
        std::lock_guard dl(catalog.directWritesMutex);
        if (catalog.directWrites.count(bucket.bucketId))
            return false;
    }
    // Not idle while the new bucket is opened: expiry must not archive it meanwhile.
    markActive(stripe, lk, bucket);
    auto opened =
        allocateBucketAt(catalog, stripe, lk, coll, bucket.key, start, true, stats, limits);
    if (!opened.isOK()) {
        if (!pending)
            markIdle(stripe, lk, bucket);
        return false;
    }
    Bucket& n = *opened.getValue();
    n.newSeries = true;
    n.movedFrom = MovedFrom{bucket.bucketId.oid, 0, 0, catalog.directWriteEpoch.load()};
    n.stagers = bucket.stagers;
    n.manyStagers = bucket.manyStagers;
    stage(n, stripe, lk, catalog, metaField, coll.writerId, doc, time, userIndex,
          sizeToBeAdded(n, doc, metaField), stats, false, layout);
    if (pending) {
        // installBucket made `n` the series' open bucket; this one closes when its batches are
        // done.
        bucket.rolloverAction = RolloverAction::kHardClose;
        bucket.movedTo = Bucket::MoveTarget{n.bucketId, coll.options.getTimeField(), metaField};
        return true;
    }
    if (!stageMovedMeasurements(catalog, stripe, lk, n, bucket, coll.options.getTimeField(),
                                metaField))
        n.movedFrom.reset();  // a bucket of its own, as if opened for the measurement
    removeBucket(catalog, stripe, lk, bucket, RemovalMode::kClose);
    return true;
}

/** The result of a measurement tryStage() staged: the active batch of its series' bucket. */
InsertResult stagedIn(Stripe& stripe, WithLock, const BucketKey& key) {
    return InsertResult{stripe.openBucketsByKey.find(key)->second->activeBatch, std::nullopt};
}

/** Stages into the open bucket or reports what must happen first. */
enum class Placement { kStaged, kNeedsBucket, kNeedsReopening };

Placement tryStage(BucketCatalog& catalog, Stripe& stripe, WithLock lk, const CollectionInfo& coll,
                   const BSONObj& doc, const Extracted& x, int64_t userIndex,
                   const ExecutionStatsController& stats, const BucketLimits& limits,
                   bool* openedDueToMetadata, RolledOut* rolledOut) {
    auto it = stripe.openBucketsByKey.find(x.key());
    if (it == stripe.openBucketsByKey.end()) {
        *openedDueToMetadata = true;
        return Placement::kNeedsReopening;
    }
    Bucket& bucket = *it->second;
    const Layout layout = layoutOf(doc, coll.options.getMetaField());
    const bool knownLayout = layout.flat && layout.signature == bucket.lastLayout;
    const int64_t size = knownLayout
                             ? layout.valueBytes + layout.fields * numDigits(bucket.numMeasurements)
                             : sizeToBeAdded(bucket, doc, coll.options.getMetaField());
    // The schema is the last rollover reason: check (and record) it only when no other
    // reason applies, in one pass.
    RolloverDecision d = determineRolloverAction(
        bucket.rolloverState(), x.time, size, true, getMaxSpanSeconds(coll.options), limits,
        catalog.numOpenBuckets.load() + stripe.numArchived);
    if (d.action == RolloverAction::kNone && !knownLayout &&
        bucket.schema.update(doc, coll.options.getMetaField()) == Schema::UpdateStatus::kFailed)
        d = {RolloverAction::kHardClose, RolloverReason::kSchemaChange, false};
    if (d.action == RolloverAction::kNone) {
        if (d.keptOpenDueToLargeMeasurements) {
            bucket.keptOpenDueToLargeMeasurements = true;
            stats.inc(&ExecutionStats::numBucketsKeptOpenDueToLargeMeasurements);
        }
        stage(bucket, stripe, lk, catalog, coll.options.getMetaField(), coll.writerId, doc, x.time,
              userIndex, size, stats, false, layout, true, knownLayout);
        return Placement::kStaged;
    }
    if (d.reason == RolloverReason::kTimeBackward &&
        moveEarlier(catalog, stripe, lk, coll, bucket, doc, x.time, userIndex, layout, stats,
                    limits))
        return Placement::kStaged;
    recordRollover(stats, d.reason);
    if (d.reason == RolloverReason::kTimeForward || d.reason == RolloverReason::kTimeBackward)
        *rolledOut = RolledOut{true, d.reason == RolloverReason::kTimeForward, bucket.minTime,
                               bucket.disordered};
    rollover(catalog, stripe, lk, bucket, d.action);
    return d.action == RolloverAction::kHardClose ? Placement::kNeedsBucket
                                                  : Placement::kNeedsReopening;
}

StatusWith<InsertResult> stageInNewBucket(BucketCatalog& catalog, Stripe& stripe, WithLock lk,
                                          const CollectionInfo& coll, const BSONObj& doc,
                                          const Extracted& x, int64_t userIndex,
                                          const ExecutionStatsController& stats,
                                          const BucketLimits& limits, bool openedDueToMetadata,
                                          const RolledOut& rolledOut) {
    auto bucket =
        allocateBucket(catalog, stripe, lk, coll, x.key(), x.time, stats, limits, rolledOut);
    if (!bucket.isOK())
        return bucket.getStatus();
    if (openedDueToMetadata)
        stats.inc(&ExecutionStats::numBucketsOpenedDueToMetadata);
    Bucket& b = *bucket.getValue();
    stage(b, stripe, lk, catalog, coll.options.getMetaField(), coll.writerId, doc, x.time,
          userIndex, sizeToBeAdded(b, doc, coll.options.getMetaField()), stats, openedDueToMetadata,
          layoutOf(doc, coll.options.getMetaField()));
    return InsertResult{b.activeBatch, std::nullopt};
}

}  // namespace

BucketCatalog::BucketCatalog(std::size_t numStripes) {
    for (std::size_t i = 0; i < numStripes; ++i)
        stripes.push_back(std::make_unique<Stripe>());
}

BucketCatalog::BucketCatalog(std::size_t numStripes, BucketLimits limits)
    : BucketCatalog(numStripes) {
    _limits = limits;
}

BucketCatalog& BucketCatalog::get() {
    static BucketCatalog catalog;
    return catalog;
}

const BucketKey& BucketKeyCache::get(const std::string& collUUID, const BSONElement& rawMeta) {
    if (collUUID != _lastUUID) {
        _keys.clear();
        _lastUUID = collUUID;
    }
    // Keyed on type and value bytes: a string and a symbol share their bytes, and so do null
    // and a missing meta (none). An entry is never replaced: callers keep its address.
    RawMeta raw{rawMeta.eoo() ? static_cast<int>(BSONType::kEOO) : static_cast<int>(rawMeta.type()),
                rawMeta.eoo() ? std::string_view()
                              : std::string_view(rawMeta.value(), rawMeta.valuesize())};
    if (auto it = _keys.find(raw); it != _keys.end())
        return it->second;
    return _keys
        .emplace(raw, BucketKey(collUUID, metadata::normalizeAs(rawMeta, kBucketMetaFieldName)))
        .first->second;
}

namespace {
StatusWith<Extracted> extractOrUse(const CollectionInfo& coll, const BSONObj& doc,
                                   BucketKeyCache* keys, const KnownSeries* known) {
    if (known)
        return Extracted{known->time, std::nullopt, known->key};
    return extract(coll, doc, keys);
}
}  // namespace

StatusWith<InsertResult> tryInsert(BucketCatalog& catalog, const CollectionInfo& coll,
                                   const BSONObj& doc, int64_t userIndex, BucketKeyCache* keys,
                                   const KnownSeries* known) {
    auto x = extractOrUse(coll, doc, keys, known);
    if (!x.isOK())
        return x.getStatus();
    const BucketLimits limits = catalog.limits();
    auto stats = statsFor(catalog, coll.uuid);
    Stripe& stripe = stripeFor(catalog, x.getValue().key().hash);
    std::unique_lock lk(stripe.mutex);
    bool openedDueToMetadata = false;
    RolledOut rolledOut;
    Placement p = tryStage(catalog, stripe, lk, coll, doc, x.getValue(), userIndex, stats, limits,
                           &openedDueToMetadata, &rolledOut);
    if (p == Placement::kStaged) {
        return stagedIn(stripe, lk, x.getValue().key());
    }
    if (p == Placement::kNeedsReopening &&
        reopenFromMemory(stripe, lk, coll, x.getValue().key(), x.getValue().time, stats)) {
        p = tryStage(catalog, stripe, lk, coll, doc, x.getValue(), userIndex, stats, limits,
                     &openedDueToMetadata, &rolledOut);
        if (p == Placement::kStaged) {
            return stagedIn(stripe, lk, x.getValue().key());
        }
    }
    if (p == Placement::kNeedsReopening) {
        if (auto req = findReopeningCandidate(stripe, lk, coll, x.getValue().key(),
                                              x.getValue().time, limits, rolledOut)) {
            req->directWriteEpoch = catalog.directWriteEpoch.load();
            req->rolledOut = rolledOut;
            return InsertResult{nullptr, std::move(req)};
        }
    }
    return stageInNewBucket(catalog, stripe, lk, coll, doc, x.getValue(), userIndex, stats, limits,
                            openedDueToMetadata, rolledOut);
}

namespace {

/**
 * True when the fetched bucket `id` may not stand on its latest committed state: a direct
 * write to it is in progress, or one started or finished since `request` was made.
 */
bool reopenedAcrossDirectWrite(BucketCatalog& catalog, const BucketId& id,
                               const ReopeningRequest* request) {
    std::lock_guard lk(catalog.directWritesMutex);
    return catalog.directWrites.count(id) > 0 ||
           (request && request->directWriteEpoch != catalog.directWriteEpoch.load());
}

}  // namespace

StatusWith<InsertResult> insertWithReopeningContext(BucketCatalog& catalog,
                                                    const CollectionInfo& coll, const BSONObj& doc,
                                                    const BSONObj& fetched, int64_t userIndex,
                                                    BucketKeyCache* keys, const KnownSeries* known,
                                                    const ReopeningRequest* request) {
    auto x = extractOrUse(coll, doc, keys, known);
    if (!x.isOK())
        return x.getStatus();
    const BucketLimits limits = catalog.limits();
    auto stats = statsFor(catalog, coll.uuid);
    std::unique_ptr<Bucket> reopened;
    if (!fetched.isEmpty()) {
        auto loaded = loadBucket(x.getValue().key(), coll.options, fetched, coll.collator);
        if (loaded.isOK() && !isFrozen(catalog, loaded.getValue()->bucketId))
            reopened = std::move(loaded.getValue());
        else
            stats.inc(&ExecutionStats::numBucketReopeningsFailed);
    }
    Stripe& stripe = stripeFor(catalog, x.getValue().key().hash);
    std::unique_lock lk(stripe.mutex);
    if (reopened && reopenedAcrossDirectWrite(catalog, reopened->bucketId, request)) {
        stats.inc(&ExecutionStats::numBucketReopeningsFailed);
        reopened.reset();
    }
    RolledOut rolledOut = request ? request->rolledOut : RolledOut{};
    // A bucket the query found that starts inside the span of the bucket just rolled over
    // (findReopeningCandidate's rule for the archived ones).
    if (reopened && rolledOut.valid &&
        startsInside(reopened->minTime, rolledOut.minTime,
                     getMaxSpanSeconds(coll.options) * 1000LL))
        reopened.reset();
    if (reopened) {
        if (stripe.openBucketsById.count(reopened->bucketId)) {
            stats.inc(&ExecutionStats::numDuplicateBucketsReopened);
            reopened.reset();
        } else {
            if (auto it = stripe.openBucketsByKey.find(x.getValue().key());
                it != stripe.openBucketsByKey.end()) {
                stats.inc(&ExecutionStats::numBucketsClosedDueToReopening);
                rollover(catalog, stripe, lk, *it->second, RolloverAction::kSoftClose);
            }
            stats.inc(&ExecutionStats::numBucketsReopened);
            (void)installBucket(catalog, stripe, lk, std::move(reopened));
            expireIdleBuckets(catalog, stripe, lk, stats, limits);
        }
    }
    // While the candidate was fetched, a bucket of the series that covers the time may have
    // been rolled over with a commit running (the fetched one among them: a duplicate).
    reopenFromMemory(stripe, lk, coll, x.getValue().key(), x.getValue().time, stats);
    bool openedDueToMetadata = false;
    Placement p = tryStage(catalog, stripe, lk, coll, doc, x.getValue(), userIndex, stats, limits,
                           &openedDueToMetadata, &rolledOut);
    if (p == Placement::kStaged) {
        return stagedIn(stripe, lk, x.getValue().key());
    }
    return stageInNewBucket(catalog, stripe, lk, coll, doc, x.getValue(), userIndex, stats, limits,
                            openedDueToMetadata, rolledOut);
}

namespace {

bool prepareCommitImpl(BucketCatalog& catalog, const CollectionInfo& coll,
                       const std::shared_ptr<WriteBatch>& batch, bool wait, Status* status) {
    Stripe& stripe = stripeFor(catalog, batch->bucketKey.hash);
    std::unique_lock lk(stripe.mutex);
    Bucket* bucket = nullptr;
    while (true) {
        auto it = stripe.openBucketsById.find(batch->bucketId);
        if (it == stripe.openBucketsById.end() || it->second->activeBatch != batch) {
            Status s(ErrorCodes::TimeseriesBucketCleared,
                     "time-series bucket " + batch->bucketId.oid.toString() + " was cleared");
            lk.unlock();
            resolve(*batch, s);
            *status = s;
            return true;
        }
        bucket = it->second.get();
        // A moved bucket's first commit replaces the bucket it was moved from: after that
        // one's last batch finished (and its measurements were staged here).
        std::shared_ptr<WriteBatch> awaited = bucket->preparedBatch;
        if (!awaited && bucket->movedFrom && !bucket->movedStaged()) {
            auto from = stripe.openBucketsById.find(
                BucketId{batch->bucketId.collectionUUID, bucket->movedFrom->oid});
            if (from != stripe.openBucketsById.end() &&
                (from->second->preparedBatch || from->second->activeBatch))
                awaited = from->second->preparedBatch ? from->second->preparedBatch
                                                      : from->second->activeBatch;
            else
                bucket->movedFrom.reset();  // a batch of it failed: this bucket stands alone
        }
        if (!awaited)
            break;
        if (!wait)
            return false;
        auto other = awaited->future;
        lk.unlock();
        other.wait();
        lk.lock();
    }
    bucket->activeBatch.reset();
    bucket->preparedBatch = batch;
    batch->recordId = bucket->recordId;
    batch->movedFrom = bucket->movedFrom;
    auto write = prepareBucketWrite(*bucket, *batch, coll.options);
    if (!write.isOK()) {
        removeBucket(catalog, stripe, lk, *bucket, RemovalMode::kClose);
        lk.unlock();
        resolve(*batch, write.getStatus());
        *status = write.getStatus();
        return true;
    }
    batch->write = std::move(write.getValue());
    *status = Status::OK();
    return true;
}

}  // namespace

Status prepareCommit(BucketCatalog& catalog, const CollectionInfo& coll,
                     const std::shared_ptr<WriteBatch>& batch) {
    Status s = Status::OK();
    invariant(prepareCommitImpl(catalog, coll, batch, true, &s));
    return s;
}

bool tryPrepareCommit(BucketCatalog& catalog, const CollectionInfo& coll,
                      const std::shared_ptr<WriteBatch>& batch, Status* status) {
    return prepareCommitImpl(catalog, coll, batch, false, status);
}

void finish(BucketCatalog& catalog, const std::shared_ptr<WriteBatch>& batch) {
    // The measurements a moved bucket took over were counted when first committed.
    const auto n = static_cast<int64_t>(batch->measurements.size());
    const auto moved = batch->movedFrom ? static_cast<int64_t>(batch->movedFrom->count) : 0;
    batch->stats.inc(&ExecutionStats::numCommits);
    batch->stats.inc(&ExecutionStats::numMeasurementsCommitted, n - moved);
    batch->stats.inc(batch->write.kind == BucketWrite::Kind::kInsert
                         ? &ExecutionStats::numBucketInserts
                         : &ExecutionStats::numBucketUpdates);
    if (batch->convertedToUnsorted)
        batch->stats.inc(&ExecutionStats::numCompressedBucketsConvertedToUnsorted);
    {
        Stripe& stripe = stripeFor(catalog, batch->bucketKey.hash);
        std::unique_lock lk(stripe.mutex);
        auto it = stripe.openBucketsById.find(batch->bucketId);
        if (it != stripe.openBucketsById.end() && it->second->preparedBatch == batch) {
            Bucket& bucket = *it->second;
            bucket.preparedBatch.reset();
            bucket.numCommittedMeasurements += static_cast<uint32_t>(n);
            bucket.existsOnDisk = true;
            bucket.needsRewrite = false;
            bucket.movedFrom.reset();
            bucket.recordId = batch->recordId;
            if (bucket.movedTo && !bucket.hasUncommitted()) {
                auto to = stripe.openBucketsById.find(bucket.movedTo->id);
                if (to != stripe.openBucketsById.end() &&
                    !stageMovedMeasurements(catalog, stripe, lk, *to->second, bucket,
                                            bucket.movedTo->timeField, bucket.movedTo->metaField))
                    to->second->movedFrom.reset();
            }
            if (bucket.rolloverAction != RolloverAction::kNone && !bucket.hasUncommitted()) {
                removeBucket(catalog, stripe, lk, bucket,
                             bucket.rolloverAction == RolloverAction::kArchive
                                 ? RemovalMode::kArchive
                                 : RemovalMode::kClose);
            } else {
                markIdle(stripe, lk, bucket);
            }
        }
    }
    resolve(*batch, Status::OK());
}

void abort(BucketCatalog& catalog, const std::shared_ptr<WriteBatch>& batch, Status status) {
    {
        Stripe& stripe = stripeFor(catalog, batch->bucketKey.hash);
        std::unique_lock lk(stripe.mutex);
        auto it = stripe.openBucketsById.find(batch->bucketId);
        if (it != stripe.openBucketsById.end() &&
            (it->second->preparedBatch == batch || it->second->activeBatch == batch)) {
            it->second->preparedBatch.reset();
            removeBucket(catalog, stripe, lk, *it->second, RemovalMode::kClose);
        }
    }
    resolve(*batch, std::move(status));
}

namespace {

/** Removes the bucket `oid` of `uuid` from every stripe (open or archived). */
void removeEverywhere(BucketCatalog& catalog, const std::string& uuid, const OID& oid) {
    for (auto& stripe : catalog.stripes) {
        std::unique_lock lk(stripe->mutex);
        if (auto it = stripe->openBucketsById.find(BucketId{uuid, oid});
            it != stripe->openBucketsById.end())
            removeBucket(catalog, *stripe, lk, *it->second, RemovalMode::kClose);
        for (auto a = stripe->archived.begin(); a != stripe->archived.end();) {
            if (a->first.first == uuid) {
                for (auto b = a->second.begin(); b != a->second.end();) {
                    if (b->second.oid == oid) {
                        b = a->second.erase(b);
                        --stripe->numArchived;
                        adjustMemory(catalog, -kArchivedBucketMemory);
                    } else {
                        ++b;
                    }
                }
            }
            a = a->second.empty() ? stripe->archived.erase(a) : std::next(a);
        }
    }
}

}  // namespace

void freeze(BucketCatalog& catalog, const BucketId& bucketId) {
    {
        std::lock_guard lk(gFrozenMutex);
        if (!gFrozen.insert(bucketId).second)
            return;
    }
    statsFor(catalog, bucketId.collectionUUID).inc(&ExecutionStats::numBucketsFrozen);
    removeEverywhere(catalog, bucketId.collectionUUID, bucketId.oid);
}

bool isFrozen(BucketCatalog& catalog, const BucketId& bucketId) {
    std::lock_guard lk(gFrozenMutex);
    return gFrozen.count(bucketId) > 0;
}

void directWriteStart(BucketCatalog& catalog, const std::string& collUUID, const OID& oid) {
    {
        // Marked first: a reopening installed from now on is refused, one installed
        // before is removed below.
        std::lock_guard lk(catalog.directWritesMutex);
        ++catalog.directWrites[BucketId{collUUID, oid}];
        catalog.directWriteEpoch.fetch_add(1);
    }
    removeEverywhere(catalog, collUUID, oid);
}

void directWriteFinish(BucketCatalog& catalog, const std::string& collUUID, const OID& oid) {
    std::lock_guard lk(catalog.directWritesMutex);
    auto it = catalog.directWrites.find(BucketId{collUUID, oid});
    invariant(it != catalog.directWrites.end());
    if (--it->second == 0)
        catalog.directWrites.erase(it);
    // A candidate fetched before the write committed must not be reopened after this.
    catalog.directWriteEpoch.fetch_add(1);
}

bool isBeingDirectlyWritten(BucketCatalog& catalog, const BucketId& bucketId) {
    std::lock_guard lk(catalog.directWritesMutex);
    return catalog.directWrites.count(bucketId) > 0;
}

Status checkStillPrepared(BucketCatalog& catalog, const WriteBatch& batch) {
    Stripe& stripe = stripeFor(catalog, batch.bucketKey.hash);
    std::lock_guard lk(stripe.mutex);
    auto it = stripe.openBucketsById.find(batch.bucketId);
    if (it != stripe.openBucketsById.end() && it->second->preparedBatch.get() == &batch)
        return Status::OK();
    return Status(ErrorCodes::TimeseriesBucketCleared,
                  "time-series bucket " + batch.bucketId.oid.toString() +
                      " was cleared while its batch was being committed");
}

void clear(BucketCatalog& catalog, const std::string& collUUID) {
    clearBuckets(catalog, collUUID);
    std::lock_guard lk(catalog.statsMutex);
    catalog.collectionStats.erase(collUUID);
}

void clearBuckets(BucketCatalog& catalog, const std::string& collUUID) {
    for (auto& stripe : catalog.stripes) {
        std::unique_lock lk(stripe->mutex);
        std::vector<Bucket*> doomed;
        for (auto& [id, b] : stripe->openBucketsById)
            if (id.collectionUUID == collUUID)
                doomed.push_back(b.get());
        for (Bucket* b : doomed)
            removeBucket(catalog, *stripe, lk, *b, RemovalMode::kClose);
        for (auto a = stripe->archived.begin(); a != stripe->archived.end();) {
            if (a->first.first == collUUID) {
                stripe->numArchived -= a->second.size();
                adjustMemory(catalog, -kArchivedBucketMemory * int64_t(a->second.size()));
                a = stripe->archived.erase(a);
            } else {
                ++a;
            }
        }
    }
}

void appendExecutionStats(BucketCatalog& catalog, const std::string& collUUID,
                          BSONObjBuilder& builder) {
    std::shared_ptr<ExecutionStats> stats;
    {
        std::lock_guard lk(catalog.statsMutex);
        if (auto it = catalog.collectionStats.find(collUUID); it != catalog.collectionStats.end())
            stats = it->second;
    }
    ExecutionStats empty;
    appendExecutionStatsToBuilder(stats ? *stats : empty, builder);
}

void appendServerStatus(BucketCatalog& catalog, BSONObjBuilder& builder) {
    {
        std::lock_guard lk(catalog.statsMutex);
        if (catalog.collectionStats.empty())
            return;
    }
    long long open = 0, idle = 0, archived = 0;
    for (auto& stripe : catalog.stripes) {
        std::unique_lock lk(stripe->mutex);
        open += stripe->openBucketsById.size();
        idle += stripe->idleBuckets.size();
        archived += stripe->numArchived;
    }
    builder.append("numBuckets", open + archived);
    builder.append("numOpenBuckets", open);
    builder.append("numIdleBuckets", idle);
    builder.append("numArchivedBuckets", archived);
    builder.append("memoryUsage", static_cast<long long>(catalog.memoryUsage.load()));
    appendExecutionStatsToBuilder(catalog.globalStats, builder);
    BSONObjBuilder state(builder.subobjStart("stateManagement"));
    state.append("bucketsManaged", open);
    state.append("currentEra", 0LL);
    state.append("erasWithRemainingBuckets", open > 0 ? 1LL : 0LL);
    state.append("trackedClearOperations", 0LL);
}

}  // namespace mongo::timeseries::bucket_catalog
