// Keys of "hashed" index fields: a NumberLong digest of the value, equal for values that
// compare equal (numbers of any type truncated to a 64-bit integer first, as documented for
// hashed indexes). The digest is the first 8 bytes (little-endian) of MD5 over a canonical
// serialisation; it is stored in index tables, so it must never change. See
// index_key_generator.h.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <openssl/evp.h>

#include "mongo/bson/bsontypes.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

void put64(std::string* out, long long v) {
    unsigned long long u = static_cast<unsigned long long>(v);
    for (int i = 0; i < 8; ++i)
        out->push_back(static_cast<char>((u >> (8 * i)) & 0xff));
}

/** A number truncated toward zero into a long long (saturating); NaN handled by the caller. */
long long truncatedNumber(const BSONElement& e) {
    switch (e.type()) {
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
            return e.numberLong();
        default: {
            double d = e.numberDouble();  // Decimal128 too: truncation makes the rest moot
            if (d >= 9223372036854775807.0)
                return std::numeric_limits<long long>::max();
            if (d <= -9223372036854775808.0)
                return std::numeric_limits<long long>::min();
            return static_cast<long long>(std::trunc(d));
        }
    }
}

/** Appends the canonical form of `e`'s value: its type rank, then what distinguishes it. */
void serialize(const BSONElement& e, std::string* out) {
    out->push_back(static_cast<char>(canonicalizeBSONType(e.type())));
    switch (e.type()) {
        case BSONType::kEOO:
        case BSONType::kNull:
        case BSONType::kUndefined:
        case BSONType::kMinKey:
        case BSONType::kMaxKey:
            return;
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
        case BSONType::kNumberDouble:
        case BSONType::kNumberDecimal: {
            const double d = e.numberDouble();
            if (d != d) {
                out->push_back('N');  // every NaN alike
                return;
            }
            put64(out, truncatedNumber(e));
            return;
        }
        case BSONType::kString:
        case BSONType::kSymbol: {
            StringData s = e.valueStringData();
            put64(out, static_cast<long long>(s.size()));
            out->append(s.data(), s.size());
            return;
        }
        case BSONType::kObject:
        case BSONType::kArray: {
            BSONObj o = e.embeddedObject();
            put64(out, o.nFields());
            for (auto sub : o) {
                StringData name = sub.fieldNameStringData();
                put64(out, static_cast<long long>(name.size()));
                out->append(name.data(), name.size());
                serialize(sub, out);
            }
            return;
        }
        case BSONType::kBool:
            out->push_back(e.boolean() ? 1 : 0);
            return;
        default:
            // Dates, timestamps, ObjectIds, binary, regexes, code...: their value bytes, with
            // the exact type (ranks are shared by a few of them).
            out->push_back(static_cast<char>(e.type()));
            out->append(e.value(), static_cast<size_t>(e.valuesize()));
            return;
    }
}

}  // namespace

bool isHashedKeyType(const BSONElement& keyPatternField) {
    return keyPatternField.type() == BSONType::kString &&
           keyPatternField.valueStringData() == "hashed";
}

long long hashIndexValue(const BSONElement& e) {
    std::string bytes;
    serialize(e, &bytes);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    invariant(EVP_Digest(bytes.data(), bytes.size(), digest, &len, EVP_md5(), nullptr) == 1 &&
              len >= 8);
    unsigned long long v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | digest[i];
    return static_cast<long long>(v);
}

}  // namespace mongo
