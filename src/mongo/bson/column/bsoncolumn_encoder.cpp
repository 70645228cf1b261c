// Regular-mode stream encoder (spec §A.7): literals, deltas, double scaling, control bytes.
#include "mongo/bson/column/bsoncolumn_encoder.h"

#include <cstring>
#include <tuple>

#include "mongo/bson/bsonelement.h"
#include "mongo/bson/column/bsoncolumn_util.h"

namespace mongo::bsoncolumn {
namespace {

inline int64_t sub(int64_t a, int64_t b) {
    return int64_t(uint64_t(a) - uint64_t(b));
}
inline int64_t add(int64_t a, int64_t b) {
    return int64_t(uint64_t(a) + uint64_t(b));
}
// Equality of two value byte ranges. Up to 16 bytes: two overlapping loads per side instead of
// a memcmp call (values are mostly 1 to 16 bytes long).
inline bool sameBytes(const char* a, const char* b, size_t len) {
    if (len >= 8 && len <= 16) {
        return readLE<uint64_t>(a) == readLE<uint64_t>(b) &&
               readLE<uint64_t>(a + len - 8) == readLE<uint64_t>(b + len - 8);
    }
    if (len >= 4 && len < 8) {
        return readLE<uint32_t>(a) == readLE<uint32_t>(b) &&
               readLE<uint32_t>(a + len - 4) == readLE<uint32_t>(b + len - 4);
    }
    return std::memcmp(a, b, len) == 0;
}
// memcpy with the same small-size fast path.
inline void copyBytes(char* dst, const char* src, size_t len) {
    if (len >= 8 && len <= 16) {
        const uint64_t a = readLE<uint64_t>(src), b = readLE<uint64_t>(src + len - 8);
        std::memcpy(dst, &a, 8);
        std::memcpy(dst + len - 8, &b, 8);
    } else if (len >= 4 && len < 8) {
        const uint32_t a = readLE<uint32_t>(src), b = readLE<uint32_t>(src + len - 4);
        std::memcpy(dst, &a, 4);
        std::memcpy(dst + len - 4, &b, 4);
    } else if (len) {
        std::memcpy(dst, src, len);
    }
}
void countWord(void* ctx, uint64_t) {
    ++*static_cast<int64_t*>(ctx);
}

}  // namespace

EncodingStream::EncodingStream() {
    _prev.assign(1, '\0');
    _rebind();
}

EncodingStream::EncodingStream(const EncodingStream& o) : EncodingStream(o, 0) {}

EncodingStream::EncodingStream(const EncodingStream& o, size_t from)
    : _buf(o._buf, from),
      _prev(o._prev),
      _p64(o._p64),
      _p128(o._p128),
      _is128(o._is128),
      _isDouble(o._isDouble),
      _prevDelta(o._prevDelta),
      _base(o._base),
      _scale(o._scale),
      _lastBlockValue(o._lastBlockValue),
      _base128(o._base128),
      _openControl(o._openControl < 0 ? -1 : o._openControl - long(from)),
      _openWords(o._openWords),
      _openValues(o._openValues),
      _wordsWritten(o._wordsWritten),
      _recordUnits(o._recordUnits),
      _units(o._units) {
    _rebind();
}

std::string EncodingStream::flushedTail(size_t from) const {
    EncodingStream copy(*this, from);
    copy.flush();
    return std::move(copy._buf);
}

EncodingStream& EncodingStream::operator=(const EncodingStream& o) {
    if (this != &o) {
        EncodingStream tmp(o);
        _buf.swap(tmp._buf);
        _prev.swap(tmp._prev);
        _p64 = tmp._p64;
        _p128 = tmp._p128;
        _is128 = tmp._is128;
        _isDouble = tmp._isDouble;
        _prevDelta = tmp._prevDelta;
        _base = tmp._base;
        _scale = tmp._scale;
        _lastBlockValue = tmp._lastBlockValue;
        _base128 = tmp._base128;
        _openControl = tmp._openControl;
        _openWords = tmp._openWords;
        _openValues = tmp._openValues;
        _wordsWritten = tmp._wordsWritten;
        _recordUnits = tmp._recordUnits;
        _units.swap(tmp._units);
        _rebind();
    }
    return *this;
}

void EncodingStream::_rebind() {
    _p64.setWriter(&EncodingStream::_onWord, this);
    _p128.setWriter(&EncodingStream::_onWord, this);
}

void EncodingStream::resetState() {
    _prev.assign(1, '\0');
    _openControl = -1;
    _openWords = 0;
    _openValues = 0;
    _units.clear();
    _resetEncoder();
}

void EncodingStream::_onWord(void* ctx, uint64_t word) {
    static_cast<EncodingStream*>(ctx)->_writeWord(word);
}

void EncodingStream::_writeWord(uint64_t w) {
    const uint8_t ctrl = _is128 ? 0x80 : kControlForScale[_scale];
    if (_openControl >= 0 && (uint8_t(_buf[size_t(_openControl)]) & 0xF0) != ctrl)
        _closeControl();
    if (_openControl < 0) {
        _openControl = long(_buf.size());
        _buf.push_back(char(ctrl));
        _openWords = 0;
        _openValues = 0;
    } else {
        _buf[size_t(_openControl)] = char(ctrl | _openWords);
    }
    char bytes[8];
    writeLE<uint64_t>(bytes, w);
    _buf.append(bytes, 8);
    ++_openWords;
    _openValues += simple8b::valueCount(w);
    ++_wordsWritten;
    if (_openWords == 16)
        _closeControl();
    if (_isDouble) {
        int64_t sum = 0;
        _p64.forEachOutstanding([&](bool missing, uint64_t e) {
            if (!missing)
                sum = add(sum, unzigzag(e));
        });
        _lastBlockValue = decodeDouble(sub(_base, sum), _scale);
    }
}

void EncodingStream::_closeControl() {
    if (_openControl < 0)
        return;
    if (_recordUnits)
        _units.push_back({size_t(_openControl), _buf.size() - size_t(_openControl), _openValues});
    _openControl = -1;
    _openWords = 0;
    _openValues = 0;
}

void EncodingStream::_resetEncoder() {
    const BSONType t = _prevType();
    const char* v = _prev.data() + 1;
    _is128 = uses128bit(t);
    _isDouble = t == BSONType::kNumberDouble;
    _p64.reset();
    _p128.reset();
    _prevDelta = 0;
    _base = 0;
    _scale = kScaleRaw;
    _lastBlockValue = 0.0;
    _base128.reset();
    switch (t) {
        case BSONType::kNumberDouble: {
            const double d = readLE<double>(v);
            _lastBlockValue = d;
            std::tie(_base, _scale) = bestScaleEncode(d, 0);
            break;
        }
        case BSONType::kOid:
            _base = oidToInt(reinterpret_cast<const uint8_t*>(v));
            break;
        case BSONType::kString:
        case BSONType::kCode:
            _base128 = stringToInt(v + 4, _prev.size() - 1 - 5);
            break;
        case BSONType::kBinData: {
            const int32_t l = readLE<int32_t>(v);
            if (l <= 16)
                _base128 = binDataToInt(v + 5, l);
            break;
        }
        case BSONType::kNumberDecimal:
            _base128 = readLE128(v);
            break;
        default:
            break;
    }
}

void EncodingStream::_writeLiteral() {
    _closeControl();
    if (_recordUnits)
        _units.push_back({_buf.size(), _prev.size() + 1, 1});
    _buf.push_back(_prev[0]);
    _buf.push_back('\0');
    _buf.append(_prev, 1, std::string::npos);
    _resetEncoder();
}

void EncodingStream::_flushPacker() {
    if (_is128)
        _p128.flush();
    else
        _p64.flush();
}

void EncodingStream::flush() {
    _flushPacker();
    _closeControl();
}

void EncodingStream::initFromLeaf(const Val& v) {
    _setPrev(v);
    _resetEncoder();
}

void EncodingStream::_setPrev(const Val& v) {
    if (_prev.size() != v.len + 1)
        _prev.resize(v.len + 1);
    _prev[0] = char(v.type);
    copyBytes(&_prev[1], v.data, v.len);
}

void EncodingStream::append(const Val& v) {
    if (v.type != _prevType()) {
        _setPrev(v);
        _flushPacker();
        _writeLiteral();
        return;
    }
    if (!usesDeltaOfDelta(v.type) && _prev.size() == v.len + 1 &&
        sameBytes(_prev.data() + 1, v.data, v.len)) {
        // Same bytes: `_prev` already holds the value.
        if (_is128 ? _p128.append(0) : _p64.append(0))
            return;
        _flushPacker();
        _writeLiteral();
        return;
    }
    const bool ok = _appendDelta(v);
    _setPrev(v);
    if (!ok) {
        _flushPacker();
        _writeLiteral();
    }
}

void EncodingStream::skip() {
    const int64_t before = _wordsWritten;
    if (_is128)
        _p128.skip();
    else
        _p64.skip();
    if (_isDouble && _wordsWritten != before && _p64.allOutstandingMissing())
        std::tie(_base, _scale) = bestScaleEncode(_lastBlockValue, 0);
}

bool EncodingStream::_appendDelta(const Val& v) {
    const char* pv = _prev.data() + 1;
    if (_is128) {
        uint128_t x;
        switch (v.type) {
            case BSONType::kString:
            case BSONType::kCode: {
                auto s = stringToInt(v.data + 4, v.len - 5);
                if (!s)
                    return false;
                x = *s;
                break;
            }
            case BSONType::kBinData: {
                const int32_t lv = readLE<int32_t>(v.data), lp = readLE<int32_t>(pv);
                if (lv != lp || v.data[4] != pv[4] || lv > 16)
                    return false;
                x = binDataToInt(v.data + 5, lv);
                break;
            }
            default:
                x = readLE128(v.data);
                break;
        }
        if (!_base128 && x == 0)
            return false;
        const bool ok = _p128.append(zigzag128(x - _base128.value_or(0)));
        _base128 = x;
        return ok;
    }
    int64_t d;
    switch (v.type) {
        case BSONType::kNumberDouble:
            return _appendDouble(readLE<double>(v.data), readLE<double>(pv));
        case BSONType::kNumberInt:
            d = int64_t(readLE<int32_t>(v.data)) - int64_t(readLE<int32_t>(pv));
            break;
        case BSONType::kNumberLong:
        case BSONType::kDate:
        case BSONType::kTimestamp:
            d = sub(readLE<int64_t>(v.data), readLE<int64_t>(pv));
            break;
        case BSONType::kBool:
            if (uint8_t(v.data[0]) > 1)
                return false;
            d = int64_t(uint8_t(v.data[0])) - int64_t(uint8_t(pv[0]));
            break;
        case BSONType::kOid: {
            if (std::memcmp(v.data + 4, pv + 4, 5) != 0)
                return false;
            const int64_t e = oidToInt(reinterpret_cast<const uint8_t*>(v.data));
            d = sub(e, _base);
            _base = e;
            break;
        }
        case BSONType::kNull:
        case BSONType::kUndefined:
            d = 0;
            break;
        default:
            return false;
    }
    if (usesDeltaOfDelta(v.type)) {
        const int64_t dd = sub(d, _prevDelta);
        _prevDelta = d;
        d = dd;
    }
    return _p64.append(zigzag(d));
}

bool EncodingStream::_tryRescalePending(int64_t x, int s) {
    auto p0o = encodeDouble(_lastBlockValue, _scale);
    auto q0o = encodeDouble(_lastBlockValue, s);
    if (!p0o || !q0o)
        return false;
    int64_t p0 = *p0o, q0 = *q0o;
    int64_t written = 0;
    Simple8bBuilder<uint64_t> n(&countWord, &written);
    if (_p64.rleOpen())
        n.copyRleValueFrom(_p64);
    bool ok = true;
    _p64.forEachOutstanding([&](bool missing, uint64_t e) {
        if (!ok)
            return;
        if (missing) {
            n.skip();
            return;
        }
        p0 = add(p0, unzigzag(e));
        auto y = encodeDouble(decodeDouble(p0, _scale), s);
        if (!y || !n.append(zigzag(sub(*y, q0)))) {
            ok = false;
            return;
        }
        q0 = *y;
    });
    if (!ok || !n.append(zigzag(sub(x, q0))) || written != 0)
        return false;
    n.setWriter(&EncodingStream::_onWord, this);
    _p64 = n;
    _base = x;
    _scale = s;
    return true;
}

bool EncodingStream::_appendDouble(double v, double previous) {
    auto [x, s] = bestScaleEncode(v, _scale);
    if (s != _scale) {
        if (_tryRescalePending(x, s))
            return true;
        _p64.flush();
        _closeControl();
        int s2;
        std::tie(_base, s2) = bestScaleEncode(previous, s);
        if (s2 != s) {
            std::tie(x, s) = bestScaleEncode(v, s2);
            _base = bestScaleEncode(previous, s).first;
        }
        _scale = s;
    }
    const int64_t before = _wordsWritten;
    if (!_p64.append(zigzag(sub(x, _base))))
        return false;
    if (_wordsWritten == before) {
        _base = x;
        return true;
    }
    // A word was written: try to go back down in scale for the words that follow.
    const int oldScale = _scale;
    std::tie(_base, _scale) = bestScaleEncode(_lastBlockValue, 0);
    if (_scale == oldScale) {
        // Re-appending the outstanding values at the same scale would rebuild the same
        // packer state; skip the copy.
        _base = x;
        return true;
    }
    Simple8bBuilder<uint64_t> old = _p64;
    _p64 = Simple8bBuilder<uint64_t>(&EncodingStream::_onWord, this);
    if (old.rleOpen())
        _p64.copyRleValueFrom(old);
    int64_t p = encodeDouble(_lastBlockValue, oldScale).value_or(0);
    double prevD = _lastBlockValue;
    old.forEachOutstanding([&](bool missing, uint64_t e) {
        if (missing) {
            _p64.skip();
            return;
        }
        p = add(p, unzigzag(e));
        const double d = decodeDouble(p, oldScale);
        _appendDouble(d, prevD);
        prevD = d;
    });
    return true;
}

}  // namespace mongo::bsoncolumn
