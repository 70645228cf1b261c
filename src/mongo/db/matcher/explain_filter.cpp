#include "mongo/db/matcher/explain_filter.h"

#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/expression.h"

namespace mongo {

namespace {

bool isLogical(StringData name) {
    return name == "$and" || name == "$or" || name == "$nor";
}

// Appends the normalised children of `op` (an $and/$or array) to `out`, lifting the
// children of a nested operator of the same kind into this level.
void collectChildren(StringData op, const BSONElement& arr, std::vector<BSONObj>* out, int depth) {
    for (const auto& child : arr.Obj()) {
        if (child.type() != BSONType::kObject) {
            continue;
        }
        BSONObj c = normalizeFilterForExplain(child.Obj());
        if (op == "$and" && c.isEmpty())
            continue;  // an always-true conjunct
        if (op != "$nor" && c.nFields() == 1 && c.firstElementFieldNameStringData() == op &&
            c.firstElement().type() == BSONType::kArray && depth < 200) {
            collectChildren(op, c.firstElement(), out, depth + 1);
            continue;
        }
        out->push_back(c.getOwned());
    }
}

}  // namespace

BSONObj normalizeFilterForExplain(const BSONObj& filter) {
    if (filter.nFields() != 1) {
        return filter;
    }
    BSONElement e = filter.firstElement();
    StringData name = e.fieldNameStringData();
    if (name == "$alwaysTrue")
        return BSONObj();  // upstream optimises it away: no filter
    if (!isLogical(name) || e.type() != BSONType::kArray) {
        return filter;
    }
    std::vector<BSONObj> children;
    collectChildren(name, e, &children, 0);
    if (name != "$nor" && children.size() == 1) {
        return children.front();
    }
    if (name == "$and" && children.empty())
        return BSONObj();
    BSONObjBuilder b;
    BSONArrayBuilder arr(b.subarrayStart(name));
    for (const auto& c : children) {
        arr.append(c);
    }
    arr.done();
    return b.obj();
}

BSONObj serializeForExplain(const MatchExpression& expr) {
    return normalizeFilterForExplain(expr.serialize());
}

}  // namespace mongo
