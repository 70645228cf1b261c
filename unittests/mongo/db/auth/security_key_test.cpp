#include "mongo/db/auth/security_key.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

namespace mongo::auth {
namespace {

std::string writeKey(const std::string& content, mode_t mode) {
    char tmpl[] = "/tmp/keyfile_test_XXXXXX";
    int fd = mkstemp(tmpl);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(static_cast<ssize_t>(content.size()), ::write(fd, content.data(), content.size()));
    ::close(fd);
    ::chmod(tmpl, mode);
    return tmpl;
}

TEST(SecurityKeyFile, OwnerOnlyFileWithBase64KeyIsAccepted) {
    auto path = writeKey("abcdef ghij\n", 0600);
    auto key = readSecurityKeyFile(path);
    ASSERT_TRUE(key.isOK()) << key.getStatus().toString();
    EXPECT_EQ("abcdefghij", key.getValue());
    ::unlink(path.c_str());
}

TEST(SecurityKeyFile, GroupReadableFileIsTooOpen) {
    auto path = writeKey("abcdefghij", 0640);
    auto key = readSecurityKeyFile(path);
    EXPECT_EQ(ErrorCodes::InvalidPath, key.getStatus().code());
    EXPECT_NE(std::string::npos, key.getStatus().reason().find("are too open"));
    ::unlink(path.c_str());
}

TEST(SecurityKeyFile, ShortKeyAndBadCharactersAreBadValue) {
    auto shortKey = writeKey("abc", 0400);
    EXPECT_EQ(ErrorCodes::BadValue, readSecurityKeyFile(shortKey).getStatus().code());
    auto bad = writeKey("abcdef!gh", 0400);
    EXPECT_EQ(ErrorCodes::BadValue, readSecurityKeyFile(bad).getStatus().code());
    ::unlink(shortKey.c_str());
    ::unlink(bad.c_str());
}

TEST(SecurityKeyFile, MissingFileIsInvalidPath) {
    EXPECT_EQ(ErrorCodes::InvalidPath, readSecurityKeyFile("/nonexistent/key").getStatus().code());
}

}  // namespace
}  // namespace mongo::auth
