#include "mongo/db/catalog/index_key_generator.h"

#include <algorithm>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/string_comparator.h"

namespace mongo {

namespace {

bool isPositional(StringData s) {
    if (s.empty() || s.size() > 9)
        return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/**
 * The values at `path` in `obj`, arrays on the way traversed. With `nullForMissingInArrays`, an
 * object element of such an array that lacks the rest of the path yields null (as upstream's
 * index keys do: {a: [{}, {b: 1}]} has keys null and 1 for a.b, so {a.b: null} finds it).
 */
/** The null standing for a field an array element lacks (told apart by address). */
const BSONElement& missingInArrayNull() {
    static const BSONObj kObj = BSON("" << BSONNULL);
    static const BSONElement kNull = kObj.firstElement();
    return kNull;
}

/** Where collect() reports the arrays it meets (each pointer may be null). */
struct ArraysMet {
    /** Every array's address (leaf arrays included): two key fields may go through the same
     * arrays, not through different ones. */
    std::vector<const char*>* addresses = nullptr;
    /** The 0-based path components that were arrays (the index's multikey paths). */
    MultikeyComponents* components = nullptr;
};

/** The values at `path` under `obj` (a leaf array whole, expanded by the caller); `depth` is
 * the component `path` starts at. */
void collect(const BSONObj& obj, StringData path, std::vector<BSONElement>* out, bool* arrayOnPath,
             bool nullForMissingInArrays, ArraysMet met, size_t depth = 0) {
    auto noteArray = [&](const BSONElement& a) {
        *arrayOnPath = true;
        if (met.addresses)
            met.addresses->push_back(a.rawdata());
        if (met.components)
            met.components->insert(depth);
    };
    auto dot = path.find('.');
    StringData head = path.substr(0, dot);
    BSONElement e = obj.getField(head);
    if (e.eoo())
        return;
    if (dot == StringData::npos) {
        if (e.type() == BSONType::kArray)
            noteArray(e);
        out->push_back(e);  // a leaf array is expanded by the caller
        return;
    }
    StringData rest = path.substr(dot + 1);
    if (e.type() == BSONType::kObject) {
        collect(e.embeddedObject(), rest, out, arrayOnPath, nullForMissingInArrays, met, depth + 1);
        return;
    }
    if (e.type() == BSONType::kArray) {
        BSONObj arr = e.embeddedObject();
        StringData next = rest.substr(0, rest.find('.'));
        if (isPositional(next)) {
            // a.0.b: the element at that position (not multikey through it).
            collect(arr, rest, out, arrayOnPath, nullForMissingInArrays, met, depth + 1);
            return;
        }
        noteArray(e);
        for (auto sub : arr) {
            if (sub.type() != BSONType::kObject)
                continue;
            const size_t before = out->size();
            collect(sub.embeddedObject(), rest, out, arrayOnPath, nullForMissingInArrays, met,
                    depth + 1);
            if (nullForMissingInArrays && out->size() == before)
                out->push_back(missingInArrayNull());
        }
    }
}

size_t pathLength(StringData path) {
    return std::count(path.begin(), path.end(), '.') + 1;
}

/** Whether every array of `a` is one of `b` (both sorted). */
bool arraysWithin(const std::vector<const char*>& a, const std::vector<const char*>& b) {
    return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

void appendTranslatedElements(BSONObjBuilder* b, const BSONObj& obj,
                              const StringComparator* collator);

}  // namespace

bool isCollatableType(const BSONElement& e) {
    switch (e.type()) {
        case BSONType::kString:
        case BSONType::kSymbol:
        case BSONType::kObject:
        case BSONType::kArray:
            return true;
        default:
            return false;
    }
}

void appendCollationAwareElement(BSONObjBuilder* b, const BSONElement& e, StringData name,
                                 const StringComparator* collator) {
    if (!collator) {
        b->appendAs(e, name);
        return;
    }
    switch (e.type()) {
        case BSONType::kString:
        case BSONType::kSymbol:
            b->append(name, collator->comparisonKey(e.valueStringData()));
            return;
        case BSONType::kObject: {
            BSONObjBuilder sub(b->subobjStart(name));
            appendTranslatedElements(&sub, e.embeddedObject(), collator);
            sub.done();
            return;
        }
        case BSONType::kArray: {
            BSONObjBuilder sub(b->subarrayStart(name));
            appendTranslatedElements(&sub, e.embeddedObject(), collator);
            sub.done();
            return;
        }
        default:
            b->appendAs(e, name);
    }
}

BSONObj collationAwareKey(const BSONObj& key, const StringComparator* collator) {
    if (!collator)
        return key;
    BSONObjBuilder b;
    appendTranslatedElements(&b, key, collator);
    return b.obj();
}

namespace {
void appendTranslatedElements(BSONObjBuilder* b, const BSONObj& obj,
                              const StringComparator* collator) {
    for (auto e : obj)
        appendCollationAwareElement(b, e, e.fieldNameStringData(), collator);
}
}  // namespace

void getValuesAtPath(const BSONObj& doc, StringData path, std::vector<BSONElement>* out,
                     bool* arrayOnPath) {
    std::vector<BSONElement> raw;
    collect(doc, path, &raw, arrayOnPath, false, ArraysMet());
    for (const auto& e : raw) {
        if (e.type() == BSONType::kArray) {
            *arrayOnPath = true;
            for (auto sub : e.embeddedObject())
                out->push_back(sub);
        } else {
            out->push_back(e);
        }
    }
}

Status getIndexKeys(const BSONObj& keyPattern, const BSONObj& doc, bool sparse, IndexKeys* out,
                    const StringComparator* collator, const TwoDGrid& grid) {
    static const BSONObj kNullObj = BSON("" << BSONNULL);
    static const BSONObj kUndefinedObj = BSON("" << BSONUndefined);

    std::vector<std::vector<BSONElement>> values;
    // Key fields that met arrays, with the positions of those arrays (sorted).
    std::vector<std::pair<std::string, std::vector<const char*>>> arrayFields;
    bool allMissing = true;
    // Own the NumberLong cell ids of geo fields and the digests of hashed ones (elements
    // point into the shared buffers, which stay put when the vector grows).
    std::vector<BSONObj> geoHolders;
    out->multikeyPaths.assign(keyPattern.nFields(), MultikeyComponents());
    size_t fieldPos = 0;
    for (auto field : keyPattern) {
        MultikeyComponents& components = out->multikeyPaths[fieldPos++];
        if (isGeoKeyType(field)) {
            std::vector<long long> cells;
            Status s = getGeoKeyCells(field.fieldNameStringData(), field.valueStringData(), doc,
                                      &cells, grid);
            if (!s.isOK())
                return s;
            BSONArrayBuilder arr;
            for (long long c : cells)
                arr.append(c);
            geoHolders.push_back(arr.arr());
            std::vector<BSONElement> vals;
            for (auto c : geoHolders.back())
                vals.push_back(c);
            // Multikey through the arrays above the geometry, and at its own component when
            // it is covered by several cells (a leaf array is a point or a list of them).
            std::vector<BSONElement> unused;
            bool arrayOnPath = false;
            const size_t last = pathLength(field.fieldNameStringData()) - 1;
            collect(doc, field.fieldNameStringData(), &unused, &arrayOnPath, false,
                    ArraysMet{nullptr, &components});
            components.erase(components.lower_bound(last), components.end());
            if (vals.size() > 1)
                components.insert(last);
            if (!components.empty())
                out->multikey = true;
            if (!vals.empty())
                allMissing = false;
            values.push_back(std::move(vals));
            continue;
        }
        std::vector<BSONElement> raw;
        bool arrayOnPath = false;
        std::vector<const char*> arrays;
        collect(doc, field.fieldNameStringData(), &raw, &arrayOnPath,
                /*nullForMissingInArrays*/ true, ArraysMet{&arrays, &components});
        if (isHashedKeyType(field)) {
            const BSONElement* array = nullptr;
            for (const auto& e : raw)
                if (e.type() == BSONType::kArray)
                    array = &e;
            if (arrayOnPath || array)
                return Status(ErrorCodes::Error(16766),
                              "Error: hashed indexes do not currently support array values. "
                              "Found array at path: " +
                                  std::string(field.fieldNameStringData()));
            if (!raw.empty())
                allMissing = false;
            BSONObjBuilder one;
            appendCollationAwareElement(&one, raw.empty() ? kNullObj.firstElement() : raw[0], "",
                                        collator);
            geoHolders.push_back(BSON("" << hashIndexValue(one.obj().firstElement())));
            values.push_back({geoHolders.back().firstElement()});
            continue;
        }
        std::vector<BSONElement> vals;
        for (const auto& e : raw) {
            if (e.type() == BSONType::kArray) {
                BSONObj arr = e.embeddedObject();
                if (arr.isEmpty())
                    vals.push_back(kUndefinedObj.firstElement());
                for (auto sub : arr)
                    vals.push_back(sub);
            } else {
                vals.push_back(e);
            }
        }
        // Nulls standing for a missing field count as missing (a sparse index skips them).
        for (const auto& v : vals)
            if (v.rawdata() != missingInArrayNull().rawdata())
                allMissing = false;
        if (vals.empty())
            vals.push_back(kNullObj.firstElement());
        if (arrayOnPath) {
            out->multikey = true;
            std::sort(arrays.begin(), arrays.end());
            arrays.erase(std::unique(arrays.begin(), arrays.end()), arrays.end());
            // Fields through the same arrays ({a.b, a.c} over a: [...]) combine every value
            // of one with every value of the other, as upstream; through different arrays
            // ({a, b} over two arrays) they cannot be indexed.
            for (const auto& [name, other] : arrayFields)
                if (!arraysWithin(arrays, other) && !arraysWithin(other, arrays))
                    return Status(ErrorCodes::CannotIndexParallelArrays,
                                  "cannot index parallel arrays [" +
                                      std::string(field.fieldNameStringData()) + "] [" + name +
                                      "]");
            arrayFields.emplace_back(std::string(field.fieldNameStringData()), std::move(arrays));
        }
        values.push_back(std::move(vals));
    }
    if (sparse && allMissing)
        return Status::OK();
    for (const auto& vals : values)
        if (vals.empty())  // a geo field without geometry: the document is not indexed
            return Status::OK();

    // Cartesian product (fields with several values go through the same arrays).
    std::vector<BSONObj> keys{BSONObj()};
    for (const auto& vals : values) {
        std::vector<BSONObj> next;
        for (const auto& prefix : keys) {
            for (const auto& v : vals) {
                BSONObjBuilder b;
                b.appendElements(prefix);
                appendCollationAwareElement(&b, v, "", collator);
                next.push_back(b.obj());
            }
        }
        keys = std::move(next);
    }
    auto less = [](const BSONObj& a, const BSONObj& b) {
        return compareObjects(a, b, ComparisonRules::kIgnoreFieldName) < 0;
    };
    auto equal = [](const BSONObj& a, const BSONObj& b) {
        return compareObjects(a, b, ComparisonRules::kIgnoreFieldName) == 0;
    };
    std::sort(keys.begin(), keys.end(), less);
    keys.erase(std::unique(keys.begin(), keys.end(), equal), keys.end());
    out->keys = std::move(keys);
    return Status::OK();
}

}  // namespace mongo
