#include "mongo/db/timeseries/timeseries_modify.h"

#include <memory>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/matcher/explain_filter.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/matcher/expression_sort.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/timeseries_bucket_rewrite.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/update/update_driver.h"
#include "mongo/util/assert_util.h"

namespace mongo::timeseries {
namespace {

using bucket_catalog::BucketCatalog;

struct Candidate {
    RecordId rid;
    BSONObj bucket;
};

/**
 * The statement's filter; strings compare with `collator` (the collection's default
 * collation, kept alive by the caller's TimeseriesCollection; null: simple).
 */
std::shared_ptr<MatchExpression> parseFilter(const BSONObj& filter,
                                             const CollatorInterface* collator = nullptr) {
    if (filter.isEmpty())
        return nullptr;
    std::shared_ptr<MatchExpression> m(uassertStatusOK(parseMatchExpression(filter)));
    if (collator)
        m->setCollator(collator);
    return m;
}

}  // namespace

StatementCollation resolveStatementCollation(const TimeseriesCollection& ts,
                                             const std::optional<BSONObj>& collation) {
    StatementCollation out;
    out.collator = getBucketsCollator(ts.buckets);
    if (collation && !collation->isEmpty()) {  // {} is none given, as upstream's
        out.collator = uassertStatusOK(makeCollator(*collation));
        out.matchesDefault =
            CollatorInterface::collatorsMatch(out.collator.get(), ts.buckets->getDefaultCollator());
    }
    return out;
}

namespace {

FindPlanParams bucketPlanParams(const TimeseriesCollection& ts, const TimeseriesQuerySplit& split,
                                const BSONObj& hint, const CollatorInterface* collator) {
    FindPlanParams p;
    p.filter = split.bucketFilter;
    p.collator = collator;
    p.matcher = parseFilter(split.bucketFilter, p.collator);
    p.hint = uassertStatusOK(translateTimeseriesHint(ts.options, hint));
    if (!p.hint.isEmpty() && p.hint.firstElementFieldNameStringData() == "$hint")
        p.hintName = p.hint.firstElement().str();
    return p;
}

std::vector<BSONObj> unpack(const TimeseriesCollection& ts, const BSONObj& bucket) {
    const auto& meta = ts.options.getMetaField();
    auto rows = extractMeasurements(bucket, ts.options.getTimeField(),
                                    meta ? std::optional<StringData>(*meta) : std::nullopt);
    if (!rows.isOK())
        uasserted(ErrorCodes::TimeseriesBucketCompressionFailed,
                  "time-series bucket " + bucket[kBucketIdFieldName].toString(false) +
                      " cannot be decompressed: " + rows.getStatus().reason());
    return std::move(rows.getValue());
}

/**
 * The buckets the plan returns, all read before any write (no bucket is visited twice).
 * With `firstMatchOnly`, the scan stops at the first bucket holding a measurement that
 * `matcher` (null: everything) accepts, and only that bucket is returned.
 */
std::vector<Candidate> fetchCandidates(OperationContext* opCtx, const TimeseriesCollection& ts,
                                       const FindPlanParams& params, bool firstMatchOnly,
                                       const MatchExpression* matcher) {
    std::vector<Candidate> out;
    auto exec = buildFindPlan(opCtx, ts.buckets, params);
    opCtx->setPlanSummary(exec->planSummary());  // currentOp shows the bucket scan
    BSONObj doc;
    RecordId rid;
    while (exec->getNext(opCtx, &doc, &rid)) {
        if (!firstMatchOnly) {
            out.push_back(Candidate{rid, doc.getOwned()});
            continue;
        }
        BSONObj bucket = doc.getOwned();
        for (const BSONObj& m : unpack(ts, bucket)) {
            if (!matcher || matcher->matchesBSON(m)) {
                out.push_back(Candidate{rid, bucket});
                return out;
            }
        }
    }
    return out;
}

OID bucketOid(const BSONObj& bucket) {
    BSONElement id = bucket[kBucketIdFieldName];
    uassert(ErrorCodes::BadValue, "time-series bucket _id is not an ObjectId",
            id.type() == BSONType::kOid);
    return id.OID();
}

/** Frozen buckets (compression failed once) are never written again (§3.7). */
void checkNotFrozen(const TimeseriesCollection& ts, const OID& oid) {
    uassert(ErrorCodes::TimeseriesBucketCompressionFailed,
            "time-series bucket " + oid.toString() + " is frozen after a compression failure",
            !bucket_catalog::isFrozen(BucketCatalog::get(),
                                      bucket_catalog::BucketId{ts.buckets->uuid(), oid}));
}

/** Writes the source bucket back with `survivors` (deleted when there are none). */
void writeBackSource(OperationContext* opCtx, const TimeseriesCollection& ts, const Candidate& c,
                     std::vector<BSONObj> survivors, TimeseriesModifyStats& stats) {
    if (survivors.empty()) {
        ts.buckets->deleteDocument(opCtx, c.rid, c.bucket);
        ++stats.nBucketsDeleted;
        return;
    }
    auto collator = getBucketsCollator(ts.buckets);
    BSONObj rewritten = uassertStatusOK(
        rewriteBucketWithMeasurements(c.bucket, std::move(survivors), ts.options, collator.get()));
    ts.buckets->updateDocument(opCtx, c.rid, c.bucket, rewritten);
    ++stats.nBucketsRewritten;
}

void checkTime(const TimeseriesCollection& ts, const BSONObj& measurement) {
    const std::string& timeField = ts.options.getTimeField();
    uassert(ErrorCodes::BadValue,
            "'" + timeField + "' must be present and contain a valid BSON UTC datetime value",
            measurement[timeField].type() == BSONType::kDate);
    uassert(ErrorCodes::BSONObjectTooLarge,
            "Resulting document after update is larger than 16777216",
            measurement.objsize() <= BSONObjMaxUserSize);
}

void insertNewBuckets(OperationContext* opCtx, const TimeseriesCollection& ts,
                      std::vector<BSONObj> measurements, TimeseriesModifyStats& stats) {
    if (measurements.empty())
        return;
    auto collator = getBucketsCollator(ts.buckets);
    auto buckets = uassertStatusOK(makeBucketsForMeasurements(
        std::move(measurements), ts.options, BucketCatalog::get().limits(), collator.get()));
    for (const BSONObj& b : buckets) {
        ts.buckets->insertDocument(opCtx, b);
        ++stats.nBucketsInserted;
    }
}

/** Runs `body` in one unit of work, retried whole on write conflicts; kExplain never commits. */
template <typename F>
void inOneUnitOfWork(OperationContext* opCtx, ModifyMode mode, StringData opName, F&& body) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    try {
        writeConflictRetry(ru, opName, [&] {
            WriteUnitOfWork wuow(ru);
            body();
            if (mode == ModifyMode::kWrite)
                wuow.commit();
        });
    } catch (...) {
        ru->abandonSnapshot();
        throw;
    }
    ru->abandonSnapshot();
}

}  // namespace

TimeseriesQuerySplit prepareTimeseriesModify(const TimeseriesCollection& ts, const BSONObj& query,
                                             bool collationMatchesDefault) {
    parseFilter(query);  // the user's parse errors first
    return splitTimeseriesQuery(ts.options, query,
                                ts.buckets->timeseriesFlags().requiresExtendedRangeSupport.load(),
                                collationMatchesDefault);
}

TimeseriesModifyStats deleteTimeseriesMeasurements(OperationContext* opCtx,
                                                   const TimeseriesCollection& ts,
                                                   const TimeseriesDeleteOp& op, ModifyMode mode,
                                                   std::optional<BSONObj>* firstDeleted) {
    StatementCollation collation = resolveStatementCollation(ts, op.collation);
    TimeseriesQuerySplit split = prepareTimeseriesModify(ts, op.query, collation.matchesDefault);
    auto residual = parseFilter(op.query, collation.collator.get());
    FindPlanParams params = bucketPlanParams(ts, split, op.hint, collation.collator.get());
    const bool wholeBuckets = op.multi && !split.hasResidual() && !firstDeleted;
    const std::string& timeField = ts.options.getTimeField();

    TimeseriesModifyStats stats;
    inOneUnitOfWork(opCtx, mode, "timeseriesDelete", [&] {
        stats = TimeseriesModifyStats();
        if (firstDeleted)
            firstDeleted->reset();
        auto candidates = fetchCandidates(opCtx, ts, params, !op.multi, residual.get());
        for (const Candidate& c : candidates) {
            opCtx->checkForInterrupt();  // one bucket: up to 1000 measurements
            OID oid = bucketOid(c.bucket);
            if (wholeBuckets) {
                long long n = storedMeasurementCount(c.bucket, timeField);
                stats.nMeasurementsMatched += n;
                stats.nMeasurementsDeleted += n;
                ++stats.nBucketsDeleted;
                if (mode == ModifyMode::kWrite)
                    ts.buckets->deleteDocument(opCtx, c.rid, c.bucket);
                continue;
            }
            checkNotFrozen(ts, oid);
            ++stats.nBucketsUnpacked;
            std::vector<BSONObj> survivors;
            long long deleted = 0;
            for (BSONObj& m : unpack(ts, c.bucket)) {
                bool take = (op.multi || stats.nMeasurementsDeleted + deleted == 0) &&
                            (!residual || residual->matchesBSON(m));
                if (take) {
                    if (firstDeleted && !*firstDeleted)
                        *firstDeleted = m.getOwned();
                    ++deleted;
                } else
                    survivors.push_back(std::move(m));
            }
            if (deleted == 0)
                continue;
            stats.nMeasurementsMatched += deleted;
            stats.nMeasurementsDeleted += deleted;
            if (mode == ModifyMode::kWrite)
                writeBackSource(opCtx, ts, c, std::move(survivors), stats);
            if (!op.multi)
                break;
        }
        if (mode == ModifyMode::kWrite && op.inUnitOfWork && stats.nMeasurementsDeleted > 0)
            op.inUnitOfWork(stats, firstDeleted ? *firstDeleted : std::optional<BSONObj>());
    });
    return stats;
}

TimeseriesUpdateOutcome updateTimeseriesMeasurements(OperationContext* opCtx,
                                                     const TimeseriesCollection& ts,
                                                     const TimeseriesUpdateOp& op,
                                                     ModifyMode mode) {
    invariant(op.driver);
    const UpdateDriver& driver = *op.driver;
    uassert(ErrorCodes::FailedToParse, "multi update is not supported for replacement-style update",
            !(op.multi && driver.isReplacement()));
    StatementCollation collation = resolveStatementCollation(ts, op.collation);
    TimeseriesQuerySplit split = prepareTimeseriesModify(ts, op.query, collation.matchesDefault);
    // Canonical form: the array an $and evaluates last sets the positional `$` (upstream's).
    std::shared_ptr<MatchExpression> matcher;
    if (!op.query.isEmpty()) {
        matcher = canonicalizeMatchExpression(uassertStatusOK(parseMatchExpression(op.query)));
        if (collation.collator)
            matcher->setCollator(collation.collator.get());
    }
    FindPlanParams params = bucketPlanParams(ts, split, op.hint, collation.collator.get());

    TimeseriesUpdateOutcome out;
    inOneUnitOfWork(opCtx, mode, "timeseriesUpdate", [&] {
        out = TimeseriesUpdateOutcome();
        TimeseriesModifyStats& stats = out.stats;
        std::vector<BSONObj> modified;
        auto candidates = fetchCandidates(opCtx, ts, params, !op.multi, matcher.get());
        for (const Candidate& c : candidates) {
            opCtx->checkForInterrupt();  // one bucket: up to 1000 measurements
            if (!op.multi && stats.nMeasurementsMatched > 0)
                break;
            OID oid = bucketOid(c.bucket);
            checkNotFrozen(ts, oid);
            ++stats.nBucketsUnpacked;
            std::vector<BSONObj> survivors;
            std::vector<BSONObj> changedHere;
            for (BSONObj& m : unpack(ts, c.bucket)) {
                MatchDetails details;
                if (driver.needsMatchDetails())
                    details.requestElemMatchKey();
                bool take = (op.multi || stats.nMeasurementsMatched == 0) &&
                            (!matcher || matcher->matchesBSON(m, &details));
                if (!take) {
                    survivors.push_back(std::move(m));
                    continue;
                }
                ++stats.nMeasurementsMatched;
                UpdateApplyParams ap;
                ap.idIsMutable = true;  // a measurement's _id is an ordinary field (upstream's)
                if (details.hasElemMatchKey())
                    ap.matchedArrayIndex = details.elemMatchKey();
                UpdateResult r = uassertStatusOK(driver.apply(m, ap));
                if (!out.preImage) {
                    out.preImage = m.getOwned();
                    out.postImage = r.newDoc.getOwned();
                }
                if (!r.changed) {
                    survivors.push_back(std::move(m));
                    continue;
                }
                checkTime(ts, r.newDoc);
                ++stats.nMeasurementsUpdated;
                changedHere.push_back(r.newDoc.getOwned());
            }
            if (changedHere.empty())
                continue;
            if (mode == ModifyMode::kWrite)
                writeBackSource(opCtx, ts, c, std::move(survivors), stats);
            for (auto& m : changedHere)
                modified.push_back(std::move(m));
        }
        if (stats.nMeasurementsMatched == 0 && op.upsert) {
            UpdateApplyParams ap;
            ap.isInsert = true;
            BSONObj doc = uassertStatusOK(driver.produceUpsertDocument(op.query, ap));
            if (doc["_id"].eoo()) {
                BSONObjBuilder b;
                b.append("_id", OID::gen());
                b.appendElements(doc);
                doc = b.obj();
            }
            checkTime(ts, doc);
            BSONObjBuilder idb;
            idb.append(doc["_id"]);
            out.upsertedId = idb.obj();
            out.postImage = doc;
            ++stats.nMeasurementsUpserted;
            modified.push_back(doc);
        }
        if (mode == ModifyMode::kWrite)
            insertNewBuckets(opCtx, ts, std::move(modified), stats);
        if (mode == ModifyMode::kWrite && op.inUnitOfWork &&
            (stats.nMeasurementsUpdated > 0 || out.upsertedId))
            op.inUnitOfWork(out);
    });
    return out;
}

namespace {
/** `filter` as explain prints an optimised filter: flattened, children in canonical order. */
BSONObj canonicalForExplain(const BSONObj& filter) {
    return serializeForExplain(
        *canonicalizeMatchExpression(uassertStatusOK(parseMatchExpression(filter))));
}

/**
 * A TS_MODIFY's bucketFilter as upstream prints it: {$and: [<closed-bucket filter>, <the
 * optimised bucket predicate>]}.
 */
BSONObj bucketFilterForExplain(const BSONObj& bucketFilter) {
    BSONElement e = bucketFilter.firstElement();
    if (bucketFilter.nFields() != 1 || e.fieldNameStringData() != "$and" ||
        e.type() != BSONType::kArray || e.Obj().nFields() != 2)
        return bucketFilter;
    BSONArrayBuilder arr;
    int i = 0;
    for (auto child : e.Obj())
        arr.append(i++ == 0 ? child.Obj() : canonicalForExplain(child.Obj()));
    return BSON("$and" << arr.arr());
}
}  // namespace

BSONObj timeseriesModifyBucketFilter(const TimeseriesCollection& ts, const BSONObj& query,
                                     const std::optional<BSONObj>& collation) {
    StatementCollation c = resolveStatementCollation(ts, collation);
    return canonicalForExplain(prepareTimeseriesModify(ts, query, c.matchesDefault).bucketFilter);
}

BSONObj explainTimeseriesModify(OperationContext* opCtx, const TimeseriesCollection& ts,
                                const BSONObj& query, const BSONObj& hint, bool isDelete,
                                bool multi, const std::optional<BSONObj>& collation,
                                const TimeseriesModifyStats* stats) {
    // The statement's collation decides the bucket predicates, as when it runs.
    StatementCollation c = resolveStatementCollation(ts, collation);
    TimeseriesQuerySplit split = prepareTimeseriesModify(ts, query, c.matchesDefault);
    FindPlanParams params = bucketPlanParams(ts, split, hint, c.collator.get());
    auto exec = buildFindPlan(opCtx, ts.buckets, params);
    BSONObj input = exec->explainPlan(false);
    BSONObjBuilder b;
    if (isDelete && multi && !split.hasResidual()) {
        b.append("stage", "DELETE");
        if (stats)
            b.appendNumber("nWouldDelete", stats->nBucketsDeleted);
        b.append("inputStage", input);
        return b.obj();
    }
    b.append("stage", "TS_MODIFY");
    b.append("opType", isDelete ? (multi ? "deleteMany" : "deleteOne")
                                : (multi ? "updateMany" : "updateOne"));
    b.append("bucketFilter", bucketFilterForExplain(split.bucketFilter));
    b.append("residualFilter", split.hasResidual() ? split.residualFilter : BSONObj());
    if (stats) {
        b.appendNumber("nBucketsUnpacked", stats->nBucketsUnpacked);
        if (isDelete) {
            b.appendNumber("nMeasurementsDeleted", stats->nMeasurementsDeleted);
        } else {
            b.appendNumber("nMeasurementsMatched", stats->nMeasurementsMatched);
            b.appendNumber("nMeasurementsUpdated", stats->nMeasurementsUpdated);
            b.appendNumber("nMeasurementsUpserted", stats->nMeasurementsUpserted);
        }
    }
    b.append("inputStage", input);
    return b.obj();
}

}  // namespace mongo::timeseries
