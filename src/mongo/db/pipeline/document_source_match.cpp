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

/** Whether `e` holds a {$rand: ...} anywhere (a filter that must not move). */
bool mentionsRand(const BSONElement& e, int depth = 0) {
    if (e.fieldNameStringData() == "$rand" || depth > 100)
        return true;
    if (e.type() == BSONType::kObject || e.type() == BSONType::kArray)
        for (auto sub : e.Obj())
            if (mentionsRand(sub, depth + 1))
                return true;
    return false;
}

/**
 * The top-level fields `filter` reads into `out`; `*all` when it may read any (a $where, a
 * $text, an $expr over $$ROOT...) or draws random numbers. `expCtx` parses $expr to find
 * the fields it reads.
 */
void collectTopLevelPaths(const BSONObj& filter, std::vector<std::string>* out, bool* all,
                          ExpressionContext* expCtx) {
    for (auto e : filter) {
        StringData n = e.fieldNameStringData();
        if (n == "$and" || n == "$or" || n == "$nor") {
            if (e.type() == BSONType::kArray)
                for (auto sub : e.Obj())
                    if (sub.type() == BSONType::kObject)
                        collectTopLevelPaths(sub.Obj(), out, all, expCtx);
            continue;
        }
        if (n == "$expr" && expCtx && !mentionsRand(e)) {
            std::vector<std::string> deps;
            auto vps = expCtx->makeParseState();
            Expression::parseOperand(expCtx, e, vps)->addDependencies(&deps);
            for (auto& d : deps) {
                if (d.empty())
                    *all = true;
                else
                    out->push_back(d.substr(0, d.find('.')));
            }
            continue;
        }
        if (n.starts_with("$")) {  // $where, $text, $rand...: unknown dependencies
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
    collectTopLevelPaths(_filter, &paths, all, _expCtx.get());
    if (*all)
        return false;
    for (const auto& p : paths)
        for (const auto& m : modified)
            if (p == m)
                return false;
    return true;
}

namespace {
/** The conjuncts of `filter`: its top-level predicates, through $and and one-child $or. */
void collectConjuncts(const BSONObj& filter, std::vector<BSONObj>* out, int depth = 0) {
    for (auto e : filter) {
        StringData n = e.fieldNameStringData();
        const bool list = e.type() == BSONType::kArray && depth < 100;
        if (list && (n == "$and" || (n == "$or" && e.Obj().nFields() == 1))) {
            bool objects = true;
            for (auto sub : e.Obj())
                objects = objects && sub.type() == BSONType::kObject;
            if (objects) {
                for (auto sub : e.Obj())
                    collectConjuncts(sub.Obj(), out, depth + 1);
                continue;
            }
        }
        BSONObjBuilder b;
        b.append(e);
        out->push_back(b.obj());
    }
}

BSONObj andOf(const std::vector<BSONObj>& parts) {
    if (parts.size() == 1)
        return parts[0];
    BSONObjBuilder b;
    BSONArrayBuilder arr(b.subarrayStart("$and"));
    for (const auto& p : parts)
        arr.append(p);
    arr.done();
    return b.obj();
}
}  // namespace

bool DocumentSourceMatch::splitByIndependence(const std::vector<std::string>& modified,
                                              BSONObj* independent, BSONObj* dependent) const {
    std::vector<BSONObj> conjuncts, in, out;
    collectConjuncts(_filter, &conjuncts);
    for (const auto& c : conjuncts) {
        std::vector<std::string> paths;
        bool all = false;
        collectTopLevelPaths(c, &paths, &all, _expCtx.get());
        bool reads = all;
        for (const auto& p : paths)
            for (const auto& m : modified)
                reads = reads || p == m;
        (reads ? out : in).push_back(c);
    }
    if (in.empty() || out.empty())
        return false;
    *independent = andOf(in);
    *dependent = andOf(out);
    return true;
}

StageList::iterator DocumentSourceMatch::moveBefore(StageList::iterator it, StageList* container,
                                                    const std::vector<std::string>& modified) {
    auto next = std::next(it);
    auto* match =
        next == container->end() ? nullptr : dynamic_cast<DocumentSourceMatch*>(next->get());
    if (!match)
        return next;
    bool all = false;
    if (match->dependsOnlyOutside(modified, &all)) {
        std::iter_swap(it, next);
        // Re-examine the stage before the moved $match (it may merge with an earlier $match).
        return it == container->begin() ? it : std::prev(it);
    }
    // As upstream: the conjuncts that read none of those fields go before the stage.
    BSONObj independent, dependent;
    if (!match->splitByIndependence(modified, &independent, &dependent))
        return next;
    auto expCtx = match->getExpCtx();
    *next = std::make_unique<DocumentSourceMatch>(expCtx, dependent);
    auto moved = container->insert(it, std::make_unique<DocumentSourceMatch>(expCtx, independent));
    return moved == container->begin() ? moved : std::prev(moved);
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
