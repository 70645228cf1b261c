// create, drop, dropDatabase, renameCollection, collMod.
#include <set>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/idl/ddl_commands_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** Options as stored and shown by listCollections: the create fields, minus generic ones. */
BSONObj createOptionsFromCommand(const BSONObj& body) {
    static const std::set<std::string> kIgnored = {
        "$db", "lsid", "writeConcern", "comment", "maxTimeMS", "$readPreference",
        "apiVersion", "apiStrict", "apiDeprecationErrors", "$clusterTime", "txnNumber",
        "autocommit", "startTransaction", "readConcern"};
    BSONObjBuilder b;
    bool first = true;
    for (auto e : body) {
        if (first) {
            first = false;
            continue;
        }
        if (kIgnored.count(std::string(e.fieldNameStringData())))
            continue;
        b.append(e);
    }
    return b.obj();
}

BSONObj withoutUuid(const BSONObj& options) {
    return options.removeField("uuid");
}

/**
 * The full spec of a `collation` option (throws makeCollator's errors), or an empty object
 * for the simple collation, which is not stored (upstream keeps simple as "no collation").
 */
BSONObj normalisedCollation(const BSONObj& collation) {
    auto collator = uassertStatusOK(makeCollator(collation));
    return collator ? collator->getSpec() : BSONObj();
}

/** `options` with its collation replaced by the normalised one (dropped when simple). */
BSONObj withNormalisedCollation(const BSONObj& options) {
    BSONElement c = options["collation"];
    if (c.eoo())
        return options;
    BSONObj full = normalisedCollation(c.embeddedObject());
    BSONObjBuilder b;
    for (auto e : options) {
        if (e.fieldNameStringData() != "collation")
            b.append(e);
        else if (!full.isEmpty())
            b.append("collation", full);
    }
    return b.obj();
}

/** Parses a view pipeline (throwing its parse errors); $out/$merge are refused (167). */
void validateViewPipeline(OperationContext* opCtx, const NamespaceString& viewNss,
                          const std::vector<BSONObj>& pipeline) {
    auto expCtx = std::make_shared<ExpressionContext>(opCtx, viewNss);
    auto parsed = Pipeline::parse(pipeline, expCtx);
    for (const auto& st : parsed->stages())
        uassert(ErrorCodes::OptionNotSupportedOnView,
                std::string(st->getSourceName()) + " cannot be used in a view definition",
                !st->constraints().isWriteStage);
}

/** create {viewOn, pipeline}. */
void createViewFromCommand(OperationContext* opCtx, const NamespaceString& nss,
                           const CreateCommand& cmd) {
    uassert(ErrorCodes::InvalidOptions, "'pipeline' requires 'viewOn' to also be specified",
            cmd.getViewOn().has_value());
    uassert(ErrorCodes::BadValue, "'viewOn' cannot be empty", !cmd.getViewOn()->empty());
    uassert(ErrorCodes::InvalidOptions, "Cannot create a view with capped, size or max options",
            !cmd.getCapped() && !cmd.getSize() && !cmd.getMax());
    uassert(ErrorCodes::InvalidOptions, "Cannot specify both 'viewOn' and 'timeseries'",
            !cmd.getTimeseries());
    ViewDefinition def;
    def.name = nss;
    def.viewOn = NamespaceString(nss.db(), *cmd.getViewOn());
    uassertStatusOK(def.viewOn.validateCollectionName());
    if (cmd.getPipeline())
        def.pipeline.assign(cmd.getPipeline()->begin(), cmd.getPipeline()->end());
    for (auto& st : def.pipeline)
        st = st.getOwned();
    validateViewPipeline(opCtx, nss, def.pipeline);
    // A view's default collation is only the one given (never the collection's).
    if (cmd.getCollation())
        def.collation = normalisedCollation(*cmd.getCollation());
    if (auto existing = lookupView(opCtx, nss)) {
        // Re-creating an identical view is a no-op, as for collections.
        bool same = existing->viewOn == def.viewOn &&
            existing->collation.binaryEqual(def.collation) &&
            existing->pipeline.size() == def.pipeline.size();
        for (size_t i = 0; same && i < def.pipeline.size(); ++i)
            same = existing->pipeline[i].binaryEqual(def.pipeline[i]);
        uassert(ErrorCodes::NamespaceExists, "Namespace " + nss.ns() + " already exists", same);
        return;
    }
    uassertStatusOK(createView(opCtx, def));
}

/** clusteredIndex: `true` (time-series buckets only) or {key: {_id: 1}, unique: true[, name, v]}. */
void validateClusteredIndexOption(const NamespaceString& nss,
                                  const std::variant<bool, BSONObj>& clustered) {
    if (const bool* b = std::get_if<bool>(&clustered)) {
        uassert(ErrorCodes::InvalidOptions,
                "The 'clusteredIndex' option must be an object ('true' is only allowed for time-series buckets collections)",
                *b && nss.isTimeseriesBucketsCollection());
        return;
    }
    const BSONObj& spec = std::get<BSONObj>(clustered);
    for (auto e : spec) {
        StringData f = e.fieldNameStringData();
        uassert(ErrorCodes::IDLUnknownField,
                "BSON field 'create.clusteredIndex." + std::string(f) + "' is an unknown field.",
                f == "key" || f == "unique" || f == "name" || f == "v");
    }
    uassert(ErrorCodes::InvalidOptions,
            "The clusteredIndex option is only supported for key: {_id: 1}",
            spec["key"].type() == BSONType::kObject &&
                spec["key"].embeddedObject().binaryEqual(BSON("_id" << 1)));
    uassert(ErrorCodes::InvalidOptions, "The clusteredIndex option requires unique: true",
            spec["unique"].trueValue());
}

class CreateCmd : public Command {
public:
    CreateCmd() : Command("create") {}
    bool writesData(const CommandRequest&) const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        auto cmd = CreateCommand::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (cmd.getTimeseries()) {
            timeseries::createTimeseriesCollection(opCtx, nss, req.body);
            return;
        }
        if (cmd.getViewOn() || cmd.getPipeline()) {
            createViewFromCommand(opCtx, nss, cmd);
            return;
        }
        uassert(ErrorCodes::NamespaceExists, "Namespace " + nss.ns() + " already exists",
                !isView(opCtx, nss));
        uassert(ErrorCodes::InvalidOptions,
                "'expireAfterSeconds' is only supported on time-series collections or when the "
                "'clusteredIndex' option is specified",
                !cmd.getExpireAfterSeconds() || cmd.getClusteredIndex());
        if (cmd.getClusteredIndex())
            validateClusteredIndexOption(nss, *cmd.getClusteredIndex());
        if (cmd.getValidator())
            uassertStatusOK(parseMatchExpression(cmd.getValidator()->getOwned()).getStatus());
        if (cmd.getCapped()) {
            uassert(ErrorCodes::InvalidOptions,
                    "the 'size' field is required when 'capped' is true",
                    cmd.getSize().has_value());
            uassert(ErrorCodes::InvalidOptions, "the 'size' field must be positive",
                    *cmd.getSize() > 0);
        } else {
            uassert(ErrorCodes::InvalidOptions, "the 'size' field is only valid for capped collections",
                    !cmd.getSize() && !cmd.getMax());
        }
        uassert(ErrorCodes::InvalidNamespace,
                "Invalid collection name: cannot create a collection in the system namespace " + nss.ns(),
                nss.isNormalCollection() || nss.isTimeseriesBucketsCollection());
        BSONObj options = withNormalisedCollation(createOptionsFromCommand(req.body));
        auto* catalog = opCtx->getServiceContext()->catalog;
        if (auto existing = catalog->lookup(nss)) {
            uassert(ErrorCodes::NamespaceExists, "Collection " + nss.ns() + " already exists.",
                    compareObjects(withoutUuid(existing->options()), options,
                                   ComparisonRules::kConsiderFieldName) == 0);
            return;
        }
        auto sw = catalog->createCollection(opCtx, nss, options);
        if (sw.getStatus().code() == ErrorCodes::NamespaceExists)
            uasserted(ErrorCodes::NamespaceExists, "Collection " + nss.ns() + " already exists.");
        uassertStatusOK(sw.getStatus());
    }
};
MONGO_REGISTER_COMMAND(CreateCmd)

class DropCmd : public Command {
public:
    DropCmd() : Command("drop") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = DropCommand::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (timeseries::dropTimeseriesCollection(opCtx, nss, result))
            return;
        auto* catalog = opCtx->getServiceContext()->catalog;
        auto coll = catalog->lookup(nss);
        if (!coll) {
            if (dropView(opCtx, nss))
                result.append("ns", nss.ns());
            return;  // dropping a missing collection succeeds (7.0+)
        }
        int nIndexes = static_cast<int>(coll->indexes().size());
        Status s = catalog->dropCollection(opCtx, nss);
        if (nss.isSystemDotViews())
            invalidateViewCache(nss.db());
        if (s.code() == ErrorCodes::NamespaceNotFound)
            return;
        uassertStatusOK(s);
        result.append("nIndexesWas", nIndexes);
        result.append("ns", nss.ns());
    }
};
MONGO_REGISTER_COMMAND(DropCmd)

class DropDatabaseCmd : public Command {
public:
    DropDatabaseCmd() : Command("dropDatabase") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        DropDatabaseCommand::parse(req.body);
        uassert(ErrorCodes::IllegalOperation, "Cannot drop '" + req.dbName + "' database",
                req.dbName != "admin" && req.dbName != "local" && req.dbName != "config");
        uassertStatusOK(opCtx->getServiceContext()->catalog->dropDatabase(opCtx, req.dbName));
        invalidateViewCache(req.dbName);
        result.append("dropped", req.dbName);
    }
};
MONGO_REGISTER_COMMAND(DropDatabaseCmd)

class RenameCollectionCmd : public Command {
public:
    RenameCollectionCmd() : Command("renameCollection") {}
    bool writesData(const CommandRequest&) const override {
        return true;
    }
    bool adminOnly() const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        auto cmd = RenameCollectionCommand::parse(req.body);
        NamespaceString from = NamespaceString::fromFullName(cmd.getCommandParameter());
        NamespaceString to = NamespaceString::fromFullName(cmd.getTo());
        uassert(ErrorCodes::InvalidNamespace, "Invalid source namespace: " + from.ns(),
                from.validateCollectionName().isOK());
        uassert(ErrorCodes::InvalidNamespace, "Invalid target namespace: " + to.ns(),
                to.validateCollectionName().isOK());
        timeseries::checkRenameNamespaces(opCtx, from, to);
        uassert(ErrorCodes::IllegalOperation, "error with source namespace: cannot rename system collections",
                from.isNormalCollection() && to.isNormalCollection());
        Status s = opCtx->getServiceContext()->catalog->renameCollection(opCtx, from, to,
                                                                         cmd.getDropTarget());
        if (s.code() == ErrorCodes::NamespaceNotFound)
            uasserted(ErrorCodes::NamespaceNotFound, "Source collection " + from.ns() + " does not exist");
        if (s.code() == ErrorCodes::NamespaceExists)
            uasserted(ErrorCodes::NamespaceExists, "target namespace exists");
        uassertStatusOK(s);
    }
};
MONGO_REGISTER_COMMAND(RenameCollectionCmd)

/** collMod of a view: replaces viewOn and/or pipeline; other options are refused. */
void collModView(OperationContext* opCtx, const CollModCommand& cmd, ViewDefinition view) {
    uassert(ErrorCodes::InvalidOptions, "option not supported on a view",
            !cmd.getValidator() && !cmd.getValidationLevel() && !cmd.getValidationAction() &&
                !cmd.getExpireAfterSeconds() && !cmd.getTimeseries() && !cmd.getIndex() &&
                !cmd.getChangeStreamPreAndPostImages() && !cmd.getClusteredIndex() &&
                !cmd.getCappedSize() && !cmd.getCappedMax());
    uassert(ErrorCodes::InvalidOptions, "must specify both 'viewOn' and 'pipeline' when modifying a view",
            cmd.getViewOn().has_value() == cmd.getPipeline().has_value());
    if (cmd.getViewOn()) {
        uassert(ErrorCodes::BadValue, "'viewOn' cannot be empty", !cmd.getViewOn()->empty());
        view.viewOn = NamespaceString(view.name.db(), *cmd.getViewOn());
    }
    if (cmd.getPipeline()) {
        view.pipeline.clear();
        for (const auto& st : *cmd.getPipeline())
            view.pipeline.push_back(st.getOwned());
    }
    validateViewPipeline(opCtx, view.name, view.pipeline);
    uassertStatusOK(modifyView(opCtx, view));
}

class CollModCmd : public Command {
public:
    CollModCmd() : Command("collMod") {}
    bool writesData(const CommandRequest&) const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = CollModCommand::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        timeseries::checkCollModNamespace(nss);
        if (timeseries::collModTimeseriesCollection(opCtx, nss, req.body, result))
            return;
        auto* catalog = opCtx->getServiceContext()->catalog;
        auto coll = catalog->lookup(nss);
        if (!coll) {
            if (auto view = lookupView(opCtx, nss)) {
                collModView(opCtx, cmd, *view);
                return;
            }
        }
        uassert(ErrorCodes::NamespaceNotFound, "ns does not exist: " + nss.ns(), coll);
        uassert(ErrorCodes::InvalidOptions, "collMod: 'viewOn' and 'pipeline' apply only to views",
                !cmd.getViewOn() && !cmd.getPipeline());
        uassert(ErrorCodes::InvalidOptions,
                "option only supported on a time-series collection: "
                "timeseriesBucketsMayHaveMixedSchemaData",
                !cmd.getTimeseriesBucketsMayHaveMixedSchemaData());
        uassert(ErrorCodes::CommandNotSupported,
                "collMod supports only the 'index' option on this server so far",
                !cmd.getValidator() && !cmd.getValidationLevel() && !cmd.getValidationAction() &&
                    !cmd.getViewOn() && !cmd.getPipeline() && !cmd.getExpireAfterSeconds() &&
                    !cmd.getTimeseries() && !cmd.getChangeStreamPreAndPostImages() &&
                    !cmd.getClusteredIndex() && !cmd.getCappedSize() && !cmd.getCappedMax());
        if (!cmd.getIndex())
            return;
        BSONObj indexMod = *cmd.getIndex();
        IndexEntry* idx = nullptr;
        if (indexMod["name"].type() == BSONType::kString) {
            idx = coll->findIndexByName(indexMod["name"].valueStringData());
        } else if (indexMod["keyPattern"].type() == BSONType::kObject) {
            auto matches = coll->findIndexesByKeyPattern(indexMod["keyPattern"].embeddedObject());
            uassert(ErrorCodes::AmbiguousIndexKeyPattern, "index keyPattern matches multiple indexes",
                    matches.size() <= 1);
            if (!matches.empty())
                idx = matches.front();
        } else {
            uasserted(ErrorCodes::InvalidOptions, "must specify either index name or key pattern");
        }
        uassert(ErrorCodes::IndexNotFound, "cannot find index " + indexMod.toString() + " for ns " + nss.ns(), idx);
        uassertStatusOK(catalog->modifyIndexOptions(opCtx, nss, *idx, indexMod["hidden"],
                                                    indexMod["expireAfterSeconds"], &result));
    }
};
MONGO_REGISTER_COMMAND(CollModCmd)

}  // namespace
}  // namespace mongo
