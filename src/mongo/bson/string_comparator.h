// StringComparator: how strings compare when a collation is in force. The BSON
// comparison functions (bson_comparator.h) take an optional one; null means the
// simple binary order. Collators (db/query/collation) implement it; this layer
// only knows the two operations comparison and hashing need.
#pragma once

#include <string>

#include "mongo/base/string_data.h"

namespace mongo {

class StringComparator {
public:
    virtual ~StringComparator() = default;

    /** <0, 0, >0 as `l` orders before, with, or after `r` under this comparator. */
    virtual int compare(StringData l, StringData r) const = 0;

    /**
     * Appends to `out` a binary key whose byte-wise order (memcmp, then length) is
     * the order of compare(): keys of strings that compare equal are identical.
     * Index keys and hashes of collated strings are built from it.
     */
    virtual void appendComparisonKey(StringData s, std::string* out) const = 0;

    std::string comparisonKey(StringData s) const {
        std::string k;
        appendComparisonKey(s, &k);
        return k;
    }
};

}  // namespace mongo
