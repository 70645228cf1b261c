#include "mongo/db/timeseries/timeseries_bucket_rewrite.h"

#include <map>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_identifiers.h"
#include "mongo/db/timeseries/bucket_catalog/flat_bson.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/metadata.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/db/timeseries/timeseries_write_util.h"

namespace mongo::timeseries {
namespace {

/** `bucket` with control.min.<time> set to `minTime`. */
BSONObj withMinTime(const BSONObj& bucket, StringData timeField, Date_t minTime) {
    BSONObjBuilder b;
    for (auto e : bucket) {
        if (e.fieldNameStringData() != kBucketControlFieldName) {
            b.append(e);
            continue;
        }
        BSONObjBuilder control(b.subobjStart(kBucketControlFieldName));
        for (auto c : e.embeddedObject()) {
            if (c.fieldNameStringData() == kBucketControlMinFieldName &&
                c.type() == BSONType::kObject)
                control.append(kBucketControlMinFieldName,
                               replaceMinTime(c.embeddedObject(), timeField, minTime));
            else
                control.append(c);
        }
    }
    return b.obj();
}

/** Cuts one series' measurements (sorted on time) into buckets. */
Status cutSeries(const BSONElement& meta, const std::vector<BSONObj>& sorted,
                 const TimeseriesOptions& options, const bucket_catalog::BucketLimits& limits,
                 const StringComparator* strings, std::vector<BSONObj>* out) {
    const std::string& timeField = options.getTimeField();
    const auto& metaField = options.getMetaField();
    const long long spanMillis = 1000LL * getMaxSpanSeconds(options);
    std::optional<StringData> metaName;
    if (metaField)
        metaName = StringData(*metaField);

    std::vector<BSONObj> current;
    Date_t start;
    long long size = 0;
    bucket_catalog::Schema schema;
    auto flush = [&]() -> Status {
        if (current.empty())
            return Status::OK();
        OID id = bucket_catalog::generateBucketOID(start);
        auto doc = makeNewCompressedBucket(id, meta, std::move(current), options, strings);
        current.clear();
        if (!doc.isOK())
            return doc.getStatus();
        out->push_back(doc.getValue());
        return Status::OK();
    };
    for (const BSONObj& m : sorted) {
        Date_t t = m[timeField].date();
        long long add = m.objsize();
        bool fits = !current.empty() && (t - start).count() < spanMillis &&
                    static_cast<long long>(current.size()) < limits.maxCount &&
                    (size + add <= limits.maxSize ||
                     (static_cast<long long>(current.size()) < limits.minCount &&
                      size + add <= bucket_catalog::kLargeMeasurementsMaxBucketSize)) &&
                    schema.compatible(m, metaName);
        if (!fits) {
            if (Status s = flush(); !s.isOK())
                return s;
            start = roundTimestampToGranularity(t, options);
            size = 0;
            schema = bucket_catalog::Schema();
        }
        current.push_back(m);
        size += add;
        schema.update(m, metaName);
    }
    return flush();
}

}  // namespace

long long storedMeasurementCount(const BSONObj& bucket, StringData timeField) {
    BSONElement count = bucket.getFieldDotted(kControlCountPath);
    if (count.isNumber())
        return count.numberLong();
    BSONElement data = bucket[kBucketDataFieldName];
    BSONElement time =
        data.type() == BSONType::kObject ? data.embeddedObject()[timeField] : BSONElement();
    return time.type() == BSONType::kObject ? time.embeddedObject().nFields() : 0;
}

StatusWith<BSONObj> rewriteBucketWithMeasurements(const BSONObj& bucket,
                                                  std::vector<BSONObj> survivors,
                                                  const TimeseriesOptions& options,
                                                  const StringComparator* strings) {
    const std::string& timeField = options.getTimeField();
    BSONElement id = bucket[kBucketIdFieldName];
    if (id.type() != BSONType::kOid)
        return Status(ErrorCodes::BadValue, "time-series bucket _id is not an ObjectId");
    auto doc = makeNewCompressedBucket(id.OID(), bucket[kBucketMetaFieldName], std::move(survivors),
                                       options, strings);
    if (!doc.isOK())
        return doc.getStatus();
    BSONElement storedMin =
        bucket.getFieldDotted(std::string(kControlMinFieldNamePrefix) + timeField);
    if (storedMin.type() != BSONType::kDate)
        return doc;
    return withMinTime(doc.getValue(), timeField, storedMin.date());
}

StatusWith<std::vector<BSONObj>> makeBucketsForMeasurements(
    std::vector<BSONObj> measurements, const TimeseriesOptions& options,
    const bucket_catalog::BucketLimits& limits, const StringComparator* strings) {
    const std::string& timeField = options.getTimeField();
    const auto& metaField = options.getMetaField();
    // Normalised meta bytes -> (meta holder {meta: v} or {}, measurements).
    std::map<std::string, std::pair<BSONObj, std::vector<BSONObj>>> series;
    for (BSONObj& m : measurements) {
        if (m[timeField].type() != BSONType::kDate)
            return Status(
                ErrorCodes::BadValue,
                "'" + timeField + "' must be present and contain a valid BSON UTC datetime value");
        BSONObj key =
            metaField ? metadata::normalizeAs(m[*metaField], kBucketMetaFieldName) : BSONObj();
        std::string bytes(key.objdata(), key.objsize());
        auto& entry = series[bytes];
        if (entry.second.empty())
            entry.first = key;
        entry.second.push_back(std::move(m));
    }
    std::vector<BSONObj> out;
    for (auto& [bytes, entry] : series) {
        sortMeasurementsOnTime(entry.second, timeField);
        Status s =
            cutSeries(entry.first.firstElement(), entry.second, options, limits, strings, &out);
        if (!s.isOK())
            return s;
    }
    return out;
}

}  // namespace mongo::timeseries
