#include "mongo/db/timeseries/timeseries_bucket_validation.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/timeseries_bucket_rewrite.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries {
namespace {

Date_t at(long long ms) {
    return Date_t::fromMillisSinceEpoch(ms);
}

TimeseriesOptions opts() {
    auto o = TimeseriesOptions::parse(fromjson(R"({"timeField": "t", "metaField": "m"})"));
    invariant(validateAndSetBucketingParameters(o).isOK());
    return o;
}

BSONObj compressed() {
    std::vector<BSONObj> ms = {BSON("t" << at(1700000001000) << "v" << 1 << "s"
                                        << "a"),
                               BSON("t" << at(1700000002000) << "v" << 5),
                               BSON("t" << at(1700000003000) << "v" << 3 << "s"
                                        << "b")};
    auto doc = makeNewCompressedBucket(OID::gen(), BSON("meta" << 1).firstElement(), ms, opts());
    invariant(doc.isOK());
    return doc.getValue();
}

/** `bucket` with control.<field> replaced by `value` (appended when absent). */
BSONObj withControlField(const BSONObj& bucket, StringData field, const BSONElement& value) {
    BSONObjBuilder out;
    for (auto e : bucket) {
        if (e.fieldNameStringData() != "control") {
            out.append(e);
            continue;
        }
        BSONObjBuilder control(out.subobjStart("control"));
        bool replaced = false;
        for (auto c : e.Obj()) {
            if (c.fieldNameStringData() == field) {
                control.appendAs(value, field);
                replaced = true;
            } else {
                control.append(c);
            }
        }
        if (!replaced)
            control.appendAs(value, field);
    }
    return out.obj();
}

TEST(TimeseriesBucketValidation, BucketFromTheWritePathIsValid) {
    EXPECT_TRUE(validateBucket(compressed(), opts(), nullptr).isOK());
}

TEST(TimeseriesBucketValidation, BucketRewrittenAfterADeleteKeepsItsStartAndIsValid) {
    // Two minutes apart: without the first measurement the rounded minimum is a later minute.
    std::vector<BSONObj> ms = {BSON("t" << at(1700000001000) << "v" << 1),
                               BSON("t" << at(1700000100000) << "v" << 2)};
    auto made = makeNewCompressedBucket(OID::gen(), BSON("meta" << 1).firstElement(), ms, opts());
    ASSERT_TRUE(made.isOK());
    BSONObj b = made.getValue();
    auto survivors = extractMeasurements(b, "t", StringData("m"));
    ASSERT_TRUE(survivors.isOK());
    std::vector<BSONObj> later(survivors.getValue().begin() + 1, survivors.getValue().end());
    auto rewritten = rewriteBucketWithMeasurements(b, later, opts());
    ASSERT_TRUE(rewritten.isOK()) << rewritten.getStatus();
    EXPECT_EQ(at(1699999980000),
              rewritten.getValue()["control"].Obj()["min"].Obj()["t"].date());  // the start
    Status s = validateBucket(rewritten.getValue(), opts(), nullptr);
    EXPECT_TRUE(s.isOK()) << s;
}

TEST(TimeseriesBucketValidation, TimeMinAfterTheEarliestMeasurementIsBadValue) {
    BSONObj good = compressed();
    BSONObj min = good["control"].Obj()["min"].Obj();
    BSONObjBuilder later;
    for (auto e : min) {
        if (e.fieldNameStringData() == "t")
            later.append("t", at(1700000002000));
        else
            later.append(e);
    }
    BSONObj b = withControlField(good, "min", BSON("" << later.obj()).firstElement());
    EXPECT_EQ(ErrorCodes::BadValue, validateBucket(b, opts(), nullptr).code());
}

TEST(TimeseriesBucketValidation, UncompressedV1BucketIsValid) {
    BSONObj b =
        BSON("_id" << OID::gen() << "control"
                   << BSON("version" << 1 << "min" << BSON("t" << at(1699999980000) << "v" << 1)
                                     << "max" << BSON("t" << at(1700000002000) << "v" << 4))
                   << "meta" << 1 << "data"
                   << BSON("t" << BSON("0" << at(1700000001000) << "1" << at(1700000002000)) << "v"
                               << BSON("0" << 1 << "1" << 4)));
    Status s = validateBucket(b, opts(), nullptr);
    EXPECT_TRUE(s.isOK()) << s;
}

TEST(TimeseriesBucketValidation, CountDisagreeingWithDataIsBadValue) {
    BSONObj b = withControlField(compressed(), "count", BSON("" << 4).firstElement());
    EXPECT_EQ(ErrorCodes::BadValue, validateBucket(b, opts(), nullptr).code());
}

TEST(TimeseriesBucketValidation, MaxDisagreeingWithDataIsBadValue) {
    BSONObj good = compressed();
    BSONObj max = BSON("t" << at(1700000003000) << "v" << 6 << "s"
                           << "b");
    BSONObj b = withControlField(good, "max", BSON("" << max).firstElement());
    Status s = validateBucket(b, opts(), nullptr);
    EXPECT_EQ(ErrorCodes::BadValue, s.code());
    EXPECT_NE(std::string::npos, s.reason().find("field v")) << s;
}

TEST(TimeseriesBucketValidation, UnknownVersionIsBadValue) {
    BSONObj b = withControlField(compressed(), "version", BSON("" << 4).firstElement());
    EXPECT_EQ(ErrorCodes::BadValue, validateBucket(b, opts(), nullptr).code());
}

TEST(TimeseriesBucketValidation, VersionOneWithColumnsIsTypeMismatch) {
    BSONObj b = withControlField(compressed(), "version", BSON("" << 1).firstElement());
    EXPECT_EQ(ErrorCodes::TypeMismatch, validateBucket(b, opts(), nullptr).code());
}

TEST(TimeseriesBucketValidation, ColumnThatDoesNotDecodeIsReported) {
    BSONObj good = compressed();
    BSONObjBuilder out;
    for (auto e : good) {
        if (e.fieldNameStringData() != "data") {
            out.append(e);
            continue;
        }
        BSONObjBuilder data(out.subobjStart("data"));
        for (auto f : e.Obj()) {
            if (f.fieldNameStringData() == "v") {
                const char truncated[] = {0x10};  // an int32 element type with no value
                data.appendBinData("v", 1, BinDataType::Column, truncated);
            } else {
                data.append(f);
            }
        }
    }
    Status s = validateBucket(out.obj(), opts(), nullptr);
    EXPECT_FALSE(s.isOK());
}

TEST(TimeseriesBucketValidation, V1TimeIndexesMustCountFromZero) {
    BSONObj b = BSON("_id" << OID::gen() << "control"
                           << BSON("version" << 1 << "min" << BSON("t" << at(1699999980000))
                                             << "max" << BSON("t" << at(1700000001000)))
                           << "data" << BSON("t" << BSON("1" << at(1700000001000))));
    EXPECT_EQ(ErrorCodes::BadValue, validateBucket(b, opts(), nullptr).code());
}

TEST(TimeseriesBucketValidation, MissingTimeFieldIsBadValue) {
    BSONObj b =
        BSON("_id" << OID::gen() << "control"
                   << BSON("version" << 1 << "min" << BSON("v" << 1) << "max" << BSON("v" << 1))
                   << "data" << BSON("v" << BSON("0" << 1)));
    EXPECT_EQ(ErrorCodes::BadValue, validateBucket(b, opts(), nullptr).code());
}

}  // namespace
}  // namespace mongo::timeseries
