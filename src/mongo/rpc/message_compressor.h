// OP_COMPRESSED (2012): int32 originalOpcode, int32 uncompressedSize,
// uint8 compressorId, compressed body (the original message without its header).
// The server does not advertise compression, but decodes it for robustness.
#pragma once

#include <cstdint>

#include "mongo/base/status.h"
#include "mongo/rpc/message.h"

namespace mongo {

enum class MessageCompressorId : std::uint8_t {
    kNoop = 0,
    kSnappy = 1,
    kZlib = 2,
    kZstd = 3,
};

/**
 * The original message inside an OP_COMPRESSED, with the same request id and
 * responseTo. Errors: ProtocolError (17) for a truncated header, an unknown
 * compressor, a nested OP_COMPRESSED, an uncompressedSize above
 * kMaxMessageSizeBytes, or a payload that does not decompress to exactly
 * uncompressedSize bytes. Cost: O(uncompressedSize).
 */
StatusWith<Message> decompressMessage(const Message& compressed);

/** `message` wrapped in OP_COMPRESSED with `id` (same request id and responseTo). */
StatusWith<Message> compressMessage(const Message& message, MessageCompressorId id);

}  // namespace mongo
