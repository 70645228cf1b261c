// BSONColumn decoder: reads a BSONColumn binary (BinData subtype 7 payload) as a sequence
// of positions, each a BSON value or "missing". The column bytes are not owned: they must
// outlive the BSONColumn and its iterators. Format: README.md in this folder and
// /work/shared/spec/bsoncolumn-and-docdiff.md Part A.
//
//   BSONColumn col(payload, len);
//   for (BSONColumn::Iterator it = col.begin(); it.next();) {
//       if (it.missing()) ...; else use(it.value());      // value() has an empty field name
//   }
//   if (!it.status().isOK()) ...                           // ErrorCodes::InvalidBSONColumn
//
// Every malformed input yields ErrorCodes::InvalidBSONColumn: lengths, offsets and control
// bytes are checked before use. Run-length words expand ~2000x, so decoding stops with
// ExceededMemoryLimit past BSONColumn::kMaxPositions positions, far above any real bucket.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonelement.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

namespace bsoncolumn {
class ColumnDecoder;
}  // namespace bsoncolumn

/** All positions of a column, materialised into one owned buffer. */
class DecodedColumn {
public:
    size_t size() const {
        return _offsets.size();
    }
    bool missing(size_t i) const {
        return _offsets[i] < 0;
    }
    /** The value at position i with an empty field name; EOO when missing. */
    BSONElement operator[](size_t i) const {
        return _offsets[i] < 0 ? BSONElement() : BSONElement(_buf.data() + _offsets[i], 1);
    }

private:
    friend class BSONColumn;
    std::string _buf;
    std::vector<int64_t> _offsets;  // -1 = missing
};

/**
 * Scalar block decode result: one entry per position, no per-value allocation. Integer-like
 * types (int32, int64, date millis, timestamp as uint64 bits, bool 0/1) go to `ints`,
 * doubles to `doubles`; `present` is a bitmap (bit i of word i/64) of non-missing positions.
 * Only the first `size` entries (and (size + 63) / 64 words of `present`) are the decode's:
 * the arrays keep their length across decodes so that a reused ScalarColumn allocates and
 * clears nothing it already has. Entries of missing positions are unspecified.
 */
struct ScalarColumn {
    BSONType type = BSONType::kEOO;  // type of the first value (all values share the kind)
    size_t size = 0;
    std::vector<int64_t> ints;
    std::vector<double> doubles;
    std::vector<uint64_t> present;
    /**
     * Doubles only: every present value is an integer of magnitude at most 2^30 (set when the
     * column holds no other doubles; false says nothing). Sums of up to kMaxPositions such
     * values are exact in double arithmetic whatever the order of the additions.
     */
    bool smallIntegers = false;

    bool isPresent(size_t i) const {
        return (present[i >> 6] >> (i & 63)) & 1;
    }
};

class BSONColumn {
public:
    /** `data`/`size`: the BinData payload (after the length and subtype bytes). */
    BSONColumn(const char* data, size_t size) : _data(data), _size(size) {}
    /** From a BinData element; an element that is not BinData gives an empty payload. */
    explicit BSONColumn(const BSONElement& binData);

    class Iterator {
    public:
        Iterator(const char* data, size_t size);
        ~Iterator();
        Iterator(Iterator&&) noexcept;
        Iterator& operator=(Iterator&&) noexcept;

        /**
         * Moves to the next position. Returns false at the end of the column or on a decode
         * error; status() then tells which (OK or InvalidBSONColumn).
         */
        bool next();
        bool missing() const;
        /** The current value (empty field name), EOO when missing. Valid until next(). */
        BSONElement value() const;
        const Status& status() const;

    private:
        std::unique_ptr<bsoncolumn::ColumnDecoder> _impl;
    };

    Iterator begin() const {
        return Iterator(_data, _size);
    }

    /** The most positions decompress(), count() and decodeScalars() accept (4 Mi). */
    static constexpr size_t kMaxPositions = size_t(1) << 22;

    /**
     * Decodes every position. Cost O(values). Errors: InvalidBSONColumn; ExceededMemoryLimit
     * past kMaxPositions positions.
     */
    StatusWith<DecodedColumn> decompress() const;
    /** Checks the whole column decodes. */
    Status validate() const;
    /** Number of positions (missing included). Errors as decompress(). */
    StatusWith<size_t> count() const;

    /**
     * Fast path for regular (non-interleaved) columns of int32, int64, date, timestamp, bool
     * or double values (kinds may not be mixed: ints vs doubles). Errors: InvalidBSONColumn
     * for malformed input; ExceededMemoryLimit past kMaxPositions; TypeMismatch when the column
     * holds other types or mixes kinds (the caller then uses the iterator).
     */
    Status decodeScalars(ScalarColumn* out) const;

    const char* data() const {
        return _data;
    }
    size_t size() const {
        return _size;
    }

private:
    const char* _data;
    size_t _size;
};

}  // namespace mongo
