#include "mongo/db/catalog/view_catalog.h"

#include <map>
#include <mutex>
#include <shared_mutex>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/stats/top.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

constexpr StringData kSystemViews = "system.views";

struct Cache {
    std::shared_mutex mutex;
    // db -> (view ns -> definition). A db absent from the map is not loaded yet.
    std::map<std::string, std::map<std::string, ViewDefinition>, std::less<>> byDb;
};

Cache& cache() {
    static Cache c;
    return c;
}

std::optional<ViewDefinition> fromBSON(const BSONObj& doc) {
    BSONElement id = doc["_id"], viewOn = doc["viewOn"], pipeline = doc["pipeline"];
    if (id.type() != BSONType::kString || viewOn.type() != BSONType::kString)
        return std::nullopt;
    std::string full = id.str();
    size_t dot = full.find('.');
    if (dot == std::string::npos)
        return std::nullopt;
    ViewDefinition def;
    def.name = NamespaceString(full.substr(0, dot), full.substr(dot + 1));
    def.viewOn = NamespaceString(full.substr(0, dot), viewOn.str());
    if (pipeline.type() == BSONType::kArray)
        for (auto s : pipeline.Obj())
            if (s.type() == BSONType::kObject)
                def.pipeline.push_back(s.Obj().getOwned());
    if (doc["collation"].type() == BSONType::kObject)
        def.collation = doc["collation"].Obj().getOwned();
    return def;
}

std::shared_ptr<Collection> systemViews(OperationContext* opCtx, StringData db) {
    return opCtx->getServiceContext()->catalog->lookup(
        NamespaceString(std::string(db), std::string(kSystemViews)));
}

/** Loads the views of `db` into the cache. REQUIRES: cache mutex held. */
std::map<std::string, ViewDefinition>& loadLocked(OperationContext* opCtx, StringData db) {
    auto& c = cache();
    auto it = c.byDb.find(db);
    if (it != c.byDb.end())
        return it->second;
    std::map<std::string, ViewDefinition> views;
    if (auto coll = systemViews(opCtx, db)) {
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        auto cursor = coll->recordStore()->getCursor(opCtx->recoveryUnit());
        while (auto rec = cursor->next()) {
            if (auto def = fromBSON(rec->data))
                views[def->name.ns()] = std::move(*def);
        }
    }
    return c.byDb.emplace(std::string(db), std::move(views)).first->second;
}

/** Rewrites <db>.system.views to hold exactly `views`. */
void persist(OperationContext* opCtx, StringData db,
             const std::map<std::string, ViewDefinition>& views) {
    auto* catalog = opCtx->getServiceContext()->catalog;
    NamespaceString nss{std::string(db), std::string(kSystemViews)};
    auto coll = catalog->getOrCreateCollection(opCtx, nss);
    std::shared_lock<std::shared_mutex> lk(coll->lock());
    WriteUnitOfWork wuow(opCtx->recoveryUnit());
    std::vector<std::pair<RecordId, BSONObj>> existing;
    {
        auto cursor = coll->recordStore()->getCursor(opCtx->recoveryUnit());
        while (auto rec = cursor->next())
            existing.emplace_back(rec->id, rec->data);
    }
    for (const auto& [id, doc] : existing)
        coll->deleteDocument(opCtx, id, doc);
    for (const auto& [name, def] : views)
        coll->insertDocument(opCtx, def.toBSON());
    wuow.commit();
}

}  // namespace

BSONObj ViewDefinition::toBSON() const {
    BSONObjBuilder b;
    b.append("_id", name.ns());
    b.append("viewOn", viewOn.coll());
    BSONArrayBuilder arr(b.subarrayStart("pipeline"));
    for (const auto& s : pipeline)
        arr.append(s);
    arr.done();
    if (!collation.isEmpty())
        b.append("collation", collation);
    return b.obj();
}

std::optional<ViewDefinition> lookupView(OperationContext* opCtx, const NamespaceString& nss) {
    if (nss.coll().empty())
        return std::nullopt;
    auto& c = cache();
    {
        // Fast path (every read and write asks): the database's views are cached.
        std::shared_lock<std::shared_mutex> lk(c.mutex);
        auto db = c.byDb.find(nss.db());
        if (db != c.byDb.end()) {
            auto it = db->second.find(nss.ns());
            if (it == db->second.end())
                return std::nullopt;
            return it->second;
        }
    }
    std::lock_guard<std::shared_mutex> lk(c.mutex);
    auto& views = loadLocked(opCtx, nss.db());
    auto it = views.find(nss.ns());
    if (it == views.end())
        return std::nullopt;
    return it->second;
}

bool isView(OperationContext* opCtx, const NamespaceString& nss) {
    return lookupView(opCtx, nss).has_value();
}

std::vector<ViewDefinition> viewsInDb(OperationContext* opCtx, StringData db) {
    auto& c = cache();
    std::lock_guard<std::shared_mutex> lk(c.mutex);
    std::vector<ViewDefinition> out;
    for (const auto& [name, def] : loadLocked(opCtx, db))
        out.push_back(def);
    return out;
}

namespace {

/**
 * A time-series view resolves to `$_internalUnpackBucket` over its buckets collection; the
 * stage learns the collection's catalog flags here, at resolution (spec §2.2, §5.2):
 * assumeNoMixedSchemaData, usesExtendedRange, and fixedBuckets (rounding equal to the span
 * and bucketing parameters never changed).
 */
void addTimeseriesFlags(OperationContext* opCtx, ResolvedView* r) {
    if (!r->nss.isTimeseriesBucketsCollection() || r->pipeline.empty() ||
        r->pipeline.front().firstElementFieldNameStringData() != "$_internalUnpackBucket" ||
        r->pipeline.front().firstElement().type() != BSONType::kObject)
        return;
    auto coll = opCtx->getServiceContext()->catalog->lookup(r->nss);
    if (!coll)
        return;
    const auto& flags = coll->timeseriesFlags();
    BSONObj ts = coll->options()["timeseries"].type() == BSONType::kObject
                     ? coll->options()["timeseries"].Obj()
                     : BSONObj();
    const bool fixed =
        !flags.bucketingParametersHaveChanged.load() && ts["bucketRoundingSeconds"].isNumber() &&
        ts["bucketMaxSpanSeconds"].isNumber() &&
        ts["bucketRoundingSeconds"].numberLong() == ts["bucketMaxSpanSeconds"].numberLong();
    BSONObjBuilder spec;
    for (auto e : r->pipeline.front().firstElement().Obj()) {
        StringData f = e.fieldNameStringData();
        if (f != "assumeNoMixedSchemaData" && f != "usesExtendedRange" && f != "fixedBuckets")
            spec.append(e);
    }
    if (!flags.mayHaveMixedSchemaData.load())
        spec.append("assumeNoMixedSchemaData", true);
    if (flags.requiresExtendedRangeSupport.load())
        spec.append("usesExtendedRange", true);
    if (fixed)
        spec.append("fixedBuckets", true);
    r->pipeline.front() = BSON("$_internalUnpackBucket" << spec.obj());
}

}  // namespace

StatusWith<ResolvedView> resolveView(OperationContext* opCtx, const NamespaceString& nss) {
    ResolvedView r{nss, {}, {}};
    for (int depth = 0;; ++depth) {
        auto def = lookupView(opCtx, r.nss);
        if (!def) {
            addTimeseriesFlags(opCtx, &r);
            return r;
        }
        if (depth == 0)
            r.collation = def->collation;
        if (depth >= kMaxViewDepth)
            return Status(ErrorCodes::ViewDepthLimitExceeded,
                          "View depth too deep or view cycle detected; maximum depth is " +
                              std::to_string(kMaxViewDepth));
        std::vector<BSONObj> p = def->pipeline;
        p.insert(p.end(), r.pipeline.begin(), r.pipeline.end());
        r.pipeline = std::move(p);
        r.nss = def->viewOn;
    }
}

namespace {

/** Checks the graph of `views` (with `def` added) for cycles and depth. */
Status checkGraph(const std::map<std::string, ViewDefinition>& views, const ViewDefinition& def) {
    NamespaceString cur = def.viewOn;
    for (int depth = 1;; ++depth) {
        if (cur == def.name)
            return Status(ErrorCodes::GraphContainsCycle,
                          "View cycle detected: " + def.name.ns() + " -> " + def.viewOn.ns());
        auto it = views.find(cur.ns());
        if (it == views.end())
            return Status::OK();
        if (depth >= kMaxViewDepth)
            return Status(ErrorCodes::ViewDepthLimitExceeded,
                          "View depth too deep or view cycle detected; maximum depth is " +
                              std::to_string(kMaxViewDepth));
        cur = it->second.viewOn;
    }
}

/**
 * A view must have the collation of the view it is defined on and of every view defined on
 * it (views on views never change the collation; upstream checks both directions).
 */
Status checkCollations(const std::map<std::string, ViewDefinition>& views,
                       const ViewDefinition& def) {
    auto conflict = [&](const ViewDefinition& other) {
        return Status(
            ErrorCodes::OptionNotSupportedOnView,
            "View " + def.name.ns() + " has conflicting collation with view " + other.name.ns());
    };
    auto on = views.find(def.viewOn.ns());
    if (on != views.end() && !on->second.collation.binaryEqual(def.collation))
        return conflict(on->second);
    for (const auto& [name, other] : views)
        if (other.viewOn == def.name && other.name != def.name &&
            !other.collation.binaryEqual(def.collation))
            return conflict(other);
    return Status::OK();
}

}  // namespace

Status createView(OperationContext* opCtx, const ViewDefinition& def) {
    auto& c = cache();
    std::lock_guard<std::shared_mutex> lk(c.mutex);
    auto& views = loadLocked(opCtx, def.name.db());
    if (views.count(def.name.ns()) || opCtx->getServiceContext()->catalog->lookup(def.name))
        return Status(ErrorCodes::NamespaceExists,
                      "Namespace " + def.name.ns() + " already exists");
    Status s = checkGraph(views, def);
    if (s.isOK())
        s = checkCollations(views, def);
    if (!s.isOK())
        return s;
    auto updated = views;
    updated[def.name.ns()] = def;
    try {
        persist(opCtx, def.name.db(), updated);
    } catch (const DBException& e) {
        return e.toStatus();
    }
    views = std::move(updated);
    return Status::OK();
}

Status modifyView(OperationContext* opCtx, const ViewDefinition& def) {
    auto& c = cache();
    std::lock_guard<std::shared_mutex> lk(c.mutex);
    auto& views = loadLocked(opCtx, def.name.db());
    if (!views.count(def.name.ns()))
        return Status(ErrorCodes::NamespaceNotFound, "ns does not exist: " + def.name.ns());
    auto updated = views;
    updated.erase(def.name.ns());
    Status s = checkGraph(updated, def);
    if (s.isOK())
        s = checkCollations(updated, def);
    if (!s.isOK())
        return s;
    updated[def.name.ns()] = def;
    try {
        persist(opCtx, def.name.db(), updated);
    } catch (const DBException& e) {
        return e.toStatus();
    }
    views = std::move(updated);
    return Status::OK();
}

bool dropView(OperationContext* opCtx, const NamespaceString& nss) {
    auto& c = cache();
    std::lock_guard<std::shared_mutex> lk(c.mutex);
    auto& views = loadLocked(opCtx, nss.db());
    if (!views.count(nss.ns()))
        return false;
    auto updated = views;
    updated.erase(nss.ns());
    persist(opCtx, nss.db(), updated);
    views = std::move(updated);
    Top::get().collectionDropped(nss);
    return true;
}

void invalidateViewCache(StringData db) {
    auto& c = cache();
    std::lock_guard<std::shared_mutex> lk(c.mutex);
    auto it = c.byDb.find(db);
    if (it != c.byDb.end())
        c.byDb.erase(it);
}

}  // namespace mongo
