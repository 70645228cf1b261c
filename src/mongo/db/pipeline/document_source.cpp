#include "mongo/db/pipeline/document_source.h"

#include <map>
#include <set>

#include "mongo/db/api_parameters.h"
#include "mongo/db/operation_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {
struct RegisteredStage {
    StageParser parser;
    StageStability stability;
};

std::map<std::string, RegisteredStage, std::less<>>& stageRegistry() {
    static std::map<std::string, RegisteredStage, std::less<>> r;
    return r;
}

/** Stages outside API Version 1 that upstream has and this server does not register. */
bool isUnregisteredStageNotInV1(StringData name) {
    static const std::set<std::string, std::less<>> kNames = {"$listLocalSessions", "$listSessions",
                                                              "$planCacheStats", "$queryStats",
                                                              "$listCachedAndActiveUsers"};
    return kNames.count(name) > 0;
}
}  // namespace

/**
 * APIStrictError 323 under apiStrict for a stage outside API Version 1: those registered as
 * StageStability::kNotInAPIVersion1 (the diagnostic stages), upstream's session and diagnostic
 * stages this server lacks, and $collStats with anything but `count`. Internal stages the server
 * adds itself (a time-series view's $_internalUnpackBucket) are parsed in the same operation, so
 * they are not refused here.
 */
void checkStageInAPIVersion1(const ExpressionContext& expCtx, StringData name,
                             const BSONElement& spec) {
    if (!isAPIStrict(expCtx.opCtx))
        return;
    const auto& registry = stageRegistry();
    auto registered = registry.find(name);
    if (registered != registry.end()
            ? registered->second.stability == StageStability::kNotInAPIVersion1
            : isUnregisteredStageNotInV1(name))
        uassertAllowedWithAPIStrict(expCtx.opCtx, "stage " + std::string(name));
    // Sub-pipelines are checked before the stage parses its own spec (as upstream's first,
    // lite, parse of the whole request does).
    auto checkSubPipeline = [&](const BSONElement& pipeline) {
        if (pipeline.type() != BSONType::kArray)
            return;
        for (BSONElement stage : pipeline.embeddedObject())
            if (stage.type() == BSONType::kObject && stage.embeddedObject().nFields() == 1)
                checkStageInAPIVersion1(expCtx,
                                        stage.embeddedObject().firstElementFieldNameStringData(),
                                        stage.embeddedObject().firstElement());
    };
    if ((name == "$lookup" || name == "$unionWith") && spec.type() == BSONType::kObject)
        checkSubPipeline(spec.embeddedObject()["pipeline"]);
    if (name == "$facet" && spec.type() == BSONType::kObject)
        for (BSONElement facet : spec.embeddedObject())
            checkSubPipeline(facet);
    if (name == "$collStats" && spec.type() == BSONType::kObject) {
        for (BSONElement option : spec.embeddedObject())
            if (option.fieldNameStringData() != "count")
                uassertAllowedWithAPIStrict(expCtx.opCtx, "stage $collStats with option " +
                                                              std::string(option.fieldName()));
    }
}

void registerDocumentSource(StringData name, StageParser parser, StageStability stability) {
    stageRegistry()[std::string(name)] = RegisteredStage{std::move(parser), stability};
}

void uassertNotInFacet(const ExpressionContext& expCtx, StringData stage) {
    const std::string& owner = expCtx.facetNesting;
    uassert(40600,
            std::string(stage) + (owner == "$facet" ? "" : " inside of " + owner) +
                " is not allowed to be used within a $facet stage",
            owner.empty());
}

std::vector<StagePtr> parseDocumentSource(const BSONObj& stage,
                                          const std::shared_ptr<ExpressionContext>& expCtx) {
    uassert(40323, "A pipeline stage specification object must contain exactly one field.",
            stage.nFields() == 1);
    BSONElement e = stage.firstElement();
    StringData name = e.fieldNameStringData();
    auto& r = stageRegistry();
    auto it = r.find(name);
    checkStageInAPIVersion1(*expCtx, name, e);  // also for those this server does not have
    uassert(40324, "Unrecognized pipeline stage name: '" + std::string(name) + "'", it != r.end());
    return it->second.parser(e, expCtx);
}

Value makeSortKeyMetadata(const SortPattern& pattern, const BSONObj& doc) {
    BSONObj key = pattern.getSortKey(doc);
    std::vector<Value> parts;
    for (BSONElement e : key)
        parts.emplace_back(e);
    return Value(parts).getOwned();
}

void DocumentSource::setSortKeyMetadata(const SortPattern& pattern, const BSONObj& doc) {
    if (!_expCtx->needsSortKeyMetadata)
        return;
    _metadata.sortKey = makeSortKeyMetadata(pattern, doc);
    _expCtx->variables.metadata = &_metadata;
}

void DocumentSourceQueue::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    BSONArrayBuilder arr(b.subarrayStart(_name == "$queue" ? "$queue" : _name));
    for (const auto& d : _docs)
        arr.append(d);
}

}  // namespace mongo
