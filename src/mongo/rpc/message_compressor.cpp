#include "mongo/rpc/message_compressor.h"

#include <cstring>
#include <string>

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "mongo/bson/bsonelement.h"

namespace mongo {

namespace {

constexpr int kCompressedHeaderSize = 9;  // originalOpcode, uncompressedSize, compressorId

Status bad(std::string msg) {
    return Status(ErrorCodes::ProtocolError, std::move(msg));
}

// Decompresses `in` into exactly `outLen` bytes at `out`.
Status decompressInto(MessageCompressorId id, const char* in, std::size_t inLen, char* out,
                      std::size_t outLen) {
    switch (id) {
        case MessageCompressorId::kNoop:
            if (inLen != outLen)
                return bad("noop-compressed payload size does not match uncompressedSize");
            std::memcpy(out, in, outLen);
            return Status::OK();
        case MessageCompressorId::kSnappy: {
            std::size_t n = 0;
            if (snappy_uncompressed_length(in, inLen, &n) != SNAPPY_OK || n != outLen)
                return bad("snappy payload size does not match uncompressedSize");
            if (snappy_uncompress(in, inLen, out, &n) != SNAPPY_OK || n != outLen)
                return bad("snappy payload is corrupt");
            return Status::OK();
        }
        case MessageCompressorId::kZlib: {
            uLongf n = outLen;
            if (uncompress(reinterpret_cast<Bytef*>(out), &n, reinterpret_cast<const Bytef*>(in),
                           inLen) != Z_OK ||
                n != outLen)
                return bad("zlib payload is corrupt or of the wrong size");
            return Status::OK();
        }
        case MessageCompressorId::kZstd: {
            std::size_t n = ZSTD_decompress(out, outLen, in, inLen);
            if (ZSTD_isError(n) || n != outLen)
                return bad("zstd payload is corrupt or of the wrong size");
            return Status::OK();
        }
    }
    return bad("unknown compressor id " + std::to_string(static_cast<int>(id)));
}

}  // namespace

StatusWith<Message> decompressMessage(const Message& compressed) {
    if (compressed.empty() || compressed.operation() != dbCompressed)
        return bad("not an OP_COMPRESSED message");
    if (compressed.dataLen() < kCompressedHeaderSize)
        return bad("OP_COMPRESSED message is truncated");
    const char* p = compressed.data();
    const auto originalOp = static_cast<NetworkOp>(readLE<std::int32_t>(p));
    const auto uncompressedSize = readLE<std::int32_t>(p + 4);
    const auto id = static_cast<std::uint8_t>(p[8]);
    if (originalOp == dbCompressed)
        return bad("OP_COMPRESSED may not contain OP_COMPRESSED");
    if (uncompressedSize < 0 || uncompressedSize > kMaxMessageSizeBytes - kMsgHeaderSize)
        return bad("OP_COMPRESSED uncompressedSize is out of range");
    if (id > static_cast<std::uint8_t>(MessageCompressorId::kZstd))
        return bad("unknown compressor id " + std::to_string(id));

    Message out = Message::allocate(kMsgHeaderSize + uncompressedSize);
    out.setId(compressed.getId());
    out.setResponseToMsgId(compressed.getResponseToMsgId());
    writeLE<std::int32_t>(out.mutableBuf() + 12, originalOp);
    Status s = decompressInto(static_cast<MessageCompressorId>(id), p + kCompressedHeaderSize,
                              compressed.dataLen() - kCompressedHeaderSize,
                              out.mutableBuf() + kMsgHeaderSize, uncompressedSize);
    if (!s.isOK())
        return s;
    return out;
}

StatusWith<Message> compressMessage(const Message& message, MessageCompressorId id) {
    const char* in = message.data();
    const std::size_t inLen = message.dataLen();
    std::string payload;
    switch (id) {
        case MessageCompressorId::kNoop:
            payload.assign(in, inLen);
            break;
        case MessageCompressorId::kSnappy: {
            std::size_t n = snappy_max_compressed_length(inLen);
            payload.resize(n);
            if (snappy_compress(in, inLen, payload.data(), &n) != SNAPPY_OK)
                return bad("snappy compression failed");
            payload.resize(n);
            break;
        }
        case MessageCompressorId::kZlib: {
            uLongf n = compressBound(inLen);
            payload.resize(n);
            if (compress2(reinterpret_cast<Bytef*>(payload.data()), &n,
                          reinterpret_cast<const Bytef*>(in), inLen, Z_DEFAULT_COMPRESSION) != Z_OK)
                return bad("zlib compression failed");
            payload.resize(n);
            break;
        }
        case MessageCompressorId::kZstd: {
            std::size_t n = ZSTD_compressBound(inLen);
            payload.resize(n);
            n = ZSTD_compress(payload.data(), n, in, inLen, 1);
            if (ZSTD_isError(n))
                return bad("zstd compression failed");
            payload.resize(n);
            break;
        }
        default:
            return bad("unknown compressor id");
    }
    const std::size_t total = kMsgHeaderSize + kCompressedHeaderSize + payload.size();
    Message out = Message::allocate(static_cast<std::int32_t>(total));
    out.setId(message.getId());
    out.setResponseToMsgId(message.getResponseToMsgId());
    char* p = out.mutableBuf();
    writeLE<std::int32_t>(p + 12, dbCompressed);
    writeLE<std::int32_t>(p + 16, message.operation());
    writeLE<std::int32_t>(p + 20, static_cast<std::int32_t>(inLen));
    p[24] = static_cast<char>(id);
    std::memcpy(p + 25, payload.data(), payload.size());
    return out;
}

}  // namespace mongo
