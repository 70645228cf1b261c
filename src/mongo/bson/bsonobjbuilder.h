// BSONObjBuilder / BSONArrayBuilder: append-only construction of BSON documents
// into a growable buffer. Sub-builders (subobjStart/subarrayStart) write into the
// parent's buffer and close themselves on destruction or done().
//
//   BSONObj o = BSON("a" << 1 << "b" << BSON("c" << "x"));
//   BSONObjBuilder b; b.append("n", 5); { BSONObjBuilder s(b.subobjStart("sub")); ... }
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mongo/base/string_data.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

/**
 * The most a BufBuilder may hold. Nothing the server builds legitimately comes near it
 * (documents are 16 MB, replies 48 MB, the query layer's memory limits 100 MB); a buffer
 * that would pass it is a runaway computation, refused before the allocation.
 */
constexpr int kBufBuilderMaxSize = 128 * 1024 * 1024;

/** Growable byte buffer. */
class BufBuilder {
public:
    explicit BufBuilder(int initialSize = 512);
    ~BufBuilder();
    BufBuilder(const BufBuilder&) = delete;
    BufBuilder& operator=(const BufBuilder&) = delete;

    /**
     * Makes room for `by` more bytes and returns where they start. Throws 13548 when the
     * buffer would pass kBufBuilderMaxSize (checked before anything is allocated).
     */
    char* grow(std::size_t by);
    void appendBuf(const void* src, std::size_t n) {
        std::memcpy(grow(n), src, n);
    }
    void appendChar(char c) {
        *grow(1) = c;
    }
    void appendStr(StringData s, bool includeNul = true) {
        appendBuf(s.data(), s.size());
        if (includeNul)
            appendChar(0);
    }
    template <typename T>
    void appendNum(T v) {
        writeLE<T>(grow(sizeof(T)), v);
    }
    char* buf() {
        return _buf;
    }
    const char* buf() const {
        return _buf;
    }
    int len() const {
        return _len;
    }
    void setlen(int n) {
        _len = n;
    }
    void reset() {
        _len = 0;
    }
    /** Hands the buffer to a shared owner; the builder becomes empty. */
    std::shared_ptr<const char[]> release();

private:
    char* _buf;
    int _len = 0;
    int _cap;
};

struct MinKeyLabeler {};
struct MaxKeyLabeler {};
struct NullLabeler {};
struct UndefinedLabeler {};
inline constexpr MinKeyLabeler MINKEY{};
inline constexpr MaxKeyLabeler MAXKEY{};
inline constexpr NullLabeler BSONNULL{};
inline constexpr UndefinedLabeler BSONUndefined{};

struct BSONBinData {
    const void* data;
    int length;
    BinDataType type;
};
struct BSONRegEx {
    StringData pattern;
    StringData flags;
};
struct BSONCode {
    StringData code;
};
struct BSONSymbol {
    StringData symbol;
};

class BSONObjBuilderValueStream;

class BSONObjBuilder {
public:
    explicit BSONObjBuilder(int initSize = 512);
    /** A builder that writes a sub-document into `parent` at its current end. */
    explicit BSONObjBuilder(BufBuilder& parent);
    ~BSONObjBuilder();
    BSONObjBuilder(const BSONObjBuilder&) = delete;
    BSONObjBuilder& operator=(const BSONObjBuilder&) = delete;

    BSONObjBuilder& append(StringData name, int v);
    BSONObjBuilder& append(StringData name, long long v);
    BSONObjBuilder& append(StringData name, long v) {
        return append(name, static_cast<long long>(v));
    }
    BSONObjBuilder& append(StringData name, unsigned int v) {
        return append(name, static_cast<long long>(v));
    }
    BSONObjBuilder& append(StringData name, unsigned long v) {
        return append(name, static_cast<long long>(v));
    }
    BSONObjBuilder& append(StringData name, unsigned long long v) {
        return append(name, static_cast<long long>(v));
    }
    BSONObjBuilder& append(StringData name, double v);
    BSONObjBuilder& append(StringData name, bool v);
    BSONObjBuilder& append(StringData name, StringData str);
    BSONObjBuilder& append(StringData name, const char* str) {
        return append(name, StringData(str));
    }
    BSONObjBuilder& append(StringData name, const std::string& str) {
        return append(name, StringData(str));
    }
    BSONObjBuilder& append(StringData name, const BSONObj& sub);
    BSONObjBuilder& append(StringData name, const BSONArray& arr) {
        return appendArray(name, arr);
    }
    BSONObjBuilder& append(StringData name, Date_t d);
    BSONObjBuilder& append(StringData name, const OID& oid);
    BSONObjBuilder& append(StringData name, Timestamp ts);
    BSONObjBuilder& append(StringData name, const Decimal128& d);
    BSONObjBuilder& append(StringData name, MinKeyLabeler);
    BSONObjBuilder& append(StringData name, MaxKeyLabeler);
    BSONObjBuilder& append(StringData name, NullLabeler) {
        return appendNull(name);
    }
    BSONObjBuilder& append(StringData name, UndefinedLabeler);
    BSONObjBuilder& append(StringData name, const BSONBinData& bd) {
        return appendBinData(name, bd.length, bd.type, bd.data);
    }
    BSONObjBuilder& append(StringData name, const BSONRegEx& re) {
        return appendRegex(name, re.pattern, re.flags);
    }
    BSONObjBuilder& append(StringData name, const BSONCode& c);
    BSONObjBuilder& append(StringData name, const BSONSymbol& s);
    /** Appends the element under its own name. */
    BSONObjBuilder& append(const BSONElement& e);
    /** Appends the element's value under `name`. */
    BSONObjBuilder& appendAs(const BSONElement& e, StringData name);
    BSONObjBuilder& appendElements(const BSONObj& o);
    BSONObjBuilder& appendArray(StringData name, const BSONObj& arr);
    BSONObjBuilder& appendNull(StringData name);
    BSONObjBuilder& appendBool(StringData name, bool v) {
        return append(name, v);
    }
    BSONObjBuilder& appendNumber(StringData name, long long v);  // int if it fits, else long
    BSONObjBuilder& appendDate(StringData name, Date_t d) {
        return append(name, d);
    }
    BSONObjBuilder& appendBinData(StringData name, int len, BinDataType type, const void* data);
    BSONObjBuilder& appendRegex(StringData name, StringData pattern, StringData flags);
    BSONObjBuilder& appendTimestamp(StringData name, unsigned long long v) {
        return append(name, Timestamp::fromULL(v));
    }

    /** Starts a sub-object named `name`; the returned buffer feeds a BSONObjBuilder. */
    BufBuilder& subobjStart(StringData name);
    BufBuilder& subarrayStart(StringData name);

    /** Stream syntax: `b << "name" << value`. */
    BSONObjBuilderValueStream& operator<<(StringData name);
    BSONObjBuilderValueStream& operator<<(const char* name) {
        return *this << StringData(name);
    }
    BSONObjBuilderValueStream& operator<<(const std::string& name) {
        return *this << StringData(name);
    }
    BSONObjBuilder& operator<<(const BSONElement& e) {
        return append(e);
    }

    /** Finishes and returns the document; the builder must not be used afterwards. */
    BSONObj obj();
    /** Finishes and returns a view of the document (valid while the buffer lives). */
    BSONObj done();
    /** A view of what has been built so far (temporarily terminated). */
    BSONObj asTempObj();
    bool hasField(StringData name) {
        return asTempObj().hasField(name);
    }
    int len() const {
        return _b.len() - _offset;
    }
    bool isEmpty() {
        return len() <= 4;
    }
    BufBuilder& bb() {
        return _b;
    }

private:
    void appendHeader(BSONType t, StringData name) {
        _b.appendChar(static_cast<char>(t));
        _b.appendStr(name);
    }
    char* finish();

    BufBuilder _ownBuf;
    BufBuilder& _b;
    int _offset;
    bool _done = false;
    std::unique_ptr<BSONObjBuilderValueStream> _stream;
};

class BSONObjBuilderValueStream {
public:
    explicit BSONObjBuilderValueStream(BSONObjBuilder* b) : _b(b) {}
    void setName(StringData name) {
        _name.assign(name.data(), name.size());
    }
    template <typename T>
    BSONObjBuilder& operator<<(const T& v) {
        _b->append(_name, v);
        return *_b;
    }
    BSONObjBuilder& operator<<(const BSONElement& e) {
        _b->appendAs(e, _name);
        return *_b;
    }

private:
    BSONObjBuilder* _b;
    std::string _name;
};

class BSONArrayBuilder {
public:
    explicit BSONArrayBuilder(int initSize = 512) : _b(initSize) {}
    explicit BSONArrayBuilder(BufBuilder& parent) : _b(parent) {}

    template <typename T>
    BSONArrayBuilder& append(const T& v) {
        _b.append(nextName(), v);
        return *this;
    }
    BSONArrayBuilder& append(const BSONElement& e) {
        _b.appendAs(e, nextName());
        return *this;
    }
    template <typename T>
    BSONArrayBuilder& operator<<(const T& v) {
        return append(v);
    }
    BufBuilder& subobjStart() {
        return _b.subobjStart(nextName());
    }
    BufBuilder& subarrayStart() {
        return _b.subarrayStart(nextName());
    }
    int arrSize() const {
        return _n;
    }
    int len() const {
        return _b.len();
    }
    BSONArray arr() {
        return BSONArray(_b.obj());
    }
    BSONArray done() {
        return BSONArray(_b.done());
    }

private:
    std::string nextName() {
        return std::to_string(_n++);
    }
    BSONObjBuilder _b;
    int _n = 0;
};

/** Builds a BSONObj with stream syntax: BSON("a" << 1 << "b" << "x"). */
#define BSON(x) ((::mongo::BSONObjBuilder(64) << x).obj())
/** Builds a BSONArray: BSON_ARRAY(1 << "a" << BSON("x" << 1)). */
#define BSON_ARRAY(x) ((::mongo::BSONArrayBuilder() << x).arr())

}  // namespace mongo
