#include "mongo/db/pipeline/collation_keys.h"

#include <string>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

bool isStringLike(BSONType t) {
    return t == BSONType::kString || t == BSONType::kSymbol;
}

void appendConverted(BSONObjBuilder* b, const BSONElement& e, const StringComparator* strings) {
    BSONType t = e.type();
    if (isStringLike(t)) {
        b->append(e.fieldNameStringData(), strings->comparisonKey(e.valueStringData()));
    } else if (t == BSONType::kObject) {
        BSONObjBuilder sub(b->subobjStart(e.fieldNameStringData()));
        for (auto c : e.Obj())
            appendConverted(&sub, c, strings);
    } else if (t == BSONType::kArray) {
        BSONObjBuilder sub(b->subarrayStart(e.fieldNameStringData()));
        for (auto c : e.Obj())
            appendConverted(&sub, c, strings);
    } else {
        b->append(e);
    }
}

}  // namespace

BSONObj toComparisonKeys(const BSONObj& obj, const StringComparator* strings) {
    if (!strings)
        return obj;
    BSONObjBuilder b;
    for (auto e : obj)
        appendConverted(&b, e, strings);
    return b.obj();
}

namespace {

/** `doc` reduced to the top-level fields `pattern` reads, with strings converted. */
BSONObj convertSortedFields(const SortPattern& pattern, const BSONObj& doc,
                            const StringComparator* strings) {
    BSONObjBuilder b;
    for (auto e : doc) {
        StringData name = e.fieldNameStringData();
        bool used = false;
        for (const auto& part : pattern.parts())
            used = used || (part.path.numParts() > 0 && part.path.part(0) == name);
        if (used)
            appendConverted(&b, e, strings);
    }
    return b.obj();
}

}  // namespace

BSONObj getCollatedSortKey(const SortPattern& pattern, const BSONObj& doc,
                           const StringComparator* strings) {
    if (!strings)
        return pattern.getSortKey(doc);
    return pattern.getSortKey(convertSortedFields(pattern, doc, strings));
}

int compareCollated(const SortPattern& pattern, const BSONObj& a, const BSONObj& b,
                    const StringComparator* strings) {
    if (!strings)
        return pattern.compare(a, b);
    return pattern.compareSortKeys(getCollatedSortKey(pattern, a, strings),
                                   getCollatedSortKey(pattern, b, strings));
}

}  // namespace mongo
