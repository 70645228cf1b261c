#include "mongo/db/timeseries/timeseries_insert.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/repl/retryable_write_scope.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/bucket_catalog/reopening.h"
#include "mongo/db/timeseries/timeseries_bucket_rewrite.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_index_schema_conversion_functions.h"
#include "mongo/db/timeseries/timeseries_op_observer.h"
#include "mongo/db/timeseries/timeseries_write_util.h"
#include "mongo/db/update/document_diff.h"
#include "mongo/util/assert_util.h"

namespace mongo::timeseries {
namespace {

using bucket_catalog::BucketCatalog;
using bucket_catalog::BucketWrite;
using bucket_catalog::CollectionInfo;
using bucket_catalog::WriteBatch;

constexpr int kMaxRetries = 5;

/**
 * Retryable inserts in flight, by token. A measurement of one is staged with the tag
 * (token << 32 | index) so that whichever command commits its batch can record its
 * statement (the owner waits for its batches, so its entry outlives every commit).
 */
class RetryableOwners {
public:
    static RetryableOwners& get() {
        static RetryableOwners owners;
        return owners;
    }
    int64_t add(const RetryableInsertStatements* stmts) {
        std::lock_guard<std::mutex> lk(_mutex);
        int64_t token = ++_lastToken;
        _owners.emplace(token, stmts);
        return token;
    }
    void remove(int64_t token) {
        std::lock_guard<std::mutex> lk(_mutex);
        _owners.erase(token);
    }
    /** The owners of a batch's measurements, as retryable-write scope owners. */
    std::vector<repl::RetryableWriteScope::Owner> ownersOf(const WriteBatch& batch) {
        std::vector<repl::RetryableWriteScope::Owner> out;
        std::map<int64_t, size_t> slot;
        std::lock_guard<std::mutex> lk(_mutex);
        for (int64_t tag : batch.userIndices) {
            int64_t token = tag >> 32;
            if (token == 0)
                continue;
            auto it = _owners.find(token);
            if (it == _owners.end())
                continue;
            const RetryableInsertStatements* stmts = it->second;
            auto [s, added] = slot.emplace(token, out.size());
            if (added)
                out.push_back({stmts->session, stmts->txnNumber, {}});
            out[s->second].stmtIds.push_back(stmts->stmtIds[static_cast<size_t>(tag & 0xffffffff)]);
        }
        return out;
    }

private:
    std::mutex _mutex;
    int64_t _lastToken = 0;
    std::map<int64_t, const RetryableInsertStatements*> _owners;
};

CollectionInfo makeCollectionInfo(const TimeseriesCollection& ts) {
    CollectionInfo info;
    info.uuid = ts.buckets->uuid();
    info.options = ts.options;
    info.collator = getBucketsCollator(ts.buckets);
    for (const auto& idx : ts.buckets->indexes()) {
        if (isReopeningIndex(ts.options, idx->desc.spec))
            info.hasReopeningIndex = true;
        for (auto k : idx->desc.keyPattern) {
            StringData f = k.fieldNameStringData();
            for (StringData prefix : {kControlMinFieldNamePrefix, kControlMaxFieldNamePrefix}) {
                if (!f.starts_with(prefix))
                    continue;
                std::string path(f.substr(prefix.size()));
                if (path == ts.options.getTimeField())
                    continue;  // a time is a date, never an array
                if (std::find(info.indexedMeasurementPaths.begin(),
                              info.indexedMeasurementPaths.end(),
                              path) == info.indexedMeasurementPaths.end())
                    info.indexedMeasurementPaths.push_back(std::move(path));
            }
        }
    }
    return info;
}

/** Whether following the dotted `path` through `doc` meets an array. */
bool pathMeetsArray(const BSONObj& doc, StringData path) {
    BSONObj obj = doc;
    while (true) {
        size_t dot = path.find('.');
        BSONElement e = obj[path.substr(0, dot)];
        if (e.type() == BSONType::kArray)
            return true;
        if (dot == StringData::npos || e.type() != BSONType::kObject)
            return false;
        obj = e.embeddedObject();
        path = path.substr(dot + 1);
    }
}

/** The first document `stages` produce over the buckets collection, or {}. */
BSONObj runPipelineOnBuckets(OperationContext* opCtx, const TimeseriesCollection& ts,
                             const std::vector<BSONObj>& stages) {
    auto expCtx = std::make_shared<ExpressionContext>(opCtx, ts.bucketsNss);
    auto pipeline = Pipeline::parse(stages, expCtx);
    pipeline->optimize();
    FindPlanParams params = pipeline->extractFindParams();
    pipeline->attachExecutor(buildFindPlan(opCtx, ts.buckets, params));
    if (auto doc = pipeline->getNext())
        return doc->getOwned();
    return BSONObj();
}

/** The bucket with _id `id` and its RecordId, if any. */
bool findBucket(OperationContext* opCtx, const TimeseriesCollection& ts, const OID& id,
                BSONObj* doc, RecordId* rid) {
    // The planner takes a parsed filter: go through the pipeline's $match parser.
    auto expCtx = std::make_shared<ExpressionContext>(opCtx, ts.bucketsNss);
    auto pipeline = Pipeline::parse({BSON("$match" << BSON("_id" << id))}, expCtx);
    FindPlanParams params = pipeline->extractFindParams();
    params.limit = 1;
    auto exec = buildFindPlan(opCtx, ts.buckets, params);
    BSONObj out;
    if (!exec->getNext(opCtx, &out, rid))
        return false;
    *doc = out.getOwned();
    return true;
}

bucket_catalog::ExecutionStatsController statsFor(const std::string& uuid) {
    auto& catalog = BucketCatalog::get();
    std::lock_guard lk(catalog.statsMutex);
    auto& s = catalog.collectionStats[uuid];
    if (!s)
        s = std::make_shared<bucket_catalog::ExecutionStats>();
    return {s, &catalog.globalStats};
}

/** The candidate bucket of a reopening request ({} when none); counts fetches/queries. */
BSONObj fetchCandidate(OperationContext* opCtx, const TimeseriesCollection& ts,
                       const bucket_catalog::ReopeningRequest& req) {
    using bucket_catalog::ExecutionStats;
    const bool byId = std::holds_alternative<OID>(req.candidate);
    BSONObj found;
    try {
        if (byId) {
            RecordId rid;
            if (!findBucket(opCtx, ts, std::get<OID>(req.candidate), &found, &rid))
                found = BSONObj();
        } else {
            found = runPipelineOnBuckets(opCtx, ts, std::get<std::vector<BSONObj>>(req.candidate));
        }
    } catch (const DBException& ex) {
        opCtx->recoveryUnit()->abandonSnapshot();
        // killOp, maxTimeMS, a disconnect or shutdown end the insert: they are not a reason
        // to open a new bucket.
        if (ErrorCodes::isInterruption(ex.code()))
            throw;
        found = BSONObj();  // the catalog opens a new bucket instead
    }
    auto stats = statsFor(ts.buckets->uuid());
    if (byId)
        stats.inc(found.isEmpty() ? &ExecutionStats::numBucketFetchesFailed
                                  : &ExecutionStats::numBucketsFetched);
    else
        stats.inc(found.isEmpty() ? &ExecutionStats::numBucketQueriesFailed
                                  : &ExecutionStats::numBucketsQueried);
    return found;
}

StatusWith<std::shared_ptr<WriteBatch>> stage(OperationContext* opCtx,
                                              const TimeseriesCollection& ts,
                                              const CollectionInfo& info, const BSONObj& doc,
                                              int64_t index,
                                              bucket_catalog::BucketKeyCache* keys = nullptr,
                                              const bucket_catalog::KnownSeries* known = nullptr) {
    for (const auto& path : info.indexedMeasurementPaths) {
        if (pathMeetsArray(doc, path))
            return Status(ErrorCodes::Error(5930501),
                          "Indexed measurement field contains an array value");
    }
    auto& catalog = BucketCatalog::get();
    auto sw = bucket_catalog::tryInsert(catalog, info, doc, index, keys, known);
    if (!sw.isOK())
        return sw.getStatus();
    if (sw.getValue().reopening) {
        const bucket_catalog::ReopeningRequest request = *sw.getValue().reopening;
        BSONObj fetched = fetchCandidate(opCtx, ts, request);
        opCtx->recoveryUnit()->abandonSnapshot();
        sw = bucket_catalog::insertWithReopeningContext(catalog, info, doc, fetched, index, keys,
                                                        known, &request);
        if (!sw.isOK())
            return sw.getStatus();
    }
    invariant(sw.getValue().batch);
    return sw.getValue().batch;
}

/** The stored bucket `oid`: by its record id when known (0: not), else through the _id index. */
bool readStoredBucket(OperationContext* opCtx, const TimeseriesCollection& ts, const OID& oid,
                      int64_t recordId, BSONObj* old, RecordId* rid) {
    if (recordId != 0) {
        BSONObj doc;
        if (ts.buckets->recordStore()->findRecord(opCtx->recoveryUnit(), RecordId(recordId),
                                                  &doc)) {
            BSONElement id = doc[kBucketIdFieldName];
            if (id.type() == BSONType::kOid && id.OID() == oid) {
                *old = doc;
                *rid = RecordId(recordId);
                return true;
            }
        }
    }
    return findBucket(opCtx, ts, oid, old, rid);
}

/**
 * The first commit of a moved bucket (bucket_catalog.cpp, moveEarlier) inserts it and deletes
 * the bucket it was moved from, which must be stored exactly as it was moved: neither deleted, nor
 * changed by another writer (a reopening, or a direct write since the move). Otherwise the batch is
 * retried, and the stored bucket keeps its measurements.
 */
void deleteMovedBucket(OperationContext* opCtx, const TimeseriesCollection& ts,
                       const bucket_catalog::MovedFrom& from) {
    BSONObj old;
    RecordId rid;
    uassert(ErrorCodes::TimeseriesBucketCleared,
            "time-series bucket " + from.oid.toString() + " no longer exists",
            readStoredBucket(opCtx, ts, from.oid, from.recordId, &old, &rid));
    // This unit of work's snapshot is fixed by now: a direct write that commits later
    // conflicts with the delete below, and one that committed before moved the epoch.
    auto& catalog = BucketCatalog::get();
    uassert(ErrorCodes::TimeseriesBucketCleared,
            "time-series bucket " + from.oid.toString() + " was written since it was moved",
            catalog.directWriteEpoch.load() == from.directWriteEpoch &&
                !bucket_catalog::isBeingDirectlyWritten(
                    catalog, bucket_catalog::BucketId{ts.buckets->uuid(), from.oid}));
    uassert(ErrorCodes::TimeseriesBucketCleared,
            "time-series bucket " + from.oid.toString() + " changed since it was moved",
            storedMeasurementCount(old, ts.options.getTimeField()) ==
                static_cast<long long>(from.count));
    ts.buckets->deleteDocument(opCtx, rid, old);
}

void applyWrite(OperationContext* opCtx, const TimeseriesCollection& ts, WriteBatch& batch) {
    const BucketWrite& w = batch.write;
    // Checked inside the unit of work: a direct write that clears the bucket later
    // conflicts with this one in storage, and the retry finds the bucket cleared.
    uassertStatusOK(bucket_catalog::checkStillPrepared(BucketCatalog::get(), batch));
    // The catalog's own write: the TimeseriesOpObserver must not clear what it writes.
    BucketCatalogWriteScope ownWrite;
    // The bucket's oplog entry carries the statements of the retryable inserts in it.
    std::optional<repl::RetryableWriteScope> scope;
    if (auto owners = RetryableOwners::get().ownersOf(batch); !owners.empty())
        scope.emplace(std::move(owners), repl::RetryableWriteScope::Mode::kAllOnFirstEntry);
    if (w.kind == BucketWrite::Kind::kInsert) {
        // The insert first: a retryable insert's statements go with the first oplog entry.
        batch.recordId = ts.buckets->insertDocument(opCtx, w.document).getLong();
        if (batch.movedFrom)
            deleteMovedBucket(opCtx, ts, *batch.movedFrom);
        return;
    }
    BSONObj old;
    RecordId rid;
    uassert(ErrorCodes::TimeseriesBucketCleared,
            "time-series bucket " + batch.bucketId.oid.toString() + " no longer exists",
            readStoredBucket(opCtx, ts, batch.bucketId.oid, batch.recordId, &old, &rid));
    batch.recordId = rid.getLong();
    // The write was prepared from the in-memory bucket, which must stand on exactly
    // what is stored: another writer may have reopened and appended to the same bucket
    // from an older copy of it. Then this bucket is stale; the batch is retried.
    uassert(ErrorCodes::TimeseriesBucketCleared,
            "time-series bucket " + batch.bucketId.oid.toString() + " changed since it was loaded",
            storedMeasurementCount(old, ts.options.getTimeField()) ==
                static_cast<long long>(batch.numPreviouslyCommittedMeasurements));
    if (w.kind == BucketWrite::Kind::kReplace) {
        ts.buckets->updateDocument(opCtx, rid, old, w.document);
        return;
    }
    BSONObj updated = uassertStatusOK(doc_diff::applyDiff(old, w.diff));
    ts.buckets->updateDocument(opCtx, rid, old, updated, makeUpdateOplogObject(w.diff));
}

/** Writes one prepared batch in its own storage transaction, then finishes or aborts it. */
Status writePrepared(OperationContext* opCtx, const TimeseriesCollection& ts,
                     const std::shared_ptr<WriteBatch>& batch) {
    auto& catalog = BucketCatalog::get();
    RecoveryUnit* ru = opCtx->recoveryUnit();
    try {
        writeConflictRetry(ru, "timeseriesInsert", [&] {
            WriteUnitOfWork wuow(ru);
            applyWrite(opCtx, ts, *batch);
            wuow.commit();
        });
        ru->abandonSnapshot();
    } catch (const DBException& ex) {
        ru->abandonSnapshot();
        bucket_catalog::abort(catalog, batch, ex.toStatus());
        return ex.toStatus();
    }
    bucket_catalog::finish(catalog, batch);
    return Status::OK();
}

/**
 * Writes prepared batches (of different buckets) in one storage transaction: a command
 * touching a hundred series commits once, not a hundred times. When that fails, each
 * batch is written on its own (its in-memory preparation stays valid: a write only reads
 * the stored bucket and applies the prepared change). Fills `statuses`.
 */
void writePreparedGroup(OperationContext* opCtx, const TimeseriesCollection& ts,
                        const std::vector<std::shared_ptr<WriteBatch>>& group,
                        std::map<WriteBatch*, Status>* statuses) {
    if (group.empty())
        return;
    if (group.size() > 1) {
        RecoveryUnit* ru = opCtx->recoveryUnit();
        bool written = false;
        try {
            writeConflictRetry(ru, "timeseriesInsert", [&] {
                WriteUnitOfWork wuow(ru);
                for (const auto& batch : group)
                    applyWrite(opCtx, ts, *batch);
                wuow.commit();
            });
            written = true;
        } catch (const DBException&) {
            // Fall through: one transaction per batch finds the failing one.
        }
        ru->abandonSnapshot();
        if (written) {
            for (const auto& batch : group) {
                bucket_catalog::finish(BucketCatalog::get(), batch);
                statuses->emplace(batch.get(), Status::OK());
            }
            return;
        }
    }
    for (const auto& batch : group)
        statuses->emplace(batch.get(), writePrepared(opCtx, ts, batch));
}

/** Commits `batch` (or waits for whoever does); its final status. */
Status commitBatch(OperationContext* opCtx, const TimeseriesCollection& ts,
                   const CollectionInfo& info, const std::shared_ptr<WriteBatch>& batch) {
    auto& catalog = BucketCatalog::get();
    if (!bucket_catalog::claimWriteBatchCommitRights(*batch))
        return bucket_catalog::getWriteBatchStatus(*batch);
    Status prepared = bucket_catalog::prepareCommit(catalog, info, batch);
    if (!prepared.isOK())
        return prepared;  // the batch is already resolved with this status
    return writePrepared(opCtx, ts, batch);
}

bool isRetryable(const Status& s) {
    return s.code() == ErrorCodes::TimeseriesBucketCleared || s.code() == ErrorCodes::DuplicateKey;
}

Status userFacing(const Status& s) {
    if (s.code() == ErrorCodes::TimeseriesBucketFrozen)
        return Status(ErrorCodes::TimeseriesBucketCompressionFailed, s.reason());
    return s;
}

/** Stages and commits one measurement on its own, retrying cleared buckets. */
Status insertOne(OperationContext* opCtx, const TimeseriesCollection& ts,
                 const CollectionInfo& info, const BSONObj& doc, int64_t index) {
    Status last = Status::OK();
    for (int attempt = 0; attempt < kMaxRetries; ++attempt) {
        auto batch = stage(opCtx, ts, info, doc, index);
        if (!batch.isOK())
            return batch.getStatus();
        last = commitBatch(opCtx, ts, info, batch.getValue());
        if (!isRetryable(last))
            return last;
    }
    return last;
}

/** Whether a time lies outside what a 32-bit seconds count from 1970 holds (§2.2). */
bool needsExtendedRange(long long millis) {
    return millis < 0 || millis >= (1LL << 32) * 1000;
}

/**
 * The order to stage an unordered insert's measurements in: series by series (first
 * appearance), each series on time (stable). Measurements of one series then go through
 * the catalog together, in time order, which keeps buckets sorted (v2) and the per-series
 * state warm in cache; the result is the same as any other order of an unordered insert.
 */
/** One measurement to stage: its index, and its time and series key when already read. */
struct Staged {
    int index;
    std::optional<bucket_catalog::KnownSeries> known;
};

std::vector<Staged> stagingOrder(const TimeseriesCollection& ts,
                                 const std::vector<BSONObj>& measurements,
                                 bucket_catalog::BucketKeyCache& keys, bool* extendedRange) {
    const std::string& timeField = ts.options.getTimeField();
    const auto& metaField = ts.options.getMetaField();
    std::unordered_map<const bucket_catalog::BucketKey*, size_t> groupOf;
    std::vector<std::vector<std::pair<long long, int>>> groups;
    std::vector<const bucket_catalog::BucketKey*> groupKeys;
    for (size_t i = 0; i < measurements.size(); ++i) {
        BSONElement t, meta;
        for (auto&& e : measurements[i]) {
            StringData name = e.fieldNameStringData();
            if (t.eoo() && name == timeField)
                t = e;
            else if (metaField && meta.eoo() && name == *metaField)
                meta = e;
        }
        const bucket_catalog::BucketKey* key =
            metaField ? &keys.get(ts.buckets->uuid(), meta) : nullptr;
        auto [it, added] = groupOf.emplace(key, groups.size());
        if (added) {
            groups.emplace_back();
            groupKeys.push_back(key);
        }
        // A missing or invalid time sorts first; staging reports its error.
        const long long millis = t.type() == BSONType::kDate
                                     ? t.date().toMillisSinceEpoch()
                                     : std::numeric_limits<long long>::min();
        if (t.type() == BSONType::kDate && needsExtendedRange(millis))
            *extendedRange = true;
        groups[it->second].emplace_back(millis, static_cast<int>(i));
    }
    std::vector<Staged> order;
    order.reserve(measurements.size());
    for (size_t gi = 0; gi < groups.size(); ++gi) {
        auto& g = groups[gi];
        std::stable_sort(g.begin(), g.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [millis, i] : g) {
            Staged st{i, std::nullopt};
            if (groupKeys[gi] && millis != std::numeric_limits<long long>::min())
                st.known = bucket_catalog::KnownSeries{Date_t::fromMillisSinceEpoch(millis),
                                                       groupKeys[gi]};
            order.push_back(st);
        }
    }
    return order;
}

}  // namespace

BSONObj findBucketById(OperationContext* opCtx, const TimeseriesCollection& ts,
                       const BSONElement& id) {
    if (id.type() != BSONType::kOid)
        return BSONObj();
    BSONObj doc;
    RecordId rid;
    return findBucket(opCtx, ts, id.OID(), &doc, &rid) ? doc : BSONObj();
}

TimeseriesInsertResult performTimeseriesInserts(OperationContext* opCtx,
                                                const TimeseriesCollection& ts,
                                                const std::vector<BSONObj>& measurements,
                                                bool ordered,
                                                const RetryableInsertStatements* retryable,
                                                int64_t writerId) {
    CollectionInfo info = makeCollectionInfo(ts);
    info.writerId = writerId;
    int64_t token = retryable ? RetryableOwners::get().add(retryable) : 0;
    struct Unregister {
        int64_t token;
        ~Unregister() {
            if (token)
                RetryableOwners::get().remove(token);
        }
    } unregister{token};
    auto tagOf = [token](int i) { return (token << 32) | static_cast<int64_t>(i); };
    auto executedBefore = [retryable](int i) {
        return retryable && retryable->alreadyExecuted[static_cast<size_t>(i)];
    };
    std::map<int, Status> failed;

    // 1. Stage: each measurement joins the open batch of its bucket.
    std::vector<std::shared_ptr<WriteBatch>> batches;
    std::map<WriteBatch*, std::vector<int>> mine;
    bucket_catalog::BucketKeyCache keys;
    std::vector<Staged> order;
    bool extendedRange = false;
    if (ordered) {
        order.reserve(measurements.size());
        for (size_t i = 0; i < measurements.size(); ++i)
            order.push_back({static_cast<int>(i), std::nullopt});
        if (!ts.buckets->timeseriesFlags().requiresExtendedRangeSupport.load()) {
            for (const auto& m : measurements) {
                BSONElement t = m[ts.options.getTimeField()];
                if (t.type() == BSONType::kDate &&
                    needsExtendedRange(t.date().toMillisSinceEpoch())) {
                    extendedRange = true;
                    break;
                }
            }
        }
    } else {
        order = stagingOrder(ts, measurements, keys, &extendedRange);
    }
    // Queries must stop deriving _id bounds from times once such a time is stored: flag the
    // collection before any of these measurements can be read.
    if (extendedRange && !ts.buckets->timeseriesFlags().requiresExtendedRangeSupport.load()) {
        auto* catalog = opCtx->getServiceContext()->catalog;
        uassertStatusOK(catalog->setTimeseriesFlag(opCtx, ts.buckets,
                                                   CollectionCatalog::kExtendedRangeFlag, true));
    }
    {
        // An interruption while staging (killOp, maxTimeMS, disconnect, shutdown) must not leave
        // this command's measurements in open batches for another writer to commit later: each
        // batch it can still claim is aborted as cleared (writers that joined it retry theirs).
        struct AbortStagedOnThrow {
            std::vector<std::shared_ptr<WriteBatch>>* batches;
            int uncaught = std::uncaught_exceptions();
            ~AbortStagedOnThrow() {
                if (std::uncaught_exceptions() == uncaught)
                    return;
                for (const auto& batch : *batches)
                    if (bucket_catalog::claimWriteBatchCommitRights(*batch))
                        bucket_catalog::abort(
                            BucketCatalog::get(), batch,
                            Status(ErrorCodes::TimeseriesBucketCleared,
                                   "an insert staging into this batch was interrupted"));
            }
        } abortStagedOnThrow{&batches};
        for (const Staged& st : order) {
            const int i = st.index;
            opCtx->checkForInterrupt();
            if (executedBefore(i))
                continue;  // a retried statement that already ran: counted, not staged again
            auto sw = stage(opCtx, ts, info, measurements[i], tagOf(i), &keys,
                            st.known ? &*st.known : nullptr);
            if (!sw.isOK()) {
                failed.emplace(i, sw.getStatus());
                if (ordered)
                    break;
                continue;
            }
            auto& idx = mine[sw.getValue().get()];
            if (idx.empty())
                batches.push_back(sw.getValue());
            idx.push_back(i);
        }
    }

    // 2. Commit. The batches this command has commit rights for are prepared and written
    // together; a batch another writer commits is waited for only once ours are written
    // (waiting while holding prepared batches could wait on a writer waiting on us).
    auto& catalog = BucketCatalog::get();
    std::map<WriteBatch*, Status> statuses;
    std::vector<std::shared_ptr<WriteBatch>> group, othersCommit;
    for (const auto& batch : batches) {
        if (!bucket_catalog::claimWriteBatchCommitRights(*batch)) {
            othersCommit.push_back(batch);
            continue;
        }
        Status prepared = Status::OK();
        if (!bucket_catalog::tryPrepareCommit(catalog, info, batch, &prepared)) {
            writePreparedGroup(opCtx, ts, group, &statuses);
            group.clear();
            prepared = bucket_catalog::prepareCommit(catalog, info, batch);
        }
        if (prepared.isOK())
            group.push_back(batch);
        else
            statuses.emplace(batch.get(), prepared);
    }
    writePreparedGroup(opCtx, ts, group, &statuses);
    for (const auto& batch : othersCommit)
        statuses.emplace(batch.get(), bucket_catalog::getWriteBatchStatus(*batch));

    for (const auto& batch : batches) {
        Status s = statuses.at(batch.get());
        if (s.isOK())
            continue;
        for (int i : mine[batch.get()]) {
            Status r = isRetryable(s) ? insertOne(opCtx, ts, info, measurements[i], tagOf(i)) : s;
            if (!r.isOK())
                failed.emplace(i, r);
        }
    }

    TimeseriesInsertResult result;
    if (ordered) {
        if (failed.empty()) {
            result.n = static_cast<long long>(measurements.size());
        } else {
            auto& [index, status] = *failed.begin();
            result.n = index;
            result.errors.push_back({index, userFacing(status), nullptr});
        }
        return result;
    }
    result.n = static_cast<long long>(measurements.size() - failed.size());
    for (auto& [index, status] : failed)
        result.errors.push_back({index, userFacing(status), nullptr});
    return result;
}

}  // namespace mongo::timeseries
