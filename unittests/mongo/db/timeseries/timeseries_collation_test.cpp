// Collation in time-series collections (spec timeseries-semantics.md §3.6, §5.3.1, §5.4):
// control.min/max order strings by the collection's default collation while keeping the
// original strings, and bucket-level string predicates need the query's collation to be
// that one. Uses the mock collators (no ICU tables needed).
#include <gtest/gtest.h>

#include <map>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/pipeline/bucket_level_predicates.h"
#include "mongo/db/pipeline/timeseries_min_max_rewrite.h"
#include "mongo/db/query/collation/collator_interface_mock.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/bucket_catalog/flat_bson.h"
#include "mongo/db/timeseries/bucket_catalog/reopening.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/timeseries_bucket_rewrite.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/db/update/document_diff.h"

namespace mongo::timeseries {
namespace {

using bucket_catalog::MinMax;

constexpr long long kBase = 1700000000000LL;

const CollatorInterfaceMock kLower(CollatorInterfaceMock::MockType::kToLowerString);

BSONObj m(long long offsetMs, StringData s) {
    return BSON("t" << Date_t::fromMillisSinceEpoch(kBase + offsetMs) << "m"
                    << "s1"
                    << "s" << s);
}

TimeseriesOptions options() {
    auto o = TimeseriesOptions::parse(fromjson(R"({"timeField": "t", "metaField": "m"})"));
    invariant(validateAndSetBucketingParameters(o).isOK());
    return o;
}

TEST(TimeseriesCollationMinMax, SimpleOrderIsBinary) {
    MinMax mm;
    mm.update(BSON("s"
                   << "a"),
              std::nullopt);
    mm.update(BSON("s"
                   << "B"),
              std::nullopt);
    EXPECT_EQ(mm.min()["s"].str(), "B");
    EXPECT_EQ(mm.max()["s"].str(), "a");
}

TEST(TimeseriesCollationMinMax, CollatorOrdersStringsButKeepsOriginals) {
    MinMax mm(&kLower);
    mm.update(BSON("s"
                   << "a"),
              std::nullopt);
    mm.update(BSON("s"
                   << "B"),
              std::nullopt);
    EXPECT_EQ(mm.min()["s"].str(), "a");
    EXPECT_EQ(mm.max()["s"].str(), "B");
}

TEST(TimeseriesCollationMinMax, CollatorAppliesInsideObjectsAndArrays) {
    MinMax mm(&kLower);
    mm.update(fromjson(R"({"o": {"x": "a"}, "arr": ["Z", "b"]})"), std::nullopt);
    mm.update(fromjson(R"({"o": {"x": "B"}, "arr": ["y", "C"]})"), std::nullopt);
    EXPECT_EQ(mm.min().toString(), R"({ o: { x: "a" }, arr: [ "y", "b" ] })");
    EXPECT_EQ(mm.max().toString(), R"({ o: { x: "B" }, arr: [ "Z", "C" ] })");
}

TEST(TimeseriesCollationMinMax, EqualUnderCollationKeepsFirstSeen) {
    MinMax mm(&kLower);
    mm.update(BSON("s"
                   << "abc"),
              std::nullopt);
    mm.update(BSON("s"
                   << "ABC"),
              std::nullopt);
    EXPECT_EQ(mm.min()["s"].str(), "abc");
    EXPECT_EQ(mm.max()["s"].str(), "abc");
}

TEST(TimeseriesCollationMinMax, ParsedStateKeepsComparingWithCollator) {
    MinMax mm = MinMax::parseFromBSON(BSON("s"
                                           << "a"),
                                      BSON("s"
                                           << "B"),
                                      &kLower);
    MinMax copy = mm;
    copy.update(BSON("s"
                     << "b"),
                std::nullopt);  // between "a" and "B" under the collator
    EXPECT_EQ(copy.min()["s"].str(), "a");
    EXPECT_EQ(copy.max()["s"].str(), "B");
    copy.update(BSON("s"
                     << "c"),
                std::nullopt);
    EXPECT_EQ(copy.max()["s"].str(), "c");
}

TEST(TimeseriesCollationBuckets, NewCompressedBucketUsesCollator) {
    auto doc = makeNewCompressedBucket(OID::gen(),
                                       BSON("meta"
                                            << "s1")
                                           .firstElement(),
                                       {m(0, "a"), m(1, "B")}, options(), &kLower);
    ASSERT_TRUE(doc.isOK()) << doc.getStatus();
    EXPECT_EQ(doc.getValue().getFieldDotted("control.min.s").str(), "a");
    EXPECT_EQ(doc.getValue().getFieldDotted("control.max.s").str(), "B");
    auto simple = makeNewCompressedBucket(OID::gen(),
                                          BSON("meta"
                                               << "s1")
                                              .firstElement(),
                                          {m(0, "a"), m(1, "B")}, options());
    ASSERT_TRUE(simple.isOK());
    EXPECT_EQ(simple.getValue().getFieldDotted("control.max.s").str(), "a");
}

TEST(TimeseriesCollationBuckets, RewriteAndNewBucketsUseCollator) {
    auto source = makeNewCompressedBucket(OID::gen(),
                                          BSON("meta"
                                               << "s1")
                                              .firstElement(),
                                          {m(0, "a"), m(1, "B"), m(2, "c")}, options(), &kLower);
    ASSERT_TRUE(source.isOK());
    auto rewritten = rewriteBucketWithMeasurements(source.getValue(), {m(0, "a"), m(1, "B")},
                                                   options(), &kLower);
    ASSERT_TRUE(rewritten.isOK()) << rewritten.getStatus();
    EXPECT_EQ(rewritten.getValue().getFieldDotted("control.max.s").str(), "B");

    bucket_catalog::BucketLimits limits;
    auto fresh = makeBucketsForMeasurements({m(0, "a"), m(1, "B")}, options(), limits, &kLower);
    ASSERT_TRUE(fresh.isOK()) << fresh.getStatus();
    ASSERT_EQ(fresh.getValue().size(), 1u);
    EXPECT_EQ(fresh.getValue()[0].getFieldDotted("control.max.s").str(), "B");
}

TEST(TimeseriesCollationBuckets, ReopenedBucketKeepsCollator) {
    auto doc = makeNewCompressedBucket(OID::gen(),
                                       BSON("meta"
                                            << "s1")
                                           .firstElement(),
                                       {m(0, "a"), m(1, "B")}, options(), &kLower);
    ASSERT_TRUE(doc.isOK());
    bucket_catalog::BucketKey key("uuid-1", BSON("meta"
                                                 << "s1"));
    std::shared_ptr<const StringComparator> collator = kLower.clone();
    auto bucket = bucket_catalog::loadBucket(key, options(), doc.getValue(), collator);
    ASSERT_TRUE(bucket.isOK()) << bucket.getStatus();
    bucket.getValue()->minmax.update(BSON("s"
                                          << "b"),
                                     std::nullopt);
    EXPECT_EQ(bucket.getValue()->minmax.max()["s"].str(), "B");
}

TEST(TimeseriesCollationCatalog, CommittedControlMinMaxUseCollectionCollator) {
    bucket_catalog::BucketLimits limits;
    limits.idleExpiryMemoryThresholdBytes = 1LL << 40;
    bucket_catalog::BucketCatalog catalog(4, limits);
    bucket_catalog::CollectionInfo info;
    info.uuid = "uuid-collation";
    info.options = options();
    info.collator = kLower.clone();
    BSONObj stored;  // the bucket document as storage would hold it
    for (const BSONObj& doc : {m(0, "a"), m(1, "B"), m(2, "A")}) {
        auto r = bucket_catalog::tryInsert(catalog, info, doc);
        ASSERT_TRUE(r.isOK()) << r.getStatus();
        auto res = r.getValue();
        if (res.reopening)
            res = bucket_catalog::insertWithReopeningContext(catalog, info, doc, BSONObj())
                      .getValue();
        ASSERT_TRUE(bucket_catalog::claimWriteBatchCommitRights(*res.batch));
        ASSERT_TRUE(bucket_catalog::prepareCommit(catalog, info, res.batch).isOK());
        const auto& w = res.batch->write;
        if (w.kind == bucket_catalog::BucketWrite::Kind::kUpdate) {
            auto applied = doc_diff::applyDiff(stored, w.diff);
            ASSERT_TRUE(applied.isOK()) << applied.getStatus();
            stored = applied.getValue();
        } else {
            stored = w.document;
        }
        bucket_catalog::finish(catalog, res.batch);
    }
    // One bucket: "B" is above "a" lower-cased, "A" equals "a" (first seen kept).
    EXPECT_EQ(stored.getFieldDotted("control.count").numberLong(), 3);
    EXPECT_EQ(stored.getFieldDotted("control.min.s").str(), "a");
    EXPECT_EQ(stored.getFieldDotted("control.max.s").str(), "B");
    bucket_catalog::clear(catalog, info.uuid);
}

BucketSpec spec() {
    BucketSpec s;
    s.timeField = "t";
    s.metaField = std::string("m");
    return s;
}

BucketPredicateOptions predicateOptions(bool collationMatches) {
    BucketPredicateOptions o;
    o.assumeNoMixedSchemaData = true;
    o.collationMatchesDefault = collationMatches;
    return o;
}

TEST(TimeseriesCollationPredicates, StringOperandMappedWhenCollationsMatch) {
    auto preds = makeBucketLevelPredicates(fromjson(R"({"s": {"$gt": "a"}})"), spec(),
                                           predicateOptions(true));
    EXPECT_FALSE(preds.loose.isEmpty());
}

TEST(TimeseriesCollationPredicates, StringOperandNotMappedUnderAnotherCollation) {
    auto preds = makeBucketLevelPredicates(fromjson(R"({"s": {"$gt": "a"}})"), spec(),
                                           predicateOptions(false));
    EXPECT_TRUE(preds.loose.isEmpty()) << preds.loose;
    preds = makeBucketLevelPredicates(fromjson(R"({"s": {"$in": [1, "a"]}})"), spec(),
                                      predicateOptions(false));
    EXPECT_TRUE(preds.loose.isEmpty()) << preds.loose;
}

TEST(TimeseriesCollationPredicates, NonStringAndMetaPredicatesStillMapped) {
    auto preds = makeBucketLevelPredicates(fromjson(R"({"x": {"$gt": 5}, "m": "s1"})"), spec(),
                                           predicateOptions(false));
    EXPECT_NE(preds.loose.toString().find("control.max.x"), std::string::npos) << preds.loose;
    EXPECT_NE(preds.loose.toString().find("meta"), std::string::npos) << preds.loose;
    EXPECT_EQ(preds.loose.toString().find("\"s1\" } }, { control"), std::string::npos);
}

TEST(TimeseriesCollationMinMaxRewrite, ExactBoundsUseCollator) {
    auto bucket =
        makeNewCompressedBucket(OID::gen(),
                                BSON("meta"
                                     << "s1")
                                    .firstElement(),
                                {BSON("t" << Date_t::fromMillisSinceEpoch(kBase) << "o"
                                          << BSON("x"
                                                  << "a")),
                                 BSON("t" << Date_t::fromMillisSinceEpoch(kBase + 1) << "o"
                                          << BSON("x"
                                                  << "B"))},
                                options(), &kLower);
    ASSERT_TRUE(bucket.isOK());
    bool unpacked = false;
    BSONObj exact = DocumentSourceInternalTimeseriesExactMinMax::makeBoundsExact(
        bucket.getValue(), "t", {"o"}, {"o"}, &unpacked, &kLower);
    EXPECT_TRUE(unpacked);
    EXPECT_EQ(exact.getFieldDotted("control.max.o").Obj().toString(), R"({ x: "B" })");
    EXPECT_EQ(exact.getFieldDotted("control.min.o").Obj().toString(), R"({ x: "a" })");
}

}  // namespace
}  // namespace mongo::timeseries
