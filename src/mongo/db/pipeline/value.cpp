#include "mongo/db/pipeline/value.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>

#include "mongo/db/pipeline/expression_memory.h"
#include "mongo/util/assert_util.h"

namespace mongo {

Value::Value(double v) {
    setInline(BSONType::kNumberDouble, &v, 8);
}
Value::Value(int v) {
    std::int32_t x = v;
    setInline(BSONType::kNumberInt, &x, 4);
}
Value::Value(long long v) {
    std::int64_t x = v;
    setInline(BSONType::kNumberLong, &x, 8);
}
Value::Value(bool v) {
    char c = v ? 1 : 0;
    setInline(BSONType::kBool, &c, 1);
}
Value::Value(Date_t v) {
    std::int64_t x = v.toMillisSinceEpoch();
    setInline(BSONType::kDate, &x, 8);
}
Value::Value(Timestamp v) {
    std::uint64_t x = v.asULL();
    setInline(BSONType::kTimestamp, &x, 8);
}
Value::Value(const OID& v) {
    setInline(BSONType::kOid, v.view(), 12);
}
Value::Value(const Decimal128& v) {
    auto raw = v.getValue();
    char buf[16];
    writeLE<std::uint64_t>(buf, raw.low64);
    writeLE<std::uint64_t>(buf + 8, raw.high64);
    setInline(BSONType::kNumberDecimal, buf, 16);
}
Value::Value(StringData s) {
    uassertStringFits(s.size());
    if (s.size() + 4 + 1 + 2 <= kInlineSize) {
        _inline[0] = static_cast<char>(BSONType::kString);
        _inline[1] = 0;
        writeLE<std::int32_t>(_inline + 2, static_cast<std::int32_t>(s.size() + 1));
        if (!s.empty())  // an empty StringData may have a null data pointer
            std::memcpy(_inline + 6, s.data(), s.size());
        _inline[6 + s.size()] = 0;
        _e = BSONElement(_inline, 1);
        return;
    }
    BSONObjBuilder b(static_cast<int>(s.size()) + 16);
    b.append("", s);
    setOwned(b.obj());
}
Value::Value(const BSONObj& obj) {
    BSONObjBuilder b(obj.objsize() + 8);
    b.append("", obj);
    setOwned(b.obj());
}
Value::Value(const std::vector<Value>& values) {
    BSONObjBuilder b;
    {
        BSONArrayBuilder arr(b.subarrayStart(""));
        for (const auto& v : values)
            v.addToBsonArray(&arr);
    }
    setOwned(b.obj());
}

Value Value::null() {
    Value v;
    v.setInline(BSONType::kNull, nullptr, 0);
    return v;
}
Value Value::undefined() {
    Value v;
    v.setInline(BSONType::kUndefined, nullptr, 0);
    return v;
}
Value Value::fromArray(const BSONObj& arr) {
    BSONObjBuilder b(arr.objsize() + 8);
    b.appendArray("", arr);
    Value v;
    v.setOwned(b.obj());
    return v;
}
Value Value::copyOf(const BSONElement& e) {
    return Value(e).getOwned();
}
Value Value::adoptFirstElement(BSONObj holder) {
    Value v;
    v.setOwned(std::move(holder));
    return v;
}

void Value::setInline(BSONType t, const void* bytes, size_t n) {
    _inline[0] = static_cast<char>(t);
    _inline[1] = 0;
    if (n)
        std::memcpy(_inline + 2, bytes, n);
    _e = BSONElement(_inline, 1);
}

void Value::setOwned(BSONObj holder) {
    _holder = std::move(holder);
    _e = _holder.firstElement();
}

Value::Value(const Value& o) : _holder(o._holder) {
    if (o._e.rawdata() == o._inline) {
        std::memcpy(_inline, o._inline, kInlineSize);
        _e = BSONElement(_inline, 1);
    } else {
        _e = o._e;
    }
}

Value& Value::operator=(const Value& o) {
    if (this == &o)
        return *this;
    _holder = o._holder;
    if (o._e.rawdata() == o._inline) {
        std::memcpy(_inline, o._inline, kInlineSize);
        _e = BSONElement(_inline, 1);
    } else {
        _e = o._e;
    }
    return *this;
}

bool Value::isOwned() const {
    return _e.eoo() || _e.rawdata() == _inline || _holder.isOwned();
}

Value Value::getOwned() const {
    if (isOwned())
        return *this;
    Value v;
    size_t valueSize = static_cast<size_t>(_e.valuesize());
    // Objects and arrays always get a heap buffer: views into them (getArray(),
    // getDocument()) must not point into a Value's inline storage, which moves.
    if (valueSize + 2 <= kInlineSize && !_e.isABSONObj()) {
        v.setInline(_e.type(), _e.value(), valueSize);
        return v;
    }
    BSONObjBuilder b(static_cast<int>(valueSize) + 16);
    b.appendAs(_e, "");
    v.setOwned(b.obj());
    return v;
}

std::vector<Value> Value::getArray() const {
    std::vector<Value> out;
    if (!isArray())
        return out;
    for (auto e : _e.Obj()) {
        Value v(e);
        v._holder = _holder;
        out.push_back(std::move(v));
    }
    return out;
}

size_t Value::getArrayLength() const {
    size_t n = 0;
    for (auto it = _e.Obj().begin(); it.more(); it.next())
        ++n;
    return n;
}

bool Value::coerceToBool() const {
    switch (getType()) {
        case BSONType::kEOO:
        case BSONType::kNull:
        case BSONType::kUndefined:
            return false;
        case BSONType::kBool:
            return getBool();
        case BSONType::kNumberInt:
            return _e._numberInt() != 0;
        case BSONType::kNumberLong:
            return _e._numberLong() != 0;
        case BSONType::kNumberDouble:
            return _e._numberDouble() != 0;
        case BSONType::kNumberDecimal:
            return !_e._numberDecimal().isZero();
        default:
            return true;
    }
}

Date_t Value::coerceToDate() const {
    switch (getType()) {
        case BSONType::kDate:
            return getDate();
        case BSONType::kTimestamp:
            return Date_t::fromMillisSinceEpoch(static_cast<long long>(_e.timestamp().getSecs()) *
                                                1000);
        case BSONType::kOid:
            return Date_t::fromMillisSinceEpoch(static_cast<long long>(_e.OID().getTimestamp()) *
                                                1000);
        default:
            uasserted(16006, "can't convert from BSON type " + std::string(typeName(getType())) +
                                 " to Date");
    }
}

bool Value::integral() const {
    switch (getType()) {
        case BSONType::kNumberInt:
            return true;
        case BSONType::kNumberLong:
            return _e._numberLong() >= std::numeric_limits<int>::min() &&
                   _e._numberLong() <= std::numeric_limits<int>::max();
        case BSONType::kNumberDouble: {
            double d = _e._numberDouble();
            return std::trunc(d) == d && d >= std::numeric_limits<int>::min() &&
                   d <= std::numeric_limits<int>::max();
        }
        case BSONType::kNumberDecimal: {
            std::uint32_t flags = 0;
            _e._numberDecimal().toIntExact(&flags);
            return flags == 0;
        }
        default:
            return false;
    }
}

bool Value::integral64Bit() const {
    switch (getType()) {
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
            return true;
        case BSONType::kNumberDecimal: {
            std::uint32_t flags = 0;
            _e._numberDecimal().toLongExact(&flags);
            return flags == 0;
        }
        case BSONType::kNumberDouble: {
            double d = _e._numberDouble();
            return std::trunc(d) == d && d >= -9223372036854775808.0 && d < 9223372036854775808.0;
        }
        default:
            return false;
    }
}

void Value::addToBsonObj(BSONObjBuilder* b, StringData name) const {
    if (!missing())
        b->appendAs(_e, name);
}

void Value::addToBsonArray(BSONArrayBuilder* b) const {
    if (!missing())
        b->append(_e);
}

std::string Value::toString() const {
    if (missing())
        return "MISSING";
    return _e.toString(false);
}

int Value::compare(const Value& l, const Value& r, const StringComparator* strings) {
    bool lm = l.missing(), rm = r.missing();
    if (lm || rm)
        return lm == rm ? 0 : (lm ? -1 : 1);
    return compareElementValues(l._e, r._e, strings);
}

size_t Value::hash(size_t seed, const StringComparator* strings) const {
    if (missing())
        return seed ^ 0x5bd1e995;
    return hashElementValue(_e, seed, strings);
}

std::ostream& operator<<(std::ostream& os, const Value& v) {
    return os << v.toString();
}

}  // namespace mongo
