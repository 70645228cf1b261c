// BucketUnpacker: turns one time-series bucket document back into the
// measurements it holds, in their original shape: the time field first, the
// bucket's `meta` under the user's metaField name next, then the other fields
// in the order of the bucket's data region. Handles v1 (uncompressed, data.<f>
// objects keyed "0","1",...) and v2/v3 (compressed BSONColumn per field)
// buckets. Bucket layout: src/mongo/db/timeseries/README.md and spec §3.1.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/column/bsoncolumn.h"

namespace mongo {

/** What to unpack: the time/meta names and a top-level field projection. */
struct BucketSpec {
    enum class Behavior { kInclude, kExclude };

    std::string timeField;
    std::optional<std::string> metaField;
    Behavior behavior = Behavior::kExclude;
    std::set<std::string> fieldSet;  // include or exclude list (top-level names)
    /** Fields computed from meta before unpacking, copied from the bucket into each event. */
    std::vector<std::string> computedMetaProjFields;

    bool includes(StringData field) const {
        bool listed = fieldSet.count(std::string(field)) > 0;
        return behavior == Behavior::kInclude ? listed : !listed;
    }
};

class BucketUnpacker {
public:
    explicit BucketUnpacker(BucketSpec spec) : _spec(std::move(spec)) {}

    /**
     * Starts unpacking `bucket` (kept alive by the unpacker). Throws 5346509 for a
     * bucket without a data region, InvalidBSONColumn for corrupt columns.
     */
    void reset(BSONObj bucket);
    bool hasNext() const {
        return _next < _count;
    }
    /** The next measurement. REQUIRES: hasNext(). */
    BSONObj getNext();
    size_t numberOfMeasurements() const {
        return _count;
    }
    const BucketSpec& spec() const {
        return _spec;
    }
    const BSONObj& bucket() const {
        return _bucket;
    }

private:
    struct Column {
        std::string name;
        bool isTime = false;
        std::optional<DecodedColumn> decoded;  // v2/v3
        std::vector<BSONElement> values;       // v1, aligned with positions (EOO: missing)
        BSONElement at(size_t i) const;
    };

    BucketSpec _spec;
    BSONObj _bucket;
    BSONElement _meta;
    std::vector<Column> _columns;  // time column first
    size_t _count = 0;
    size_t _next = 0;
};

}  // namespace mongo
