#include "mongo/bson/bson_comparator.h"

#include <cmath>
#include <cstring>
#include <functional>

namespace mongo {

namespace {
template <typename T>
int cmp3(T a, T b) {
    return a < b ? -1 : (a > b ? 1 : 0);
}

int compareStrings(StringData a, StringData b) {
    int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
    if (c != 0)
        return c < 0 ? -1 : 1;
    return cmp3(a.size(), b.size());
}

int compareNumbers(const BSONElement& l, const BSONElement& r) {
    BSONType lt = l.type(), rt = r.type();
    if (lt == BSONType::kNumberDecimal || rt == BSONType::kNumberDecimal) {
        if (lt != BSONType::kNumberDecimal)
            return -compareNumbers(r, l);
        Decimal128 ld = l._numberDecimal();
        if (rt == BSONType::kNumberDecimal)
            return compareDecimals(ld, r._numberDecimal());
        if (rt == BSONType::kNumberDouble)
            return compareDecimalToDouble(ld, r._numberDouble());
        return compareDecimalToLong(ld, r.numberLong());
    }
    if (lt == BSONType::kNumberDouble && rt == BSONType::kNumberDouble)
        return compareDoubles(l._numberDouble(), r._numberDouble());
    if (lt == BSONType::kNumberDouble)
        return -compareLongToDouble(r.numberLong(), l._numberDouble());
    if (rt == BSONType::kNumberDouble)
        return compareLongToDouble(l.numberLong(), r._numberDouble());
    return cmp3(l.numberLong(), r.numberLong());
}
}  // namespace

int compareLongToDouble(long long l, double r) {
    if (std::isnan(r))
        return 1;
    // Doubles at or beyond 2^63 in magnitude are outside the long range.
    if (r >= 9223372036854775808.0)
        return -1;
    if (r < -9223372036854775808.0)
        return 1;
    double lf = static_cast<double>(l);
    if (lf < r)
        return -1;
    if (lf > r)
        return 1;
    // lf == r; r is integral-or-not within long range: compare exactly.
    long long ri = static_cast<long long>(r);
    if (l != ri)
        return cmp3(l, ri);
    double frac = r - static_cast<double>(ri);
    return frac > 0 ? -1 : (frac < 0 ? 1 : 0);
}

int compareElementValues(const BSONElement& l, const BSONElement& r,
                         const StringComparator* strings) {
    int lr = canonicalizeBSONType(l.type()), rr = canonicalizeBSONType(r.type());
    if (lr != rr)
        return lr < rr ? -1 : 1;
    switch (l.type()) {
        case BSONType::kEOO:
        case BSONType::kUndefined:
        case BSONType::kNull:
        case BSONType::kMinKey:
        case BSONType::kMaxKey:
            return 0;
        case BSONType::kNumberDouble:
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
        case BSONType::kNumberDecimal:
            return compareNumbers(l, r);
        case BSONType::kString:
        case BSONType::kSymbol:
            if (strings) {
                int c = strings->compare(l.valueStringData(), r.valueStringData());
                return c < 0 ? -1 : (c > 0 ? 1 : 0);
            }
            return compareStrings(l.valueStringData(), r.valueStringData());
        case BSONType::kCode:
            return compareStrings(l.valueStringData(), r.valueStringData());
        case BSONType::kObject:
        case BSONType::kArray:
            return compareObjects(l.embeddedObject(), r.embeddedObject(),
                                  ComparisonRules::kConsiderFieldName, strings);
        case BSONType::kBinData: {
            int ll, rl;
            const char* ld = l.binData(ll);
            const char* rd = r.binData(rl);
            if (ll != rl)
                return cmp3(ll, rl);
            if (l.binDataType() != r.binDataType())
                return cmp3(static_cast<int>(l.binDataType()), static_cast<int>(r.binDataType()));
            int c = std::memcmp(ld, rd, ll);
            return cmp3(c, 0);
        }
        case BSONType::kOid:
            return cmp3(std::memcmp(l.value(), r.value(), 12), 0);
        case BSONType::kBool:
            return cmp3(l.boolean() ? 1 : 0, r.boolean() ? 1 : 0);
        case BSONType::kDate:
            return cmp3(l.date().toMillisSinceEpoch(), r.date().toMillisSinceEpoch());
        case BSONType::kTimestamp:
            return cmp3(l.timestamp().asULL(), r.timestamp().asULL());
        case BSONType::kRegEx: {
            int c = std::strcmp(l.regex(), r.regex());
            if (c != 0)
                return cmp3(c, 0);
            return cmp3(std::strcmp(l.regexFlags(), r.regexFlags()), 0);
        }
        case BSONType::kDBRef: {
            int c = cmp3(l.valuestrsize(), r.valuestrsize());
            if (c != 0)
                return c;
            c = compareStrings(l.valueStringData(), r.valueStringData());
            if (c != 0)
                return c;
            return cmp3(
                std::memcmp(l.value() + 4 + l.valuestrsize(), r.value() + 4 + r.valuestrsize(), 12),
                0);
        }
        case BSONType::kCodeWScope: {
            const char* lv = l.value();
            const char* rv = r.value();
            StringData lc(lv + 8, readLE<std::int32_t>(lv + 4) - 1);
            StringData rc(rv + 8, readLE<std::int32_t>(rv + 4) - 1);
            int c = compareStrings(lc, rc);
            if (c != 0)
                return c;
            return compareObjects(BSONObj(lv + 8 + lc.size() + 1), BSONObj(rv + 8 + rc.size() + 1),
                                  ComparisonRules::kConsiderFieldName);
        }
    }
    return 0;
}

int compareElements(const BSONElement& l, const BSONElement& r, ComparisonRules rules,
                    const StringComparator* strings) {
    int lr = canonicalizeBSONType(l.type()), rr = canonicalizeBSONType(r.type());
    if (lr != rr)
        return lr < rr ? -1 : 1;
    if (rules == ComparisonRules::kConsiderFieldName) {
        int c = compareStrings(l.fieldNameStringData(), r.fieldNameStringData());
        if (c != 0)
            return c;
    }
    return compareElementValues(l, r, strings);
}

int compareObjects(const BSONObj& l, const BSONObj& r, ComparisonRules rules,
                   const StringComparator* strings) {
    auto li = l.begin(), ri = r.begin();
    while (true) {
        bool lm = li.more(), rm = ri.more();
        if (!lm || !rm)
            return lm ? 1 : (rm ? -1 : 0);
        int c = compareElements(li.next(), ri.next(), rules, strings);
        if (c != 0)
            return c;
    }
}

namespace {
inline std::size_t mix(std::size_t seed, std::size_t v) {
    return seed ^ (v + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2));
}
}  // namespace

std::size_t hashElementValue(const BSONElement& e, std::size_t seed,
                             const StringComparator* strings) {
    seed = mix(seed, static_cast<std::size_t>(canonicalizeBSONType(e.type())));
    switch (e.type()) {
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
        case BSONType::kNumberDouble:
        case BSONType::kNumberDecimal: {
            // Equal numbers of any type hash alike: a value that is a long hashes as
            // that long, else one that is exactly a double as that double, else as
            // its normalized decimal (1.0 and 1.00 share a hash).
            double d;
            if (e.type() == BSONType::kNumberDecimal) {
                Decimal128 dec = e._numberDecimal();
                if (dec.isNaN())
                    return mix(seed, 0x7ff8);
                std::uint32_t flags = 0;
                long long asLong = dec.toLongExact(&flags);
                if (flags == 0)
                    return mix(seed, std::hash<long long>()(asLong));
                flags = 0;
                d = dec.toDouble(&flags);
                if (Decimal128::hasFlag(flags, Decimal128::kInexact)) {
                    Decimal128::Value v = dec.normalize().getValue();
                    return mix(mix(seed, std::hash<std::uint64_t>()(v.low64)),
                               std::hash<std::uint64_t>()(v.high64));
                }
            } else if (e.type() != BSONType::kNumberDouble) {
                return mix(seed, std::hash<long long>()(e.numberLong()));
            } else {
                d = e._numberDouble();
            }
            if (std::isnan(d))
                return mix(seed, 0x7ff8);
            if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == std::floor(d))
                return mix(seed, std::hash<long long>()(static_cast<long long>(d)));
            return mix(seed, std::hash<double>()(d));
        }
        case BSONType::kString:
        case BSONType::kSymbol:
            if (strings)
                return mix(seed,
                           std::hash<std::string>()(strings->comparisonKey(e.valueStringData())));
            return mix(seed, std::hash<std::string_view>()(e.valueStringData()));
        case BSONType::kCode:
            return mix(seed, std::hash<std::string_view>()(e.valueStringData()));
        case BSONType::kObject:
        case BSONType::kArray:
            for (auto sub : e.embeddedObject()) {
                seed = mix(seed, std::hash<std::string_view>()(sub.fieldNameStringData()));
                seed = hashElementValue(sub, seed, strings);
            }
            return seed;
        default:
            return mix(seed,
                       std::hash<std::string_view>()(std::string_view(e.value(), e.valuesize())));
    }
}

}  // namespace mongo
