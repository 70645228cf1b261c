#include "mongo/db/repl/md5.h"

#include <cmath>
#include <cstring>

namespace mongo {
namespace repl {
namespace {

// Per-round sine constants K[i] = floor(|sin(i + 1)| * 2^32), computed once.
struct SineTable {
    std::uint32_t k[64];
    SineTable() {
        for (int i = 0; i < 64; ++i)
            k[i] =
                static_cast<std::uint32_t>(std::floor(std::fabs(std::sin(i + 1.0)) * 4294967296.0));
    }
};
const SineTable kSine;

constexpr int kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

inline std::uint32_t rotl(std::uint32_t x, int c) {
    return (x << c) | (x >> (32 - c));
}

}  // namespace

Md5::Md5() : _state{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476} {}

void Md5::_block(const std::uint8_t* p) {
    std::uint32_t m[16];
    for (int i = 0; i < 16; ++i)
        m[i] = std::uint32_t(p[i * 4]) | (std::uint32_t(p[i * 4 + 1]) << 8) |
               (std::uint32_t(p[i * 4 + 2]) << 16) | (std::uint32_t(p[i * 4 + 3]) << 24);
    std::uint32_t a = _state[0], b = _state[1], c = _state[2], d = _state[3];
    for (int i = 0; i < 64; ++i) {
        std::uint32_t f;
        int g;
        int round = i / 16;
        switch (round) {
            case 0:
                f = (b & c) | (~b & d);
                g = i;
                break;
            case 1:
                f = (d & b) | (~d & c);
                g = (5 * i + 1) % 16;
                break;
            case 2:
                f = b ^ c ^ d;
                g = (3 * i + 5) % 16;
                break;
            default:
                f = c ^ (b | ~d);
                g = (7 * i) % 16;
                break;
        }
        std::uint32_t tmp = d;
        d = c;
        c = b;
        b = b + rotl(a + f + kSine.k[i] + m[g], kShift[round][i % 4]);
        a = tmp;
    }
    _state[0] += a;
    _state[1] += b;
    _state[2] += c;
    _state[3] += d;
}

void Md5::update(const void* data, std::size_t len) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    _bytes += len;
    if (_bufLen > 0) {
        std::size_t take = std::min(len, 64 - _bufLen);
        std::memcpy(_buf + _bufLen, p, take);
        _bufLen += take;
        p += take;
        len -= take;
        if (_bufLen < 64)
            return;
        _block(_buf);
        _bufLen = 0;
    }
    while (len >= 64) {
        _block(p);
        p += 64;
        len -= 64;
    }
    std::memcpy(_buf, p, len);
    _bufLen = len;
}

std::array<std::uint8_t, 16> Md5::finish() {
    std::uint64_t bits = _bytes * 8;
    std::uint8_t pad[72] = {0x80};
    std::size_t padLen = (_bufLen < 56) ? 56 - _bufLen : 120 - _bufLen;
    update(pad, padLen);
    std::uint8_t lenBytes[8];
    for (int i = 0; i < 8; ++i)
        lenBytes[i] = static_cast<std::uint8_t>(bits >> (8 * i));
    update(lenBytes, 8);
    std::array<std::uint8_t, 16> out;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            out[i * 4 + j] = static_cast<std::uint8_t>(_state[i] >> (8 * j));
    return out;
}

std::string Md5::finishHex() {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s;
    for (auto byte : finish()) {
        s.push_back(kHex[byte >> 4]);
        s.push_back(kHex[byte & 15]);
    }
    return s;
}

std::string md5Hex(const std::string& data) {
    Md5 h;
    h.update(data.data(), data.size());
    return h.finishHex();
}

}  // namespace repl
}  // namespace mongo
