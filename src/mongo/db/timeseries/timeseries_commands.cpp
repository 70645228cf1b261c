#include "mongo/db/timeseries/timeseries_commands.h"

#include "mongo/bson/bson_comparator.h"
#include "mongo/db/catalog/coll_mod.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/rollups/rollup_levels.h"
#include "mongo/db/timeseries/rollups/rollup_maintenance.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_index_schema_conversion_functions.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/idl/generic_argument.h"
#include "mongo/util/assert_util.h"

namespace mongo::timeseries {
namespace {

CollectionCatalog* catalogOf(OperationContext* opCtx) {
    return opCtx->getServiceContext()->catalog;
}

ViewDefinition makeViewDefinition(const NamespaceString& viewNss, const TimeseriesOptions& o,
                                  const BSONObj& collation) {
    ViewDefinition def;
    def.name = viewNss;
    def.viewOn = viewNss.makeTimeseriesBucketsNamespace();
    for (auto& st : generateViewPipeline(o))
        def.pipeline.push_back(st.getOwned());
    def.collation = collation.getOwned();
    return def;
}

/** The collator of a stored or requested collation spec (empty: simple). */
std::unique_ptr<CollatorInterface> collatorOf(const BSONObj& spec) {
    if (spec.isEmpty())
        return nullptr;
    auto sw = makeCollator(spec);
    return sw.isOK() ? std::move(sw.getValue()) : nullptr;
}

/**
 * The full, normalised spec of the create command's `collation` (§1.6), or an empty object
 * for none or the simple collation. Errors as makeCollator (BadValue, FailedToParse,
 * TypeMismatch).
 */
BSONObj requestedCollation(const BSONObj& cmd) {
    BSONElement e = cmd["collation"];
    if (e.eoo())
        return BSONObj();
    auto collator = uassertStatusOK(makeCollatorFromElement(e));
    return collator ? collator->getSpec().getOwned() : BSONObj();
}

[[noreturn]] void throwNamespaceExists(const NamespaceString& nss) {
    uasserted(ErrorCodes::NamespaceExists, "Namespace " + nss.ns() + " already exists");
}

/** The buckets options a create request asks for, normalised (§1.4). */
BSONObj requestedBucketsOptions(const NamespaceString& nss, const BSONObj& cmd,
                                TimeseriesOptions* outOptions, BSONObj* outCollation) {
    uassertStatusOK(
        validateCreateCommandFields(nss.ns(), cmd, nss.isTimeseriesBucketsCollection()));
    TimeseriesOptions options = TimeseriesOptions::parse(cmd["timeseries"].Obj(), "timeseries");
    uassertStatusOK(validateTimeAndMetaFields(nss.ns(), options));
    std::optional<long long> expireAfterSeconds;
    if (BSONElement e = cmd["expireAfterSeconds"]; !e.eoo()) {
        uassertStatusOK(validateExpireAfterSeconds(e));
        expireAfterSeconds = e.numberLong();
    }
    uassertStatusOK(validateAndSetBucketingParameters(options));
    uassertStatusOK(rollups::validateRollups(options, expireAfterSeconds));
    *outCollation = requestedCollation(cmd);
    *outOptions = options;
    return makeBucketsCollectionOptions(options, expireAfterSeconds, *outCollation, cmd);
}

/** Collation specs compared semantically (§1.5): as collators, empty = simple. */
bool sameCollation(const BSONObj& a, const BSONObj& b) {
    auto ca = collatorOf(a), cb = collatorOf(b);
    return CollatorInterface::collatorsMatch(ca.get(), cb.get());
}

BSONObj collationOption(const BSONObj& options) {
    BSONElement e = options["collation"];
    return e.type() == BSONType::kObject ? e.Obj() : BSONObj();
}

bool sameVisibleOptions(const BSONObj& existing, const BSONObj& requested) {
    auto visible = [](const BSONObj& o) {
        return filterBucketsOptionsForView(o.removeField("uuid")).removeField("collation");
    };
    return compareObjects(visible(existing), visible(requested),
                          ComparisonRules::kConsiderFieldName) == 0 &&
           sameCollation(collationOption(existing), collationOption(requested));
}

void createBuckets(OperationContext* opCtx, const NamespaceString& bucketsNss,
                   const TimeseriesOptions& options, const BSONObj& bucketsOptions) {
    auto* catalog = catalogOf(opCtx);
    auto sw = catalog->createCollection(opCtx, bucketsNss, bucketsOptions);
    if (sw.getStatus().code() == ErrorCodes::NamespaceExists)
        throwNamespaceExists(bucketsNss);
    uassertStatusOK(sw.getStatus());
    if (auto spec = generateDefaultIndexSpec(options, collationOption(bucketsOptions)))
        uassertStatusOK(catalog->createIndexes(opCtx, bucketsNss, {*spec}).getStatus());
    // A new collection starts without mixed-schema buckets (spec §2.2): its buckets are
    // checked on direct inserts and queries may assume it.
    if (auto coll = catalog->lookup(bucketsNss))
        uassertStatusOK(
            catalog->setTimeseriesFlag(opCtx, coll, CollectionCatalog::kMixedSchemaFlag, false));
    rollups::createRollupCollections(opCtx, bucketsNss.getTimeseriesViewNamespace(), options);
}

}  // namespace

void attachBuckets(TimeseriesCollection* ts, std::shared_ptr<Collection> buckets) {
    uassert(ErrorCodes::NamespaceNotFound,
            "Buckets collection not found for time-series collection " + ts->viewNss.ns(), buckets);
    ts->buckets = std::move(buckets);
}

namespace {

/** Whether a bucket's control.min/max show a field with two shapes (malformed: false). */
bool bucketHasMixedSchema(const BSONObj& bucket) {
    BSONElement control = bucket[kBucketControlFieldName];
    if (control.type() != BSONType::kObject)
        return false;  // the validator reports it
    BSONElement min = control.Obj()[kBucketControlMinFieldName];
    BSONElement max = control.Obj()[kBucketControlMaxFieldName];
    if (min.type() != BSONType::kObject || max.type() != BSONType::kObject)
        return false;
    return !bucket_catalog::Schema::parseFromBSON(min.Obj(), max.Obj()).isOK();
}

/** Whether any bucket of `buckets` has mixed-schema data (a scan; interruptible). */
bool anyBucketHasMixedSchema(OperationContext* opCtx, const Collection& buckets) {
    auto cursor = buckets.recordStore()->getCursor(opCtx->recoveryUnit());
    long long n = 0;
    while (auto rec = cursor->next()) {
        if (++n % 128 == 0)
            opCtx->checkForInterrupt();
        if (bucketHasMixedSchema(rec->data))
            return true;
    }
    return false;
}

}  // namespace

Status checkDirectBucketInsert(const Collection& buckets, const BSONObj& bucket) {
    if (buckets.timeseriesFlags().mayHaveMixedSchemaData.load() || !bucketHasMixedSchema(bucket))
        return Status::OK();
    return Status(ErrorCodes::CannotInsertTimeseriesBucketsWithMixedSchema,
                  "Cannot insert a time-series bucket with mixed-schema data into " +
                      buckets.ns().ns() +
                      ": its control.min and control.max disagree on a field's type (set "
                      "timeseriesBucketsMayHaveMixedSchemaData with collMod to allow it)");
}

std::shared_ptr<const CollatorInterface> getBucketsCollator(
    const std::shared_ptr<Collection>& buckets) {
    if (!buckets || !buckets->getDefaultCollator())
        return nullptr;
    // Owned by the collection: the aliasing pointer keeps the collection alive.
    return std::shared_ptr<const CollatorInterface>(buckets, buckets->getDefaultCollator());
}

std::optional<TimeseriesOptions> getBucketsTimeseriesOptions(const Collection& buckets) {
    BSONElement ts = buckets.options()["timeseries"];
    if (ts.type() != BSONType::kObject)
        return std::nullopt;
    auto sw = TimeseriesOptions::parseNoThrow(ts.Obj(), "timeseries");
    if (!sw.isOK())
        return std::nullopt;
    return sw.getValue();
}

bool isTimeseriesViewDefinition(const ViewDefinition& view) {
    return view.viewOn == view.name.makeTimeseriesBucketsNamespace();
}

std::optional<TimeseriesCollection> lookupTimeseriesCollection(OperationContext* opCtx,
                                                               const NamespaceString& nss) {
    if (nss.isTimeseriesBucketsCollection() || nss.isSystem())
        return std::nullopt;
    auto view = lookupView(opCtx, nss);
    if (!view || !isTimeseriesViewDefinition(*view))
        return std::nullopt;
    TimeseriesCollection ts;
    ts.viewNss = nss;
    ts.bucketsNss = nss.makeTimeseriesBucketsNamespace();
    ts.buckets = catalogOf(opCtx)->lookup(ts.bucketsNss);
    if (!ts.buckets)
        return std::nullopt;
    auto options = getBucketsTimeseriesOptions(*ts.buckets);
    if (!options)
        return std::nullopt;
    ts.options = *options;
    return ts;
}

void createTimeseriesCollection(OperationContext* opCtx, const NamespaceString& nss,
                                const BSONObj& cmd) {
    TimeseriesOptions options;
    BSONObj collation;
    BSONObj bucketsOptions = requestedBucketsOptions(nss, cmd, &options, &collation);
    auto* catalog = catalogOf(opCtx);
    const bool onBuckets = nss.isTimeseriesBucketsCollection();
    const NamespaceString bucketsNss = onBuckets ? nss : nss.makeTimeseriesBucketsNamespace();
    const NamespaceString viewNss = onBuckets ? nss.getTimeseriesViewNamespace() : nss;

    auto existingBuckets = catalog->lookup(bucketsNss);
    if (existingBuckets) {
        // Idempotent re-create (§1.5): same visible options, time-series buckets.
        if (!getBucketsTimeseriesOptions(*existingBuckets) ||
            !sameVisibleOptions(existingBuckets->options(), bucketsOptions))
            throwNamespaceExists(nss);
    }
    if (onBuckets) {
        if (!existingBuckets)
            createBuckets(opCtx, bucketsNss, options, bucketsOptions);
        return;
    }
    if (catalog->lookup(viewNss))
        throwNamespaceExists(nss);
    if (auto view = lookupView(opCtx, viewNss)) {
        if (!existingBuckets || !isTimeseriesViewDefinition(*view) ||
            !sameCollation(view->collation, collation))
            throwNamespaceExists(nss);
        return;
    }
    if (!existingBuckets)
        createBuckets(opCtx, bucketsNss, options, bucketsOptions);
    // The view's default collation is the collection's (the existing buckets' when the
    // view is re-created over them; they compare equal to the request).
    Status s = createView(
        opCtx, makeViewDefinition(
                   viewNss, options,
                   existingBuckets ? collationOption(existingBuckets->options()) : collation));
    if (!s.isOK() && !existingBuckets) {
        // Undo the half-created pair (the TimeseriesOpObserver clears its buckets).
        catalog->dropCollection(opCtx, bucketsNss).ignore();
    }
    if (s.code() == ErrorCodes::NamespaceExists)
        throwNamespaceExists(nss);
    uassertStatusOK(s);
}

bool dropTimeseriesCollection(OperationContext* opCtx, const NamespaceString& nss,
                              BSONObjBuilder& result) {
    auto* catalog = catalogOf(opCtx);
    auto dropBuckets = [&](const NamespaceString& bucketsNss) {
        if (!catalog->lookup(bucketsNss))
            return false;
        // The TimeseriesOpObserver clears the bucket catalog when the drop commits.
        Status s = catalog->dropCollection(opCtx, bucketsNss);
        if (s.code() != ErrorCodes::NamespaceNotFound)
            uassertStatusOK(s);
        return true;
    };
    if (nss.isTimeseriesBucketsCollection()) {
        // Drops the buckets and, when they existed, the matching time-series view (§2.4).
        if (!dropBuckets(nss))
            return false;
        NamespaceString viewNss = nss.getTimeseriesViewNamespace();
        if (auto view = lookupView(opCtx, viewNss); view && isTimeseriesViewDefinition(*view))
            dropView(opCtx, viewNss);
        rollups::dropRollupCollections(opCtx, viewNss);
        result.append("ns", nss.ns());
        return true;
    }
    auto view = lookupView(opCtx, nss);
    if (!view && !catalog->lookup(nss)) {
        // Nothing under the name but its buckets (a buckets collection created on its own,
        // as a restore does): dropping the name drops them, as 8.0 does.
        if (!dropBuckets(nss.makeTimeseriesBucketsNamespace()))
            return false;
        rollups::dropRollupCollections(opCtx, nss);
        result.append("ns", nss.ns());
        return true;
    }
    if (!view || !isTimeseriesViewDefinition(*view))
        return false;
    dropView(opCtx, nss);
    dropBuckets(view->viewOn);
    rollups::dropRollupCollections(opCtx, nss);
    result.append("ns", nss.ns());
    return true;
}

BSONObj makeTimeseriesListCollectionsEntry(OperationContext* opCtx, const ViewDefinition& view,
                                           bool nameOnly) {
    BSONObjBuilder b;
    b.append("name", view.name.coll());
    b.append("type", "timeseries");
    if (nameOnly)
        return b.obj();
    auto buckets = catalogOf(opCtx)->lookup(view.viewOn);
    b.append("options", buckets ? filterBucketsOptionsForView(buckets->options()) : BSONObj());
    b.append("info", BSON("readOnly" << false));
    return b.obj();
}

void checkCollModNamespace(const NamespaceString& nss) {
    uassert(ErrorCodes::InvalidNamespace,
            "collMod on a time-series collection's underlying buckets collection is not "
            "supported: " +
                nss.ns(),
            !nss.isTimeseriesBucketsCollection());
}

void checkRenameNamespaces(OperationContext* opCtx, const NamespaceString& from,
                           const NamespaceString& to) {
    for (const auto& n : {from, to}) {
        auto view = lookupView(opCtx, n);
        uassert(ErrorCodes::IllegalOperation, "Cannot rename a time-series collection: " + n.ns(),
                !view || !isTimeseriesViewDefinition(*view));
    }
    // Another buckets namespace is allowed (the caller recreates the view, spec §2.3).
    uassert(ErrorCodes::IllegalOperation,
            "Cannot rename timeseries buckets collection '" + from.ns() +
                "' to a namespace that is not timeseries buckets '" + to.ns() + "'.",
            !from.isTimeseriesBucketsCollection() || to.isTimeseriesBucketsCollection());
    // 8.0 makes no buckets collection without time-series options, by rename neither.
    uassert(ErrorCodes::IllegalOperation,
            "Cannot rename '" + from.ns() + "' to the timeseries buckets namespace '" + to.ns() +
                "': the source is not a timeseries buckets collection.",
            from.isTimeseriesBucketsCollection() || !to.isTimeseriesBucketsCollection());
}

namespace {

/** Every top-level collMod field must be one a time-series collection accepts (§1.7). */
void checkTimeseriesCollModFields(const BSONObj& body) {
    bool first = true;
    bool timeseriesOption = false, otherOption = false;
    for (auto e : body) {
        if (first) {
            first = false;
            continue;
        }
        StringData f = e.fieldNameStringData();
        if (f == "timeseries" || f == CollectionCatalog::kMixedSchemaFlag) {
            timeseriesOption = true;
            continue;
        }
        if (f == "collectionUUID" || isGenericArgument(f))
            continue;
        otherOption = true;
        if (f == "expireAfterSeconds" || f == "index")
            continue;
        uasserted(ErrorCodes::InvalidOptions,
                  "option not supported on a time-series collection: " + std::string(f));
    }
    // Bucketing parameters and the mixed-schema flag go alone (upstream's rule).
    uassert(ErrorCodes::InvalidOptions,
            "time-series options ('timeseries', '" +
                std::string(CollectionCatalog::kMixedSchemaFlag) +
                "') cannot be combined with other collMod options",
            !(timeseriesOption && otherOption));
}

/** The buckets options with expireAfterSeconds set (a number) or removed ("off"). */
BSONObj withCollectionTTL(const BSONObj& options, const BSONElement& ttl) {
    BSONObjBuilder b;
    bool placed = false;
    for (auto o : options) {
        if (o.fieldNameStringData() != "expireAfterSeconds") {
            b.append(o);
        } else if (ttl.isNumber()) {
            b.append("expireAfterSeconds", ttl.numberLong());
            placed = true;
        }
    }
    if (ttl.isNumber() && !placed)
        b.append("expireAfterSeconds", ttl.numberLong());
    return b.obj();
}

}  // namespace

bool collModTimeseriesCollection(OperationContext* opCtx, const NamespaceString& nss,
                                 const CollModCommand& cmd, const BSONObj& body,
                                 BSONObjBuilder& result) {
    auto ts = lookupTimeseriesCollection(opCtx, nss);
    if (!ts)
        return false;
    checkTimeseriesCollModFields(body);
    auto* catalog = catalogOf(opCtx);

    // Everything is validated before the first change.
    std::optional<CollModTimeseriesResult> bucketing;
    if (const auto& mod = cmd.getTimeseries())
        bucketing = uassertStatusOK(applyTimeseriesOptionsModifications(ts->options, *mod));
    BSONElement ttl =
        cmd.getExpireAfterSeconds() ? cmd.getExpireAfterSeconds()->getElement() : BSONElement();
    if (ttl.type() == BSONType::kString) {
        uassert(ErrorCodes::InvalidOptions,
                "Invalid string value for the 'clusteredIndex::expireAfterSeconds' option. Got: '" +
                    ttl.str() + "'. Accepted value is 'off'",
                ttl.valueStringData() == "off");
    } else if (!ttl.eoo()) {
        uassertStatusOK(validateClusteredExpireAfterSeconds(ttl));
    }
    // The raw data's retention after the change, which the rollup levels must not undercut.
    BSONElement currentTtl = ts->buckets->options()["expireAfterSeconds"];
    std::optional<long long> rawRetention;
    if (ttl.isNumber())
        rawRetention = ttl.numberLong();
    else if (ttl.eoo() && currentTtl.isNumber())
        rawRetention = currentTtl.numberLong();
    // The new time-series options when bucketing or rollups change.
    std::optional<TimeseriesOptions> newTimeseries;
    if (bucketing && bucketing->changed)
        newTimeseries = bucketing->options;
    std::vector<long long> rebuildSpans;
    if (const auto& mod = cmd.getTimeseries(); mod && mod->getRollups()) {
        TimeseriesOptions next = newTimeseries ? *newTimeseries : ts->options;
        if (mod->getRollups()->empty())
            next.setRollups(std::nullopt);  // no levels: the collection is 8.0's again
        else
            next.setRollups(*mod->getRollups());
        rebuildSpans = rollups::levelsToRebuild(ts->options, next);
        newTimeseries = next;
    }
    // New levels, a coarser granularity or a shorter raw retention: the levels' rules again.
    if (newTimeseries || !ttl.eoo())
        uassertStatusOK(
            rollups::validateRollups(newTimeseries ? *newTimeseries : ts->options, rawRetention));
    std::optional<CollModIndexChange> indexChange;
    if (const auto& request = cmd.getIndex()) {
        checkCollModIndexShape(*request);
        std::shared_lock<std::shared_mutex> lk(ts->buckets->lock());
        BSONObj bucketsKey;
        if (const auto& key = request->getKeyPattern()) {
            auto converted = createBucketsIndexSpecFromTimeseriesIndexSpec(ts->options, *key);
            uassert(ErrorCodes::IndexNotFound,
                    "cannot find index " + key->toString() + " for ns " + nss.ns(),
                    converted.isOK());
            bucketsKey = converted.getValue();
        }
        IndexEntry* idx = resolveCollModIndex(*ts->buckets, *request, bucketsKey);
        // The buckets' clustered _id index is not one of the collection's indexes (listIndexes
        // does not show it either).
        uassert(ErrorCodes::IndexNotFound,
                "cannot find index " +
                    (request->getName() ? *request->getName() : bucketsKey.toString()) +
                    " for ns " + nss.ns(),
                !idx->desc.spec["clustered"].trueValue());
        indexChange =
            validateCollModIndex(*ts->buckets, *idx, *request, CollModTarget::kTimeseries);
    }
    // The flag may go back to false only when no bucket holds mixed-schema data any more.
    if (auto mixed = cmd.getTimeseriesBucketsMayHaveMixedSchemaData();
        mixed && !*mixed && ts->buckets->timeseriesFlags().mayHaveMixedSchemaData.load()) {
        uassert(ErrorCodes::InvalidOptions,
                "Cannot set timeseriesBucketsMayHaveMixedSchemaData to false on " + nss.ns() +
                    ": its buckets collection holds buckets with mixed-schema data",
                !anyBucketHasMixedSchema(opCtx, *ts->buckets));
    }

    BSONObj options = ts->buckets->options().removeField("uuid");
    bool optionsChanged = false;
    if (bucketing && bucketing->changed) {
        // Buckets made before the change may not follow the new parameters (§1.7).
        uassertStatusOK(catalog->setTimeseriesFlag(
            opCtx, ts->buckets, CollectionCatalog::kParametersChangedFlag, true));
        // The view pipeline first (new bucketMaxSpanSeconds), then the buckets options.
        uassertStatusOK(modifyView(
            opCtx, makeViewDefinition(nss, bucketing->options, collationOption(options))));
    }
    // Levels to rebuild are recorded before the options change: a crash after it still
    // leaves the rebuild to the next catch-up.
    rollups::requestRebuild(opCtx, nss, rebuildSpans);
    if (newTimeseries) {
        BSONObjBuilder b;
        for (auto o : options) {
            if (o.fieldNameStringData() == "timeseries")
                b.append("timeseries", newTimeseries->toBSON());
            else
                b.append(o);
        }
        options = b.obj();
        optionsChanged = true;
    }
    if (auto mixed = cmd.getTimeseriesBucketsMayHaveMixedSchemaData())
        uassertStatusOK(catalog->setTimeseriesFlag(opCtx, ts->buckets,
                                                   CollectionCatalog::kMixedSchemaFlag, *mixed));
    if (!ttl.eoo()) {
        options = withCollectionTTL(options, ttl);
        optionsChanged = true;
    }
    if (indexChange)
        applyCollModIndex(opCtx, ts->bucketsNss, *indexChange, &result);
    if (optionsChanged)
        uassertStatusOK(catalog->updateCollectionOptions(opCtx, ts->bucketsNss, options));
    if (cmd.getTimeseries() && cmd.getTimeseries()->getRollups()) {
        // New levels are built (and removed ones dropped) before the reply.
        rollups::createRollupCollections(opCtx, nss, *newTimeseries);
        rollups::syncLevelRetention(opCtx, nss, *newTimeseries);
        rollups::catchUp(opCtx, nss);
    }
    // Open buckets stay open: the bucket catalog reads the options at each insert, so an open
    // bucket keeps its start and grows to the new bucketMaxSpanSeconds (as 8.0 does).
    return true;
}

void appendTimeseriesStatsSection(OperationContext* opCtx, const TimeseriesCollection& ts,
                                  BSONObjBuilder& result) {
    BSONObjBuilder b(result.subobjStart("timeseries"));
    b.append("bucketsNs", ts.bucketsNss.ns());
    long long count = ts.buckets->numRecords(opCtx);
    b.append("bucketCount", count);
    if (count > 0)
        b.append("avgBucketSize", ts.buckets->dataSize(opCtx) / count);
    bucket_catalog::appendExecutionStats(bucket_catalog::BucketCatalog::get(), ts.buckets->uuid(),
                                         b);
    rollups::appendRollupStats(opCtx, ts.viewNss, ts.options, b);
    b.done();
}

void appendBucketCatalogServerStatus(BSONObjBuilder& result) {
    BSONObjBuilder b;
    bucket_catalog::appendServerStatus(bucket_catalog::BucketCatalog::get(), b);
    result.append("bucketCatalog", b.obj());
}

}  // namespace mongo::timeseries
