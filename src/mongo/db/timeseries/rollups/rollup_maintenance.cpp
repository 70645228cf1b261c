#include "mongo/db/timeseries/rollups/rollup_maintenance.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <shared_mutex>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/db/timeseries/rollups/rollup_levels.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo::timeseries::rollups {
namespace {

// Pending entry fields: {_id: ObjectId, m: <bucket meta> (absent: none), lo: Date, hi: Date}
// for a write, or {_id, rebuild: <span seconds>} for a level to rebuild.
constexpr StringData kPendingSuffix = "pending";
constexpr StringData kPendingMeta = "m";
constexpr StringData kPendingLo = "lo";
constexpr StringData kPendingHi = "hi";
constexpr StringData kPendingRebuild = "rebuild";
// Index names of a level collection: the bin start (TTL when the level has a retention) and
// the series + bin start (the catch-up's deletes).
constexpr StringData kTimeIndexName = "t_1";
constexpr StringData kMetaTimeIndexName = "m_1_t_1";

// Pending entries one catch-up round reads, and rows one unit of work writes.
constexpr size_t kPendingBatch = 10000;
constexpr size_t kRowsPerUnit = 500;

thread_local bool tlRawExpiry = false;

CollectionCatalog* catalogOf(OperationContext* opCtx) {
    return opCtx->getServiceContext()->catalog;
}

/** The stored time-series options of the view's buckets, or nullopt. */
std::optional<TimeseriesOptions> optionsOf(OperationContext* opCtx, const NamespaceString& viewNss,
                                           std::shared_ptr<Collection>* bucketsOut) {
    auto buckets = catalogOf(opCtx)->lookup(viewNss.makeTimeseriesBucketsNamespace());
    if (!buckets)
        return std::nullopt;
    BSONElement ts = buckets->options()["timeseries"];
    if (ts.type() != BSONType::kObject)
        return std::nullopt;
    auto options = TimeseriesOptions::parse(ts.Obj(), "timeseries");
    if (bucketsOut)
        *bucketsOut = std::move(buckets);
    return options;
}

std::shared_ptr<Collection> createIfMissing(OperationContext* opCtx, const NamespaceString& nss) {
    auto* catalog = catalogOf(opCtx);
    if (auto coll = catalog->lookup(nss))
        return coll;
    auto sw = catalog->createCollection(opCtx, nss, BSONObj());
    if (sw.getStatus().code() == ErrorCodes::NamespaceExists)
        return catalog->lookup(nss);
    return uassertStatusOK(std::move(sw));
}

BSONObj timeIndexSpec(const RollupLevel& level) {
    BSONObjBuilder b;
    b.append("v", 2);
    b.append("key", BSON(kRowTime << 1));
    b.append("name", kTimeIndexName);
    if (level.expireAfterSeconds)
        b.append("expireAfterSeconds", *level.expireAfterSeconds);
    return b.obj();
}

/** The level's collection with its indexes (created when missing). */
std::shared_ptr<Collection> ensureLevelCollection(OperationContext* opCtx,
                                                  const TimeseriesOptions& options,
                                                  const RollupLevel& level) {
    auto coll = createIfMissing(opCtx, level.nss);
    std::vector<BSONObj> specs{timeIndexSpec(level)};
    if (options.getMetaField())
        specs.push_back(BSON("v" << 2 << "key" << BSON(kRowMeta << 1 << kRowTime << 1) << "name"
                                 << kMetaTimeIndexName));
    uassertStatusOK(catalogOf(opCtx)->createIndexes(opCtx, level.nss, specs).getStatus());
    return coll;
}

/** Runs `stages` over `coll` (`viewPrefix`: the time-series view stages first), calling
 * `consume` for each output document. */
template <typename F>
void runPipeline(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                 const std::vector<BSONObj>& stages, F&& consume) {
    auto expCtx = std::make_shared<ExpressionContext>(opCtx, coll->ns());
    expCtx->allowDiskUse = true;
    auto pipeline = Pipeline::parse(stages, expCtx);
    pipeline->optimize();
    FindPlanParams params = pipeline->extractFindParams();
    pipeline->attachExecutor(buildFindPlan(opCtx, coll, params));
    while (auto doc = pipeline->getNext()) {
        opCtx->checkForInterrupt();
        consume(doc->getOwned());
    }
}

/** The rows of `level` computed from the measurements matching `filter` (on the view). */
std::vector<BSONObj> computeRows(OperationContext* opCtx,
                                 const std::shared_ptr<Collection>& buckets,
                                 const TimeseriesOptions& options, const RollupLevel& level,
                                 const BSONObj& filter) {
    std::vector<BSONObj> stages = generateViewPipeline(options);
    for (auto& st : makeRowComputationPipeline(options, level, filter))
        stages.push_back(std::move(st));
    std::vector<BSONObj> rows;
    runPipeline(opCtx, buckets, stages, [&](BSONObj row) { rows.push_back(std::move(row)); });
    return rows;
}

/** A catch-up racing a drop stops (REQUIRES: the collection's lock held). */
void checkNotDropped(const Collection& coll) {
    uassert(ErrorCodes::NamespaceNotFound, "rollup collection dropped: " + coll.ns().ns(),
            !coll.isDropped());
}

/**
 * Deletes the rows `deleteFirst` (documents `deletedDocs`) and inserts `rows` into `coll`,
 * kRowsPerUnit inserts per unit of work.
 */
void replaceRows(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                 const std::vector<BSONObj>& rows, const std::vector<RecordId>& deleteFirst,
                 const std::vector<BSONObj>& deletedDocs) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    // The old rows of the range go in the same unit of work as the first new ones, so that a
    // reader never sees the range empty.
    writeConflictRetry(ru, "rollup rows", [&] {
        WriteUnitOfWork wuow(ru);
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        checkNotDropped(*coll);
        for (size_t i = 0; i < deleteFirst.size(); ++i)
            coll->deleteDocument(opCtx, deleteFirst[i], deletedDocs[i]);
        for (size_t i = 0; i < std::min(rows.size(), kRowsPerUnit); ++i)
            coll->insertDocument(opCtx, rows[i]);
        wuow.commit();
    });
    for (size_t start = kRowsPerUnit; start < rows.size(); start += kRowsPerUnit) {
        opCtx->checkForInterrupt();
        writeConflictRetry(ru, "rollup rows", [&] {
            WriteUnitOfWork wuow(ru);
            std::shared_lock<std::shared_mutex> lk(coll->lock());
            checkNotDropped(*coll);
            for (size_t i = start; i < std::min(rows.size(), start + kRowsPerUnit); ++i)
                coll->insertDocument(opCtx, rows[i]);
            wuow.commit();
        });
    }
}

/** The level's rows matching `filter`, with their RecordIds. */
void findRows(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
              const BSONObj& filter, std::vector<RecordId>* ids, std::vector<BSONObj>* docs) {
    auto expCtx = std::make_shared<ExpressionContext>(opCtx, coll->ns());
    auto pipeline = Pipeline::parse({BSON("$match" << filter)}, expCtx);
    FindPlanParams params = pipeline->extractFindParams();
    auto exec = buildFindPlan(opCtx, coll, params);
    BSONObj doc;
    RecordId rid;
    while (exec->getNext(opCtx, &doc, &rid)) {
        opCtx->checkForInterrupt();
        ids->push_back(rid);
        docs->push_back(doc.getOwned());
    }
}

/** The element's type and value bytes (no field name): equal values of one source compare equal. */
std::string valueKey(const BSONElement& e) {
    BSONObjBuilder b;
    b.appendAs(e, "");
    BSONObj o = b.obj();
    return std::string(o.objdata(), o.objsize());
}

/** A time range of one series, in bin-aligned milliseconds [lo, hi). */
struct SeriesRange {
    long long lo;
    long long hi;
};

long long binEnd(long long timeMillis, long long spanSeconds) {
    const long long start = binStartMillis(timeMillis, spanSeconds);
    const long long span = spanSeconds * 1000;
    return start > std::numeric_limits<long long>::max() - span
               ? std::numeric_limits<long long>::max()
               : start + span;
}

/** The first document of `stages` over `coll`, or {}. */
BSONObj firstResult(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                    const std::vector<BSONObj>& stages) {
    BSONObj out;
    runPipeline(opCtx, coll, stages, [&](BSONObj doc) {
        if (out.isEmpty())
            out = std::move(doc);
    });
    return out;
}

/**
 * [lo, hi) cut to where data can be: the times of the raw buckets and of the level's rows
 * (a wide range, e.g. from a bucket without control times, then costs what the data costs).
 */
SeriesRange clampToData(OperationContext* opCtx, const std::shared_ptr<Collection>& buckets,
                        const TimeseriesOptions& options, const RollupLevel& level,
                        const std::shared_ptr<Collection>& levelColl, SeriesRange range) {
    const std::string& t = options.getTimeField();
    BSONObj raw = firstResult(opCtx, buckets,
                              {BSON("$group" << BSON("_id" << BSONNULL << "lo"
                                                           << BSON("$min"
                                                                   << "$control.min." + t)
                                                           << "hi"
                                                           << BSON("$max"
                                                                   << "$control.max." + t)))});
    BSONObj rows = firstResult(opCtx, levelColl,
                               {BSON("$group" << BSON("_id" << BSONNULL << "lo"
                                                            << BSON("$min"
                                                                    << "$t")
                                                            << "hi"
                                                            << BSON("$max"
                                                                    << "$t")))});
    long long lo = std::numeric_limits<long long>::max();
    long long hi = std::numeric_limits<long long>::min();
    for (const BSONObj& r : {raw, rows}) {
        if (r["lo"].type() == BSONType::kDate)
            lo = std::min(lo, r["lo"].date().toMillisSinceEpoch());
        if (r["hi"].type() == BSONType::kDate)
            hi = std::max(hi, r["hi"].date().toMillisSinceEpoch());
    }
    if (lo > hi)
        return {0, 0};  // no data at all: nothing to recompute
    return {std::max(range.lo, binStartMillis(lo, level.spanSeconds)),
            std::min(range.hi, binEnd(hi, level.spanSeconds))};
}

/** Recomputes `level`'s rows of the series `meta` (eoo: none) in the bin-aligned [lo, hi). */
void recomputeWindow(OperationContext* opCtx, const std::shared_ptr<Collection>& buckets,
                     const TimeseriesOptions& options, const RollupLevel& level,
                     const std::shared_ptr<Collection>& levelColl, const BSONElement* meta,
                     const SeriesRange& range) {
    const auto& metaField = options.getMetaField();
    BSONObjBuilder viewFilter, rowFilter;
    if (metaField && meta) {
        // Equality on the whole series value ($eq, so that an object is never read as
        // operators); a bucket without meta and one with null meta are both "null" here, on
        // both sides, so the deleted and the recomputed rows are the same series.
        BSONObjBuilder eq;
        if (meta->eoo())
            eq.appendNull("$eq");
        else
            eq.appendAs(*meta, "$eq");
        BSONObj eqObj = eq.obj();
        viewFilter.append(*metaField, eqObj);
        rowFilter.append(kRowMeta, eqObj);
    }
    BSONObj timeRange = BSON("$gte" << Date_t::fromMillisSinceEpoch(range.lo) << "$lt"
                                    << Date_t::fromMillisSinceEpoch(range.hi));
    viewFilter.append(options.getTimeField(), timeRange);
    rowFilter.append(kRowTime, timeRange);

    std::vector<BSONObj> rows = computeRows(opCtx, buckets, options, level, viewFilter.obj());
    std::vector<RecordId> ids;
    std::vector<BSONObj> old;
    findRows(opCtx, levelColl, rowFilter.obj(), &ids, &old);
    // A buckets collation may let the raw filter match more series than the rows' simple
    // equality: their recomputed rows replace the old ones by _id. Without one, the two
    // filters match the same series, and a row not found above is new (the usual case while
    // data arrives): no lookup per row.
    if (buckets->getDefaultCollator()) {
        std::set<std::string> deleted;
        for (const auto& o : old)
            deleted.insert(valueKey(o["_id"]));
        for (const auto& r : rows)
            if (!deleted.count(valueKey(r["_id"])))
                findRows(opCtx, levelColl, BSON("_id" << BSON("$eq" << r["_id"])), &ids, &old);
    }
    replaceRows(opCtx, levelColl, rows, ids, old);
}

// Bins one recomputation covers at most: bounds the rows held in memory to this many per
// series.
constexpr long long kBinsPerWindow = 1000;

/** Recomputes [range) of `level` for `meta` (null: every series), window by window. */
void recomputeRange(OperationContext* opCtx, const std::shared_ptr<Collection>& buckets,
                    const TimeseriesOptions& options, const RollupLevel& level,
                    const std::shared_ptr<Collection>& levelColl, const BSONElement* meta,
                    SeriesRange range) {
    const long long window = level.spanSeconds * 1000 * kBinsPerWindow;
    // Widths as unsigned: a range may go from the smallest to the largest date.
    auto wider = [window](long long lo, long long hi) {
        return static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo) >
               static_cast<unsigned long long>(window);
    };
    if (wider(range.lo, range.hi))
        range = clampToData(opCtx, buckets, options, level, levelColl, range);
    for (long long lo = range.lo; lo < range.hi;) {
        opCtx->checkForInterrupt();
        long long hi = wider(lo, range.hi) ? lo + window : range.hi;
        recomputeWindow(opCtx, buckets, options, level, levelColl, meta, {lo, hi});
        lo = hi;
    }
}

/** Drops and recomputes the whole of `level`. */
void rebuildLevel(OperationContext* opCtx, const std::shared_ptr<Collection>& buckets,
                  const TimeseriesOptions& options, const RollupLevel& level) {
    auto* catalog = catalogOf(opCtx);
    if (catalog->lookup(level.nss)) {
        Status s = catalog->dropCollection(opCtx, level.nss);
        if (s.code() != ErrorCodes::NamespaceNotFound)
            uassertStatusOK(s);
    }
    auto levelColl = ensureLevelCollection(opCtx, options, level);
    recomputeRange(opCtx, buckets, options, level, levelColl, nullptr,
                   {std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max()});
}

/** Merges overlapping or touching ranges. */
std::vector<SeriesRange> mergeRanges(std::vector<SeriesRange> ranges) {
    std::sort(ranges.begin(), ranges.end(),
              [](const SeriesRange& a, const SeriesRange& b) { return a.lo < b.lo; });
    std::vector<SeriesRange> out;
    for (const auto& r : ranges) {
        if (!out.empty() && r.lo <= out.back().hi)
            out.back().hi = std::max(out.back().hi, r.hi);
        else
            out.push_back(r);
    }
    return out;
}

long long dateOr(const BSONElement& e, long long otherwise) {
    return e.type() == BSONType::kDate ? e.date().toMillisSinceEpoch() : otherwise;
}

std::mutex gCatchUpMapMutex;
std::map<std::string, std::shared_ptr<std::mutex>> gCatchUpMutexes;

std::shared_ptr<std::mutex> catchUpMutexFor(const NamespaceString& viewNss) {
    std::lock_guard<std::mutex> lk(gCatchUpMapMutex);
    auto& m = gCatchUpMutexes[viewNss.ns()];
    if (!m)
        m = std::make_shared<std::mutex>();
    return m;
}

/** One round: at most kPendingBatch entries. Returns false when nothing was pending. */
bool catchUpRound(OperationContext* opCtx, const NamespaceString& viewNss) {
    std::shared_ptr<Collection> buckets;
    auto options = optionsOf(opCtx, viewNss, &buckets);
    auto pending = catalogOf(opCtx)->lookup(makePendingNss(viewNss));
    if (!pending)
        return false;
    RecoveryUnit* ru = opCtx->recoveryUnit();
    ru->abandonSnapshot();
    std::vector<Record> entries;
    {
        auto cursor = pending->recordStore()->getCursor(ru);
        while (entries.size() < kPendingBatch) {
            auto rec = cursor->next();
            if (!rec)
                break;
            entries.push_back(std::move(*rec));
        }
    }
    if (entries.empty())
        return false;

    if (options) {
        const auto levels = getRollupLevels(viewNss, *options);
        std::set<long long> rebuild;
        // Per series (its meta wrapped as {"": m}, {} for none): touched raw ranges.
        // Per series (valueKey of its meta, "" for none): the meta and the touched ranges.
        std::map<std::string, std::pair<BSONObj, std::vector<SeriesRange>>> touched;
        for (const auto& rec : entries) {
            const BSONObj& e = rec.data;
            if (e[kPendingRebuild].isNumber()) {
                rebuild.insert(e[kPendingRebuild].numberLong());
                continue;
            }
            BSONElement m = e[kPendingMeta];
            auto& series = touched[m.eoo() ? std::string() : valueKey(m)];
            if (series.first.isEmpty() && !m.eoo())
                series.first = e;  // the entry owns the meta element read below
            series.second.push_back(
                SeriesRange{dateOr(e[kPendingLo], std::numeric_limits<long long>::min()),
                            dateOr(e[kPendingHi], std::numeric_limits<long long>::max())});
        }
        for (const auto& level : levels) {
            opCtx->checkForInterrupt();
            if (rebuild.count(level.spanSeconds) || !catalogOf(opCtx)->lookup(level.nss)) {
                rebuildLevel(opCtx, buckets, *options, level);
                continue;
            }
            auto levelColl = ensureLevelCollection(opCtx, *options, level);
            for (const auto& [key, series] : touched) {
                std::vector<SeriesRange> bins;
                for (const auto& r : series.second)
                    bins.push_back(SeriesRange{binStartMillis(r.lo, level.spanSeconds),
                                               binEnd(r.hi, level.spanSeconds)});
                BSONElement meta = series.first[kPendingMeta];
                for (const auto& r : mergeRanges(std::move(bins)))
                    recomputeRange(opCtx, buckets, *options, level, levelColl, &meta, r);
            }
        }
        // Rebuilds of spans no longer listed: their collections go.
        for (long long span : rebuild) {
            bool listed = std::any_of(levels.begin(), levels.end(),
                                      [&](const RollupLevel& l) { return l.spanSeconds == span; });
            NamespaceString nss = makeRollupNss(viewNss, span);
            if (!listed && catalogOf(opCtx)->lookup(nss)) {
                Status s = catalogOf(opCtx)->dropCollection(opCtx, nss);
                if (s.code() != ErrorCodes::NamespaceNotFound)
                    uassertStatusOK(s);
            }
        }
    }
    // Only now are the entries done; a crash before this point repeats the (idempotent) work.
    for (size_t start = 0; start < entries.size(); start += kRowsPerUnit) {
        writeConflictRetry(ru, "rollup pending", [&] {
            WriteUnitOfWork wuow(ru);
            std::shared_lock<std::shared_mutex> lk(pending->lock());
            checkNotDropped(*pending);
            for (size_t i = start; i < std::min(entries.size(), start + kRowsPerUnit); ++i)
                pending->deleteDocument(opCtx, entries[i].id, entries[i].data);
            wuow.commit();
        });
    }
    return entries.size() == kPendingBatch;
}

/** `s` is all digits (a level's span) or "pending". */
bool isRollupSuffix(StringData s) {
    if (s == kPendingSuffix)
        return true;
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

NamespaceString makePendingNss(const NamespaceString& viewNss) {
    return NamespaceString(viewNss.db(), std::string(kRollupsPrefix) + viewNss.coll() + "." +
                                             std::string(kPendingSuffix));
}

std::optional<NamespaceString> viewNssOfRollupNss(const NamespaceString& nss) {
    if (!isRollupNss(nss))
        return std::nullopt;
    StringData rest = StringData(nss.coll()).substr(kRollupsPrefix.size());
    size_t dot = rest.rfind('.');
    if (dot == std::string::npos || dot == 0 || !isRollupSuffix(rest.substr(dot + 1)))
        return std::nullopt;
    return NamespaceString(nss.db(), std::string(rest.substr(0, dot)));
}

void createRollupCollections(OperationContext* opCtx, const NamespaceString& viewNss,
                             const TimeseriesOptions& options) {
    if (!options.getRollups() || options.getRollups()->empty())
        return;
    createIfMissing(opCtx, makePendingNss(viewNss));
    for (const auto& level : getRollupLevels(viewNss, options))
        ensureLevelCollection(opCtx, options, level);
}

void dropRollupCollections(OperationContext* opCtx, const NamespaceString& viewNss) {
    auto* catalog = catalogOf(opCtx);
    for (const auto& coll : catalog->collectionsInDb(viewNss.db())) {
        auto owner = viewNssOfRollupNss(coll->ns());
        if (!owner || *owner != viewNss)
            continue;
        Status s = catalog->dropCollection(opCtx, coll->ns());
        if (s.code() != ErrorCodes::NamespaceNotFound)
            uassertStatusOK(s);
    }
}

void noteBucketWrite(OperationContext* opCtx, const Collection& buckets, const BSONObj& before,
                     const BSONObj& after) {
    if (tlRawExpiry || !buckets.ns().isTimeseriesBucketsCollection())
        return;
    BSONElement ts = buckets.options()["timeseries"];
    if (ts.type() != BSONType::kObject)
        return;
    BSONElement rollups = ts.Obj()["rollups"];
    if (rollups.type() != BSONType::kArray || rollups.Obj().isEmpty())
        return;
    const std::string timeField = ts.Obj()["timeField"].str();
    auto pending =
        catalogOf(opCtx)->lookup(makePendingNss(buckets.ns().getTimeseriesViewNamespace()));
    if (!pending)
        return;  // created with the collection; the monitor's rebuild covers a lost one

    struct Entry {
        BSONElement meta;
        long long lo, hi;
    };
    std::vector<Entry> entries;
    for (const BSONObj* doc : {&before, &after}) {
        if (doc->isEmpty())
            continue;
        BSONObj control = (*doc)[kBucketControlFieldName].type() == BSONType::kObject
                              ? (*doc)[kBucketControlFieldName].Obj()
                              : BSONObj();
        BSONElement minTime = control["min"].type() == BSONType::kObject
                                  ? control["min"].Obj()[timeField]
                                  : BSONElement();
        BSONElement maxTime = control["max"].type() == BSONType::kObject
                                  ? control["max"].Obj()[timeField]
                                  : BSONElement();
        Entry e{(*doc)[kBucketMetaFieldName],
                dateOr(minTime, std::numeric_limits<long long>::min()),
                dateOr(maxTime, std::numeric_limits<long long>::max())};
        if (!entries.empty() && entries.back().meta.binaryEqualValues(e.meta) &&
            entries.back().meta.eoo() == e.meta.eoo()) {
            entries.back().lo = std::min(entries.back().lo, e.lo);
            entries.back().hi = std::max(entries.back().hi, e.hi);
        } else {
            entries.push_back(e);
        }
    }
    std::shared_lock<std::shared_mutex> lk(pending->lock());
    if (pending->isDropped())
        return;  // the collection is being dropped with its levels
    // Joins the caller's unit of work (the bucket write's).
    WriteUnitOfWork wuow(opCtx->recoveryUnit());
    for (const auto& e : entries) {
        BSONObjBuilder b;
        b.append("_id", OID::gen());
        if (!e.meta.eoo())
            b.appendAs(e.meta, kPendingMeta);
        b.append(kPendingLo, Date_t::fromMillisSinceEpoch(e.lo));
        b.append(kPendingHi, Date_t::fromMillisSinceEpoch(e.hi));
        pending->insertDocument(opCtx, b.obj());
    }
    wuow.commit();
}

RawExpiryScope::RawExpiryScope() {
    tlRawExpiry = true;
}

RawExpiryScope::~RawExpiryScope() {
    tlRawExpiry = false;
}

bool RawExpiryScope::active() {
    return tlRawExpiry;
}

void requestRebuild(OperationContext* opCtx, const NamespaceString& viewNss,
                    const std::vector<long long>& spans) {
    if (spans.empty())
        return;
    auto pending = createIfMissing(opCtx, makePendingNss(viewNss));
    RecoveryUnit* ru = opCtx->recoveryUnit();
    writeConflictRetry(ru, "rollup rebuild", [&] {
        WriteUnitOfWork wuow(ru);
        std::shared_lock<std::shared_mutex> lk(pending->lock());
        checkNotDropped(*pending);
        for (long long span : spans)
            pending->insertDocument(opCtx, BSON("_id" << OID::gen() << kPendingRebuild << span));
        wuow.commit();
    });
}

void catchUp(OperationContext* opCtx, const NamespaceString& viewNss) {
    auto mutex = catchUpMutexFor(viewNss);
    std::lock_guard<std::mutex> lk(*mutex);
    while (catchUpRound(opCtx, viewNss))
        opCtx->checkForInterrupt();
}

void syncLevelRetention(OperationContext* opCtx, const NamespaceString& viewNss,
                        const TimeseriesOptions& options) {
    auto* catalog = catalogOf(opCtx);
    for (const auto& level : getRollupLevels(viewNss, options)) {
        auto coll = catalog->lookup(level.nss);
        if (!coll)
            continue;
        std::optional<long long> current;
        bool exists = false;
        {
            std::shared_lock<std::shared_mutex> lk(coll->lock());
            if (IndexEntry* idx = coll->findIndexByName(kTimeIndexName)) {
                exists = true;
                current = idx->desc.expireAfterSeconds;
            }
        }
        if (exists && current == level.expireAfterSeconds)
            continue;
        if (exists) {
            Status s = catalog->dropIndex(opCtx, level.nss, kTimeIndexName);
            if (s.code() != ErrorCodes::IndexNotFound)
                uassertStatusOK(s);
        }
        uassertStatusOK(
            catalog->createIndexes(opCtx, level.nss, {timeIndexSpec(level)}).getStatus());
    }
}

void appendRollupStats(OperationContext* opCtx, const NamespaceString& viewNss,
                       const TimeseriesOptions& options, BSONObjBuilder& result) {
    if (!options.getRollups())
        return;
    auto* catalog = catalogOf(opCtx);
    RecoveryUnit* ru = opCtx->recoveryUnit();
    long long pendingWrites = 0;
    std::optional<Date_t> oldest;
    if (auto pending = catalog->lookup(makePendingNss(viewNss))) {
        pendingWrites = pending->numRecords(opCtx);
        if (pendingWrites > 0) {
            auto cursor = pending->recordStore()->getCursor(ru);
            if (auto rec = cursor->next(); rec && rec->data["_id"].type() == BSONType::kOid)
                oldest = rec->data["_id"].OID().asDateT();
        }
    }
    BSONArrayBuilder arr(result.subarrayStart("rollups"));
    for (const auto& level : getRollupLevels(viewNss, options)) {
        BSONObjBuilder b(arr.subobjStart());
        b.appendNumber("bucketSpanSeconds", level.spanSeconds);
        b.append("ns", level.nss.ns());
        if (level.expireAfterSeconds)
            b.appendNumber("expireAfterSeconds", *level.expireAfterSeconds);
        auto coll = catalog->lookup(level.nss);
        b.appendNumber("rows", coll ? coll->numRecords(opCtx) : 0LL);
        b.appendNumber("size", coll ? coll->dataSize(opCtx) : 0LL);
        b.appendNumber("storageSize", coll ? coll->recordStore()->storageSize(ru) : 0LL);
        b.appendNumber("pendingWrites", pendingWrites);
        const long long lagMillis =
            oldest ? std::max<long long>(0, (Date_t::now() - *oldest).count()) : 0;
        b.append("lagSeconds", static_cast<double>(lagMillis) / 1000.0);
    }
}

RollupCatchUpMonitor::RollupCatchUpMonitor(ServiceContext* sc)
    : _sc(sc),
      _thread([] { logv2::setThreadName("RollupCatchUp"); },
              [] { return std::chrono::milliseconds(gRollupCatchUpIntervalMillis.load()); },
              [this] { _pass(); }, true) {}

void RollupCatchUpMonitor::_pass() {
    if (!repl::ReplicationCoordinator::get()->canAcceptWrites())
        return;
    OperationContext opCtx(_sc, nullptr, --_opId);
    opCtx.swapRecoveryUnit(_sc->storageEngine->newRecoveryUnit());
    std::vector<NamespaceString> views;
    for (const auto& db : _sc->catalog->databaseNames())
        for (const auto& coll : _sc->catalog->collectionsInDb(db))
            if (StringData(coll->ns().coll()).ends_with("." + std::string(kPendingSuffix)))
                if (auto view = viewNssOfRollupNss(coll->ns());
                    view && coll->numRecords(&opCtx) > 0)
                    views.push_back(*view);
    for (const auto& view : views) {
        if (_thread.stopRequested())
            return;
        try {
            catchUp(&opCtx, view);
        } catch (const DBException& ex) {
            if (!_sc->catalog->lookup(makePendingNss(view)))
                continue;  // dropped meanwhile: nothing left to catch up
            LOGV2_WARNING(9170100, "Rollup catch-up failed",
                          BSON("namespace" << view.ns() << "error" << ex.toStatus().toString()));
        }
    }
}

}  // namespace mongo::timeseries::rollups
