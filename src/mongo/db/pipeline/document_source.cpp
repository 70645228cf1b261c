#include "mongo/db/pipeline/document_source.h"

#include <map>

#include "mongo/util/assert_util.h"

namespace mongo {

namespace {
std::map<std::string, StageParser, std::less<>>& stageRegistry() {
    static std::map<std::string, StageParser, std::less<>> r;
    return r;
}
}  // namespace

void registerDocumentSource(StringData name, StageParser parser) {
    stageRegistry()[std::string(name)] = std::move(parser);
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
    uassert(40324, "Unrecognized pipeline stage name: '" + std::string(name) + "'", it != r.end());
    return it->second(e, expCtx);
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
