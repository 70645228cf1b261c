// BSONElement: a non-owning view of one element (type byte, field name, value)
// inside a BSONObj's buffer. Valid only while the buffer lives. An element built
// with the default constructor is EOO ("missing").
//
// Layout: [type:1][field name: cstring][value: type-dependent size]
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mongo/base/string_data.h"
#include "mongo/bson/bsontypes.h"
#include "mongo/bson/decimal128.h"
#include "mongo/bson/oid.h"
#include "mongo/bson/timestamp.h"
#include "mongo/util/time_support.h"

namespace mongo {

class BSONObj;

/** Little-endian loads/stores used by the BSON code. */
template <typename T>
inline T readLE(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}
template <typename T>
inline void writeLE(char* p, T v) {
    std::memcpy(p, &v, sizeof(T));
}

class BSONElement {
public:
    BSONElement();
    /** `data` points at the type byte. The caller guarantees the element is well formed. */
    explicit BSONElement(const char* data);
    BSONElement(const char* data, int fieldNameSize);

    BSONType type() const {
        return static_cast<BSONType>(static_cast<signed char>(*_data));
    }
    bool eoo() const {
        return type() == BSONType::kEOO;
    }
    bool ok() const {
        return !eoo();
    }
    explicit operator bool() const {
        return ok();
    }

    const char* fieldName() const {
        return eoo() ? "" : _data + 1;
    }
    StringData fieldNameStringData() const {
        return eoo() ? StringData() : StringData(_data + 1, _fieldNameSize - 1);
    }
    /** Pointer to the value bytes. */
    const char* value() const {
        return _data + 1 + _fieldNameSize;
    }
    /** Size of the value bytes. */
    int valuesize() const {
        return _totalSize - 1 - _fieldNameSize;
    }
    /** Size of the whole element (type, name and value). */
    int size() const {
        return _totalSize;
    }
    const char* rawdata() const {
        return _data;
    }

    bool isNumber() const {
        return isNumericBSONType(type());
    }
    bool isBoolean() const {
        return type() == BSONType::kBool;
    }
    bool isNull() const {
        return type() == BSONType::kNull;
    }
    bool isABSONObj() const {
        return type() == BSONType::kObject || type() == BSONType::kArray;
    }

    // Typed accessors. They do not check the type; use the *Safe or number*() forms
    // when the type is not known.
    double _numberDouble() const {
        return readLE<double>(value());
    }
    int _numberInt() const {
        return readLE<std::int32_t>(value());
    }
    long long _numberLong() const {
        return readLE<std::int64_t>(value());
    }
    Decimal128 _numberDecimal() const {
        return Decimal128(
            Decimal128::Value{readLE<std::uint64_t>(value()), readLE<std::uint64_t>(value() + 8)});
    }
    bool boolean() const {
        return *value() != 0;
    }
    Date_t date() const {
        return Date_t::fromMillisSinceEpoch(readLE<std::int64_t>(value()));
    }
    Timestamp timestamp() const {
        return Timestamp::fromULL(readLE<std::uint64_t>(value()));
    }
    mongo::OID OID() const {
        return mongo::OID::from(value());
    }
    mongo::OID __oid() const {
        return mongo::OID::from(value());
    }

    /** Number converted to double (0 for non-numbers). */
    double numberDouble() const;
    /** Number converted to int (truncating; 0 for non-numbers). */
    int numberInt() const;
    /** Number converted to long long (truncating, saturating; 0 for non-numbers). */
    long long numberLong() const;
    Decimal128 numberDecimal() const;
    /** True for numbers, bools and dates equal to something "truthy", as in a filter. */
    bool trueValue() const;

    /** String value (string, code, symbol); empty StringData otherwise. */
    StringData valueStringData() const;
    const char* valuestr() const {
        return value() + 4;
    }
    int valuestrsize() const {
        return readLE<std::int32_t>(value());
    }
    std::string str() const {
        return std::string(valueStringData());
    }
    std::string String() const {
        return str();
    }

    /** Sub-object or array (empty object otherwise). Shares the parent's buffer if given. */
    BSONObj Obj() const;
    BSONObj embeddedObject() const;
    /** The array elements in order (for arrays; empty otherwise). */
    std::vector<BSONElement> Array() const;

    const char* binData(int& len) const {
        len = readLE<std::int32_t>(value());
        return value() + 5;
    }
    BinDataType binDataType() const {
        return static_cast<BinDataType>(static_cast<unsigned char>(value()[4]));
    }
    const char* regex() const {
        return value();
    }
    const char* regexFlags() const {
        const char* p = value();
        return p + std::strlen(p) + 1;
    }

    /** Shell-like rendering: `name: value`, or just the value. */
    std::string toString(bool includeFieldName = true) const;
    void toString(std::string& out, bool includeFieldName) const;

    /** Raw-byte equality of the values (not the names). */
    bool binaryEqualValues(const BSONElement& o) const;
    /** Raw-byte equality including the field name. */
    bool binaryEqual(const BSONElement& o) const {
        return _totalSize == o._totalSize && std::memcmp(_data, o._data, _totalSize) == 0;
    }

    /** Size of a value of `type` at `value`, or -1 if it cannot be known without more bytes. */
    static int computeValueSize(BSONType type, const char* value);

private:
    const char* _data;
    int _fieldNameSize;  // including the terminating NUL
    int _totalSize;
};

}  // namespace mongo
