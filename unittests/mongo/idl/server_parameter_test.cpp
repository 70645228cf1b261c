// Tests of the server parameter registry with the test-only parameters of idl/unittest.idl.
#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/idl/server_parameter.h"
#include "mongo/idl/unittest_gen.h"

namespace mongo {
namespace {

using idl::test::gTestIntParameter;
using idl::test::gTestOneOfParameter;
using idl::test::gTestStartupOnlyParameter;
using idl::test::gTestStringParameter;

ServerParameterSet* params() {
    idl::test::registerServerParameters_unittest();
    return ServerParameterSet::get();
}

TEST(ServerParameter, DefaultsAreVisible) {
    ASSERT_NE(params()->getIfExists("testIntParameter"), nullptr);
    BSONObjBuilder b;
    ASSERT_TRUE(params()->append(&b, "testStringParameter").isOK());
    BSONObj o = b.obj();
    EXPECT_EQ(o.getField("testStringParameter").str(), gTestStringParameter.load());
}

TEST(ServerParameter, SetFromStringAtStartup) {
    ASSERT_TRUE(params()->setFromString("testIntParameter", "42").isOK());
    EXPECT_EQ(gTestIntParameter.load(), 42);
    ASSERT_TRUE(params()->setFromString("testStartupOnlyParameter", "true").isOK());
    EXPECT_TRUE(gTestStartupOnlyParameter.load());
    EXPECT_EQ(params()->setFromString("testIntParameter", "abc").code(), ErrorCodes::BadValue);
    EXPECT_EQ(params()->setFromString("noSuchParameter", "1").code(), ErrorCodes::BadValue);
    EXPECT_EQ(params()->setFromString("testStringParameter", "x").code(), ErrorCodes::BadValue);
}

TEST(ServerParameter, SetAtRuntime) {
    BSONObj v = BSON("v" << 77 << "d" << 78.0 << "bad" << 1.5 << "s"
                         << "str");
    ASSERT_TRUE(params()->set("testIntParameter", v["v"]).isOK());
    EXPECT_EQ(gTestIntParameter.load(), 77);
    ASSERT_TRUE(params()->set("testIntParameter", v["d"]).isOK());
    EXPECT_EQ(gTestIntParameter.load(), 78);
    EXPECT_EQ(params()->set("testIntParameter", v["bad"]).code(), ErrorCodes::BadValue);
    EXPECT_EQ(params()->set("testIntParameter", v["s"]).code(), ErrorCodes::TypeMismatch);
    ASSERT_TRUE(params()->set("testStringParameter", v["s"]).isOK());
    EXPECT_EQ(gTestStringParameter.load(), "str");
}

TEST(ServerParameter, RuntimeErrorsUseUpstreamCodes) {
    BSONObj v = BSON("v" << 1);
    Status unknown = params()->set("noSuchParameter", v["v"]);
    EXPECT_EQ(unknown.code(), ErrorCodes::InvalidOptions);
    EXPECT_EQ(unknown.reason(),
              "attempted to set unrecognized parameter [noSuchParameter], use help:true to see "
              "options ");
    EXPECT_EQ(params()->set("testStartupOnlyParameter", v["v"]).code(),
              ErrorCodes::IllegalOperation);
    BSONObjBuilder b;
    EXPECT_EQ(params()->append(&b, "noSuchParameter").code(), ErrorCodes::NoSuchKey);
}

TEST(ServerParameter, ValidatorsRejectOutOfRangeValues) {
    gTestIntParameter.store(10);
    BSONObj v = BSON("lo" << 0 << "hi" << 5001);
    Status s = params()->set("testIntParameter", v["lo"]);
    EXPECT_EQ(s.code(), ErrorCodes::BadValue);
    EXPECT_EQ(s.reason(),
              "Invalid value for parameter testIntParameter: 0 is not greater than or equal to 1");
    EXPECT_EQ(params()->set("testIntParameter", v["hi"]).code(), ErrorCodes::BadValue);
    EXPECT_EQ(params()->setFromString("testIntParameter", "0").code(), ErrorCodes::BadValue);
    EXPECT_EQ(gTestIntParameter.load(), 10);
}

TEST(ServerParameter, OneOfAcceptsOnlyItsValues) {
    EXPECT_EQ(gTestOneOfParameter.load(), "inDebug");
    BSONObj v = BSON("ok"
                     << "always"
                     << "bad"
                     << "sometimes"
                     << "num" << 1);
    ASSERT_TRUE(params()->set("testOneOfParameter", v["ok"]).isOK());
    EXPECT_EQ(gTestOneOfParameter.load(), "always");
    Status s = params()->set("testOneOfParameter", v["bad"]);
    EXPECT_EQ(s.code(), ErrorCodes::BadValue);
    EXPECT_EQ(params()->set("testOneOfParameter", v["num"]).code(), ErrorCodes::TypeMismatch);
    EXPECT_EQ(params()->setFromString("testOneOfParameter", "Never").code(), ErrorCodes::BadValue);
    ASSERT_TRUE(params()->setFromString("testOneOfParameter", "never").isOK());
    EXPECT_EQ(gTestOneOfParameter.load(), "never");
}

TEST(ServerParameter, AppendAllListsEveryParameterInOrder) {
    BSONObjBuilder b;
    params()->appendAll(&b);
    BSONObj o = b.obj();
    EXPECT_TRUE(o.hasField("testIntParameter"));
    EXPECT_TRUE(o.hasField("testStartupOnlyParameter"));
    EXPECT_EQ(static_cast<std::size_t>(o.nFields()), params()->getMap().size());
}

}  // namespace
}  // namespace mongo
