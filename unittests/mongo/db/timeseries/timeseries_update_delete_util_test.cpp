#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/db/timeseries/timeseries_update_delete_util.h"

namespace mongo::timeseries {
namespace {

TimeseriesOptions opts(bool withMeta = true) {
    auto o = TimeseriesOptions::parse(withMeta ? fromjson(R"({"timeField": "t", "metaField": "m"})")
                                               : fromjson(R"({"timeField": "t"})"));
    invariant(validateAndSetBucketingParameters(o).isOK());
    return o;
}

bool bucketMatches(const BSONObj& filter, const BSONObj& bucket) {
    auto m = parseMatchExpression(filter);
    invariant(m.isOK());
    return m.getValue()->matchesBSON(bucket);
}

TEST(TimeseriesQuerySplit, EmptyQueryHasNoResidualAndSkipsClosedBuckets) {
    auto split = splitTimeseriesQuery(opts(), BSONObj());
    EXPECT_FALSE(split.hasResidual());
    EXPECT_EQ(split.bucketFilter.woCompare(closedBucketFilter()), 0);
    EXPECT_TRUE(bucketMatches(split.bucketFilter, fromjson(R"({"control": {"version": 2}})")));
    EXPECT_FALSE(bucketMatches(split.bucketFilter, fromjson(R"({"control": {"closed": true}})")));
    EXPECT_TRUE(bucketMatches(split.bucketFilter, fromjson(R"({"control": {"closed": false}})")));
}

TEST(TimeseriesQuerySplit, MetaOnlyQueryIsRenamedAndHasNoResidual) {
    auto split =
        splitTimeseriesQuery(opts(), fromjson(R"({"m.a": 1, "$or": [{"m.b": 2}, {"m": 3}]})"));
    EXPECT_FALSE(split.hasResidual());
    EXPECT_TRUE(bucketMatches(split.bucketFilter,
                              fromjson(R"({"meta": {"a": 1, "b": 2}, "control": {}})")));
    EXPECT_FALSE(bucketMatches(split.bucketFilter,
                               fromjson(R"({"meta": {"a": 1, "b": 5}, "control": {}})")));
    EXPECT_FALSE(
        bucketMatches(split.bucketFilter,
                      fromjson(R"({"meta": {"a": 1, "b": 2}, "control": {"closed": true}})")));
}

TEST(TimeseriesQuerySplit, NorOnMetaStaysExact) {
    auto split = splitTimeseriesQuery(opts(), fromjson(R"({"$nor": [{"m": 1}]})"));
    EXPECT_FALSE(split.hasResidual());
    EXPECT_FALSE(bucketMatches(split.bucketFilter, fromjson(R"({"meta": 1, "control": {}})")));
    EXPECT_TRUE(bucketMatches(split.bucketFilter, fromjson(R"({"meta": 2, "control": {}})")));
}

TEST(TimeseriesQuerySplit, MeasurementPredicateKeepsOriginalAsResidual) {
    BSONObj q = fromjson(R"({"m": 1, "x": {"$gt": 10}})");
    auto split = splitTimeseriesQuery(opts(), q);
    ASSERT_TRUE(split.hasResidual());
    EXPECT_EQ(split.residualFilter.woCompare(q), 0);
    // Loose: a bucket whose max x is 5 cannot hold a match; another meta neither.
    EXPECT_FALSE(
        bucketMatches(split.bucketFilter,
                      fromjson(R"({"meta": 1, "control": {"min": {"x": 1}, "max": {"x": 5}}})")));
    EXPECT_FALSE(
        bucketMatches(split.bucketFilter,
                      fromjson(R"({"meta": 2, "control": {"min": {"x": 1}, "max": {"x": 50}}})")));
    EXPECT_TRUE(
        bucketMatches(split.bucketFilter,
                      fromjson(R"({"meta": 1, "control": {"min": {"x": 1}, "max": {"x": 50}}})")));
}

TEST(TimeseriesQuerySplit, TopLevelOperatorsAreNotMetaOnly) {
    EXPECT_FALSE(
        renameMetaOnlyPredicate(fromjson(R"({"$expr": {"$eq": ["$m", 1]}})"), std::string("m")));
    EXPECT_FALSE(renameMetaOnlyPredicate(fromjson(R"({"mm": 1})"), std::string("m")));
    EXPECT_FALSE(renameMetaOnlyPredicate(fromjson(R"({"m": 1})"), std::nullopt));
    auto r = renameMetaOnlyPredicate(fromjson(R"({"m.x": {"$exists": false}})"), std::string("m"));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->woCompare(fromjson(R"({"meta.x": {"$exists": false}})")), 0);
}

TEST(TimeseriesQuerySplit, TimePredicateBoundsBucketsButKeepsResidual) {
    BSONObj q = BSON("t" << BSON("$gte" << Date_t::fromMillisSinceEpoch(10 * 3600 * 1000LL)));
    auto split = splitTimeseriesQuery(opts(false), q);
    ASSERT_TRUE(split.hasResidual());
    BSONObj old =
        BSON("control" << BSON("min" << BSON("t" << Date_t::fromMillisSinceEpoch(0)) << "max"
                                     << BSON("t" << Date_t::fromMillisSinceEpoch(1000))));
    EXPECT_FALSE(bucketMatches(split.bucketFilter, old));
}

TEST(TimeseriesHint, KeyPatternIsTranslatedNamesAndNaturalKept) {
    auto o = opts();
    auto h = translateTimeseriesHint(o, fromjson(R"({"m": 1, "t": 1})"));
    ASSERT_TRUE(h.isOK());
    EXPECT_EQ(
        h.getValue().woCompare(fromjson(R"({"meta": 1, "control.min.t": 1, "control.max.t": 1})")),
        0);
    EXPECT_EQ(translateTimeseriesHint(o, fromjson(R"({"$natural": -1})"))
                  .getValue()
                  .woCompare(fromjson(R"({"$natural": -1})")),
              0);
    EXPECT_EQ(translateTimeseriesHint(o, fromjson(R"({"$hint": "a_1"})"))
                  .getValue()
                  .woCompare(fromjson(R"({"$hint": "a_1"})")),
              0);
    EXPECT_EQ(translateTimeseriesHint(o, fromjson(R"({"x": "text"})")).getStatus().code(),
              ErrorCodes::BadValue);
}

}  // namespace
}  // namespace mongo::timeseries
