#include "mongo/db/timeseries/bucket_catalog/reopening.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/metadata.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries::bucket_catalog {

std::vector<BSONObj> generateReopeningPipeline(const TimeseriesOptions& options, Date_t time,
                                               const BSONElement& normalizedMeta, int32_t maxCount,
                                               int64_t effectiveMaxSize) {
    const std::string& t = options.getTimeField();
    const std::string minTime = std::string(kControlMinFieldNamePrefix) + t;
    const Date_t lower = time - std::chrono::seconds(getMaxSpanSeconds(options));

    BSONArrayBuilder ands;
    ands.append(BSON("$or" << BSON_ARRAY(BSON(kControlClosedPath << BSON("$exists" << false))
                                         << BSON(kControlClosedPath << false))));
    ands.append(BSON("$and" << BSON_ARRAY(BSON(minTime << BSON("$lte" << time))
                                          << BSON(minTime << BSON("$gt" << lower)))));
    if (normalizedMeta.eoo()) {
        ands.append(BSON(kBucketMetaFieldName << BSON("$exists" << false)));
    } else {
        BSONObjBuilder m;
        m.appendAs(normalizedMeta, kBucketMetaFieldName);
        ands.append(m.obj());
    }
    ands.append(BSON(std::string(kDataFieldNamePrefix) + t + "." + std::to_string(maxCount - 1)
                     << BSON("$exists" << false)));

    std::vector<BSONObj> pipeline;
    pipeline.push_back(BSON("$match" << BSON("$and" << ands.arr())));
    pipeline.push_back(BSON("$set" << BSON("object_size" << BSON("$bsonSize"
                                                                 << "$$ROOT"))));
    pipeline.push_back(BSON("$match" << BSON("object_size" << BSON("$lt" << effectiveMaxSize))));
    pipeline.push_back(BSON("$unset"
                            << "object_size"));
    pipeline.push_back(BSON("$limit" << 1));
    return pipeline;
}

namespace {

Status bad(const std::string& why) {
    return Status(ErrorCodes::BadValue, "Cannot reopen bucket: " + why);
}

}  // namespace

StatusWith<std::unique_ptr<Bucket>> loadBucket(const BucketKey& key,
                                               const TimeseriesOptions& options, const BSONObj& doc,
                                               std::shared_ptr<const StringComparator> collator) {
    BSONElement id = doc[kBucketIdFieldName];
    if (id.type() != BSONType::kOid)
        return bad("_id is missing or not an ObjectId");
    BSONElement control = doc[kBucketControlFieldName];
    if (control.type() != BSONType::kObject)
        return bad("control is missing");
    BSONObj c = control.Obj();
    if (c[kBucketControlClosedFieldName].trueValue())
        return bad("bucket is closed");
    if (!metadata::equal(doc[kBucketMetaFieldName], key.metaElement()))
        return bad("meta does not match the series");
    if (c[kBucketControlMinFieldName].type() != BSONType::kObject ||
        c[kBucketControlMaxFieldName].type() != BSONType::kObject)
        return bad("control.min/max are not objects");
    BSONObj min = c[kBucketControlMinFieldName].Obj();
    BSONObj max = c[kBucketControlMaxFieldName].Obj();
    const std::string& timeField = options.getTimeField();
    if (min[timeField].type() != BSONType::kDate || max[timeField].type() != BSONType::kDate)
        return bad("control.min/max time is not a date");
    auto schema = Schema::parseFromBSON(min, max);
    if (!schema.isOK())
        return schema.getStatus();

    const int version = c[kBucketControlVersionFieldName].numberInt();
    if (version < kTimeseriesControlUncompressedVersion ||
        version > kTimeseriesControlCompressedUnsortedVersion)
        return bad("unknown control.version");

    auto bucket = std::make_unique<Bucket>(BucketId{key.collectionUUID, id.OID()}, key,
                                           min[timeField].date(), std::move(collator));
    bucket->schema = std::move(schema.getValue());
    bucket->existsOnDisk = true;
    bucket->version = version;
    bucket->latestCommittedTime = max[timeField].date();
    bucket->size = doc.objsize();

    if (version == kTimeseriesControlUncompressedVersion) {
        // Rewrite as v2 on the next commit: rebuild sorted columns from the measurements.
        auto ms = extractMeasurements(doc, timeField, std::nullopt);
        if (!ms.isOK())
            return ms.getStatus();
        for (auto& m : ms.getValue())
            if (m[timeField].type() != BSONType::kDate)
                return bad("a measurement has no valid time");
        sortMeasurementsOnTime(ms.getValue(), timeField);
        bucket->columns.append(ms.getValue(), std::nullopt);
        bucket->needsRewrite = true;
        bucket->version = kTimeseriesControlCompressedSortedVersion;
    } else {
        BSONElement data = doc[kBucketDataFieldName];
        if (data.type() != BSONType::kObject)
            return bad("data is not an object");
        auto columns = ColumnSet::fromDataObject(data.Obj(), timeField);
        if (!columns.isOK())
            return columns.getStatus();
        const long long count = c[kBucketControlCountFieldName].numberLong();
        auto it = columns.getValue().index.find(timeField);
        if (it == columns.getValue().index.end() || columns.getValue().positions != count)
            return bad("time column does not hold control.count measurements");
        bucket->columns = std::move(columns.getValue());
    }
    bucket->numMeasurements = bucket->numCommittedMeasurements = bucket->columns.positions;
    bucket->minmax = MinMax::parseFromBSON(min, max, bucket->collator.get());
    bucket->committedMin = min.getOwned();
    bucket->committedMax = max.getOwned();
    for (auto& [name, col] : bucket->columns.columns)
        bucket->fieldNames.emplace(name, true);
    return bucket;
}

}  // namespace mongo::timeseries::bucket_catalog
