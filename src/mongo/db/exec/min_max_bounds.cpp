#include "mongo/db/exec/min_max_bounds.h"

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

bool sameFieldNames(const BSONObj& a, const BSONObj& b) {
    auto ia = a.begin(), ib = b.begin();
    while (ia.more() && ib.more())
        if (ia.next().fieldNameStringData() != ib.next().fieldNameStringData())
            return false;
    return !ia.more() && !ib.more();
}

/** An ordered index over plain values: each key field 1/-1 (no "$**", "text", "2d"...). */
bool isOrderedIndex(const BSONObj& keyPattern) {
    for (BSONElement k : keyPattern) {
        if (!k.isNumber() || k.fieldNameStringData().find("$**") != StringData::npos)
            return false;
    }
    return true;
}

/** <0, 0, >0 as key `a` comes before, with or after key `b` in the index's order. */
int compareInIndexOrder(const BSONObj& a, const BSONObj& b, const BSONObj& keyPattern) {
    auto ia = a.begin(), ib = b.begin();
    for (BSONElement k : keyPattern) {
        int c = compareElementValues(ia.next(), ib.next());
        if (c != 0)
            return k.numberDouble() < 0 ? -c : c;
    }
    return 0;
}

}  // namespace

IndexBounds minMaxBounds(const IndexEntry& index, const BSONObj& min, const BSONObj& max) {
    uassert(51176, "min() and max() must have the same field names",
            min.isEmpty() || max.isEmpty() || sameFieldNames(min, max));
    const BSONObj& keyPattern = index.desc.keyPattern;
    const BSONObj& given = min.isEmpty() ? max : min;
    uassert(51174,
            "The index chosen is not compatible with min/max: " + keyPattern.toString() +
                " does not have the fields of " + given.toString(),
            isOrderedIndex(keyPattern) && sameFieldNames(given, keyPattern));
    uassert(51175, "max() must be greater than min()",
            min.isEmpty() || max.isEmpty() || compareInIndexOrder(min, max, keyPattern) < 0);
    IndexBounds bounds;
    bounds.start = min;
    bounds.startInclusive = true;
    bounds.end = max;
    bounds.endInclusive = false;
    // Explain: {field: ["[min, max)"]}, MinKey/MaxKey on an open side.
    BSONObjBuilder explain;
    for (BSONElement k : keyPattern) {
        StringData f = k.fieldNameStringData();
        std::string lo = min.isEmpty() ? "MinKey" : min[f].toString(false);
        std::string hi = max.isEmpty() ? "MaxKey" : max[f].toString(false);
        BSONArrayBuilder arr(explain.subarrayStart(f));
        arr.append("[" + lo + ", " + hi + ")");
    }
    bounds.explain = explain.obj();
    return bounds;
}

}  // namespace mongo
