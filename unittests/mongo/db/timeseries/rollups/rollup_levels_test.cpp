#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/rollups/rollup_levels.h"
#include "mongo/db/timeseries/rollups/rollup_maintenance.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries::rollups {
namespace {

/** Options `{timeField: "t", metaField: "m", <extra>, rollups: <rollups>}`, bucketing set. */
TimeseriesOptions options(StringData rollups, StringData extra = "") {
    std::string json = R"({"timeField": "t", "metaField": "m", )" + std::string(extra) +
                       R"("rollups": )" + std::string(rollups) + "}";
    auto o = TimeseriesOptions::parse(fromjson(json));
    EXPECT_TRUE(validateAndSetBucketingParameters(o).isOK());
    return o;
}

/** The validation's code, 0 for OK. */
int check(StringData rollups, std::optional<long long> rawRetention = std::nullopt,
          StringData extra = "") {
    return static_cast<int>(validateRollups(options(rollups, extra), rawRetention).code());
}

TEST(RollupLevels, AcceptsCoarserIncreasingMultiples) {
    EXPECT_EQ(0, check(R"([{"granularity": "minutes", "fields": {"v": ["min", "max"]}},
                           {"bucketSpanSeconds": 3600, "fields": {"v": ["sum", "count"]}},
                           {"granularity": "days", "fields": {"v": ["first", "last"]}}])"));
    EXPECT_EQ(0, check(R"([{"bucketSpanSeconds": 172800, "fields": {"v": ["sum"]}}])"));
    EXPECT_EQ(0, check("[]"));
}

TEST(RollupLevels, SpanRules) {
    // Not coarser than the raw data's unit.
    EXPECT_EQ(72, check(R"([{"granularity": "seconds", "fields": {"v": ["min"]}}])"));
    EXPECT_EQ(72, check(R"([{"granularity": "minutes", "fields": {"v": ["min"]}}])", std::nullopt,
                        R"("granularity": "minutes", )"));
    EXPECT_EQ(0, check(R"([{"bucketSpanSeconds": 120, "fields": {"v": ["min"]}}])", std::nullopt,
                       R"("granularity": "minutes", )"));
    // Custom bucketing counts as seconds.
    EXPECT_EQ(0, check(R"([{"bucketSpanSeconds": 2, "fields": {"v": ["min"]}}])", std::nullopt,
                       R"("bucketMaxSpanSeconds": 100, "bucketRoundingSeconds": 100, )"));
    // Exactly one of granularity / bucketSpanSeconds.
    EXPECT_EQ(72, check(R"([{"fields": {"v": ["min"]}}])"));
    EXPECT_EQ(72, check(R"([{"granularity": "hours", "bucketSpanSeconds": 3600,
                             "fields": {"v": ["min"]}}])"));
    // Increasing, multiples, dividing a day or multiples of one.
    EXPECT_EQ(72, check(R"([{"granularity": "hours", "fields": {"v": ["min"]}},
                            {"granularity": "hours", "fields": {"v": ["max"]}}])"));
    EXPECT_EQ(72, check(R"([{"bucketSpanSeconds": 60, "fields": {"v": ["min"]}},
                            {"bucketSpanSeconds": 90, "fields": {"v": ["min"]}}])"));
    EXPECT_EQ(72, check(R"([{"bucketSpanSeconds": 7, "fields": {"v": ["min"]}}])"));
    EXPECT_EQ(72, check(R"([{"bucketSpanSeconds": 129600, "fields": {"v": ["min"]}}])"));
}

TEST(RollupLevels, RetentionRules) {
    const char* limited = R"([{"granularity": "minutes", "expireAfterSeconds": 100,
                               "fields": {"v": ["min"]}}])";
    // The raw data kept forever, or longer than the level: refused.
    EXPECT_EQ(72, check(limited));
    EXPECT_EQ(72, check(limited, 1000));
    EXPECT_EQ(0, check(limited, 100));
    EXPECT_EQ(0, check(limited, 10));
    // A finer level kept forever or longer.
    EXPECT_EQ(72, check(R"([{"granularity": "minutes", "fields": {"v": ["min"]}},
                            {"granularity": "hours", "expireAfterSeconds": 10,
                             "fields": {"v": ["min"]}}])",
                        10));
    EXPECT_EQ(72, check(R"([{"granularity": "minutes", "expireAfterSeconds": 50,
                             "fields": {"v": ["min"]}},
                            {"granularity": "hours", "expireAfterSeconds": 40,
                             "fields": {"v": ["min"]}}])",
                        10));
    // Forever after a limit is fine.
    EXPECT_EQ(0, check(R"([{"granularity": "minutes", "expireAfterSeconds": 50,
                            "fields": {"v": ["min"]}},
                           {"granularity": "hours", "fields": {"v": ["min"]}}])",
                       10));
}

TEST(RollupLevels, FieldRules) {
    for (const char* fields :
         {R"({})", R"({"v": []})", R"({"v": "min"})", R"({"v": ["avg"]})", R"({"v": [1]})",
          R"({"v": ["min", "min"]})", R"({"t": ["min"]})", R"({"m": ["min"]})",
          R"({"_id": ["min"]})", R"({"a.b": ["min"]})", R"({"$a": ["min"]})"}) {
        std::string rollups =
            R"([{"granularity": "minutes", "fields": )" + std::string(fields) + "}]";
        EXPECT_EQ(72, check(rollups)) << fields;
    }
}

TEST(RollupLevels, ParsedLevelsAndNames) {
    auto o = options(R"([{"granularity": "minutes", "fields": {"v": ["min", "last"], "w": ["sum"]}},
                         {"bucketSpanSeconds": 3600, "expireAfterSeconds": 5,
                          "fields": {"v": ["count"]}}])",
                     "");
    auto levels = getRollupLevels(NamespaceString("db", "weather"), o);
    ASSERT_EQ(2u, levels.size());
    EXPECT_EQ(60, levels[0].spanSeconds);
    EXPECT_EQ("db.system.rollups.weather.60", levels[0].nss.ns());
    EXPECT_FALSE(levels[0].expireAfterSeconds);
    EXPECT_EQ(unsigned(kMin | kLast), levels[0].accumulatorsOf("v"));
    EXPECT_EQ(unsigned(kSum), levels[0].accumulatorsOf("w"));
    EXPECT_EQ(0u, levels[0].accumulatorsOf("x"));
    EXPECT_EQ(3600, levels[1].spanSeconds);
    EXPECT_EQ(5, *levels[1].expireAfterSeconds);

    EXPECT_EQ("db.system.rollups.weather.pending",
              makePendingNss(NamespaceString("db", "weather")).ns());
    EXPECT_EQ("db.a.b", viewNssOfRollupNss(NamespaceString("db", "system.rollups.a.b.60"))->ns());
    EXPECT_EQ("db.a", viewNssOfRollupNss(NamespaceString("db", "system.rollups.a.pending"))->ns());
    EXPECT_FALSE(viewNssOfRollupNss(NamespaceString("db", "system.rollups.a.x")));
    EXPECT_FALSE(viewNssOfRollupNss(NamespaceString("db", "system.rollups.60")));
    EXPECT_FALSE(viewNssOfRollupNss(NamespaceString("db", "system.buckets.a")));
}

TEST(RollupLevels, LevelsToRebuild) {
    auto before = options(R"([{"granularity": "minutes", "fields": {"v": ["min"]}},
                              {"granularity": "hours", "fields": {"v": ["sum"]}}])");
    // Same levels, only a retention changes: nothing to rebuild.
    auto ttlOnly = options(R"([{"granularity": "minutes", "expireAfterSeconds": 9,
                                "fields": {"v": ["min"]}},
                               {"bucketSpanSeconds": 3600, "fields": {"v": ["sum"]}}])");
    EXPECT_TRUE(levelsToRebuild(before, ttlOnly).empty());
    // Changed fields, a new level and a removed one.
    auto after = options(R"([{"granularity": "minutes", "fields": {"v": ["min", "max"]}},
                             {"granularity": "days", "fields": {"v": ["sum"]}}])");
    EXPECT_EQ((std::vector<long long>{60, 86400, 3600}), levelsToRebuild(before, after));
}

TEST(RollupLevels, BinStartsAlignToTheYear2000) {
    const long long y2000 = 946684800000LL;
    EXPECT_EQ(y2000, binStartMillis(y2000, 3600));
    EXPECT_EQ(y2000, binStartMillis(y2000 + 3599999, 3600));
    EXPECT_EQ(y2000 + 3600000, binStartMillis(y2000 + 3600000, 3600));
    // Before the reference and before the epoch.
    EXPECT_EQ(y2000 - 3600000, binStartMillis(y2000 - 1, 3600));
    // A week does not divide the distance from the epoch to 2000: bins still align to 2000.
    const long long week = 7 * 86400000LL;
    for (long long t : {-1LL, 0LL, 123456789LL}) {
        const long long start = binStartMillis(t, 7 * 86400);
        EXPECT_LE(start, t);
        EXPECT_GT(start + week, t);
        EXPECT_EQ(0, (start - y2000) % week) << t;
    }
    // The smallest date does not overflow.
    EXPECT_EQ(std::numeric_limits<long long>::min(),
              binStartMillis(std::numeric_limits<long long>::min(), 3600));
}

}  // namespace
}  // namespace mongo::timeseries::rollups
