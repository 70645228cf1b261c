#include "mongo/db/storage/wiredtiger/wiredtiger_zstd_compressor.h"

#include <zstd.h>

#include <string>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"

namespace mongo {
namespace {

// Each compressed block is [8-byte little-endian compressed length][zstd frame]:
// WiredTiger may hand decompress() a source padded to the allocation size.
constexpr size_t kPrefix = 8;
constexpr int kLevel = 6;  // upstream's default zstd level

int zstdCompress(WT_COMPRESSOR*, WT_SESSION*, uint8_t* src, size_t srcLen, uint8_t* dst,
                 size_t dstLen, size_t* resultLen, int* failed) {
    if (dstLen < kPrefix) {
        *failed = 1;
        return 0;
    }
    size_t n = ZSTD_compress(dst + kPrefix, dstLen - kPrefix, src, srcLen, kLevel);
    if (ZSTD_isError(n)) {
        *failed = 1;  // e.g. does not fit: WiredTiger stores the block uncompressed
        return 0;
    }
    std::uint64_t len = n;
    std::memcpy(dst, &len, kPrefix);
    *resultLen = n + kPrefix;
    *failed = 0;
    return 0;
}

int zstdDecompress(WT_COMPRESSOR*, WT_SESSION*, uint8_t* src, size_t srcLen, uint8_t* dst,
                   size_t dstLen, size_t* resultLen) {
    if (srcLen < kPrefix)
        return EINVAL;
    std::uint64_t len;
    std::memcpy(&len, src, kPrefix);
    if (len > srcLen - kPrefix)
        return EINVAL;
    size_t n = ZSTD_decompress(dst, dstLen, src + kPrefix, len);
    if (ZSTD_isError(n))
        return EINVAL;
    *resultLen = n;
    return 0;
}

int zstdPreSize(WT_COMPRESSOR*, WT_SESSION*, uint8_t*, size_t srcLen, size_t* resultLen) {
    *resultLen = ZSTD_compressBound(srcLen) + kPrefix;
    return 0;
}

}  // namespace

WT_COMPRESSOR gZstd = {zstdCompress, zstdDecompress, zstdPreSize, nullptr};

std::string zstdExtensionConfig() {
    return "local={entry=" + std::string(kZstdExtensionEntry) + "}";
}

}  // namespace mongo

// Found by WiredTiger with dlsym in this binary (the program exports it: site_scons).
extern "C" __attribute__((visibility("default"))) int mongo_wt_zstd_extension_init(
    WT_CONNECTION* conn, WT_CONFIG_ARG*) {
    return conn->add_compressor(conn, "zstd", &mongo::gZstd, nullptr);
}

namespace mongo {}  // namespace mongo
