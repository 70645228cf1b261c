#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/message_compressor.h"
#include "mongo/rpc/op_msg.h"

namespace mongo {
namespace {

Message sampleMessage() {
    OpMsgRequest req;
    req.body = BSON("insert"
                    << "c"
                    << "$db"
                    << "test");
    DocumentSequence seq{"documents", {}};
    for (int i = 0; i < 200; ++i)
        seq.objs.push_back(BSON("i" << i << "s"
                                    << "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
    req.sequences.push_back(std::move(seq));
    return req.serialize();
}

TEST(MessageCompressor, EveryCompressorRoundTrips) {
    const Message original = sampleMessage();
    for (auto id : {MessageCompressorId::kNoop, MessageCompressorId::kSnappy,
                    MessageCompressorId::kZlib, MessageCompressorId::kZstd}) {
        auto compressed = compressMessage(original, id);
        ASSERT_TRUE(compressed.isOK());
        EXPECT_EQ(compressed.getValue().operation(), dbCompressed);
        EXPECT_EQ(compressed.getValue().getId(), original.getId());
        auto back = decompressMessage(compressed.getValue());
        ASSERT_TRUE(back.isOK()) << back.getStatus();
        ASSERT_EQ(back.getValue().getLen(), original.getLen());
        EXPECT_EQ(std::memcmp(back.getValue().buf(), original.buf(), original.getLen()), 0);
        auto parsed = OpMsgRequest::parse(back.getValue());
        ASSERT_TRUE(parsed.isOK());
        EXPECT_EQ(parsed.getValue().sequences[0].objs.size(), 200u);
    }
}

TEST(MessageCompressor, CorruptPayloadIsProtocolError) {
    for (auto id :
         {MessageCompressorId::kSnappy, MessageCompressorId::kZlib, MessageCompressorId::kZstd}) {
        auto compressed = compressMessage(sampleMessage(), id);
        ASSERT_TRUE(compressed.isOK());
        Message m = compressed.getValue();
        // Truncate the payload by one byte.
        Message cut = Message::copyFrom(m.buf(), m.getLen() - 1);
        writeLE<std::int32_t>(cut.mutableBuf(), m.getLen() - 1);
        EXPECT_EQ(decompressMessage(cut).getStatus().code(), ErrorCodes::ProtocolError);
        // Lie about the uncompressed size.
        writeLE<std::int32_t>(m.mutableBuf() + 20, readLE<std::int32_t>(m.buf() + 20) + 1);
        EXPECT_EQ(decompressMessage(m).getStatus().code(), ErrorCodes::ProtocolError);
    }
}

TEST(MessageCompressor, BadHeaderIsProtocolError) {
    auto compressed = compressMessage(sampleMessage(), MessageCompressorId::kNoop);
    ASSERT_TRUE(compressed.isOK());
    Message unknownId =
        Message::copyFrom(compressed.getValue().buf(), compressed.getValue().getLen());
    unknownId.mutableBuf()[24] = 9;
    EXPECT_EQ(decompressMessage(unknownId).getStatus().code(), ErrorCodes::ProtocolError);

    Message nested = Message::copyFrom(compressed.getValue().buf(), compressed.getValue().getLen());
    writeLE<std::int32_t>(nested.mutableBuf() + 16, dbCompressed);
    EXPECT_EQ(decompressMessage(nested).getStatus().code(), ErrorCodes::ProtocolError);

    Message huge = Message::copyFrom(compressed.getValue().buf(), compressed.getValue().getLen());
    writeLE<std::int32_t>(huge.mutableBuf() + 20, kMaxMessageSizeBytes);
    EXPECT_EQ(decompressMessage(huge).getStatus().code(), ErrorCodes::ProtocolError);

    Message tiny;
    tiny.setData(dbCompressed, "\0\0\0\0", 4);
    EXPECT_EQ(decompressMessage(tiny).getStatus().code(), ErrorCodes::ProtocolError);
}

}  // namespace
}  // namespace mongo
