#include "mongo/bson/oid.h"

#include <atomic>
#include <random>

namespace mongo {

namespace {
struct ProcessState {
    unsigned char unique[5];
    std::atomic<std::uint32_t> counter;
    ProcessState() {
        std::random_device rd;
        std::mt19937_64 gen((static_cast<std::uint64_t>(rd()) << 32) ^ rd());
        std::uint64_t r = gen();
        for (int i = 0; i < 5; ++i)
            unique[i] = static_cast<unsigned char>(r >> (8 * i));
        counter.store(static_cast<std::uint32_t>(gen()) & 0xFFFFFF);
    }
};
ProcessState& state() {
    static ProcessState s;
    return s;
}
int hexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
}  // namespace

OID OID::gen() {
    OID o;
    auto secs = static_cast<std::uint32_t>(Date_t::now().toMillisSinceEpoch() / 1000);
    o._data[0] = secs >> 24;
    o._data[1] = secs >> 16;
    o._data[2] = secs >> 8;
    o._data[3] = secs;
    std::memcpy(&o._data[4], state().unique, 5);
    std::uint32_t c = state().counter.fetch_add(1);
    o._data[9] = c >> 16;
    o._data[10] = c >> 8;
    o._data[11] = c;
    return o;
}

StatusWith<OID> OID::parse(StringData hex) {
    if (hex.size() != 24)
        return Status(ErrorCodes::BadValue,
                      "Invalid string length for parsing to OID, expected 24 but found " +
                          std::to_string(hex.size()));
    OID o;
    for (int i = 0; i < 12; ++i) {
        int hi = hexValue(hex[2 * i]), lo = hexValue(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return Status(ErrorCodes::BadValue,
                          "Invalid character found in hex string: " + std::string(hex));
        o._data[i] = static_cast<unsigned char>(hi * 16 + lo);
    }
    return o;
}

void OID::initFromTimestampSeconds(std::uint32_t secs) {
    _data.fill(0);
    _data[0] = secs >> 24;
    _data[1] = secs >> 16;
    _data[2] = secs >> 8;
    _data[3] = secs;
}

std::uint32_t OID::getTimestamp() const {
    return (std::uint32_t(_data[0]) << 24) | (std::uint32_t(_data[1]) << 16) |
           (std::uint32_t(_data[2]) << 8) | std::uint32_t(_data[3]);
}

std::string OID::toString() const {
    static const char* digits = "0123456789abcdef";
    std::string s(24, '0');
    for (int i = 0; i < 12; ++i) {
        s[2 * i] = digits[_data[i] >> 4];
        s[2 * i + 1] = digits[_data[i] & 0xF];
    }
    return s;
}

}  // namespace mongo
