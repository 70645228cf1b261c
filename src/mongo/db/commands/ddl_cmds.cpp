// create, drop, dropDatabase, renameCollection, collMod.
#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/coll_mod.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/index_descriptor.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/matcher/expression_text.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/durable_catalog.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/idl/ddl_commands_gen.h"
#include "mongo/idl/generic_argument.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** Options as stored and shown by listCollections: the create fields, minus generic ones. */
BSONObj createOptionsFromCommand(const BSONObj& body) {
    BSONObjBuilder b;
    bool first = true;
    for (auto e : body) {
        if (first) {
            first = false;
            continue;
        }
        if (isGenericArgument(e.fieldNameStringData()))
            continue;
        b.append(e);
    }
    return b.obj();
}

/**
 * `body` without the options given as null or undefined: `create`'s parser, as upstream's IDL
 * parsers do, takes such an option as not given (`collation: undefined` from a shell script).
 */
BSONObj withoutNullOptions(const BSONObj& body) {
    BSONObjBuilder b;
    bool first = true;
    for (auto e : body) {
        if (!first && (e.type() == BSONType::kNull || e.type() == BSONType::kUndefined))
            continue;
        first = false;
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
    // Only a time-series collection puts a view on its buckets (the view of the same name).
    uassert(ErrorCodes::InvalidNamespace,
            "Cannot create view on a system.buckets namespace except by creating a time-series "
            "collection",
            !def.viewOn.isTimeseriesBucketsCollection() ||
                def.viewOn.getTimeseriesViewNamespace().ns() == nss.ns());
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

/**
 * The clusteredIndex option of create, checked and in its stored form: `true` (time-series
 * buckets only) stays `true`; {key: {_id: 1}, unique: true[, name][, v: 2]} becomes
 * {v: 2, key: {_id: 1}, name: <name or "_id_">, unique: true} (upstream's listCollections
 * shape). nullopt for `false` (not clustered). Errors as upstream: IDL codes for the
 * sub-document, 5979700 without unique: true, InvalidIndexSpecificationOption for another
 * key, 5979704 for v other than 2.
 */
std::optional<BSONObj> clusteredIndexOption(const NamespaceString& nss,
                                            const std::variant<bool, BSONObj>& clustered) {
    if (const bool* b = std::get_if<bool>(&clustered)) {
        if (!*b)
            return std::nullopt;
        uassert(ErrorCodes::InvalidOptions,
                "The 'clusteredIndex' legacy format {clusteredIndex: <bool>} is only supported "
                "for specialized collections",
                nss.isTimeseriesBucketsCollection());
        return BSON("clusteredIndex" << true);
    }
    auto spec = ClusteredIndexSpec::parse(std::get<BSONObj>(clustered), "create.clusteredIndex");
    uassert(5979700, "The clusteredIndex option requires unique: true to be specified",
            spec.getUnique());
    uassert(ErrorCodes::InvalidIndexSpecificationOption,
            "The clusteredIndex option is only supported for key: {_id: 1}",
            spec.getKey().binaryEqual(BSON("_id" << 1)));
    uassert(5979704,
            "Invalid clusteredIndex specification " + std::get<BSONObj>(clustered).toString() +
                "; cannot create a clusteredIndex with v=" + std::to_string(spec.getV()),
            spec.getV() == 2);
    const std::string name = spec.getName().value_or(std::string(IndexDescriptor::kIdIndexName));
    uassert(ErrorCodes::CannotCreateIndex, "index name cannot be empty", !name.empty());
    return BSON("clusteredIndex" << BSON("v" << 2 << "key" << BSON("_id" << 1) << "name" << name
                                             << "unique" << true));
}

/**
 * The create options to store: the command's options with clusteredIndex in its stored form
 * (dropped when false) and expireAfterSeconds as a long.
 */
BSONObj storedCreateOptions(const BSONObj& options, const std::optional<BSONObj>& clustered) {
    BSONObjBuilder b;
    for (auto e : options) {
        StringData f = e.fieldNameStringData();
        if (f == "clusteredIndex") {
            if (clustered)
                b.append(clustered->firstElement());
        } else if (f == "expireAfterSeconds") {
            b.append("expireAfterSeconds", e.numberLong());
        } else {
            b.append(e);
        }
    }
    return b.obj();
}

class CreateCmd : public Command {
public:
    CreateCmd() : Command("create") {}
    bool writesData(const CommandRequest&) const override {
        return true;
    }
    void checkAPIStrictFields(const OperationContext* opCtx,
                              const CommandRequest& req) const override {
        uassertStableFields(opCtx, "create", req.body, CreateCommand::unstableFieldNames());
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        const BSONObj body = withoutNullOptions(req.body);
        auto cmd = CreateCommand::parse(body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (cmd.getTimeseries()) {
            timeseries::createTimeseriesCollection(opCtx, nss, body);
            return;
        }
        if (cmd.getViewOn() || cmd.getPipeline()) {
            createViewFromCommand(opCtx, nss, cmd);
            return;
        }
        uassert(ErrorCodes::NamespaceExists, "Namespace " + nss.ns() + " already exists",
                !isView(opCtx, nss));
        std::optional<BSONObj> clustered;
        if (cmd.getClusteredIndex())
            clustered = clusteredIndexOption(nss, *cmd.getClusteredIndex());
        uassert(ErrorCodes::InvalidOptions,
                "'expireAfterSeconds' is only supported on time-series collections or when the "
                "'clusteredIndex' option is specified",
                !cmd.getExpireAfterSeconds() || clustered);
        if (cmd.getExpireAfterSeconds())
            uassertStatusOK(validateClusteredExpireAfterSeconds(body["expireAfterSeconds"]));
        uassert(ErrorCodes::InvalidOptions,
                "The 'clusteredIndex' option is not supported with the 'idIndex' option",
                !(clustered && cmd.getIdIndex()));
        uassert(ErrorCodes::InvalidOptions, "A clustered collection cannot be capped",
                !(clustered && cmd.getCapped()));
        if (cmd.getValidator()) {
            auto validator = uassertStatusOK(parseMatchExpression(cmd.getValidator()->getOwned()));
            uassertStatusOK(checkNoTextExpression(validator.get()));
        }
        // The storage engine options are checked as a collection's are (registered engines,
        // documents, the options each knows).
        if (cmd.getIndexOptionDefaults() && cmd.getIndexOptionDefaults()->getStorageEngine())
            uassertStatusOK(
                DurableCatalog::tableConfigString(
                    "", BSON("storageEngine" << *cmd.getIndexOptionDefaults()->getStorageEngine()))
                    .getStatus());
        if (cmd.getCapped()) {
            uassert(ErrorCodes::InvalidOptions,
                    "the 'size' field is required when 'capped' is true",
                    cmd.getSize().has_value());
            uassert(ErrorCodes::InvalidOptions, "the 'size' field must be positive",
                    *cmd.getSize() > 0);
            uassertStableField(opCtx, "create", "capped");  // capped collections are not in V1
        } else {
            uassert(ErrorCodes::InvalidOptions,
                    "the 'size' field is only valid for capped collections",
                    !cmd.getSize() && !cmd.getMax());
        }
        uassert(ErrorCodes::InvalidNamespace,
                "Invalid collection name: cannot create a collection in the system namespace " +
                    nss.ns(),
                nss.isNormalCollection() || nss.isTimeseriesBucketsCollection());
        BSONObj options =
            storedCreateOptions(withNormalisedCollation(createOptionsFromCommand(body)), clustered);
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
        // Any other view is not a collection to rename (upstream's codes and messages).
        uassert(ErrorCodes::CommandNotSupportedOnView, "cannot rename view: " + from.ns(),
                !lookupView(opCtx, from));
        uassert(ErrorCodes::NamespaceExists, "a view already exists with that name: " + to.ns(),
                !lookupView(opCtx, to));
        uassert(ErrorCodes::IllegalOperation,
                "error with source namespace: cannot rename system collections",
                from.isNormalCollection() && to.isNormalCollection());
        Status s = opCtx->getServiceContext()->catalog->renameCollection(opCtx, from, to,
                                                                         cmd.getDropTarget());
        if (s.code() == ErrorCodes::NamespaceNotFound)
            uasserted(ErrorCodes::NamespaceNotFound,
                      "Source collection " + from.ns() + " does not exist");
        if (s.code() == ErrorCodes::NamespaceExists)
            uasserted(ErrorCodes::NamespaceExists, "target namespace exists");
        uassertStatusOK(s);
    }
};
MONGO_REGISTER_COMMAND(RenameCollectionCmd)

/**
 * collMod of a view: replaces viewOn and/or pipeline (both together); collection options
 * are refused with InvalidOptions "option not supported on a view: <field>".
 */
void collModView(OperationContext* opCtx, const CollModCommand& cmd, ViewDefinition view) {
    auto refuse = [](bool present, StringData field) {
        uassert(ErrorCodes::InvalidOptions, "option not supported on a view: " + std::string(field),
                !present);
    };
    refuse(cmd.getCappedSize() || cmd.getCappedMax(), "cappedSize");
    refuse(cmd.getIndex().has_value(), "index");
    refuse(cmd.getValidator().has_value(), "validator");
    refuse(cmd.getValidationLevel().has_value(), "validationLevel");
    refuse(cmd.getValidationAction().has_value(), "validationAction");
    refuse(cmd.getChangeStreamPreAndPostImages().has_value(), "changeStreamPreAndPostImages");
    refuse(cmd.getExpireAfterSeconds().has_value(), "expireAfterSeconds");
    refuse(cmd.getRecordPreImages().has_value(), "recordPreImages");
    uassert(ErrorCodes::InvalidOptions,
            "option only supported on a time-series collection: timeseries", !cmd.getTimeseries());
    uassert(ErrorCodes::InvalidOptions,
            "option only supported on a time-series collection: "
            "timeseriesBucketsMayHaveMixedSchemaData",
            !cmd.getTimeseriesBucketsMayHaveMixedSchemaData());
    uassert(ErrorCodes::InvalidOptions, "dry run mode requires an valid index modification.",
            !cmd.getDryRun().value_or(false));
    uassert(ErrorCodes::InvalidOptions,
            "must specify both 'viewOn' and 'pipeline' when modifying a view",
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

/**
 * collMod: the collectionUUID check first, then the time-series view, a view or a
 * collection (catalog/coll_mod.h) according to what `nss` names.
 */
class CollModCmd : public Command {
public:
    CollModCmd() : Command("collMod") {}
    bool writesData(const CommandRequest&) const override {
        return true;
    }
    void checkAPIStrictFields(const OperationContext* opCtx,
                              const CommandRequest& req) const override {
        uassertStableFields(opCtx, "collMod", req.body, CollModCommand::unstableFieldNames());
        if (BSONElement index = req.body["index"]; index.type() == BSONType::kObject)
            uassertStableFields(opCtx, "collMod", index.embeddedObject(),
                                CollModIndex::unstableFieldNames());
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = CollModCommand::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        timeseries::checkCollModNamespace(nss);
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        if (timeseries::collModTimeseriesCollection(opCtx, nss, cmd, req.body, result))
            return;
        auto coll = opCtx->getServiceContext()->catalog->lookup(nss);
        if (!coll) {
            if (auto view = lookupView(opCtx, nss)) {
                collModView(opCtx, cmd, *view);
                return;
            }
        }
        collModCollection(opCtx, nss, coll, cmd, &result);
    }
};
MONGO_REGISTER_COMMAND(CollModCmd)

}  // namespace
}  // namespace mongo
