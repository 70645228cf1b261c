#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries {
namespace {

TimeseriesOptions parse(StringData json) {
    return TimeseriesOptions::parse(fromjson(json));
}

std::string normalized(StringData json) {
    auto opts = parse(json);
    Status s = validateAndSetBucketingParameters(opts);
    if (!s.isOK())
        return "error " + std::to_string(static_cast<int>(s.code()));
    return opts.toBSON().toString();
}

TEST(TimeseriesOptions, GranularityPresets) {
    EXPECT_EQ(getMaxSpanSecondsFromGranularity(BucketGranularity::kSeconds), 3600);
    EXPECT_EQ(getMaxSpanSecondsFromGranularity(BucketGranularity::kMinutes), 86400);
    EXPECT_EQ(getMaxSpanSecondsFromGranularity(BucketGranularity::kHours), 2592000);
    EXPECT_EQ(getBucketRoundingSecondsFromGranularity(BucketGranularity::kSeconds), 60);
    EXPECT_EQ(getBucketRoundingSecondsFromGranularity(BucketGranularity::kMinutes), 3600);
    EXPECT_EQ(getBucketRoundingSecondsFromGranularity(BucketGranularity::kHours), 86400);
}

TEST(TimeseriesOptions, DefaultsAreSecondsAndOneHour) {
    EXPECT_EQ(normalized(R"({"timeField": "t"})"),
              R"({ timeField: "t", granularity: "seconds", bucketMaxSpanSeconds: 3600 })");
}

TEST(TimeseriesOptions, GranularityFillsSpanButNotRounding) {
    EXPECT_EQ(
        normalized(R"({"timeField": "t", "metaField": "m", "granularity": "minutes"})"),
        R"({ timeField: "t", metaField: "m", granularity: "minutes", bucketMaxSpanSeconds: 86400 })");
    EXPECT_EQ(normalized(
                  R"({"timeField": "t", "granularity": "hours", "bucketMaxSpanSeconds": 2592000})"),
              R"({ timeField: "t", granularity: "hours", bucketMaxSpanSeconds: 2592000 })");
}

TEST(TimeseriesOptions, FixedBucketingKeepsBothValues) {
    EXPECT_EQ(
        normalized(
            R"({"timeField": "t", "bucketMaxSpanSeconds": 100, "bucketRoundingSeconds": 100})"),
        R"({ timeField: "t", bucketRoundingSeconds: 100, bucketMaxSpanSeconds: 100 })");
}

TEST(TimeseriesOptions, BucketingParameterErrorsAreInvalidOptions) {
    const std::string invalid = "error 72";
    EXPECT_EQ(
        normalized(R"({"timeField": "t", "granularity": "seconds", "bucketMaxSpanSeconds": 100})"),
        invalid);
    EXPECT_EQ(
        normalized(R"({"timeField": "t", "granularity": "seconds", "bucketRoundingSeconds": 60})"),
        invalid);
    EXPECT_EQ(normalized(R"({"timeField": "t", "bucketMaxSpanSeconds": 100})"), invalid);
    EXPECT_EQ(normalized(R"({"timeField": "t", "bucketRoundingSeconds": 100})"), invalid);
    EXPECT_EQ(
        normalized(
            R"({"timeField": "t", "bucketMaxSpanSeconds": 100, "bucketRoundingSeconds": 50})"),
        invalid);
}

TEST(TimeseriesOptions, IdlRejectsOutOfRangeSpanWithBadValue) {
    auto sw = TimeseriesOptions::parseNoThrow(
        fromjson(R"({"timeField": "t", "bucketMaxSpanSeconds": 31536001})"));
    ASSERT_FALSE(sw.isOK());
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::BadValue);
    sw = TimeseriesOptions::parseNoThrow(
        fromjson(R"({"timeField": "t", "bucketRoundingSeconds": 0})"));
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::BadValue);
    sw = TimeseriesOptions::parseNoThrow(fromjson(R"({"timeField": "t", "foo": 1})"));
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::IDLUnknownField);
    sw = TimeseriesOptions::parseNoThrow(fromjson(R"({"metaField": "m"})"));
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::IDLFailedToParse);
}

TEST(TimeseriesOptions, TimeAndMetaFieldRules) {
    auto code = [](StringData json) {
        return static_cast<int>(validateTimeAndMetaFields("db.c", parse(json)).code());
    };
    EXPECT_EQ(code(R"({"timeField": "t", "metaField": "m"})"), 0);
    EXPECT_EQ(code(R"({"timeField": "a.b"})"), ErrorCodes::InvalidOptions);
    EXPECT_EQ(code(R"({"timeField": "t", "metaField": "_id"})"), ErrorCodes::InvalidOptions);
    EXPECT_EQ(code(R"({"timeField": "t", "metaField": "t"})"), ErrorCodes::InvalidOptions);
    EXPECT_EQ(code(R"({"timeField": "t", "metaField": "m.x"})"), ErrorCodes::InvalidOptions);
    TimeseriesOptions withNul;
    withNul.setTimeField(std::string("a\0b", 3));
    EXPECT_EQ(validateTimeAndMetaFields("db.c", withNul).code(), ErrorCodes::BadValue);
}

TEST(TimeseriesOptions, CreateCommandWhitelist) {
    auto code = [](StringData json, bool buckets = false) {
        return static_cast<int>(
            validateCreateCommandFields("db.c", fromjson(json), buckets).code());
    };
    EXPECT_EQ(code(R"({"create": "c", "timeseries": {"timeField": "t"}, "expireAfterSeconds": 10,
                       "collation": {"locale": "en"}, "writeConcern": {"w": 1}, "$db": "db",
                       "capped": false})"),
              0);
    EXPECT_EQ(code(R"({"create": "c", "timeseries": {"timeField": "t"}, "capped": true})"),
              ErrorCodes::InvalidOptions);
    EXPECT_EQ(code(R"({"create": "c", "timeseries": {"timeField": "t"}, "validator": {}})"),
              ErrorCodes::InvalidOptions);
    EXPECT_EQ(code(R"({"create": "c", "timeseries": {"timeField": "t"}, "validator": {}})", true),
              0);
    EXPECT_EQ(
        code(R"({"create": "c", "timeseries": {"timeField": "t"}, "clusteredIndex": true})", true),
        0);
    EXPECT_EQ(code(R"({"create": "c", "timeseries": {"timeField": "t"}, "viewOn": "x"})", true),
              ErrorCodes::InvalidOptions);
    auto s = validateCreateCommandFields("db.c", fromjson(R"({"create": "c", "size": 1})"), false);
    EXPECT_EQ(s.reason(), "db.c: 'timeseries' is not allowed with 'size'");
}

TEST(TimeseriesOptions, ExpireAfterSecondsRules) {
    EXPECT_TRUE(validateExpireAfterSeconds(BSON("e" << 10).firstElement()).isOK());
    EXPECT_EQ(validateExpireAfterSeconds(BSON("e" << -1).firstElement()).code(),
              ErrorCodes::InvalidOptions);
    EXPECT_EQ(validateExpireAfterSeconds(BSON("e"
                                              << "x")
                                             .firstElement())
                  .code(),
              ErrorCodes::TypeMismatch);
    EXPECT_EQ(validateExpireAfterSeconds(BSON("e" << 1e12).firstElement()).code(),
              ErrorCodes::InvalidOptions);
}

TEST(TimeseriesOptions, GranularityTransitions) {
    using G = BucketGranularity;
    EXPECT_TRUE(isValidTimeseriesGranularityTransition(G::kSeconds, G::kMinutes));
    EXPECT_TRUE(isValidTimeseriesGranularityTransition(G::kSeconds, G::kHours));
    EXPECT_TRUE(isValidTimeseriesGranularityTransition(G::kMinutes, G::kHours));
    EXPECT_TRUE(isValidTimeseriesGranularityTransition(G::kHours, G::kHours));
    EXPECT_FALSE(isValidTimeseriesGranularityTransition(G::kMinutes, G::kSeconds));
    EXPECT_FALSE(isValidTimeseriesGranularityTransition(G::kHours, G::kMinutes));
}

std::string collMod(StringData current, StringData mod) {
    auto cur = parse(current);
    invariant(validateAndSetBucketingParameters(cur).isOK());
    auto sw = applyTimeseriesOptionsModifications(cur, CollModTimeseries::parse(fromjson(mod)));
    if (!sw.isOK())
        return "error " + std::to_string(static_cast<int>(sw.getStatus().code()));
    return (sw.getValue().changed ? "changed " : "same ") +
           sw.getValue().options.toBSON().toString();
}

TEST(TimeseriesOptionsCollMod, GranularityBecomesCoarser) {
    EXPECT_EQ(collMod(R"({"timeField": "t"})", R"({"granularity": "minutes"})"),
              R"(changed { timeField: "t", granularity: "minutes", bucketMaxSpanSeconds: 86400 })");
    EXPECT_EQ(
        collMod(R"({"timeField": "t", "granularity": "minutes"})", R"({"granularity": "minutes"})"),
        R"(same { timeField: "t", granularity: "minutes", bucketMaxSpanSeconds: 86400 })");
    EXPECT_EQ(
        collMod(R"({"timeField": "t", "granularity": "hours"})", R"({"granularity": "seconds"})"),
        "error 72");
    EXPECT_EQ(collMod(R"({"timeField": "t"})",
                      R"({"granularity": "minutes", "bucketMaxSpanSeconds": 100})"),
              "error 72");
    EXPECT_EQ(collMod(R"({"timeField": "t"})",
                      R"({"granularity": "minutes", "bucketRoundingSeconds": 3600})"),
              "error 72");
    EXPECT_EQ(collMod(R"({"timeField": "t"})",
                      R"({"granularity": "minutes", "bucketMaxSpanSeconds": 86400})"),
              R"(changed { timeField: "t", granularity: "minutes", bucketMaxSpanSeconds: 86400 })");
}

TEST(TimeseriesOptionsCollMod, FixedParametersToGranularityMustNotShrink) {
    const char* fixed =
        R"({"timeField": "t", "bucketMaxSpanSeconds": 7200, "bucketRoundingSeconds": 7200})";
    EXPECT_EQ(collMod(fixed, R"({"granularity": "seconds"})"), "error 72");
    EXPECT_EQ(collMod(fixed, R"({"granularity": "minutes"})"), "error 72");  // rounding 3600 < 7200
    EXPECT_EQ(collMod(fixed, R"({"granularity": "hours"})"),
              R"(changed { timeField: "t", granularity: "hours", bucketMaxSpanSeconds: 2592000 })");
}

TEST(TimeseriesOptionsCollMod, SpanAndRoundingRules) {
    EXPECT_EQ(collMod(R"({"timeField": "t"})", R"({"bucketMaxSpanSeconds": 7200})"), "error 72");
    EXPECT_EQ(collMod(R"({"timeField": "t"})",
                      R"({"bucketMaxSpanSeconds": 7200, "bucketRoundingSeconds": 3600})"),
              "error 72");
    EXPECT_EQ(collMod(R"({"timeField": "t"})",
                      R"({"bucketMaxSpanSeconds": 1800, "bucketRoundingSeconds": 1800})"),
              "error 72");
    EXPECT_EQ(
        collMod(R"({"timeField": "t"})",
                R"({"bucketMaxSpanSeconds": 7200, "bucketRoundingSeconds": 7200})"),
        R"(changed { timeField: "t", bucketRoundingSeconds: 7200, bucketMaxSpanSeconds: 7200 })");
    const char* fixed =
        R"({"timeField": "t", "bucketMaxSpanSeconds": 7200, "bucketRoundingSeconds": 7200})";
    EXPECT_EQ(
        collMod(fixed, R"({"bucketMaxSpanSeconds": 7200, "bucketRoundingSeconds": 7200})"),
        R"(same { timeField: "t", bucketRoundingSeconds: 7200, bucketMaxSpanSeconds: 7200 })");
    EXPECT_EQ(
        collMod(fixed, R"({})"),
        R"(same { timeField: "t", bucketRoundingSeconds: 7200, bucketMaxSpanSeconds: 7200 })");
}

TEST(TimeseriesOptions, RoundingFloorsIncludingNegativeTimes) {
    auto r = [](long long ms, long long s) {
        return roundTimestampBySeconds(Date_t::fromMillisSinceEpoch(ms), s).toMillisSinceEpoch();
    };
    EXPECT_EQ(r(1700000000123, 60), 1699999980000);
    EXPECT_EQ(r(60000, 60), 60000);
    EXPECT_EQ(r(-1, 60), -60000);
    EXPECT_EQ(r(-60000, 60), -60000);
    EXPECT_EQ(r(LLONG_MIN + 5, 60), LLONG_MIN);
}

TEST(TimeseriesOptions, ViewPipeline) {
    auto stage = generateViewPipelineStage(
        parse(R"({"timeField": "t", "metaField": "m", "granularity": "hours"})"));
    EXPECT_EQ(
        stage.toString(),
        R"({ $_internalUnpackBucket: { timeField: "t", metaField: "m", bucketMaxSpanSeconds: 2592000 } })");
    EXPECT_EQ(stage.firstElement().Obj()["bucketMaxSpanSeconds"].type(), BSONType::kNumberInt);
    auto noMeta = generateViewPipeline(parse(R"({"timeField": "t"})"));
    ASSERT_EQ(noMeta.size(), 1u);
    EXPECT_EQ(noMeta[0].toString(),
              R"({ $_internalUnpackBucket: { timeField: "t", bucketMaxSpanSeconds: 3600 } })");
}

TEST(TimeseriesOptions, ValidatorShapes) {
    auto v2 = generateTimeseriesValidator(2, "t");
    auto control = v2.getFieldDotted("$jsonSchema.properties.control");
    EXPECT_FALSE(control.Obj()["additionalProperties"].trueValue());
    EXPECT_TRUE(control.Obj()["additionalProperties"].isBoolean());
    EXPECT_FALSE(control.Obj().getFieldDotted("properties.count").eoo());
    EXPECT_EQ(control.Obj().getFieldDotted("properties.min.properties.t.bsonType").str(), "date");
    auto v1 = generateTimeseriesValidator(1, "t");
    EXPECT_TRUE(v1.getFieldDotted("$jsonSchema.properties.control.properties.count").eoo());
    EXPECT_TRUE(v1.getFieldDotted("$jsonSchema.properties.control.additionalProperties").eoo());
}

TEST(TimeseriesOptions, BucketsOptionsAndViewFilter) {
    auto opts = parse(R"({"timeField": "t", "metaField": "m"})");
    ASSERT_TRUE(validateAndSetBucketingParameters(opts).isOK());
    auto buckets = makeBucketsCollectionOptions(opts, 30LL, BSONObj());
    EXPECT_TRUE(buckets["clusteredIndex"].trueValue());
    EXPECT_EQ(buckets["expireAfterSeconds"].type(), BSONType::kNumberLong);
    auto view = filterBucketsOptionsForView(buckets);
    EXPECT_EQ(
        view.toString(),
        R"({ timeseries: { timeField: "t", metaField: "m", granularity: "seconds", bucketMaxSpanSeconds: 3600 }, expireAfterSeconds: 30 })");
}

TEST(TimeseriesOptions, DefaultIndexOnlyWithMeta) {
    auto spec =
        generateDefaultIndexSpec(parse(R"({"timeField": "t", "metaField": "m"})"), BSONObj());
    ASSERT_TRUE(spec);
    EXPECT_EQ(spec->toString(),
              R"({ v: 2, key: { meta: 1, control.min.t: 1, control.max.t: 1 }, name: "m_1_t_1" })");
    EXPECT_FALSE(generateDefaultIndexSpec(parse(R"({"timeField": "t"})"), BSONObj()));
}

TEST(TimeseriesOptions, EqualityAfterNormalisation) {
    EXPECT_TRUE(optionsAreEqual(parse(R"({"timeField": "t"})"),
                                parse(R"({"timeField": "t", "granularity": "seconds"})")));
    EXPECT_FALSE(optionsAreEqual(parse(R"({"timeField": "t"})"),
                                 parse(R"({"timeField": "t", "granularity": "minutes"})")));
}

}  // namespace
}  // namespace mongo::timeseries
