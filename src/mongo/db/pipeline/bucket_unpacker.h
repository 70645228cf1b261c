// BucketUnpacker: turns one time-series bucket document back into the
// measurements it holds, in their original shape: the time field first, the
// bucket's `meta` under the user's metaField name next, then the other fields
// in the order of the bucket's data region. Handles v1 (uncompressed, data.<f>
// objects keyed "0","1",...) and v2/v3 (compressed BSONColumn per field)
// buckets. Bucket layout: src/mongo/db/timeseries/README.md and spec §3.1.
//
// Compressed columns of one scalar type (int32, int64, double, date, bool, timestamp) are
// decoded in blocks (BSONColumn::decodeScalars); others through BSONColumn::decompress().
// Block consumers (group_over_buckets.h) read the decoded columns with column().
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/db/timeseries/bucket_spec.h"

namespace mongo {

class BSONObjBuilder;

/**
 * Appends position `i` of a block-decoded column (every present value of BSON type `type`)
 * as `name`; nothing when the position is missing.
 */
void appendScalarValue(BSONObjBuilder* b, StringData name, const ScalarColumn& scalar,
                       BSONType type, size_t i);

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
    /** The row getNext() builds next; skipTo(i) moves there (past the end: none left). */
    size_t position() const {
        return _next;
    }
    void skipTo(size_t i) {
        _next = std::min(i, _count);
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
    /** The bucket's `meta` element (EOO when the bucket has none). */
    BSONElement meta() const {
        return _meta;
    }

    /** How a field of the current bucket is available to block consumers. */
    struct ColumnAccess {
        enum class State {
            kAbsent,  // no such column, or not unpacked (projection, meta name)
            kScalar,  // block-decoded: every present value has type `type`
            kOther    // v1 bucket, mixed types, or non-scalar values: use getNext()
        };
        State state = State::kAbsent;
        BSONType type = BSONType::kEOO;
        const ScalarColumn* scalar = nullptr;  // kScalar only; positions past size: missing
    };
    /**
     * The column of data field `name` in the current bucket, decoded now if it was not yet
     * (columns are decoded on first use: a block consumer that never asks for the time
     * column does not pay for it). Cost O(columns) plus the decoding.
     */
    ColumnAccess column(StringData name);

private:
    struct Column {
        std::string name;
        bool isTime = false;
        BSONElement raw;                     // the column in the bucket's data region
        bool ready = false;                  // decoded into one of the forms below
        std::optional<ScalarColumn> scalar;  // v2/v3 single-type scalar column
        BSONType scalarType = BSONType::kEOO;
        std::optional<DecodedColumn> decoded;  // v2/v3 other columns
        std::vector<BSONElement> values;       // v1, aligned with positions (EOO: missing)
        BSONElement at(size_t i) const;
        /** Appends position i under `name` unless missing. */
        void appendTo(BSONObjBuilder* b, size_t i) const;
    };

    BucketSpec _spec;
    BSONObj _bucket;
    BSONElement _meta;
    /** Decodes `c` unless it is ready (throws for corrupt columns). */
    void decode(Column& c);

    std::vector<Column> _columns;           // time column first
    int _version = 0;                       // control.version of the current bucket
    size_t _positions = 0;                  // values decoded from the current bucket so far
    bool _allReady = false;                 // every column decoded (getNext's first call does it)
    std::vector<ScalarColumn> _spare;       // decode buffers of earlier buckets, for reuse
    std::vector<BSONElement> _dataColumns;  // reset()'s scratch: included non-time columns
    size_t _count = 0;
    size_t _next = 0;
    int _measurementBytes = 256;  // the last measurement's size: the next builder's capacity
};

}  // namespace mongo
