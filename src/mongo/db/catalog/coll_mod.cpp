#include "mongo/db/catalog/coll_mod.h"

#include <climits>
#include <cmath>
#include <cstring>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/matcher/expression_text.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr long long kMaxCappedSize = 1024LL * 1024 * 1024 * 1024 * 1024;  // 1 PB

Status invalidOptions(std::string msg) {
    return Status(ErrorCodes::InvalidOptions, std::move(msg));
}

/** The range rule shared by collection-level and index TTLs (0 .. INT32_MAX seconds). */
Status validateTTLSeconds(double seconds) {
    if (std::isnan(seconds))
        return invalidOptions("TTL index 'expireAfterSeconds' option must be a valid number");
    if (seconds < 0)
        return invalidOptions("TTL index 'expireAfterSeconds' option cannot be less than 0");
    if (seconds > static_cast<double>(INT32_MAX))
        return invalidOptions(
            "TTL index 'expireAfterSeconds' option must be within an "
            "acceptable range, try a lower number");
    return Status::OK();
}

Status onlyOnView(StringData field) {
    return invalidOptions("option only supported on a view: " + std::string(field));
}

/** The collection-level options a collMod request changes, checked. */
struct CollModOptionsChange {
    std::optional<BSONObj> validator;
    std::optional<std::string> validationLevel;
    std::optional<std::string> validationAction;
    std::optional<std::optional<long long>> expireAfterSeconds;  // inner nullopt: "off"
    std::optional<long long> cappedSize;
    std::optional<long long> cappedMax;  // <= 0: no limit

    bool empty() const {
        return !validator && !validationLevel && !validationAction && !expireAfterSeconds &&
               !cappedSize && !cappedMax;
    }
};

void checkCapped(const Collection& coll, const CollModCommand& cmd, CollModOptionsChange* out) {
    if (!cmd.getCappedSize() && !cmd.getCappedMax())
        return;
    uassert(ErrorCodes::InvalidOptions, "Collection must be capped.", coll.isCapped());
    uassert(ErrorCodes::InvalidOptions,
            "Cannot resize the oplog using this command. Use the 'replSetResizeOplog' command "
            "instead.",
            !(coll.ns().db() == "local" && coll.ns().coll() == "oplog.rs"));
    if (auto size = cmd.getCappedSize()) {
        uassert(ErrorCodes::BadValue, "size has to be >= 0", *size >= 0);
        uassert(ErrorCodes::BadValue, "size cannot exceed 1 PB", *size <= kMaxCappedSize);
        out->cappedSize = (*size + 0xff) & ~0xffLL;  // whole 256-byte units, as upstream
    }
    if (auto max = cmd.getCappedMax()) {
        uassert(ErrorCodes::BadValue, "max in a capped collection has to be < 2^31 or not set",
                *max < (1LL << 31));
        out->cappedMax = *max;
    }
}

/** expireAfterSeconds: "off" or a number; collections clustered by _id only. */
void checkCollectionTTL(const Collection& coll, const BSONElement& ttl, CollModOptionsChange* out) {
    uassert(ErrorCodes::InvalidOptions,
            "'expireAfterSeconds' option is only supported on collections clustered by _id",
            coll.isClustered());
    if (ttl.type() == BSONType::kString) {
        uassert(ErrorCodes::InvalidOptions,
                "Invalid string value for the 'clusteredIndex::expireAfterSeconds' option. Got: '" +
                    ttl.str() + "'. Accepted value is 'off'",
                ttl.valueStringData() == "off");
        out->expireAfterSeconds = std::optional<long long>();
        return;
    }
    uassertStatusOK(validateClusteredExpireAfterSeconds(ttl));
    out->expireAfterSeconds = std::optional<long long>(ttl.numberLong());
}

/** Counts the top-level modifications of `cmd` (for prepareUnique and dryRun rules). */
int countTopLevelModifications(const CollModCommand& cmd) {
    return int(cmd.getValidator().has_value()) + int(cmd.getValidationLevel().has_value()) +
           int(cmd.getValidationAction().has_value()) + int(cmd.getPipeline().has_value()) +
           int(cmd.getViewOn().has_value()) +
           int(cmd.getChangeStreamPreAndPostImages().has_value()) +
           int(cmd.getExpireAfterSeconds().has_value()) + int(cmd.getTimeseries().has_value());
}

CollModOptionsChange validateOptions(const Collection& coll, const CollModCommand& cmd) {
    CollModOptionsChange change;
    checkCapped(coll, cmd, &change);
    if (const auto& validator = cmd.getValidator()) {
        BSONObj owned = validator->getOwned();
        uassertStatusOK(checkNoTextExpression(uassertStatusOK(parseMatchExpression(owned)).get()));
        change.validator = owned;
    }
    if (auto level = cmd.getValidationLevel())
        change.validationLevel = std::string(ValidationLevelEnum_serializer(*level));
    if (auto action = cmd.getValidationAction())
        change.validationAction = std::string(ValidationActionEnum_serializer(*action));
    if (cmd.getPipeline())
        uassertStatusOK(onlyOnView("pipeline"));
    if (cmd.getViewOn())
        uassertStatusOK(onlyOnView("viewOn"));
    uassert(ErrorCodes::InvalidOptions,
            "collMod option 'recordPreImages' is no longer supported: use "
            "'changeStreamPreAndPostImages'",
            !cmd.getRecordPreImages());
    uassert(ErrorCodes::CommandNotSupported,
            "collMod option 'changeStreamPreAndPostImages' is not supported: this server has no "
            "change streams",
            !cmd.getChangeStreamPreAndPostImages());
    if (const auto& ttl = cmd.getExpireAfterSeconds())
        checkCollectionTTL(coll, ttl->getElement(), &change);
    uassert(ErrorCodes::InvalidOptions,
            "option only supported on a time-series collection: timeseries", !cmd.getTimeseries());
    uassert(ErrorCodes::InvalidOptions,
            "option only supported on a time-series collection: "
            "timeseriesBucketsMayHaveMixedSchemaData",
            !cmd.getTimeseriesBucketsMayHaveMixedSchemaData());
    return change;
}

/** The collection's options with `change` applied (uuid left out: the catalog keeps it). */
BSONObj applyToOptions(const BSONObj& current, const CollModOptionsChange& change) {
    BSONObjBuilder b;
    auto replaced = [&](StringData f) {
        return (f == "validator" && change.validator) ||
               (f == "validationLevel" && change.validationLevel) ||
               (f == "validationAction" && change.validationAction) ||
               (f == "expireAfterSeconds" && change.expireAfterSeconds) ||
               (f == "size" && change.cappedSize) || (f == "max" && change.cappedMax) ||
               f == "uuid";
    };
    for (auto e : current)
        if (!replaced(e.fieldNameStringData()))
            b.append(e);
    if (change.validator)
        b.append("validator", *change.validator);
    if (change.validationLevel)
        b.append("validationLevel", *change.validationLevel);
    if (change.validationAction)
        b.append("validationAction", *change.validationAction);
    if (change.expireAfterSeconds && *change.expireAfterSeconds)
        b.append("expireAfterSeconds", **change.expireAfterSeconds);
    if (change.cappedSize)
        b.append("size", *change.cappedSize);
    if (change.cappedMax && *change.cappedMax > 0)
        b.append("max", *change.cappedMax);
    return b.obj();
}

/** dryRun: only {index: {..., unique: true}}; reports what the conversion would find. */
void runDryRun(OperationContext* opCtx, const NamespaceString& nss, const Collection& coll,
               const CollModCommand& cmd) {
    const auto& index = cmd.getIndex();
    uassert(ErrorCodes::InvalidOptions, "dry run mode requires an valid index modification.",
            index.has_value());
    uassert(ErrorCodes::InvalidOptions,
            "dry run mode requires an index modification with unique: true.",
            index->getUnique().value_or(false));
    checkCollModIndexShape(*index);
    CollModIndexChange change;
    {
        std::shared_lock<std::shared_mutex> lk(coll.lock());
        IndexEntry* idx =
            resolveCollModIndex(coll, *index, index->getKeyPattern().value_or(BSONObj()));
        change = validateCollModIndex(coll, *idx, *index, CollModTarget::kCollection);
    }
    uassert(ErrorCodes::InvalidOptions,
            "unique: true cannot be combined with any other modification in dry run mode.",
            change.numModifications + countTopLevelModifications(cmd) +
                    int(cmd.getCappedSize() || cmd.getCappedMax()) <=
                1);
    if (!change.makeUnique)
        return;
    BSONObj violations;
    Status s = opCtx->getServiceContext()->catalog->convertIndexUniqueness(
        opCtx, nss, change.indexName, true, true, &violations);
    if (s.code() == ErrorCodes::CannotConvertIndexToUnique)
        uassertedWithInfo(s, std::make_shared<CannotConvertIndexToUniqueInfo>(violations));
    uassertStatusOK(s);
}

}  // namespace

Status validateClusteredExpireAfterSeconds(const BSONElement& value) {
    if (!value.isNumber()) {
        return Status(ErrorCodes::TypeMismatch,
                      "'expireAfterSeconds' must be a number, found type " +
                          std::string(typeName(value.type())));
    }
    return validateTTLSeconds(value.numberDouble());
}

void checkCollectionUUIDMismatch(OperationContext* opCtx, const NamespaceString& nss,
                                 const BSONElement& uuid) {
    uassert(ErrorCodes::TypeMismatch,
            "BSON field 'collectionUUID' is the wrong type '" + std::string(typeName(uuid.type())) +
                "', expected type 'binData' (UUID)",
            uuid.type() == BSONType::kBinData && uuid.binDataType() == BinDataType::newUUID);
    auto* catalog = opCtx->getServiceContext()->catalog;
    auto hasUuid = [&](const Collection& c) {
        BSONElement u = c.options()["uuid"];
        return u.type() == BSONType::kBinData && u.valuesize() == uuid.valuesize() &&
               std::memcmp(u.value(), uuid.value(), u.valuesize()) == 0;
    };
    auto coll = catalog->lookup(nss);
    if (coll && hasUuid(*coll))
        return;
    std::optional<std::string> actual;
    for (const auto& c : catalog->collectionsInDb(nss.db())) {
        if (hasUuid(*c)) {
            actual = c->ns().coll();
            break;
        }
    }
    BSONObjBuilder u;
    u.appendAs(uuid, "");
    uassertedWithInfo(
        Status(ErrorCodes::CollectionUUIDMismatch, "Collection UUID does not match that specified"),
        std::make_shared<CollectionUUIDMismatchInfo>(nss.db(), u.obj(), nss.coll(), actual));
}

void checkCollModIndexShape(const CollModIndex& request) {
    uassert(ErrorCodes::InvalidOptions, "Cannot specify both key pattern and name.",
            !(request.getName() && request.getKeyPattern()));
    uassert(ErrorCodes::InvalidOptions, "Must specify either index name or key pattern.",
            request.getName() || request.getKeyPattern());
    uassert(ErrorCodes::InvalidOptions,
            "no expireAfterSeconds, hidden, unique, or prepareUnique field",
            request.getExpireAfterSeconds() || request.getHidden() || request.getUnique() ||
                request.getPrepareUnique() || request.getForceNonUnique());
    uassert(ErrorCodes::InvalidOptions,
            "collMod does not support 'unique' and 'forceNonUnique' options at the same time",
            !(request.getUnique() && request.getForceNonUnique()));
}

IndexEntry* resolveCollModIndex(const Collection& coll, const CollModIndex& request,
                                const BSONObj& keyPattern) {
    if (const auto& name = request.getName()) {
        IndexEntry* idx = coll.findIndexByName(*name);
        uassert(ErrorCodes::IndexNotFound,
                "cannot find index " + *name + " for ns " + coll.ns().ns(), idx);
        return idx;
    }
    auto matches = coll.findIndexesByKeyPattern(keyPattern);
    uassert(ErrorCodes::AmbiguousIndexKeyPattern,
            "index keyPattern " + keyPattern.toString() + " matches " +
                std::to_string(matches.size()) + " indexes, must use index name. " +
                "Conflicting indexes:" +
                (matches.size() > 1
                     ? matches[0]->desc.spec.toString() + ", " + matches[1]->desc.spec.toString()
                     : std::string()),
            matches.size() <= 1);
    uassert(ErrorCodes::IndexNotFound,
            "cannot find index " + keyPattern.toString() + " for ns " + coll.ns().ns(),
            !matches.empty());
    return matches.front();
}

CollModIndexChange validateCollModIndex(const Collection& coll, const IndexEntry& index,
                                        const CollModIndex& request, CollModTarget target) {
    const IndexDescriptor& desc = index.desc;
    const NamespaceString& nss = coll.ns();
    CollModIndexChange change;
    change.indexName = desc.name;
    change.oldExpireAfterSeconds = desc.expireAfterSeconds;
    change.oldHidden = desc.hidden;
    change.oldPrepareUnique = desc.prepareUnique;
    if (auto ttl = request.getExpireAfterSeconds()) {
        uassert(ErrorCodes::InvalidOptions,
                "TTL indexes are not supported for time-series collections. Please refer to the "
                "documentation and use the top-level 'expireAfterSeconds' option instead",
                target != CollModTarget::kTimeseries);
        uassert(ErrorCodes::InvalidOptions, "TTL indexes are not supported for capped collections.",
                !coll.isCapped());
        uassertStatusOK(validateTTLSeconds(static_cast<double>(*ttl)));
        if (!desc.expireAfterSeconds) {
            uassert(ErrorCodes::InvalidOptions, "the _id field does not support TTL indexes",
                    !desc.isIdIndex());
            uassert(ErrorCodes::InvalidOptions,
                    "TTL indexes are single-field indexes, compound indexes do not support TTL",
                    desc.keyPattern.nFields() == 1);
        }
        ++change.numModifications;
        change.expireAfterSeconds = *ttl;
    }
    if (auto unique = request.getUnique()) {
        ++change.numModifications;
        uassert(ErrorCodes::BadValue, "Cannot make index non-unique", *unique);
        if (!desc.unique) {
            uassert(ErrorCodes::InvalidOptions,
                    "Cannot make index unique with 'prepareUnique=false'. Run collMod to set it "
                    "first.",
                    desc.prepareUnique);
            change.makeUnique = true;
        }
    }
    if (auto hidden = request.getHidden()) {
        ++change.numModifications;
        uassert(6011800, "The 'hidden' option is not supported for a clusteredIndex",
                !(desc.spec["clustered"].trueValue() && !nss.isTimeseriesBucketsCollection()));
        uassert(ErrorCodes::BadValue, "Can't hide index on system collection",
                !nss.isSystem() || nss.isTimeseriesBucketsCollection());
        uassert(ErrorCodes::BadValue, "can't hide _id index", !desc.isIdIndex());
        if (desc.hidden != *hidden)
            change.hidden = *hidden;
    }
    if (auto prepare = request.getPrepareUnique()) {
        ++change.numModifications;
        uassert(ErrorCodes::InvalidOptions,
                "option not supported on a time-series collection: index.prepareUnique",
                target != CollModTarget::kTimeseries);
        if (desc.prepareUnique != *prepare && !desc.unique)
            change.prepareUnique = *prepare;
    }
    if (auto force = request.getForceNonUnique()) {
        ++change.numModifications;
        uassert(ErrorCodes::BadValue, "'forceNonUnique: false' is not supported", *force);
        uassert(ErrorCodes::InvalidOptions, "cannot make the _id index non-unique",
                !desc.isIdIndex());
        if (desc.unique)
            change.makeNonUnique = true;
    }
    return change;
}

void applyCollModIndex(OperationContext* opCtx, const NamespaceString& nss,
                       const CollModIndexChange& change, BSONObjBuilder* result) {
    if (change.empty())
        return;
    auto* catalog = opCtx->getServiceContext()->catalog;
    if (change.makeUnique || change.makeNonUnique) {
        BSONObj violations;
        Status s = catalog->convertIndexUniqueness(opCtx, nss, change.indexName, change.makeUnique,
                                                   false, &violations);
        if (s.code() == ErrorCodes::CannotConvertIndexToUnique)
            uassertedWithInfo(s, std::make_shared<CannotConvertIndexToUniqueInfo>(violations));
        uassertStatusOK(s);
    }
    if (change.expireAfterSeconds || change.hidden || change.prepareUnique) {
        // The spec as it is now (a conversion above replaced the index entry).
        auto coll = catalog->lookup(nss);
        uassert(ErrorCodes::NamespaceNotFound, "ns does not exist: " + nss.ns(), coll);
        BSONObj spec;
        {
            std::shared_lock<std::shared_mutex> lk(coll->lock());
            IndexEntry* now = coll->findIndexByName(change.indexName);
            uassert(ErrorCodes::IndexNotFound, "cannot find index " + change.indexName, now);
            spec = now->desc.spec.getOwned();
        }
        BSONObjBuilder nb;
        for (auto e : spec) {
            StringData f = e.fieldNameStringData();
            if ((f == "expireAfterSeconds" && change.expireAfterSeconds) ||
                (f == "hidden" && change.hidden) || (f == "prepareUnique" && change.prepareUnique))
                continue;
            nb.append(e);
        }
        if (change.expireAfterSeconds)
            nb.append("expireAfterSeconds", *change.expireAfterSeconds);
        if (change.hidden && *change.hidden)
            nb.append("hidden", true);
        if (change.prepareUnique && *change.prepareUnique)
            nb.append("prepareUnique", true);
        uassertStatusOK(catalog->updateIndexSpec(opCtx, nss, change.indexName, nb.obj()));
    }
    if (change.expireAfterSeconds) {
        if (change.oldExpireAfterSeconds)
            result->append("expireAfterSeconds_old", *change.oldExpireAfterSeconds);
        result->append("expireAfterSeconds_new", *change.expireAfterSeconds);
    }
    if (change.hidden) {
        result->append("hidden_old", change.oldHidden);
        result->append("hidden_new", *change.hidden);
    }
    if (change.makeUnique)
        result->append("unique_new", true);
    if (change.prepareUnique) {
        result->append("prepareUnique_old", change.oldPrepareUnique);
        result->append("prepareUnique_new", *change.prepareUnique);
    }
    if (change.makeNonUnique)
        result->append("forceNonUnique_new", true);
}

void collModCollection(OperationContext* opCtx, const NamespaceString& nss,
                       const std::shared_ptr<Collection>& coll, const CollModCommand& cmd,
                       BSONObjBuilder* result) {
    uassert(ErrorCodes::NamespaceNotFound, "ns does not exist: " + nss.ns(), coll);
    if (cmd.getDryRun().value_or(false)) {
        runDryRun(opCtx, nss, *coll, cmd);
        return;
    }
    CollModOptionsChange options;
    CollModIndexChange indexChange;
    BSONObj currentOptions;
    {
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        options = validateOptions(*coll, cmd);
        if (const auto& request = cmd.getIndex()) {
            checkCollModIndexShape(*request);
            IndexEntry* idx =
                resolveCollModIndex(*coll, *request, request->getKeyPattern().value_or(BSONObj()));
            indexChange = validateCollModIndex(*coll, *idx, *request, CollModTarget::kCollection);
        }
        currentOptions = coll->options().getOwned();
    }
    uassert(ErrorCodes::InvalidOptions,
            "prepareUnique cannot be combined with any other modification.",
            !(cmd.getIndex() && cmd.getIndex()->getPrepareUnique()) ||
                indexChange.numModifications + countTopLevelModifications(cmd) +
                        int(cmd.getCappedSize() || cmd.getCappedMax()) <=
                    1);
    auto* catalog = opCtx->getServiceContext()->catalog;
    applyCollModIndex(opCtx, nss, indexChange, result);
    if (!options.empty())
        uassertStatusOK(
            catalog->updateCollectionOptions(opCtx, nss, applyToOptions(currentOptions, options)));
}

}  // namespace mongo
