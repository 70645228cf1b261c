// MD5 (RFC 1321), used by dbHash to fingerprint collections. Written from the
// RFC; not for security. Usage:
//   Md5 h; h.update(data, len); std::string hex = h.finishHex();
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace mongo {
namespace repl {

class Md5 {
public:
    Md5();
    void update(const void* data, std::size_t len);
    /** Ends the digest: 16 raw bytes. The object must not be updated afterwards. */
    std::array<std::uint8_t, 16> finish();
    /** finish() as 32 lower-case hex digits. */
    std::string finishHex();

private:
    void _block(const std::uint8_t* p);

    std::uint32_t _state[4];
    std::uint64_t _bytes = 0;
    std::uint8_t _buf[64];
    std::size_t _bufLen = 0;
};

/** MD5 of `data` as lower-case hex. */
std::string md5Hex(const std::string& data);

}  // namespace repl
}  // namespace mongo
