#include "mongo/db/matcher/expression_sort.h"

namespace mongo {

namespace {

using MT = MatchExpression::MatchType;

/** The kind's place in upstream's MatchType enumeration, which the canonical order follows. */
int kindRank(MT t) {
    switch (t) {
        case MT::kAnd:
            return 0;
        case MT::kOr:
            return 1;
        case MT::kElemMatchObject:
            return 2;
        case MT::kElemMatchValue:
            return 3;
        case MT::kSize:
            return 4;
        case MT::kEq:
            return 5;
        case MT::kLte:
            return 6;
        case MT::kLt:
            return 7;
        case MT::kGt:
            return 8;
        case MT::kGte:
            return 9;
        case MT::kRegex:
            return 10;
        case MT::kMod:
            return 11;
        case MT::kExists:
            return 12;
        case MT::kIn:
            return 13;
        case MT::kNot:
            return 18;
        case MT::kNor:
            return 19;
        case MT::kType:
            return 20;
        case MT::kGeo:
            return 21;
        case MT::kInternalExpr:
            return 23;
        case MT::kAlwaysFalse:
            return 24;
        case MT::kAlwaysTrue:
            return 25;
        case MT::kText:
            return 27;
        case MT::kInternalBucketGeoWithin:
            return 29;
        case MT::kInternalExprEq:
            return 30;
        case MT::kInternalExprGt:
            return 31;
        case MT::kInternalExprGte:
            return 32;
        case MT::kInternalExprLt:
            return 33;
        case MT::kInternalExprLte:
            return 34;
    }
    return 40;
}

}  // namespace

int compareMatchExpressions(const MatchExpression& a, const MatchExpression& b) {
    int ra = kindRank(a.matchType()), rb = kindRank(b.matchType());
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (int c = a.path().compare(b.path()); c != 0)
        return c < 0 ? -1 : 1;
    if (a.numChildren() != b.numChildren())
        return a.numChildren() < b.numChildren() ? -1 : 1;
    for (size_t i = 0; i < a.numChildren(); ++i)
        if (int c = compareMatchExpressions(*a.getChild(i), *b.getChild(i)); c != 0)
            return c;
    return 0;
}

std::unique_ptr<MatchExpression> canonicalizeMatchExpression(
    std::unique_ptr<MatchExpression> root) {
    if (auto* n = dynamic_cast<NotMatchExpression*>(root.get()))
        return std::make_unique<NotMatchExpression>(canonicalizeMatchExpression(n->releaseChild()));
    auto* list = dynamic_cast<ListOfMatchExpression*>(root.get());
    if (!list)
        return root;
    const MT type = list->matchType();
    auto out = std::make_unique<ListOfMatchExpression>(type);
    for (size_t i = 0; i < list->numChildren(); ++i) {
        auto child = canonicalizeMatchExpression(list->releaseChild(i));
        auto* sub = dynamic_cast<ListOfMatchExpression*>(child.get());
        if (sub && type != MT::kNor && sub->matchType() == type) {
            for (size_t j = 0; j < sub->numChildren(); ++j)  // already canonical
                out->add(sub->releaseChild(j));
        } else {
            out->add(std::move(child));
        }
    }
    if (type != MT::kNor && out->numChildren() == 1)
        return out->releaseChild(0);
    out->sortChildren([](const MatchExpression& x, const MatchExpression& y) {
        return compareMatchExpressions(x, y) < 0;
    });
    return out;
}

}  // namespace mongo
