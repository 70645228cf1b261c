#include "mongo/db/pipeline/document_source_match.h"

#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"

namespace mongo {

DocumentSourceMatch::DocumentSourceMatch(std::shared_ptr<ExpressionContext> expCtx, BSONObj filter)
    : DocumentSource(std::move(expCtx)), _filter(filter.getOwned()) {
    // A $match filters; it cannot order by distance (find with $near on a collection becomes
    // a $geoNear stage instead, pipeline_d.h findToPipeline).
    uassertStatusOK(checkNoNearPredicate(_filter));
    ExprParseContextGuard guard(_expCtx);
    _matcher = std::shared_ptr<MatchExpression>(uassertStatusOK(parseMatchExpression(_filter)));
    // The context owns the collator for as long as this stage (and the matcher) live.
    if (const CollatorInterface* collator = _expCtx->getCollator())
        _matcher->setCollator(collator);
}

std::optional<BSONObj> DocumentSourceMatch::getNext() {
    while (auto doc = _source->getNext()) {
        if (_matcher->matchesBSON(*doc))
            return doc;
    }
    return std::nullopt;
}

void DocumentSourceMatch::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    b.append("$match", _filter);
}

StageList::iterator DocumentSourceMatch::optimizeAt(StageList::iterator it, StageList* container) {
    auto next = std::next(it);
    if (next == container->end())
        return next;
    if (auto* nextMatch = dynamic_cast<DocumentSourceMatch*>(next->get())) {
        // Adjacent $match stages combine into one {$and: [a, b]}.
        BSONObjBuilder b;
        BSONArrayBuilder arr(b.subarrayStart("$and"));
        arr.append(_filter);
        arr.append(nextMatch->_filter);
        arr.done();
        *it = std::make_unique<DocumentSourceMatch>(_expCtx, b.obj());
        container->erase(next);
        return it;  // look again at the merged stage
    }
    return next;
}

namespace {

void collectTopLevelPaths(const BSONObj& filter, std::vector<std::string>* out, bool* all) {
    for (auto e : filter) {
        StringData n = e.fieldNameStringData();
        if (n == "$and" || n == "$or" || n == "$nor") {
            if (e.type() == BSONType::kArray)
                for (auto sub : e.Obj())
                    if (sub.type() == BSONType::kObject)
                        collectTopLevelPaths(sub.Obj(), out, all);
            continue;
        }
        if (n.starts_with("$")) {  // $expr, $where, $text...: unknown dependencies
            *all = true;
            continue;
        }
        size_t dot = n.find('.');
        out->emplace_back(n.substr(0, dot));
    }
}

}  // namespace

bool DocumentSourceMatch::dependsOnlyOutside(const std::vector<std::string>& modified,
                                             bool* all) const {
    std::vector<std::string> paths;
    *all = false;
    collectTopLevelPaths(_filter, &paths, all);
    if (*all)
        return false;
    for (const auto& p : paths)
        for (const auto& m : modified)
            if (p == m)
                return false;
    return true;
}

namespace {
const bool kRegistered = [] {
    registerDocumentSource(
        "$match", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(15959, "the match filter must be an expression in an object",
                    e.type() == BSONType::kObject);
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceMatch>(expCtx, e.Obj()));
            return out;
        });
    return true;
}();
}  // namespace

}  // namespace mongo
