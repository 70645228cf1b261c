#include "mongo/bson/bsonobjbuilder.h"

#include <new>

#include "mongo/util/assert_util.h"

namespace mongo {

BufBuilder::BufBuilder(int initialSize) : _cap(initialSize < 16 ? 16 : initialSize) {
    _buf = static_cast<char*>(std::malloc(_cap));
    if (!_buf)
        throw std::bad_alloc();
}

BufBuilder::~BufBuilder() {
    std::free(_buf);
}

char* BufBuilder::grow(std::size_t by) {
    std::size_t want = static_cast<std::size_t>(_len) + by;
    if (want > static_cast<std::size_t>(kBufBuilderMaxSize))
        uasserted(13548, "BufBuilder attempted to grow() to " + std::to_string(want) +
                             " bytes, past the " + std::to_string(kBufBuilderMaxSize >> 20) +
                             "MB limit.");
    int need = static_cast<int>(want);
    if (need > _cap) {
        std::size_t cap = static_cast<std::size_t>(_cap);
        while (cap < static_cast<std::size_t>(need))
            cap = cap < (1u << 20) ? cap * 2 : cap + cap / 2;
        if (cap > static_cast<std::size_t>(kBufBuilderMaxSize))
            cap = kBufBuilderMaxSize;
        char* nb = static_cast<char*>(std::realloc(_buf, cap));
        if (!nb)
            throw std::bad_alloc();
        _buf = nb;
        _cap = static_cast<int>(cap);
    }
    char* p = _buf + _len;
    _len = need;
    return p;
}

std::shared_ptr<const char[]> BufBuilder::release() {
    char* p = _buf;
    _cap = 16;
    _len = 0;
    _buf = static_cast<char*>(std::malloc(_cap));
    if (!_buf)
        throw std::bad_alloc();
    return std::shared_ptr<const char[]>(p, [](const char* q) { std::free(const_cast<char*>(q)); });
}

BSONObjBuilder::BSONObjBuilder(int initSize) : _ownBuf(initSize), _b(_ownBuf), _offset(0) {
    _b.grow(4);
}

BSONObjBuilder::BSONObjBuilder(BufBuilder& parent)
    : _ownBuf(16), _b(parent), _offset(parent.len()) {
    _b.grow(4);
}

BSONObjBuilder::~BSONObjBuilder() {
    if (!_done && &_b != &_ownBuf)
        finish();
}

char* BSONObjBuilder::finish() {
    invariant(!_done);
    _done = true;
    _b.appendChar(0);
    int size = _b.len() - _offset;
    writeLE<std::int32_t>(_b.buf() + _offset, size);
    return _b.buf() + _offset;
}

BSONObj BSONObjBuilder::obj() {
    if (&_b != &_ownBuf) {
        // A sub-builder cannot give away its parent's buffer: return a copy.
        char* p = finish();
        return BSONObj::copyFrom(p, readLE<std::int32_t>(p));
    }
    finish();
    auto holder = _b.release();
    const char* p = holder.get();
    return BSONObj(std::move(holder), p);
}

BSONObj BSONObjBuilder::done() {
    return BSONObj(finish());
}

BSONObj BSONObjBuilder::asTempObj() {
    // Terminate temporarily, without marking the builder done.
    _b.appendChar(0);
    writeLE<std::int32_t>(_b.buf() + _offset, _b.len() - _offset);
    BSONObj view(_b.buf() + _offset);
    _b.setlen(_b.len() - 1);
    return view.copy();
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, int v) {
    appendHeader(BSONType::kNumberInt, name);
    _b.appendNum<std::int32_t>(v);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, long long v) {
    appendHeader(BSONType::kNumberLong, name);
    _b.appendNum<std::int64_t>(v);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::appendNumber(StringData name, long long v) {
    if (v >= INT32_MIN && v <= INT32_MAX)
        return append(name, static_cast<int>(v));
    return append(name, v);
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, double v) {
    appendHeader(BSONType::kNumberDouble, name);
    _b.appendNum<double>(v);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, bool v) {
    appendHeader(BSONType::kBool, name);
    _b.appendChar(v ? 1 : 0);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, StringData str) {
    appendHeader(BSONType::kString, name);
    _b.appendNum<std::int32_t>(static_cast<std::int32_t>(str.size() + 1));
    _b.appendStr(str);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, const BSONCode& c) {
    appendHeader(BSONType::kCode, name);
    _b.appendNum<std::int32_t>(static_cast<std::int32_t>(c.code.size() + 1));
    _b.appendStr(c.code);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, const BSONSymbol& s) {
    appendHeader(BSONType::kSymbol, name);
    _b.appendNum<std::int32_t>(static_cast<std::int32_t>(s.symbol.size() + 1));
    _b.appendStr(s.symbol);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, const BSONObj& sub) {
    appendHeader(BSONType::kObject, name);
    _b.appendBuf(sub.objdata(), sub.objsize());
    return *this;
}

BSONObjBuilder& BSONObjBuilder::appendArray(StringData name, const BSONObj& arr) {
    appendHeader(BSONType::kArray, name);
    _b.appendBuf(arr.objdata(), arr.objsize());
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, Date_t d) {
    appendHeader(BSONType::kDate, name);
    _b.appendNum<std::int64_t>(d.toMillisSinceEpoch());
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, const OID& oid) {
    appendHeader(BSONType::kOid, name);
    _b.appendBuf(oid.view(), OID::kOIDSize);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, Timestamp ts) {
    appendHeader(BSONType::kTimestamp, name);
    _b.appendNum<std::uint64_t>(ts.asULL());
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, const Decimal128& d) {
    appendHeader(BSONType::kNumberDecimal, name);
    _b.appendNum<std::uint64_t>(d.getValue().low64);
    _b.appendNum<std::uint64_t>(d.getValue().high64);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, MinKeyLabeler) {
    appendHeader(BSONType::kMinKey, name);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, MaxKeyLabeler) {
    appendHeader(BSONType::kMaxKey, name);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(StringData name, UndefinedLabeler) {
    appendHeader(BSONType::kUndefined, name);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::appendNull(StringData name) {
    appendHeader(BSONType::kNull, name);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::append(const BSONElement& e) {
    if (!e.eoo())
        _b.appendBuf(e.rawdata(), e.size());
    return *this;
}

BSONObjBuilder& BSONObjBuilder::appendAs(const BSONElement& e, StringData name) {
    if (e.eoo())
        return *this;
    appendHeader(e.type(), name);
    _b.appendBuf(e.value(), e.valuesize());
    return *this;
}

BSONObjBuilder& BSONObjBuilder::appendElements(const BSONObj& o) {
    for (auto e : o)
        append(e);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::appendBinData(StringData name, int len, BinDataType type,
                                              const void* data) {
    appendHeader(BSONType::kBinData, name);
    _b.appendNum<std::int32_t>(len);
    _b.appendChar(static_cast<char>(type));
    _b.appendBuf(data, len);
    return *this;
}

BSONObjBuilder& BSONObjBuilder::appendRegex(StringData name, StringData pattern, StringData flags) {
    appendHeader(BSONType::kRegEx, name);
    _b.appendStr(pattern);
    _b.appendStr(flags);
    return *this;
}

BufBuilder& BSONObjBuilder::subobjStart(StringData name) {
    appendHeader(BSONType::kObject, name);
    return _b;
}

BufBuilder& BSONObjBuilder::subarrayStart(StringData name) {
    appendHeader(BSONType::kArray, name);
    return _b;
}

BSONObjBuilderValueStream& BSONObjBuilder::operator<<(StringData name) {
    if (!_stream)
        _stream = std::make_unique<BSONObjBuilderValueStream>(this);
    _stream->setName(name);
    return *_stream;
}

}  // namespace mongo
