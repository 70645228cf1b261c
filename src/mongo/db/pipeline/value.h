// Value: one aggregation value (any BSON value, or "missing"), stored as a BSON
// element. A Value either refers to an element inside a document that outlives it
// (no copy: field paths evaluate this way), holds small scalars inline (numbers,
// dates, short strings: no allocation), or owns a buffer for larger computed
// values. Comparison and hashing use the canonical BSON order (bson_comparator.h),
// with "missing" ordering before every other value.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/string_comparator.h"

namespace mongo {

class Value {
public:
    /** Missing. */
    Value() {}
    /** A reference to `e` (EOO: missing); the caller keeps `e`'s buffer alive. */
    explicit Value(const BSONElement& e) : _e(e) {}
    explicit Value(double v);
    explicit Value(int v);
    explicit Value(long long v);
    explicit Value(bool v);
    explicit Value(Date_t v);
    explicit Value(Timestamp v);
    explicit Value(const OID& v);
    explicit Value(const Decimal128& v);
    /** A string; throws 16493 for one of 16 MB or more (upstream's limit on any string value). */
    explicit Value(StringData s);
    explicit Value(const char* s) : Value(StringData(s)) {}
    explicit Value(const std::string& s) : Value(StringData(s)) {}
    /** An object value; copies `obj` into an element. */
    explicit Value(const BSONObj& obj);
    /** An array value built from `values` (missing entries are skipped). */
    explicit Value(const std::vector<Value>& values);
    static Value null();
    static Value undefined();
    /** An array value; `arr` must be a BSON array (keys "0", "1", ...). */
    static Value fromArray(const BSONObj& arr);
    /** A copy of `e`'s value that owns its bytes. */
    static Value copyOf(const BSONElement& e);
    /** The first element of `holder` as a Value that keeps `holder` alive (no copy). */
    static Value adoptFirstElement(BSONObj holder);

    Value(const Value& o);
    Value& operator=(const Value& o);
    Value(Value&& o) noexcept : Value(static_cast<const Value&>(o)) {}
    Value& operator=(Value&& o) noexcept {
        return *this = static_cast<const Value&>(o);
    }

    /** A Value that no longer depends on any outside buffer. */
    Value getOwned() const;
    bool isOwned() const;

    bool missing() const {
        return _e.eoo();
    }
    /** Missing, null or undefined. */
    bool nullish() const {
        auto t = _e.type();
        return t == BSONType::kEOO || t == BSONType::kNull || t == BSONType::kUndefined;
    }
    BSONType getType() const {
        return _e.type();
    }
    bool numeric() const {
        return _e.isNumber();
    }
    bool isArray() const {
        return _e.type() == BSONType::kArray;
    }
    bool isObject() const {
        return _e.type() == BSONType::kObject;
    }
    bool isString() const {
        return _e.type() == BSONType::kString;
    }
    /** The element (name is empty or the source field's name). */
    const BSONElement& elem() const {
        return _e;
    }

    // Accessors (no type checks beyond those of BSONElement).
    double getDouble() const {
        return _e.numberDouble();
    }
    long long getLong() const {
        return _e.numberLong();
    }
    int getInt() const {
        return _e.numberInt();
    }
    Decimal128 getDecimal() const {
        return _e.numberDecimal();
    }
    bool getBool() const {
        return _e.boolean();
    }
    Date_t getDate() const {
        return _e.date();
    }
    StringData getStringData() const {
        return _e.valueStringData();
    }
    std::string getString() const {
        return _e.str();
    }
    /** The sub-document of an object or array (shares the buffer). */
    BSONObj getDocument() const {
        return _e.Obj();
    }
    /** The elements of an array, as Values referring into this Value's buffer. */
    std::vector<Value> getArray() const;
    /**
     * Calls `f(const Value&)` for each element of an array, in order, without building a
     * vector (a Value costs ~90 bytes, far more than most BSON elements). Each Value refers
     * into this Value's buffer and keeps it alive if copied.
     */
    template <typename F>
    void forEachArrayElement(F&& f) const {
        if (!isArray())
            return;
        for (auto e : _e.Obj()) {
            Value v(e);
            v._holder = _holder;
            f(static_cast<const Value&>(v));
        }
    }
    /** The BSON size of the value (without a field name): what it costs inside an array. */
    size_t byteSize() const {
        return missing() ? 0 : static_cast<size_t>(_e.valuesize()) + 1;
    }
    size_t getArrayLength() const;

    /** Truthiness in expressions: false for missing, null, undefined, false and 0. */
    bool coerceToBool() const;
    /** Millis of a date, timestamp or ObjectId; throws 16006 for other types. */
    Date_t coerceToDate() const;
    /** True if this is a whole number that fits an int/long (int, long, integral double). */
    bool integral() const;
    bool integral64Bit() const;

    /** Appends under `name` unless missing. */
    void addToBsonObj(BSONObjBuilder* b, StringData name) const;
    /** Appends to an array (missing is appended as... nothing). */
    void addToBsonArray(BSONArrayBuilder* b) const;

    /** Shell-like rendering of the value. */
    std::string toString() const;

    /**
     * Canonical order; missing sorts first. `strings` (a collator; null: simple binary
     * order) compares String/Symbol values, also nested in objects and arrays.
     */
    static int compare(const Value& l, const Value& r, const StringComparator* strings = nullptr);
    /** A hash consistent with compare(l, r, strings) == 0. */
    size_t hash(size_t seed = 0, const StringComparator* strings = nullptr) const;

private:
    void setInline(BSONType t, const void* bytes, size_t n);
    void setOwned(BSONObj holder);

    static constexpr size_t kInlineSize = 40;
    BSONElement _e;
    BSONObj _holder;  // owns _e's bytes when set
    alignas(8) char _inline[kInlineSize];
};

inline bool operator==(const Value& l, const Value& r) {
    return Value::compare(l, r) == 0;
}
inline bool operator!=(const Value& l, const Value& r) {
    return !(l == r);
}

// Functors for containers; `strings` is the collation in force (null: simple), e.g.
// ValueLess{expCtx->getCollator()}. Hash and Eq must be given the same one.
struct ValueHash {
    const StringComparator* strings = nullptr;
    size_t operator()(const Value& v) const {
        return v.hash(0, strings);
    }
};
struct ValueEq {
    const StringComparator* strings = nullptr;
    bool operator()(const Value& l, const Value& r) const {
        return Value::compare(l, r, strings) == 0;
    }
};
struct ValueLess {
    const StringComparator* strings = nullptr;
    bool operator()(const Value& l, const Value& r) const {
        return Value::compare(l, r, strings) < 0;
    }
};

std::ostream& operator<<(std::ostream& os, const Value& v);

/** Type name as $type reports it ("double", "string", "missing", ...). */
std::string typeNameOf(const Value& v);

}  // namespace mongo
