#include "mongo/bson/bsonobj.h"

#include <bson/bson.h>

#include <cstring>
#include <ostream>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

namespace {
const char kEmptyObject[] = {5, 0, 0, 0, 0};
constexpr int kMaxDepth = 200;

bool validUtf8Key(const char* s, std::size_t n) {
    // Field names are nearly always ASCII: check 8 bytes at a time before asking libbson.
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ULL)
            return bson_utf8_validate(s, n, false);
    }
    for (; i < n; ++i)
        if (static_cast<unsigned char>(s[i]) & 0x80)
            return bson_utf8_validate(s, n, false);
    return true;
}

Status invalid(const std::string& msg) {
    return Status(ErrorCodes::InvalidBSON, msg);
}

// Validates the document at [p, p + len). `depth` bounds recursion.
Status validateDoc(const char* p, std::size_t avail, int depth, std::size_t* outLen,
                   bool anyBoolByte) {
    if (depth > kMaxDepth)
        return Status(ErrorCodes::Overflow, "BSONObj exceeds maximum nested object depth");
    if (avail < 5)
        return invalid("BSON document too short");
    std::int32_t len = readLE<std::int32_t>(p);
    if (len < 5 || static_cast<std::size_t>(len) > avail)
        return invalid("BSON document length field is invalid");
    if (p[len - 1] != 0)
        return invalid("BSON document not terminated by EOO");
    const char* end = p + len - 1;  // position of the final EOO
    const char* cur = p + 4;
    while (cur < end) {
        auto t = static_cast<signed char>(*cur);
        if (!isValidBSONType(t == -1 ? -1 : static_cast<unsigned char>(t)) || t == 0)
            return invalid("Unrecognized BSON type " + std::to_string(static_cast<int>(t)));
        ++cur;
        const void* nul = std::memchr(cur, 0, end - cur);
        if (!nul)
            return invalid("BSON field name not terminated");
        std::size_t nameLen = static_cast<const char*>(nul) - cur;
        if (!validUtf8Key(cur, nameLen))
            return invalid("BSON field name is not valid UTF-8");
        cur += nameLen + 1;
        std::size_t remain = end - cur;
        auto type = static_cast<BSONType>(t);
        auto need = [&](std::size_t n) { return remain >= n; };
        switch (type) {
            case BSONType::kUndefined:
            case BSONType::kNull:
            case BSONType::kMinKey:
            case BSONType::kMaxKey:
                break;
            case BSONType::kBool:
                if (!need(1))
                    return invalid("truncated bool");
                if (!anyBoolByte && static_cast<unsigned char>(*cur) > 1)
                    return invalid("invalid bool value");
                cur += 1;
                break;
            case BSONType::kNumberInt:
                if (!need(4))
                    return invalid("truncated int");
                cur += 4;
                break;
            case BSONType::kNumberDouble:
            case BSONType::kDate:
            case BSONType::kTimestamp:
            case BSONType::kNumberLong:
                if (!need(8))
                    return invalid("truncated 8-byte value");
                cur += 8;
                break;
            case BSONType::kOid:
                if (!need(12))
                    return invalid("truncated ObjectId");
                cur += 12;
                break;
            case BSONType::kNumberDecimal:
                if (!need(16))
                    return invalid("truncated decimal");
                cur += 16;
                break;
            case BSONType::kString:
            case BSONType::kCode:
            case BSONType::kSymbol:
            case BSONType::kDBRef: {
                if (!need(4))
                    return invalid("truncated string length");
                std::int32_t sl = readLE<std::int32_t>(cur);
                if (sl < 1 || static_cast<std::size_t>(sl) > remain - 4)
                    return invalid("invalid string length");
                if (cur[4 + sl - 1] != 0)
                    return invalid("string not NUL terminated");
                cur += 4 + sl;
                if (type == BSONType::kDBRef) {
                    if (static_cast<std::size_t>(end - cur) < 12)
                        return invalid("truncated DBPointer");
                    cur += 12;
                }
                break;
            }
            case BSONType::kObject:
            case BSONType::kArray: {
                std::size_t sub;
                Status s = validateDoc(cur, remain, depth + 1, &sub, anyBoolByte);
                if (!s.isOK())
                    return s;
                cur += sub;
                break;
            }
            case BSONType::kCodeWScope: {
                if (!need(4))
                    return invalid("truncated code with scope");
                std::int32_t total = readLE<std::int32_t>(cur);
                if (total < 14 || static_cast<std::size_t>(total) > remain)
                    return invalid("invalid code with scope length");
                std::int32_t sl = readLE<std::int32_t>(cur + 4);
                if (sl < 1 || sl > total - 8 || cur[8 + sl - 1] != 0)
                    return invalid("invalid code with scope string");
                std::size_t sub;
                Status s = validateDoc(cur + 8 + sl, total - 8 - sl, depth + 1, &sub, anyBoolByte);
                if (!s.isOK())
                    return s;
                if (8 + sl + static_cast<std::int32_t>(sub) != total)
                    return invalid("invalid code with scope length");
                cur += total;
                break;
            }
            case BSONType::kBinData: {
                if (!need(5))
                    return invalid("truncated binData");
                std::int32_t bl = readLE<std::int32_t>(cur);
                if (bl < 0 || static_cast<std::size_t>(bl) > remain - 5)
                    return invalid("invalid binData length");
                cur += 5 + bl;
                break;
            }
            case BSONType::kRegEx: {
                const void* a = std::memchr(cur, 0, end - cur);
                if (!a)
                    return invalid("regex pattern not terminated");
                const char* flags = static_cast<const char*>(a) + 1;
                const void* b = std::memchr(flags, 0, end - flags);
                if (!b)
                    return invalid("regex flags not terminated");
                cur = static_cast<const char*>(b) + 1;
                break;
            }
            case BSONType::kEOO:
                break;
        }
        if (cur > end)
            return invalid("BSON element overruns its document");
    }
    if (cur != end)
        return invalid("BSON element overruns its document");
    *outLen = len;
    return Status::OK();
}
}  // namespace

Status validateBSON(const char* data, std::size_t len, BSONBoolBytes bools) {
    std::size_t used;
    Status s = validateDoc(data, len, 0, &used, bools == BSONBoolBytes::kAnyByte);
    if (!s.isOK())
        return s;
    if (used != len)
        return invalid("BSON document length does not match its buffer");
    return Status::OK();
}

int bsonNestingDepth(const BSONObj& obj, int cap) {
    if (cap <= 0)
        return 1;
    int deepest = 1;
    for (auto e : obj) {
        if (!e.isABSONObj())
            continue;
        int d = 1 + bsonNestingDepth(e.embeddedObject(), cap - 1);
        if (d > deepest)
            deepest = d;
        if (deepest > cap)
            break;
    }
    return deepest;
}

BSONObj::BSONObj() : _data(kEmptyObject) {}

BSONObj BSONObj::copyFrom(const char* data, int len) {
    std::shared_ptr<char[]> buf(new char[len]);
    std::memcpy(buf.get(), data, len);
    const char* p = buf.get();
    return BSONObj(std::shared_ptr<const char[]>(std::move(buf)), p);
}

BSONObj BSONObj::getOwned() const {
    if (isOwned())
        return *this;
    return copy();
}

BSONObj BSONObj::copy() const {
    return copyFrom(_data, objsize());
}

int BSONObj::nFields() const {
    int n = 0;
    for (auto it = begin(); it.more(); ++it)
        ++n;
    return n;
}

BSONElement BSONObj::getField(StringData name) const {
    // Over the bytes: each element's name is compared while it is scanned for its end (most
    // differ at the first byte), and only the element found is made a BSONElement.
    const char* p = _data + 4;
    const char* const end = _data + objsize() - 1;
    const char* const want = name.data();
    const size_t n = name.size();
    while (p < end && *p != 0) {
        const char* fname = p + 1;
        size_t i = 0;
        while (i < n && fname[i] == want[i] && fname[i] != 0)
            ++i;
        if (i == n && fname[i] == 0)
            return BSONElement(p, static_cast<int>(n) + 1);
        const auto type = static_cast<BSONType>(static_cast<signed char>(*p));
        const char* value = fname + i + std::strlen(fname + i) + 1;
        p = value + BSONElement::computeValueSize(type, value);
    }
    return BSONElement();
}

BSONElement BSONObj::getFieldDotted(StringData path) const {
    BSONObj cur = *this;
    while (true) {
        auto dot = path.find('.');
        BSONElement e = cur.getField(path.substr(0, dot));
        if (dot == StringData::npos || e.eoo())
            return e;
        if (!e.isABSONObj())
            return BSONElement();
        cur = e.embeddedObject();
        path = path.substr(dot + 1);
    }
}

BSONObj BSONObj::removeField(StringData name) const {
    BSONObjBuilder b;
    for (auto e : *this) {
        if (e.fieldNameStringData() != name)
            b.append(e);
    }
    return b.obj();
}

std::vector<std::string> BSONObj::getFieldNames() const {
    std::vector<std::string> out;
    for (auto e : *this)
        out.emplace_back(e.fieldNameStringData());
    return out;
}

std::string BSONObj::toString() const {
    if (isEmpty())
        return "{}";
    std::string out = "{ ";
    bool first = true;
    for (auto e : *this) {
        if (!first)
            out += ", ";
        first = false;
        e.toString(out, true);
    }
    out += " }";
    return out;
}

std::string BSONObj::jsonString() const {
    bson_t b;
    if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(_data), objsize()))
        return "{}";
    size_t len = 0;
    char* s = bson_as_relaxed_extended_json(&b, &len);
    if (!s)
        return "{}";
    std::string out(s, len);
    bson_free(s);
    return out;
}

int BSONObj::woCompare(const BSONObj& other, bool considerFieldName) const {
    return compareObjects(*this, other,
                          considerFieldName ? ComparisonRules::kConsiderFieldName
                                            : ComparisonRules::kIgnoreFieldName);
}

std::ostream& operator<<(std::ostream& os, const BSONObj& o) {
    return os << o.toString();
}

std::ostream& operator<<(std::ostream& os, const BSONElement& e) {
    return os << e.toString();
}

}  // namespace mongo
