// Smoke tests of the server's real IDL files: timeseries options, a few commands and
// the server parameters.
#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/idl/ddl_commands_gen.h"
#include "mongo/idl/find_command_gen.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/idl/timeseries_gen.h"
#include "mongo/idl/write_ops_gen.h"

namespace mongo {
namespace {

ErrorCodes::Error tsCode(const BSONObj& o) {
    auto sw = TimeseriesOptions::parseNoThrow(o, "timeseries");
    return sw.isOK() ? ErrorCodes::OK : sw.getStatus().code();
}

TEST(TimeseriesIDL, OptionsFollowSpecErrors) {
    auto o = TimeseriesOptions::parse(BSON("timeField"
                                           << "t"
                                           << "metaField"
                                           << "m"
                                           << "granularity"
                                           << "minutes"));
    EXPECT_EQ(o.getTimeField(), "t");
    EXPECT_EQ(*o.getGranularity(), BucketGranularity::kMinutes);
    EXPECT_EQ(tsCode(BSON("metaField"
                          << "m")),
              ErrorCodes::IDLFailedToParse);
    EXPECT_EQ(tsCode(BSON("timeField"
                          << "t"
                          << "x" << 1)),
              ErrorCodes::IDLUnknownField);
    EXPECT_EQ(tsCode(BSON("timeField" << 1)), ErrorCodes::TypeMismatch);
    EXPECT_EQ(tsCode(BSON("timeField"
                          << "t"
                          << "granularity"
                          << "days")),
              ErrorCodes::BadValue);
    EXPECT_EQ(tsCode(BSON("timeField"
                          << "t"
                          << "bucketMaxSpanSeconds" << 0)),
              ErrorCodes::BadValue);
    EXPECT_EQ(tsCode(BSON("timeField"
                          << "t"
                          << "bucketMaxSpanSeconds" << 31536001)),
              ErrorCodes::BadValue);
    EXPECT_EQ(tsCode(BSON("timeField"
                          << "t"
                          << "bucketRoundingSeconds" << 31536000)),
              ErrorCodes::OK);
}

TEST(CommandIDL, CreateWithTimeseriesNestsErrorPath) {
    auto sw = CreateCommand::parseNoThrow(BSON("create"
                                               << "ts"
                                               << "timeseries"
                                               << BSON("metaField"
                                                       << "m")
                                               << "$db"
                                               << "test"));
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::IDLFailedToParse);
    EXPECT_EQ(sw.getStatus().reason(),
              "BSON field 'create.timeseries.timeField' is missing but a required field");
    auto cmd = CreateCommand::parse(BSON("create"
                                         << "ts"
                                         << "timeseries"
                                         << BSON("timeField"
                                                 << "t")
                                         << "expireAfterSeconds" << 60 << "$db"
                                         << "test"));
    EXPECT_EQ(cmd.getTimeseries()->getTimeField(), "t");
    EXPECT_EQ(*cmd.getExpireAfterSeconds(), 60);
}

TEST(CommandIDL, FindDefaultsAndGenericArguments) {
    auto cmd =
        FindCommandRequest::parse(BSON("find"
                                       << "c"
                                       << "filter" << BSON("a" << 1) << "limit" << 1 << "comment"
                                       << "x"
                                       << "readConcern"
                                       << BSON("level"
                                               << "local")
                                       << "$db"
                                       << "test"));
    EXPECT_EQ(cmd.getNamespace(), "test.c");
    EXPECT_EQ(*cmd.getLimit(), 1);
    EXPECT_TRUE(cmd.getSort().isEmpty());
    EXPECT_FALSE(cmd.getSingleBatch());
    EXPECT_EQ(cmd.getComment()->getElement().str(), "x");
    EXPECT_EQ(cmd.getReadConcern()->getField("level").str(), "local");
    auto sw = FindCommandRequest::parseNoThrow(BSON("find"
                                                    << "c"
                                                    << "limit"
                                                    << "1"
                                                    << "$db"
                                                    << "test"));
    EXPECT_EQ(sw.getStatus().reason(),
              "BSON field 'find.limit' is the wrong type 'string', expected types "
              "'[long, int, decimal, double]'");
}

TEST(CommandIDL, UpdateStatementsReportUpstreamPaths) {
    auto cmd = UpdateCommandRequest::parse(BSON(
        "update"
        << "c"
        << "updates"
        << BSON_ARRAY(BSON("q" << BSONObj() << "u" << BSON("$set" << BSON("a" << 1)))
                      << BSON("q" << BSONObj() << "u" << BSON_ARRAY(BSON("$set" << BSON("b" << 1)))
                                  << "multi" << true))
        << "$db"
        << "test"));
    ASSERT_EQ(cmd.getUpdates().size(), 2u);
    EXPECT_TRUE(std::holds_alternative<BSONObj>(cmd.getUpdates()[0].getU()));
    EXPECT_TRUE(cmd.getUpdates()[1].getMulti());
    EXPECT_TRUE(cmd.getOrdered());
    auto sw = UpdateCommandRequest::parseNoThrow(
        BSON("update"
             << "c"
             << "updates" << BSON_ARRAY(BSON("q" << OID() << "u" << BSONObj())) << "$db"
             << "test"));
    EXPECT_EQ(sw.getStatus().reason(),
              "BSON field 'update.updates.q' is the wrong type 'objectId', expected type 'object'");
}

TEST(ServerParametersIDL, DefaultsMatchSpec) {
    registerServerParameters_server_parameters();
    EXPECT_EQ(gTimeseriesBucketMaxCount.load(), 1000);
    EXPECT_EQ(gTimeseriesBucketMaxSize.load(), 128000);
    EXPECT_EQ(gTimeseriesBucketMinCount.load(), 10);
    EXPECT_EQ(gTTLMonitorSleepSecs.load(), 60);
    EXPECT_TRUE(gTTLMonitorEnabled.load());
    EXPECT_EQ(gInternalQueryMaxBlockingSortMemoryUsageBytes.load(), 100LL * 1024 * 1024);
    EXPECT_EQ(gCursorTimeoutMillis.load(), 600000);
    EXPECT_NE(ServerParameterSet::get()->getIfExists("notablescan"), nullptr);
    BSONObj v = BSON("v" << 5);
    EXPECT_EQ(ServerParameterSet::get()->set("timeseriesBucketMaxCount", v["v"]).code(),
              ErrorCodes::IllegalOperation);
}

}  // namespace
}  // namespace mongo
