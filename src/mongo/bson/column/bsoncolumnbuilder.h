// BSONColumnBuilder: encodes a sequence of BSON values and missing positions into a
// BSONColumn binary, byte-identical to MongoDB 8.0 (spec §A.7 regular mode, §A.8
// interleaved objects/arrays). Supports append-only serialisation: intermediate() returns
// only the bytes that changed since the previous call (§A.10), as time-series bucket
// updates need for DocDiff `b` sections.
//
//   BSONColumnBuilder b;
//   b.append(obj["t"]); b.skip(); b.append(obj2["t"]);
//   std::string column = b.finalize();                 // BinData subtype 7 payload
//   BSONColumnBuilder::BinaryDiff d = b.intermediate(); // {offset, bytes}
//
// Thread safety: none; one owner.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonelement.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/column/bsoncolumn_encoder.h"
#include "mongo/bson/column/interleaved_schema.h"

namespace mongo {

class BSONColumnBuilder {
public:
    /** Bytes to write at `offset` of the previously returned binary (replacing its tail). */
    struct BinaryDiff {
        int offset = 0;
        std::string data;
    };

    BSONColumnBuilder();
    BSONColumnBuilder(const BSONColumnBuilder&);
    BSONColumnBuilder& operator=(const BSONColumnBuilder&);
    ~BSONColumnBuilder();

    /**
     * Re-creates a builder holding the values of an existing column (any version's
     * encoding): the values are decoded and re-appended. The next intermediate() diffs
     * against `data` itself, so the result applies to the stored bytes even when they are
     * not in 8.0's canonical form. Error: InvalidBSONColumn.
     */
    static StatusWith<BSONColumnBuilder> fromBinary(const char* data, size_t size);

    /** Appends a value (the field name is ignored). An EOO element appends a missing value. */
    BSONColumnBuilder& append(const BSONElement& e);
    /** Appends a missing position. */
    BSONColumnBuilder& skip();

    /** The complete column for everything appended so far. The builder stays usable. */
    std::string finalize() const;

    /**
     * Returns {offset, data} such that previous binary[0:offset] + data == finalize().
     * The first call returns offset 0 and the whole binary. Cost: O(bytes not yet stable).
     */
    BinaryDiff intermediate();

    /** Number of positions appended. */
    size_t size() const {
        return _count;
    }

private:
    enum class Mode { kRegular, kDetermining, kAppending };

    void _appendValue(const bsoncolumn::Val& v);
    void _appendObject(const BSONObj& obj, BSONType type);
    void _startSection(const BSONObj& obj, BSONType type);
    void _offerToDetermining(const BSONObj& obj, BSONType type, bool hasScalars);
    bool _appendToStreams(const BSONObj& obj);
    void _freeze();
    void _endSection();
    void _finish();

    bsoncolumn::EncodingStream _regular;  // owns the column bytes
    Mode _mode = Mode::kRegular;
    BSONType _rootType = BSONType::kObject;
    BSONObj _ref;
    std::vector<BSONObj> _buffered;
    std::vector<bsoncolumn::EncodingStream> _streams;
    bsoncolumn::InterleavedSchema _schema;   // _ref flattened, while kAppending
    std::vector<bsoncolumn::Val> _leafVals;  // scratch: one value per stream
    size_t _count = 0;
    size_t _stableStart = 0;
    bool _diffAgainstStored = false;
    std::string _stored;  // reopened binary, until the first intermediate()
};

namespace bsoncolumn {
/** Interleaved-mode helpers (exposed for tests). */
bool hasScalars(const BSONObj& obj);
/** §A.8.6: true if `o` is compatible with reference `r`; `count` = reference leaves visited. */
bool compatible(const BSONObj& r, const BSONObj& o, int* count);
/** §A.8.7: merges `o` into reference `r`; false if they cannot be merged. */
bool mergeReference(const BSONObj& r, const BSONObj& o, BSONObj* merged);
}  // namespace bsoncolumn

}  // namespace mongo
