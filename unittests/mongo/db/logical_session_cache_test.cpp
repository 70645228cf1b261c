#include "mongo/db/logical_session_cache.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

BSONObj lsid(unsigned char n) {
    unsigned char uuid[16] = {0};
    uuid[15] = n;
    BSONObjBuilder b;
    b.appendBinData("id", 16, newUUID, uuid);
    return b.obj();
}

ErrorCodes::Error codeOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const DBException& ex) {
        return ex.code();
    }
    return ErrorCodes::OK;
}

const Date_t kT0 = Date_t::fromMillisSinceEpoch(1'000'000'000);
const std::chrono::milliseconds kTimeout = std::chrono::minutes(30);

TEST(LogicalSessionCache, SessionsIdlePastTheTimeoutAreReaped) {
    LogicalSessionCache cache;
    cache.vivify(lsid(1), kT0, 100);
    cache.vivify(lsid(2), kT0, 100);
    cache.vivify(lsid(2), kT0 + std::chrono::minutes(20), 100);  // used again
    EXPECT_TRUE(cache.reapExpired(kT0 + std::chrono::minutes(30), kTimeout).empty());
    auto reaped = cache.reapExpired(kT0 + std::chrono::minutes(31), kTimeout);
    ASSERT_EQ(1u, reaped.size());
    EXPECT_EQ(0, reaped[0].woCompare(lsid(1)));
    EXPECT_FALSE(cache.contains(lsid(1)));
    EXPECT_TRUE(cache.contains(lsid(2)));
    EXPECT_EQ(1u, cache.reapExpired(kT0 + std::chrono::minutes(51), kTimeout).size());
    EXPECT_EQ(0u, cache.size());
}

TEST(LogicalSessionCache, EndSessionsRemovesOnlyThoseNamed) {
    LogicalSessionCache cache;
    cache.vivify(lsid(1), kT0, 100);
    cache.vivify(lsid(2), kT0, 100);
    EXPECT_EQ(1u, cache.endSessions({lsid(2), lsid(3)}));
    EXPECT_TRUE(cache.contains(lsid(1)));
    EXPECT_FALSE(cache.contains(lsid(2)));
    EXPECT_EQ(1u, cache.endAll().size());
    EXPECT_EQ(0u, cache.size());
}

TEST(LogicalSessionCache, AnLsidWithUidIsTheSameSessionAsItsId) {
    LogicalSessionCache cache;
    cache.vivify(lsid(7), kT0, 100);
    BSONObjBuilder withUid;
    withUid.appendElements(lsid(7));
    unsigned char uid[32] = {1};
    withUid.appendBinData("uid", 32, BinDataGeneral, uid);
    EXPECT_TRUE(cache.contains(withUid.obj()));
}

TEST(LogicalSessionCache, NewSessionsBeyondMaxSessionsFail) {
    LogicalSessionCache cache;
    cache.vivify(lsid(1), kT0, 2);
    cache.vivify(lsid(2), kT0, 2);
    EXPECT_EQ(ErrorCodes::TooManyLogicalSessions, codeOf([&] { cache.vivify(lsid(3), kT0, 2); }));
    cache.vivify(lsid(1), kT0, 2);  // an existing one is only refreshed
    EXPECT_EQ(2u, cache.size());
}

TEST(LogicalSessionCache, SessionIdListsAreChecked) {
    auto parse = [](const BSONObj& cmd) {
        return codeOf([&] { parseSessionIds("endSessions", cmd.firstElement()); });
    };
    EXPECT_EQ(ErrorCodes::TypeMismatch, parse(BSON("endSessions" << 1)));
    EXPECT_EQ(ErrorCodes::TypeMismatch, parse(BSON("endSessions" << BSON_ARRAY(1))));
    EXPECT_EQ(40414, parse(BSON("endSessions" << BSON_ARRAY(BSONObj()))));
    EXPECT_EQ(ErrorCodes::TypeMismatch, parse(BSON("endSessions" << BSON_ARRAY(BSON("id"
                                                                                    << "x")))));
    BSONObjBuilder extra;
    extra.appendElements(lsid(1));
    extra.append("other", 1);
    EXPECT_EQ(40415, parse(BSON("endSessions" << BSON_ARRAY(extra.obj()))));
    BSONObj ok = BSON("endSessions" << BSON_ARRAY(lsid(1) << lsid(2)));
    EXPECT_EQ(2u, parseSessionIds("endSessions", ok.firstElement()).size());
}

}  // namespace
}  // namespace mongo
