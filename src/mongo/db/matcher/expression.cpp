#include "mongo/db/matcher/expression.h"

#include <string>

#include "mongo/db/query/collation/collator_interface.h"

namespace mongo {

const std::string& MatchExpression::path() const {
    static const std::string kEmpty;
    return kEmpty;
}

const StringComparator* MatchExpression::stringComparator() const {
    return _collator;
}

void ListOfMatchExpression::setCollator(const CollatorInterface* collator) {
    MatchExpression::setCollator(collator);
    for (auto& c : _children)
        if (c)
            c->setCollator(collator);
}

BSONObj MatchExpression::serialize() const {
    BSONObjBuilder b;
    serialize(&b);
    return b.obj();
}

namespace {
/** The path `e` tests, through $and wrappers of one child ({a: 1} in an $or); "" for none. */
const std::string& testedPath(const MatchExpression* e) {
    while (e->matchType() == MatchExpression::MatchType::kAnd && e->numChildren() == 1)
        e = e->getChild(0);
    return e->path();
}
}  // namespace

bool ListOfMatchExpression::matches(const BSONObj& doc, MatchDetails* details) const {
    switch (matchType()) {
        case MatchType::kAnd:
            for (const auto& c : _children)
                if (!c->matches(doc, details))
                    return false;
            return true;
        case MatchType::kOr: {
            // Which array element matched means something only when every branch tests the
            // same path: otherwise (as upstream) no position is recorded ("a.$" then fails).
            MatchDetails* d = details;
            for (const auto& c : _children)
                if (testedPath(c.get()).empty() ||
                    testedPath(c.get()) != testedPath(_children.front().get()))
                    d = nullptr;
            for (const auto& c : _children)
                if (c->matches(doc, d))
                    return true;
            return false;
        }
        default:  // kNor
            for (const auto& c : _children)
                if (c->matches(doc, nullptr))
                    return false;
            return true;
    }
}

bool ListOfMatchExpression::matchesSingleElement(const BSONElement& e,
                                                 MatchDetails* details) const {
    switch (matchType()) {
        case MatchType::kAnd:
            for (const auto& c : _children)
                if (!c->matchesSingleElement(e, details))
                    return false;
            return true;
        case MatchType::kOr:
            for (const auto& c : _children)
                if (c->matchesSingleElement(e, details))
                    return true;
            return false;
        default:
            for (const auto& c : _children)
                if (c->matchesSingleElement(e, nullptr))
                    return false;
            return true;
    }
}

void ListOfMatchExpression::serialize(BSONObjBuilder* out) const {
    // With no children (the empty filter {}), {$and: []} would not re-parse: an empty $and
    // adds nothing (as upstream's), an empty $or never matches, an empty $nor always does.
    if (_children.empty()) {
        if (matchType() != MatchType::kAnd)
            out->append(matchType() == MatchType::kOr ? "$alwaysFalse" : "$alwaysTrue", 1);
        return;
    }
    StringData name = matchType() == MatchType::kAnd  ? "$and"
                      : matchType() == MatchType::kOr ? "$or"
                                                      : "$nor";
    BSONArrayBuilder arr(out->subarrayStart(name));
    for (const auto& c : _children) {
        BSONObjBuilder sub(arr.subobjStart());
        c->serialize(&sub);
    }
}

void NotMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder childBuilder;
    _child->serialize(&childBuilder);
    BSONObj child = childBuilder.obj();
    // As upstream prints it: the negation of one path's predicate stays {path: {$not: ...}}
    // ({path: {$not: /re/}} for a regex); anything else becomes {$nor: [child]}.
    if (child.nFields() == 1) {
        BSONElement e = child.firstElement();
        StringData path = e.fieldNameStringData();
        const bool opObject = e.type() == BSONType::kObject && !e.Obj().isEmpty() &&
                              e.Obj().firstElementFieldNameStringData().starts_with("$");
        if (!path.empty() && !path.starts_with("$") && (opObject || e.type() == BSONType::kRegEx)) {
            BSONObjBuilder pathBuilder(out->subobjStart(path));
            if (opObject)
                pathBuilder.append("$not", e.Obj());
            else
                pathBuilder.appendAs(e, "$not");
            return;
        }
    }
    BSONArrayBuilder arr(out->subarrayStart("$nor"));
    arr.append(child);
}

bool PathMatchExpression::matches(const BSONObj& doc, MatchDetails* details) const {
    if (_path.empty())
        return false;
    // Until an array is met, the walk reaches one value (or none): it is tested here without
    // the walker (a bucket filter's "meta.<tag>" over a whole scan). Arrays take walkPath().
    const size_t parts = _fieldPath.numParts();
    BSONElement e = doc.getField(_fieldPath.part(0));
    for (size_t i = 0;; ++i) {
        const BSONType t = e.type();
        if (t == BSONType::kArray) {
            if (i + 1 < parts || _leaf == LeafArrayBehavior::kTraverse)
                break;
            return matchesSingleElement(e, details);  // the array itself, not traversed
        }
        if (i + 1 == parts || e.eoo())
            return matchesSingleElement(e, details);  // the value, or missing
        if (t != BSONType::kObject)
            return matchesSingleElement(BSONElement(), details);  // a scalar mid-path: missing
        e = e.Obj().getField(_fieldPath.part(i + 1));
    }
    return walkPath(doc, _fieldPath, _leaf, [&](const PathValue& v) {
        if (!matchesSingleElement(v.element, details))
            return false;
        if (details && v.outerArrayIndex >= 0)
            details->setElemMatchKey(std::to_string(v.outerArrayIndex));
        return true;
    });
}

}  // namespace mongo
