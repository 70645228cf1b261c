#include <gtest/gtest.h>

#include <string>

#include "mongo/db/repl/md5.h"

namespace mongo {
namespace repl {
namespace {

TEST(Md5, MatchesRfc1321TestSuite) {
    EXPECT_EQ(md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
    EXPECT_EQ(md5Hex("a"), "0cc175b9c0f1b6a831c399e269772661");
    EXPECT_EQ(md5Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
    EXPECT_EQ(md5Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
    EXPECT_EQ(md5Hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
    EXPECT_EQ(
        md5Hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
        "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Md5, ChunkedUpdatesEqualOneShot) {
    std::string data;
    for (int i = 0; i < 1000; ++i)
        data.push_back(static_cast<char>(i * 7));
    for (size_t chunk : {1u, 3u, 63u, 64u, 65u, 200u}) {
        Md5 h;
        for (size_t pos = 0; pos < data.size(); pos += chunk)
            h.update(data.data() + pos, std::min(chunk, data.size() - pos));
        EXPECT_EQ(h.finishHex(), md5Hex(data)) << "chunk " << chunk;
    }
}

}  // namespace
}  // namespace repl
}  // namespace mongo
