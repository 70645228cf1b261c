#include "mongo/db/timeseries/timeseries_write_util.h"

#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/update/document_diff.h"

namespace mongo::timeseries {

ColumnBytes finalizeColumns(const ColumnSet& columns) {
    ColumnBytes out;
    out.reserve(columns.columns.size());
    for (auto& [name, b] : columns.columns)
        out.emplace_back(name, b.finalize());
    return out;
}

BSONObj makeBucketDocument(const OID& id, const BSONElement& meta, int version, const BSONObj& min,
                           const BSONObj& max, uint32_t count, const ColumnBytes& columns) {
    BSONObjBuilder b;
    b.append(kBucketIdFieldName, id);
    {
        BSONObjBuilder control(b.subobjStart(kBucketControlFieldName));
        control.append(kBucketControlVersionFieldName, version);
        control.append(kBucketControlMinFieldName, min);
        control.append(kBucketControlMaxFieldName, max);
        if (version != kTimeseriesControlUncompressedVersion)
            control.append(kBucketControlCountFieldName, static_cast<int>(count));
    }
    if (!meta.eoo())
        b.appendAs(meta, kBucketMetaFieldName);
    {
        BSONObjBuilder data(b.subobjStart(kBucketDataFieldName));
        for (auto& [name, bytes] : columns)
            data.appendBinData(name, static_cast<int>(bytes.size()), BinDataType::Column,
                               bytes.data());
    }
    return b.obj();
}

BSONObj makeBucketDocument(const OID& id, const BSONElement& meta, int version, const BSONObj& min,
                           const BSONObj& max, uint32_t count, const ColumnSet& columns) {
    return makeBucketDocument(id, meta, version, min, max, count, finalizeColumns(columns));
}

BSONObj replaceMinTime(const BSONObj& min, StringData timeField, Date_t minTime) {
    BSONObjBuilder b;
    bool found = false;
    for (auto&& e : min) {
        if (e.fieldNameStringData() == timeField) {
            b.append(timeField, minTime);
            found = true;
        } else {
            b.append(e);
        }
    }
    if (!found)
        b.append(timeField, minTime);
    return b.obj();
}

BSONObj makeUpdateOplogObject(const BSONObj& diff) {
    return doc_diff::makeUpdateOplogObject(diff);
}

namespace {

BSONObj makeDiff(const bucket_catalog::Bucket& bucket, uint32_t count, bool versionChanged,
                 const BSONObj& oldMin, const BSONObj& oldMax,
                 const std::vector<std::pair<std::string, BSONColumnBuilder::BinaryDiff>>& diffs,
                 const std::set<std::string>& created) {
    BSONObjBuilder diff;
    {
        BSONObjBuilder scontrol(diff.subobjStart("scontrol"));
        {
            BSONObjBuilder u(scontrol.subobjStart("u"));
            u.append(kBucketControlCountFieldName, static_cast<int>(count));
            if (versionChanged)
                u.append(kBucketControlVersionFieldName, bucket.version);
        }
        BSONObj minDiff = doc_diff::computeDiff(oldMin, bucket.committedMin);
        if (!minDiff.isEmpty())
            scontrol.append("smin", minDiff);
        BSONObj maxDiff = doc_diff::computeDiff(oldMax, bucket.committedMax);
        if (!maxDiff.isEmpty())
            scontrol.append("smax", maxDiff);
    }
    BSONObjBuilder sdata(diff.subobjStart("sdata"));
    if (!created.empty()) {
        BSONObjBuilder i(sdata.subobjStart("i"));
        for (auto& [name, d] : diffs)
            if (created.count(name))
                i.appendBinData(name, static_cast<int>(d.data.size()), BinDataType::Column,
                                d.data.data());
    }
    if (created.size() < diffs.size()) {
        BSONObjBuilder b(sdata.subobjStart("b"));
        for (auto& [name, d] : diffs) {
            if (created.count(name))
                continue;
            BSONObjBuilder entry(b.subobjStart(name));
            entry.append("o", d.offset);
            entry.appendBinData("d", static_cast<int>(d.data.size()), BinDataType::BinDataGeneral,
                                d.data.data());
        }
    }
    sdata.done();
    return diff.obj();
}

}  // namespace

StatusWith<bucket_catalog::BucketWrite> prepareBucketWrite(bucket_catalog::Bucket& bucket,
                                                           bucket_catalog::WriteBatch& batch,
                                                           const TimeseriesOptions& options) {
    const std::string& timeField = options.getTimeField();
    sortMeasurementsOnTime(batch.measurements, timeField);
    const Date_t first = batch.measurements.front()[timeField].date();
    const Date_t last = batch.measurements.back()[timeField].date();
    const bool wasUnsorted = bucket.version == kTimeseriesControlCompressedUnsortedVersion;
    const bool onDisk = bucket.existsOnDisk || bucket.needsRewrite;
    bool versionChanged = false;
    if (onDisk && !wasUnsorted && first < bucket.latestCommittedTime) {
        bucket.version = kTimeseriesControlCompressedUnsortedVersion;
        versionChanged = true;
        batch.convertedToUnsorted = true;
    }
    if (last > bucket.latestCommittedTime)
        bucket.latestCommittedTime = last;

    const BSONObj oldMin = bucket.committedMin, oldMax = bucket.committedMax;
    batch.numPreviouslyCommittedMeasurements = bucket.columns.positions;
    // One pass over the measurements' fields feeds both the columns and control.min/max.
    auto createdList =
        bucket.columns.append(batch.measurements, options.getMetaField(), &bucket.minmax);
    bucket.committedMin = replaceMinTime(bucket.minmax.min(), timeField, bucket.minTime);
    bucket.committedMax = bucket.minmax.max();
    const std::set<std::string> created(createdList.begin(), createdList.end());
    const uint32_t count = bucket.columns.positions;

    std::vector<std::pair<std::string, BSONColumnBuilder::BinaryDiff>> diffs;
    diffs.reserve(bucket.columns.columns.size());
    for (auto& [name, b] : bucket.columns.columns)
        diffs.emplace_back(name, b.intermediate());

    bucket_catalog::BucketWrite write;
    if (!bucket.existsOnDisk || bucket.needsRewrite) {
        ColumnBytes bytes;
        for (auto& [name, d] : diffs) {
            invariant(d.offset == 0);
            bytes.emplace_back(name, std::move(d.data));
        }
        write.kind = bucket.existsOnDisk ? bucket_catalog::BucketWrite::Kind::kReplace
                                         : bucket_catalog::BucketWrite::Kind::kInsert;
        write.document =
            makeBucketDocument(bucket.bucketId.oid, bucket.key.metaElement(), bucket.version,
                               bucket.committedMin, bucket.committedMax, count, bytes);
        if (write.document.objsize() > BSONObjMaxUserSize)
            return Status(ErrorCodes::BSONObjectTooLarge,
                          "Time-series bucket document would exceed 16 MB");
    } else {
        write.kind = bucket_catalog::BucketWrite::Kind::kUpdate;
        write.diff = makeDiff(bucket, count, versionChanged, oldMin, oldMax, diffs, created);
    }
    return write;
}

}  // namespace mongo::timeseries
