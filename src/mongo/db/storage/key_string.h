// KeyString: the order-preserving byte encoding of index keys. memcmp order of two
// encodings equals the canonical BSON order (bson_comparator.h) of the keys, field
// by field, with per-field direction from the index's Ordering. Exact types that
// compare equal (1, NumberLong(1), 1.0) encode to identical bytes; the TypeBits
// kept beside the key restore them on decode. Byte layout: README.md in this folder.
//
//   Ordering ord = Ordering::make(BSON("a" << 1 << "b" << -1));
//   key_string::Builder ks(ord, BSON("" << 5 << "" << "x"));
//   ks.appendRecordId(RecordId(7));  // non-unique index entries
//   BSONObj back = key_string::toBson(ks.getView(), ord, ks.getTypeBits());
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/storage/record_id.h"

namespace mongo {

/** Per-field direction of an index key: bit i set = field i descending. At most 32 fields. */
class Ordering {
public:
    Ordering() = default;
    /** From a key pattern: a negative number means descending; anything else ascending. */
    static Ordering make(const BSONObj& keyPattern);
    bool descending(int field) const {
        return field < 32 && (_bits >> field) & 1u;
    }
    std::uint32_t bits() const {
        return _bits;
    }

private:
    explicit Ordering(std::uint32_t b) : _bits(b) {}
    std::uint32_t _bits = 0;
};

namespace key_string {

/** Marks a prefix key for seeking: before or after every key that extends it. */
enum class Discriminator { kInclusive, kExcludeBefore, kExcludeAfter };

/** Exact-type information lost by the value encoding, as an opaque byte string. */
using TypeBits = std::string;

class Builder {
public:
    /**
     * Encodes the values of `key` (field names ignored) with `ord`. With a
     * discriminator other than kInclusive the result is a seek bound that sorts
     * before (kExcludeBefore) or after (kExcludeAfter) every key starting with
     * these values; it has no end byte and no RecordId.
     */
    Builder(Ordering ord, const BSONObj& key, Discriminator d = Discriminator::kInclusive);

    /** Appends the 8-byte order-preserving RecordId (non-unique index entries). */
    void appendRecordId(RecordId id);

    std::string_view getView() const {
        return _buf;
    }
    const std::string& getBuffer() const {
        return _buf;
    }
    const TypeBits& getTypeBits() const {
        return _typeBits;
    }

private:
    std::string _buf;
    TypeBits _typeBits;
};

/** Size in bytes of an encoded RecordId. */
constexpr std::size_t kRecordIdSize = 8;

/** Encodes/decodes just a RecordId (8 bytes, big-endian with the sign bit flipped). */
std::string encodeRecordId(RecordId id);
RecordId decodeRecordId(std::string_view bytes);

/**
 * Decodes a key (with or without a trailing RecordId) into {"": v1, "": v2, ...}.
 * InvalidBSON (22) if the bytes or type bits are malformed.
 */
StatusWith<BSONObj> toBsonSafe(std::string_view key, Ordering ord, const TypeBits& typeBits);
/** As toBsonSafe; invariant on malformed input (for bytes this process wrote). */
BSONObj toBson(std::string_view key, Ordering ord, const TypeBits& typeBits);

/** The key bytes without the trailing RecordId (for keys built with appendRecordId). */
std::string_view withoutRecordId(std::string_view key);
/** The RecordId at the end of a key built with appendRecordId. */
RecordId decodeRecordIdAtEnd(std::string_view key);

}  // namespace key_string
}  // namespace mongo
