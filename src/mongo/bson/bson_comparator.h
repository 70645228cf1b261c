// Canonical BSON comparison: the one ordering used by matching, sorting, min/max
// and index keys. Values of different canonical types order by type rank
// (bsontypes.h); numbers compare by numeric value across int/long/double/decimal,
// with NaN below every other number and equal to itself; strings compare
// byte-wise, or through a StringComparator (a collation) when one is given (String
// and Symbol values only: field names, code and regexes stay binary); objects and
// arrays compare element by element.
#pragma once

#include <cmath>
#include <cstddef>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/string_comparator.h"

namespace mongo {

enum class ComparisonRules { kConsiderFieldName, kIgnoreFieldName };

/**
 * <0, 0, >0 as `l` orders before, with, or after `r` (values only). `strings`,
 * when not null, orders String and Symbol values (also inside objects and arrays).
 */
int compareElementValues(const BSONElement& l, const BSONElement& r,
                         const StringComparator* strings = nullptr);

/** Like compareElementValues, but the field names count first when asked. */
int compareElements(const BSONElement& l, const BSONElement& r, ComparisonRules rules,
                    const StringComparator* strings = nullptr);

int compareObjects(const BSONObj& l, const BSONObj& r, ComparisonRules rules,
                   const StringComparator* strings = nullptr);

/**
 * Compares two doubles with the NaN rule (NaN == NaN, NaN < everything else; -0 == 0).
 * Inline: the column loops of the insert and $group block paths call it per value.
 */
inline int compareDoubles(double l, double r) {
    if (l < r)
        return -1;
    if (l > r)
        return 1;
    if (l == r)
        return 0;
    // At least one NaN.
    const bool ln = std::isnan(l), rn = std::isnan(r);
    return ln == rn ? 0 : (ln ? -1 : 1);
}

/** Compares a long long with a double exactly (no precision loss). */
int compareLongToDouble(long long l, double r);

/**
 * A hash of the element's value consistent with compareElementValues == 0 under the
 * same `strings` comparator (e.g. 1, NumberLong(1) and 1.0 hash alike; with a
 * case-insensitive collation "a" and "A" do). Field names are ignored.
 */
std::size_t hashElementValue(const BSONElement& e, std::size_t seed = 0,
                             const StringComparator* strings = nullptr);

/** Functors for ordered and hashed containers keyed by BSON values. */
struct BSONElementValueLess {
    bool operator()(const BSONElement& l, const BSONElement& r) const {
        return compareElementValues(l, r) < 0;
    }
};
struct BSONObjLess {
    bool operator()(const BSONObj& l, const BSONObj& r) const {
        return compareObjects(l, r, ComparisonRules::kConsiderFieldName) < 0;
    }
};

/** Ordering of values under a comparator (null: simple), for ordered containers. */
struct CollatedElementLess {
    const StringComparator* strings = nullptr;
    bool operator()(const BSONElement& l, const BSONElement& r) const {
        return compareElementValues(l, r, strings) < 0;
    }
};

}  // namespace mongo
