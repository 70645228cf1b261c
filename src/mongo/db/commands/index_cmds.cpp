// createIndexes, listIndexes, dropIndexes.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/coll_mod.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/cursor_response.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/db/timeseries/timeseries_index_schema_conversion_functions.h"
#include "mongo/idl/ddl_commands_gen.h"
#include "mongo/idl/list_commands_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

bool isClusterKey(const BSONObj& key) {
    return key.nFields() == 1 && key.firstElement().fieldNameStringData() == "_id" &&
           key.firstElement().isNumber() && key.firstElement().numberDouble() == 1;
}

/**
 * `specs` without those naming the cluster key {_id: 1} of the clustered collection `coll`
 * (its clustered index already is that index). `clustered: true` needs `unique: true` and the
 * cluster key of a clustered collection: CannotCreateIndex otherwise.
 */
std::vector<BSONObj> withoutClusterKeySpecs(const Collection* coll, std::vector<BSONObj> specs) {
    std::vector<BSONObj> kept;
    for (auto& spec : specs) {
        const bool clusteredOption = spec["clustered"].trueValue();
        uassert(ErrorCodes::CannotCreateIndex,
                "The 'clustered' index option requires 'unique: true': " + spec.toString(),
                !clusteredOption || spec["unique"].trueValue());
        const bool clusterKey = coll && coll->isClustered() &&
                                spec["key"].type() == BSONType::kObject &&
                                isClusterKey(spec["key"].Obj());
        if (clusterKey)
            continue;
        uassert(ErrorCodes::CannotCreateIndex,
                "The 'clustered' index option is only valid for the cluster key {_id: 1} of a "
                "clustered collection: " +
                    spec.toString(),
                !clusteredOption);
        kept.push_back(std::move(spec));
    }
    return kept;
}

class CreateIndexesCmd : public Command {
public:
    CreateIndexesCmd() : Command("createIndexes") {}
    bool writesData(const CommandRequest&) const override {
        return true;
    }
    /** Text indexes and the options background, bucketSize, sparse, storageEngine are not in V1. */
    void checkAPIStrictFields(const OperationContext* opCtx,
                              const CommandRequest& req) const override {
        uassertStableFields(opCtx, "createIndexes", req.body,
                            CreateIndexesCommand::unstableFieldNames());
        if (!req.hasArray("indexes"))
            return;
        for (const BSONObj& spec : req.getObjectArray("indexes")) {
            uassertStableFields(opCtx, "createIndexes", spec,
                                {"background", "bucketSize", "sparse", "storageEngine"});
            BSONElement key = spec["key"];
            if (key.type() != BSONType::kObject)
                continue;
            for (BSONElement k : key.embeddedObject())
                if (k.type() == BSONType::kString && k.valueStringData() == "text")
                    uassertAllowedWithAPIStrict(opCtx, "The text index type");
        }
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = CreateIndexesCommand::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        uassert(ErrorCodes::BadValue, "Must specify at least one index to create",
                !cmd.getIndexes().empty());
        // On a time-series view the specs are translated to bucket specs (spec §4).
        auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss);
        std::vector<BSONObj> specs;
        for (const BSONObj& given : cmd.getIndexes()) {
            const BSONObj raw = cmd.getIgnoreUnknownIndexOptions().value_or(false)
                                    ? removeUnknownIndexOptions(given)
                                    : given;
            if (ts)  // time-series errors (text, unique...) come before the generic checks
                uassertStatusOK(
                    timeseries::createBucketsIndexFromTimeseriesIndex(ts->options, raw));
            BSONObj spec = uassertStatusOK(validateIndexSpec(raw));
            if (ts)
                spec = uassertStatusOK(validateIndexSpec(uassertStatusOK(
                    timeseries::createBucketsIndexFromTimeseriesIndex(ts->options, spec))));
            specs.push_back(spec);
        }
        if (ts)
            nss = ts->bucketsNss;
        auto* catalog = opCtx->getServiceContext()->catalog;
        specs = withoutClusterKeySpecs(catalog->lookup(nss).get(), std::move(specs));
        CollectionCatalog::CreateIndexesResult r;
        if (specs.empty()) {  // only the cluster key was asked for: it exists
            auto coll = catalog->lookup(nss);
            std::shared_lock<std::shared_mutex> lk(coll->lock());
            r.numIndexesBefore = r.numIndexesAfter = static_cast<int>(coll->indexes().size());
            r.allExisted = true;
        } else {
            r = uassertStatusOK(catalog->createIndexes(opCtx, nss, specs));
        }
        result.append("numIndexesBefore", r.numIndexesBefore);
        result.append("numIndexesAfter", r.numIndexesAfter);
        if (r.allExisted)
            result.append("note", "all indexes already exist");
        result.append("createdCollectionAutomatically", r.createdCollection);
    }
};
MONGO_REGISTER_COMMAND(CreateIndexesCmd)

/** {v, key, name, unique, collation?, clustered: true} of a clustered collection's key. */
BSONObj clusteredIndexListSpec(const Collection& coll, const BSONObj& stored) {
    BSONObjBuilder b;
    for (auto e : stored)
        if (e.fieldNameStringData() != "clustered" && e.fieldNameStringData() != "collation")
            b.append(e);
    if (coll.options()["collation"].type() == BSONType::kObject)
        b.append("collation", coll.options()["collation"].Obj());
    b.append("clustered", true);
    return b.obj();
}

class ListIndexesCmd : public Command {
public:
    ListIndexesCmd() : Command("listIndexes") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = ListIndexesCommand::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        auto coll = opCtx->getServiceContext()->catalog->lookup(nss);
        auto ts = coll ? std::nullopt : timeseries::lookupTimeseriesCollection(opCtx, nss);
        if (ts)
            coll = ts->buckets;
        uassert(ErrorCodes::NamespaceNotFound, "ns does not exist: " + nss.ns(), coll);
        std::vector<BSONObj> specs;
        {
            std::shared_lock<std::shared_mutex> lk(coll->lock());
            for (const auto& idx : coll->indexes()) {
                if (idx->desc.spec["clustered"].trueValue()) {
                    // The clustered key of a clustered collection, as upstream: with the
                    // collection's collation; not shown for time-series buckets.
                    if (!ts && !coll->ns().isTimeseriesBucketsCollection())
                        specs.push_back(clusteredIndexListSpec(*coll, idx->desc.spec));
                } else if (!ts) {
                    specs.push_back(idx->desc.spec);
                } else if (!idx->desc.isIdIndex()) {
                    // The view shows user-shaped specs (originalSpec when stored).
                    if (auto user = timeseries::createTimeseriesIndexFromBucketsIndex(
                            ts->options, idx->desc.spec))
                        specs.push_back(*user);
                }
            }
        }
        long long batchSize = -1;  // no limit unless the cursor option gives one
        if (cmd.getCursor() && cmd.getCursor()->getBatchSize())
            batchSize = *cmd.getCursor()->getBatchSize();
        auto cursor = std::make_unique<ClientCursor>();
        cursor->nss = nss;  // upstream answers with the collection's own namespace
        cursor->source = std::make_unique<VectorCursorSource>(std::move(specs));
        runBatchAndReply(opCtx, std::move(cursor), batchSize, false, true, result);
    }
};
MONGO_REGISTER_COMMAND(ListIndexesCmd)

class DropIndexesCmd : public Command {
public:
    DropIndexesCmd() : Command("dropIndexes", {"deleteIndexes"}) {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = DropIndexesCommand::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        auto* catalog = opCtx->getServiceContext()->catalog;
        auto coll = catalog->lookup(nss);
        auto ts = coll ? std::nullopt : timeseries::lookupTimeseriesCollection(opCtx, nss);
        if (ts) {
            coll = ts->buckets;
            nss = ts->bucketsNss;
        }
        uassert(ErrorCodes::NamespaceNotFound, "ns not found " + nss.ns(), coll);
        int before = static_cast<int>(coll->indexes().size());
        std::vector<std::string> names;
        const auto& index = cmd.getIndex();
        if (const std::string* name = std::get_if<std::string>(&index)) {
            if (*name == "*") {
                for (const auto& idx : coll->indexes()) {
                    if (!idx->desc.isIdIndex())
                        names.push_back(idx->desc.name);
                }
                result.append("msg", "non-_id indexes dropped for collection");
            } else {
                names.push_back(*name);
            }
        } else if (const BSONObj* userKey = std::get_if<BSONObj>(&index)) {
            BSONObj bucketsKey;
            if (ts) {
                auto sw = timeseries::createBucketsIndexSpecFromTimeseriesIndexSpec(ts->options,
                                                                                    *userKey);
                uassert(ErrorCodes::IndexNotFound,
                        "can't find index with key: " + userKey->toString(), sw.isOK());
                bucketsKey = sw.getValue();
            }
            const BSONObj* key = ts ? &bucketsKey : userKey;
            auto matches = coll->findIndexesByKeyPattern(*key);
            uassert(ErrorCodes::IndexNotFound, "can't find index with key: " + key->toString(),
                    !matches.empty());
            uassert(ErrorCodes::AmbiguousIndexKeyPattern,
                    key->toString() + " matches more than one index", matches.size() == 1);
            names.push_back(matches.front()->desc.name);
        } else {
            names = std::get<std::vector<std::string>>(index);
        }
        for (const auto& n : names) {
            uassert(ErrorCodes::InvalidOptions, "cannot drop _id index",
                    n != IndexDescriptor::kIdIndexName);
            uassert(ErrorCodes::IndexNotFound, "index not found with name [" + n + "]",
                    coll->findIndexByName(n));
        }
        for (const auto& n : names)
            uassertStatusOK(catalog->dropIndex(opCtx, nss, n));
        result.append("nIndexesWas", before);
    }
};
MONGO_REGISTER_COMMAND(DropIndexesCmd)

/**
 * reIndex (deprecated upstream, standalone only): drops and rebuilds every index of a
 * collection but its _id (or cluster) index, which stays. Refused in a replica set
 * (IllegalOperation), on views (CommandNotSupportedOnView) and on time-series collections
 * (CommandNotSupported). As upstream's, it is not atomic: a crash between the drops and the
 * builds leaves the collection without those indexes.
 */
class ReIndexCmd : public Command {
public:
    ReIndexCmd() : Command("reIndex") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        BSONElement first = req.body.firstElement();
        uassert(ErrorCodes::BadValue, "reIndex requires a collection name",
                first.type() == BSONType::kString);
        NamespaceString nss(req.dbName, first.str());
        uassertStatusOK(nss.validateCollectionName());
        auto* repl = repl::ReplicationCoordinator::get();
        uassert(ErrorCodes::IllegalOperation,
                "reIndex is only allowed on a standalone mongod instance",
                !repl || !repl->isReplEnabled());
        uassert(ErrorCodes::CommandNotSupported,
                "reIndex is not allowed on a time-series collection: " + nss.ns(),
                !timeseries::lookupTimeseriesCollection(opCtx, nss) &&
                    !nss.isTimeseriesBucketsCollection());
        uassert(ErrorCodes::CommandNotSupportedOnView, "can't re-index a view: " + nss.ns(),
                !isView(opCtx, nss));
        auto* catalog = opCtx->getServiceContext()->catalog;
        auto coll = catalog->lookup(nss);
        uassert(ErrorCodes::NamespaceNotFound, "collection does not exist: " + nss.ns(), coll);
        std::vector<BSONObj> specs, all;  // the indexes rebuilt; every index
        {
            std::shared_lock<std::shared_mutex> lk(coll->lock());
            for (const auto& idx : coll->indexes()) {
                all.push_back(idx->desc.spec.getOwned());
                if (!idx->desc.isIdIndex() && !idx->desc.spec["clustered"].trueValue())
                    specs.push_back(all.back());
            }
        }
        for (const auto& spec : specs)
            uassertStatusOK(catalog->dropIndex(opCtx, nss, spec["name"].str()));
        if (!specs.empty())
            uassertStatusOK(catalog->createIndexes(opCtx, nss, specs));
        result.append("nIndexesWas", static_cast<int>(all.size()));
        result.append("nIndexes", static_cast<int>(all.size()));
        BSONArrayBuilder indexes(result.subarrayStart("indexes"));
        for (const auto& spec : all)
            indexes.append(spec);
        indexes.done();
    }
};
MONGO_REGISTER_COMMAND(ReIndexCmd)

}  // namespace
}  // namespace mongo
