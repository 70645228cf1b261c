// OID: a 12-byte BSON ObjectId (4-byte big-endian seconds, 5-byte per-process
// random value, 3-byte big-endian counter), as generated for `_id`.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"
#include "mongo/util/time_support.h"

namespace mongo {

class OID {
public:
    static constexpr int kOIDSize = 12;

    OID() {
        _data.fill(0);
    }
    explicit OID(const unsigned char* bytes) {
        std::memcpy(_data.data(), bytes, kOIDSize);
    }
    static OID from(const void* bytes) {
        return OID(static_cast<const unsigned char*>(bytes));
    }
    /** A new ObjectId: current time, process-unique value, incrementing counter. */
    static OID gen();
    /** Parses 24 hex digits; BadValue otherwise. */
    static StatusWith<OID> parse(StringData hex);

    /** Sets the timestamp part to `seconds` and zeroes the rest. */
    void initFromTimestampSeconds(std::uint32_t seconds);

    std::uint32_t getTimestamp() const;
    Date_t asDateT() const {
        return Date_t::fromMillisSinceEpoch(static_cast<long long>(getTimestamp()) * 1000);
    }
    std::string toString() const;  // 24 lowercase hex digits
    const unsigned char* view() const {
        return _data.data();
    }
    unsigned char* mutableView() {
        return _data.data();
    }
    int compare(const OID& o) const {
        return std::memcmp(_data.data(), o._data.data(), kOIDSize);
    }
    bool operator==(const OID& o) const {
        return compare(o) == 0;
    }
    bool operator<(const OID& o) const {
        return compare(o) < 0;
    }

private:
    std::array<unsigned char, kOIDSize> _data;
};

}  // namespace mongo
