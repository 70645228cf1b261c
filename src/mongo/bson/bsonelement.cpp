#include "mongo/bson/bsonelement.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/json.h"

namespace mongo {

namespace {
const char kEOOBytes[] = {0, 0};
}

BSONElement::BSONElement() : _data(kEOOBytes), _fieldNameSize(0), _totalSize(1) {}

BSONElement::BSONElement(const char* data) : _data(data) {
    if (type() == BSONType::kEOO) {
        _fieldNameSize = 0;
        _totalSize = 1;
        return;
    }
    _fieldNameSize = static_cast<int>(std::strlen(data + 1)) + 1;
    _totalSize = 1 + _fieldNameSize + computeValueSize(type(), data + 1 + _fieldNameSize);
}

BSONElement::BSONElement(const char* data, int fieldNameSize)
    : _data(data), _fieldNameSize(fieldNameSize) {
    _totalSize = type() == BSONType::kEOO
                     ? 1
                     : 1 + _fieldNameSize + computeValueSize(type(), data + 1 + _fieldNameSize);
}

int BSONElement::computeValueSize(BSONType type, const char* v) {
    switch (type) {
        case BSONType::kEOO:
        case BSONType::kUndefined:
        case BSONType::kNull:
        case BSONType::kMinKey:
        case BSONType::kMaxKey:
            return 0;
        case BSONType::kBool:
            return 1;
        case BSONType::kNumberInt:
            return 4;
        case BSONType::kNumberDouble:
        case BSONType::kDate:
        case BSONType::kTimestamp:
        case BSONType::kNumberLong:
            return 8;
        case BSONType::kOid:
            return 12;
        case BSONType::kNumberDecimal:
            return 16;
        case BSONType::kString:
        case BSONType::kCode:
        case BSONType::kSymbol:
            return 4 + readLE<std::int32_t>(v);
        case BSONType::kDBRef:
            return 4 + readLE<std::int32_t>(v) + 12;
        case BSONType::kObject:
        case BSONType::kArray:
        case BSONType::kCodeWScope:
            return readLE<std::int32_t>(v);
        case BSONType::kBinData:
            return 4 + 1 + readLE<std::int32_t>(v);
        case BSONType::kRegEx: {
            int a = static_cast<int>(std::strlen(v)) + 1;
            int b = static_cast<int>(std::strlen(v + a)) + 1;
            return a + b;
        }
    }
    return -1;
}

double BSONElement::numberDouble() const {
    switch (type()) {
        case BSONType::kNumberDouble:
            return _numberDouble();
        case BSONType::kNumberInt:
            return _numberInt();
        case BSONType::kNumberLong:
            return static_cast<double>(_numberLong());
        case BSONType::kNumberDecimal:
            return _numberDecimal().toDouble();
        default:
            return 0;
    }
}

int BSONElement::numberInt() const {
    switch (type()) {
        case BSONType::kNumberInt:
            return _numberInt();
        case BSONType::kNumberLong:
            return static_cast<int>(_numberLong());
        case BSONType::kNumberDouble:
        case BSONType::kNumberDecimal: {
            double d = numberDouble();
            if (std::isnan(d))
                return 0;
            if (d >= std::numeric_limits<int>::max())
                return std::numeric_limits<int>::max();
            if (d <= std::numeric_limits<int>::min())
                return std::numeric_limits<int>::min();
            return static_cast<int>(d);
        }
        default:
            return 0;
    }
}

long long BSONElement::numberLong() const {
    switch (type()) {
        case BSONType::kNumberInt:
            return _numberInt();
        case BSONType::kNumberLong:
            return _numberLong();
        case BSONType::kNumberDecimal: {
            Decimal128 dec = _numberDecimal();
            if (dec.isNaN())
                return 0;
            std::uint32_t flags = 0;
            long long v = dec.toLong(&flags, Decimal128::kRoundTowardZero);
            if (Decimal128::hasFlag(flags, Decimal128::kInvalid))
                return dec.isNegative() ? std::numeric_limits<long long>::min()
                                        : std::numeric_limits<long long>::max();
            return v;
        }
        case BSONType::kNumberDouble: {
            double d = numberDouble();
            if (std::isnan(d))
                return 0;
            if (d >= 9223372036854775807.0)
                return std::numeric_limits<long long>::max();
            if (d <= -9223372036854775808.0)
                return std::numeric_limits<long long>::min();
            return static_cast<long long>(d);
        }
        default:
            return 0;
    }
}

Decimal128 BSONElement::numberDecimal() const {
    switch (type()) {
        case BSONType::kNumberDecimal:
            return _numberDecimal();
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
            return Decimal128::fromInt64(numberLong());
        case BSONType::kNumberDouble:
            return Decimal128::fromDouble(_numberDouble());
        default:
            return Decimal128();
    }
}

bool BSONElement::trueValue() const {
    switch (type()) {
        case BSONType::kEOO:
        case BSONType::kNull:
        case BSONType::kUndefined:
            return false;
        case BSONType::kBool:
            return boolean();
        case BSONType::kNumberInt:
            return _numberInt() != 0;
        case BSONType::kNumberLong:
            return _numberLong() != 0;
        case BSONType::kNumberDouble:
            return _numberDouble() != 0;
        case BSONType::kNumberDecimal: {
            return !_numberDecimal().isZero();
        }
        default:
            return true;
    }
}

StringData BSONElement::valueStringData() const {
    switch (type()) {
        case BSONType::kString:
        case BSONType::kCode:
        case BSONType::kSymbol:
            return StringData(valuestr(), valuestrsize() - 1);
        default:
            return StringData();
    }
}

BSONObj BSONElement::Obj() const {
    return embeddedObject();
}

BSONObj BSONElement::embeddedObject() const {
    if (!isABSONObj())
        return BSONObj();
    return BSONObj(value());
}

std::vector<BSONElement> BSONElement::Array() const {
    std::vector<BSONElement> out;
    if (type() != BSONType::kArray)
        return out;
    for (auto e : BSONObj(value()))
        out.push_back(e);
    return out;
}

bool BSONElement::binaryEqualValues(const BSONElement& o) const {
    return type() == o.type() && valuesize() == o.valuesize() &&
           std::memcmp(value(), o.value(), valuesize()) == 0;
}

namespace {
std::string formatDouble(double d) {
    if (std::isnan(d))
        return "nan.0";
    if (std::isinf(d))
        return d > 0 ? "inf.0" : "-inf.0";
    std::string s = shortestDoubleString(d);
    if (s.find_first_of(".eEn") == std::string::npos)
        s += ".0";
    return s;
}
}  // namespace

void BSONElement::toString(std::string& out, bool includeFieldName) const {
    if (includeFieldName && !eoo()) {
        out += fieldNameStringData();
        out += ": ";
    }
    switch (type()) {
        case BSONType::kEOO:
            out += "EOO";
            break;
        case BSONType::kNumberDouble:
            out += formatDouble(_numberDouble());
            break;
        case BSONType::kString:
        case BSONType::kSymbol:
            appendJsonString(out, valueStringData());
            break;
        case BSONType::kCode:
            out += "function: ";
            appendJsonString(out, valueStringData());
            break;
        case BSONType::kObject:
        case BSONType::kArray: {
            bool arr = type() == BSONType::kArray;
            BSONObj sub = embeddedObject();
            if (sub.isEmpty()) {
                out += arr ? "[]" : "{}";
                break;
            }
            out += arr ? "[ " : "{ ";
            bool first = true;
            for (auto e : sub) {
                if (!first)
                    out += ", ";
                first = false;
                e.toString(out, !arr);
            }
            out += arr ? " ]" : " }";
            break;
        }
        case BSONType::kBinData: {
            int len;
            const char* d = binData(len);
            static const char* b64 =
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            out += "BinData(" + std::to_string(static_cast<int>(binDataType())) + ", ";
            std::string hex;
            for (int i = 0; i < len && i < 64; ++i) {
                char buf[3];
                std::snprintf(buf, sizeof(buf), "%02X", static_cast<unsigned char>(d[i]));
                hex += buf;
            }
            (void)b64;
            out += hex;
            if (len > 64)
                out += "...";
            out += ")";
            break;
        }
        case BSONType::kUndefined:
            out += "undefined";
            break;
        case BSONType::kOid:
            out += "ObjectId('" + OID().toString() + "')";
            break;
        case BSONType::kBool:
            out += boolean() ? "true" : "false";
            break;
        case BSONType::kDate:
            out += "new Date(" + std::to_string(date().toMillisSinceEpoch()) + ")";
            break;
        case BSONType::kNull:
            out += "null";
            break;
        case BSONType::kRegEx:
            out += "/";
            out += regex();
            out += "/";
            out += regexFlags();
            break;
        case BSONType::kDBRef:
            out += "DBRef(";
            appendJsonString(out, valueStringData());
            out += ")";
            break;
        case BSONType::kCodeWScope:
            out += "CodeWScope";
            break;
        case BSONType::kNumberInt:
            out += std::to_string(_numberInt());
            break;
        case BSONType::kTimestamp:
            out += timestamp().toString();
            break;
        case BSONType::kNumberLong:
            out += std::to_string(_numberLong());
            break;
        case BSONType::kNumberDecimal:
            out += "NumberDecimal(\"" + _numberDecimal().toString() + "\")";
            break;
        case BSONType::kMinKey:
            out += "MinKey";
            break;
        case BSONType::kMaxKey:
            out += "MaxKey";
            break;
    }
}

std::string BSONElement::toString(bool includeFieldName) const {
    std::string s;
    toString(s, includeFieldName);
    return s;
}

}  // namespace mongo
