#include "mongo/db/auth/scram.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo::auth {
namespace {

ScramServerConversation::CredentialLookup fixed(ScramCredentials c, std::string user) {
    return [c, user](const std::string& u) -> StatusWith<ScramCredentials> {
        if (u != user)
            return Status(ErrorCodes::UserNotFound, "no such user");
        return c;
    };
}

// RFC 5802 section 5: user "user", password "pencil", SCRAM-SHA-1.
TEST(Scram, Rfc5802Sha1ConversationMatchesTheVector) {
    auto salt = base64Decode("QSXCR+Q6sek8bf92");
    ASSERT_TRUE(salt.isOK());
    auto creds =
        generateScramCredentialsWithSalt(HashAlgorithm::kSha1, "pencil", salt.getValue(), 4096);
    ScramServerConversation conv(HashAlgorithm::kSha1, fixed(creds, "user"));
    conv.setServerNonceForTest("3rfcNHYJY1ZVvWVs7j");
    auto first = conv.step("n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL");
    ASSERT_TRUE(first.isOK()) << first.getStatus().toString();
    EXPECT_EQ("r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096",
              first.getValue());
    auto final = conv.step(
        "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=");
    ASSERT_TRUE(final.isOK()) << final.getStatus().toString();
    EXPECT_EQ("v=rmF9pqV8S7suAoZWja4dJRkFsKQ=", final.getValue());
    EXPECT_TRUE(conv.proofVerified());
    EXPECT_FALSE(conv.isDone());
    auto empty = conv.step("");
    ASSERT_TRUE(empty.isOK());
    EXPECT_TRUE(conv.isDone());
    EXPECT_EQ(ErrorCodes::ProtocolError, conv.step("").getStatus().code());
}

// RFC 7677 section 3: user "user", password "pencil", SCRAM-SHA-256.
TEST(Scram, Rfc7677Sha256ConversationMatchesTheVector) {
    auto salt = base64Decode("W22ZaJ0SNY7soEsUEjb6gQ==");
    ASSERT_TRUE(salt.isOK());
    auto creds =
        generateScramCredentialsWithSalt(HashAlgorithm::kSha256, "pencil", salt.getValue(), 4096);
    ScramServerConversation conv(HashAlgorithm::kSha256, fixed(creds, "user"));
    conv.setServerNonceForTest("%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
    auto first = conv.step("n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
    ASSERT_TRUE(first.isOK());
    EXPECT_EQ(
        "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,"
        "i=4096",
        first.getValue());
    auto final = conv.step(
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
        "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
    ASSERT_TRUE(final.isOK()) << final.getStatus().toString();
    EXPECT_EQ("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=", final.getValue());
}

TEST(Scram, WrongProofIsAuthenticationFailed) {
    auto creds = generateScramCredentials(HashAlgorithm::kSha256, "pencil", 4096);
    ScramServerConversation conv(HashAlgorithm::kSha256, fixed(creds, "user"));
    auto first = conv.step("n,,n=user,r=abc");
    ASSERT_TRUE(first.isOK());
    std::string nonce = first.getValue().substr(2, first.getValue().find(',') - 2);
    auto final = conv.step("c=biws,r=" + nonce + ",p=" + base64Encode(std::string(32, 'x')));
    EXPECT_EQ(ErrorCodes::AuthenticationFailed, final.getStatus().code());
    EXPECT_FALSE(conv.proofVerified());
}

TEST(Scram, UnknownUserFailsAtTheFirstStep) {
    auto creds = generateScramCredentials(HashAlgorithm::kSha1, "x", 4096);
    ScramServerConversation conv(HashAlgorithm::kSha1, fixed(creds, "user"));
    EXPECT_EQ(ErrorCodes::UserNotFound, conv.step("n,,n=other,r=abc").getStatus().code());
}

TEST(Scram, MalformedMessagesAreBadValue) {
    auto creds = generateScramCredentials(HashAlgorithm::kSha1, "x", 4096);
    for (std::string msg : {"", "x", "p=tls-unique,,n=user,r=a", "n,,r=abc", "n,,n=user",
                            "n,,n=us=er,r=a", "n,a=admin,n=user,r=a"}) {
        ScramServerConversation conv(HashAlgorithm::kSha1, fixed(creds, "user"));
        EXPECT_EQ(ErrorCodes::BadValue, conv.step(msg).getStatus().code()) << msg;
    }
}

TEST(Scram, NonceMismatchAndChannelBindingAreRefused) {
    auto creds = generateScramCredentials(HashAlgorithm::kSha1, "x", 4096);
    ScramServerConversation conv(HashAlgorithm::kSha1, fixed(creds, "user"));
    ASSERT_TRUE(conv.step("n,,n=user,r=abc").isOK());
    EXPECT_EQ(ErrorCodes::BadValue, conv.step("c=biws,r=abcX,p=AAAA").getStatus().code());
}

TEST(Scram, SaslNameEscapesAreDecoded) {
    auto creds = generateScramCredentials(HashAlgorithm::kSha1, "x", 4096);
    ScramServerConversation conv(HashAlgorithm::kSha1, fixed(creds, "a,b=c"));
    ASSERT_TRUE(conv.step("n,,n=a=2Cb=3Dc,r=abc").isOK());
    EXPECT_EQ("a,b=c", conv.userName());
}

TEST(Scram, MongoPasswordDigestIsHexMd5OfUserMongoPassword) {
    EXPECT_EQ("1c33006ec1ffd90f9cadcbcc0e118200", mongoPasswordDigest("user", "pencil"));
}

TEST(Scram, CredentialsRoundTripThroughBson) {
    auto c = generateScramCredentials(HashAlgorithm::kSha256, "pw", 5000);
    EXPECT_EQ(28u, base64Decode(c.salt).getValue().size());
    auto parsed = ScramCredentials::parse(c.toBSON());
    ASSERT_TRUE(parsed.isOK());
    EXPECT_EQ(c.storedKey, parsed.getValue().storedKey);
    EXPECT_EQ(5000, parsed.getValue().iterationCount);
    EXPECT_EQ(ErrorCodes::TypeMismatch, ScramCredentials::parse(BSON("salt"
                                                                     << "x"))
                                            .getStatus()
                                            .code());
}

TEST(Scram, Base64RejectsMalformedInput) {
    EXPECT_EQ("pencil", base64Decode(base64Encode("pencil")).getValue());
    EXPECT_EQ("", base64Decode("").getValue());
    EXPECT_FALSE(base64Decode("abc").isOK());
    EXPECT_FALSE(base64Decode("ab!d").isOK());
}

}  // namespace
}  // namespace mongo::auth
