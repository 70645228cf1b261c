// KeyString decoding: bytes + TypeBits back to BSON (layout in README.md).
#include <cmath>
#include <cstring>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/key_string.h"
#include "mongo/util/assert_util.h"

namespace mongo::key_string {
namespace {

struct DecodeError {};

// Objects and arrays nest at most as deep as validateBSON() accepts (the decoded key
// {"": v} is level 0, so v's own nesting may reach 200). Bounds the recursion too.
constexpr int kMaxNesting = 200;

class Reader {
public:
    Reader(std::string_view b, const TypeBits& tb) : _b(b), _tb(tb) {}
    unsigned char byte() {
        if (_pos >= _b.size())
            throw DecodeError();
        return static_cast<unsigned char>(_b[_pos++]) ^ _mask;
    }
    unsigned char peek() {
        if (_pos >= _b.size())
            throw DecodeError();
        return static_cast<unsigned char>(_b[_pos]) ^ _mask;
    }
    std::uint64_t be(int n) {
        std::uint64_t v = 0;
        for (int i = 0; i < n; ++i)
            v = (v << 8) | byte();
        return v;
    }
    std::string bytes(std::size_t n) {
        std::string s;
        for (std::size_t i = 0; i < n; ++i)
            s.push_back(static_cast<char>(byte()));
        return s;
    }
    std::string cstring() {
        std::string s;
        for (unsigned char c; (c = byte()) != 0;)
            s.push_back(static_cast<char>(c));
        return s;
    }
    std::string escapedString() {
        std::string s;
        while (true) {
            unsigned char c = byte();
            if (c != 0) {
                s.push_back(static_cast<char>(c));
                continue;
            }
            unsigned char n = byte();
            if (n == 0)
                return s;
            if (n != 0xff)
                throw DecodeError();
            s.push_back(0);
        }
    }
    char typeBit() {
        if (_tbPos >= _tb.size())
            throw DecodeError();
        return _tb[_tbPos++];
    }
    std::string typeBitBytes(std::size_t n) {
        if (_tbPos + n > _tb.size())
            throw DecodeError();
        std::string s = _tb.substr(_tbPos, n);
        _tbPos += n;
        return s;
    }
    unsigned char mask() const {
        return _mask;
    }
    void setMask(unsigned char m) {
        _mask = m;
    }
    std::size_t pos() const {
        return _pos;
    }
    /** Enters one more level of object/array nesting; malformed past kMaxNesting. */
    void enter() {
        if (++_depth > kMaxNesting)
            throw DecodeError();
    }
    void leave() {
        --_depth;
    }

private:
    std::string_view _b;
    const TypeBits& _tb;
    std::size_t _pos = 0;
    std::size_t _tbPos = 0;
    unsigned char _mask = 0;
    int _depth = 0;
};

double bitsToDouble(std::uint64_t u) {
    double d;
    std::memcpy(&d, &u, 8);
    return d;
}

/** Reads a magnitude; returns it as (integer part, fraction, big double). */
struct Magnitude {
    std::uint64_t intPart = 0;
    double frac = 0;
    bool big = false;
    double bigValue = 0;
    double asDouble() const {
        return big ? bigValue : static_cast<double>(intPart) + frac;
    }
};

/**
 * Reads a magnitude and rejects every form the encoder cannot write (README.md): a big
 * magnitude must be >= 2^64 (or infinite), a small one has no leading zero byte and a
 * fraction strictly between 0 and 1. Accepting those would let NaN payloads and values
 * the encoder never writes through. (A zero magnitude is checked by the caller: only an
 * inexact decimal's lower neighbour may be zero.)
 */
Magnitude readMagnitude(Reader& r) {
    constexpr double k2Pow64 = 18446744073709551616.0;
    Magnitude m;
    unsigned char n = r.byte();
    if (n == 9) {
        m.big = true;
        m.bigValue = bitsToDouble(r.be(8));
        if (!(m.bigValue >= k2Pow64))  // also rejects NaN
            throw DecodeError();
        return m;
    }
    if (n > 8)
        throw DecodeError();
    m.intPart = r.be(n);
    if (n > 0 && (m.intPart >> ((n - 1) * 8)) == 0)
        throw DecodeError();  // leading zero byte
    unsigned char f = r.byte();
    if (f == 1) {
        m.frac = bitsToDouble(r.be(8));
        if (!(m.frac > 0 && m.frac < 1))  // also rejects NaN
            throw DecodeError();
    } else if (f != 0) {
        throw DecodeError();
    }
    return m;
}

void appendRaw(BSONObjBuilder& b, BSONType t, StringData name, const std::string& value) {
    std::string el;
    el.push_back(static_cast<char>(t));
    el.append(name.data(), name.size());
    el.push_back(0);
    el += value;
    b.append(BSONElement(el.data()));
}

void readValue(Reader& r, BSONObjBuilder& b, StringData name, unsigned char ctype);

void readObjectBody(Reader& r, BSONObjBuilder& b, bool withNames) {
    r.enter();
    int i = 0;
    while (true) {
        unsigned char rank = r.byte();
        if (rank == 0)
            break;
        std::string name = withNames ? r.cstring() : std::to_string(i);
        ++i;
        readValue(r, b, name, r.byte());
    }
    r.leave();
}

void readNumber(Reader& r, BSONObjBuilder& b, StringData name, unsigned char ctype) {
    char tb = r.typeBit();
    bool negative = ctype == 31;
    Magnitude m;
    if (ctype == 31 || ctype == 33) {
        unsigned char saved = r.mask();
        if (negative)
            r.setMask(saved ^ 0xff);  // negative magnitudes are stored inverted
        m = readMagnitude(r);
        r.setMask(saved);
    }
    if ((ctype == 31 || ctype == 33) && tb != 'D' && !m.big && m.intPart == 0 && m.frac == 0)
        throw DecodeError();  // zero has its own type byte
    double d = ctype == 30 ? std::nan("") : (ctype == 32 ? 0.0 : m.asDouble());
    if (negative)
        d = -d;
    switch (tb) {
        case 'i':
        case 'l': {
            if (ctype == 30 || m.big || m.frac != 0)
                throw DecodeError();
            // The value must fit the type the type bits name (no silent truncation).
            std::uint64_t u = m.intPart;
            std::uint64_t limit = tb == 'i' ? (1ull << 31) : (1ull << 63);
            if (u > limit || (u == limit && !negative))
                throw DecodeError();
            long long v = negative ? static_cast<long long>(0 - u) : static_cast<long long>(u);
            if (tb == 'i')
                b.append(name, static_cast<int>(v));
            else
                b.append(name, v);
            return;
        }
        case 'd':
            b.append(name, d);
            return;
        case 'z':
            b.append(name, -0.0);
            return;
        case 'D': {
            // An inexact decimal's magnitude is followed by 0xFF and its 17-byte tie-break.
            if (ctype == 31 || ctype == 33) {
                if (r.peek() == 0xff)
                    r.bytes(1 + 17);
            }
            std::string raw = r.typeBitBytes(16);
            appendRaw(b, BSONType::kNumberDecimal, name, raw);
            return;
        }
    }
    throw DecodeError();
}

void readValue(Reader& r, BSONObjBuilder& b, StringData name, unsigned char ctype) {
    switch (ctype) {
        case 10:
            b.append(name, MINKEY);
            return;
        case 240:
            b.append(name, MAXKEY);
            return;
        case 15:
            b.append(name, BSONUndefined);
            return;
        case 20:
            b.appendNull(name);
            return;
        case 30:
        case 31:
        case 32:
        case 33:
            readNumber(r, b, name, ctype);
            return;
        case 60: {
            char tb = r.typeBit();
            std::string s = r.escapedString();
            if (tb == 's')
                b.append(name, StringData(s));
            else if (tb == 'y')
                b.append(name, BSONSymbol{s});
            else
                throw DecodeError();
            return;
        }
        case 160: {
            std::string s = r.escapedString();
            b.append(name, BSONCode{s});
            return;
        }
        case 70: {
            BSONObjBuilder sub(b.subobjStart(name));
            readObjectBody(r, sub, true);
            return;
        }
        case 80: {
            BSONObjBuilder sub(b.subarrayStart(name));
            readObjectBody(r, sub, false);
            return;
        }
        case 90: {
            std::uint32_t len = static_cast<std::uint32_t>(r.be(4));
            auto sub = static_cast<BinDataType>(r.byte());
            std::string data = r.bytes(len);
            b.appendBinData(name, static_cast<int>(len), sub, data.data());
            return;
        }
        case 100: {
            std::string raw = r.bytes(12);
            b.append(name, OID::from(raw.data()));
            return;
        }
        case 110:
        case 111:
            b.append(name, ctype == 111);
            return;
        case 120:
            b.append(name,
                     Date_t::fromMillisSinceEpoch(static_cast<long long>(r.be(8) ^ (1ull << 63))));
            return;
        case 130:
            b.append(name, Timestamp::fromULL(r.be(8)));
            return;
        case 140: {
            std::string pat = r.cstring();
            std::string flags = r.cstring();
            b.appendRegex(name, pat, flags);
            return;
        }
        case 150: {
            std::uint32_t sz = static_cast<std::uint32_t>(r.be(4));
            if (sz == 0)
                throw DecodeError();
            std::string s = r.bytes(sz - 1);
            std::string oid = r.bytes(12);
            std::string v(4, '\0');
            writeLE<std::int32_t>(v.data(), static_cast<std::int32_t>(sz));
            v += s;
            v.push_back(0);
            v += oid;
            appendRaw(b, BSONType::kDBRef, name, v);
            return;
        }
        case 170: {
            std::string code = r.escapedString();
            BSONObjBuilder scope;
            readObjectBody(r, scope, true);
            BSONObj so = scope.obj();
            std::string v(8, '\0');
            v += code;
            v.push_back(0);
            writeLE<std::int32_t>(v.data() + 4, static_cast<std::int32_t>(code.size() + 1));
            v.append(so.objdata(), so.objsize());
            writeLE<std::int32_t>(v.data(), static_cast<std::int32_t>(v.size()));
            appendRaw(b, BSONType::kCodeWScope, name, v);
            return;
        }
    }
    throw DecodeError();
}

}  // namespace

StatusWith<BSONObj> toBsonSafe(std::string_view key, Ordering ord, const TypeBits& typeBits) {
    try {
        Reader r(key, typeBits);
        BSONObjBuilder b;
        for (int i = 0;; ++i) {
            unsigned char mask = ord.descending(i) ? 0xff : 0;
            r.setMask(0);
            unsigned char first = r.peek();
            if (first == 4 || first == 3 || first == 0xfe)
                break;  // end of key (a RecordId may follow)
            r.setMask(mask);
            unsigned char ctype = r.byte();
            readValue(r, b, "", ctype);
        }
        BSONObj out = b.obj();
        // Field names are raw bytes in the key: one that is not UTF-8 makes invalid BSON.
        if (!validateBSON(out.objdata(), out.objsize()).isOK())
            throw DecodeError();
        return out;
    } catch (const DecodeError&) {
        return Status(ErrorCodes::InvalidBSON, "malformed KeyString");
    }
}

BSONObj toBson(std::string_view key, Ordering ord, const TypeBits& typeBits) {
    auto sw = toBsonSafe(key, ord, typeBits);
    invariantWithMsg(sw.isOK(), sw.getStatus().toString());
    return std::move(sw.getValue());
}

}  // namespace mongo::key_string
