// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), used by the OP_MSG
// checksum. crc32c("123456789") == 0xE3069283.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mongo {

/** Continues a CRC-32C over `len` bytes; start with crc = 0. O(len). */
std::uint32_t crc32cUpdate(std::uint32_t crc, const void* data, std::size_t len);

inline std::uint32_t crc32c(const void* data, std::size_t len) {
    return crc32cUpdate(0, data, len);
}

}  // namespace mongo
