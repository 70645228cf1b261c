#include <gtest/gtest.h>

#include <string>

#include "mongo/rpc/crc32c.h"

namespace mongo {
namespace {

TEST(Crc32c, KnownVector) {
    EXPECT_EQ(crc32c("123456789", 9), 0xE3069283u);
}

TEST(Crc32c, EmptyInputIsZero) {
    EXPECT_EQ(crc32c("", 0), 0u);
}

TEST(Crc32c, IncrementalEqualsOneShot) {
    std::string data;
    for (int i = 0; i < 1000; ++i)
        data.push_back(static_cast<char>(i * 7 + 3));
    const auto whole = crc32c(data.data(), data.size());
    for (std::size_t split : {0, 1, 7, 8, 9, 500, 999}) {
        auto c = crc32cUpdate(0, data.data(), split);
        c = crc32cUpdate(c, data.data() + split, data.size() - split);
        EXPECT_EQ(c, whole) << split;
    }
}

TEST(Crc32c, ThirtyTwoZeroBytesVector) {
    // RFC 3720 B.4: 32 bytes of zeros -> 0x8A9136AA.
    const char zeros[32] = {};
    EXPECT_EQ(crc32c(zeros, sizeof(zeros)), 0x8A9136AAu);
}

}  // namespace
}  // namespace mongo
