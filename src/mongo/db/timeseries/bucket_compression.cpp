#include "mongo/db/timeseries/bucket_compression.h"

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/db/timeseries/bucket_catalog/flat_bson.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/db/timeseries/timeseries_write_util.h"

namespace mongo::timeseries {

std::vector<std::string> ColumnSet::append(const std::vector<BSONObj>& measurements,
                                           const std::optional<std::string>& metaField,
                                           bucket_catalog::MinMax* minmax) {
    std::vector<std::string> created;
    std::vector<char> touched;
    for (const BSONObj& m : measurements) {
        touched.assign(columns.size(), 0);
        size_t guess = 0;    // fields usually arrive in column order
        size_t ordinal = 0;  // of the field among the measurement's non-meta fields
        for (auto&& e : m) {
            StringData name = e.fieldNameStringData();
            if (metaField && name == *metaField)
                continue;
            if (minmax)
                minmax->updateField(e, ordinal);
            ++ordinal;
            size_t i;
            if (guess < columns.size() && columns[guess].first == name && !touched[guess]) {
                i = guess++;
                columns[i].second.append(e);
                touched[i] = 1;
                continue;
            }
            auto it = index.find(name);
            if (it == index.end()) {
                i = columns.size();
                BSONColumnBuilder b;
                for (uint32_t k = 0; k < positions; ++k)
                    b.skip();
                columns.emplace_back(std::string(name), std::move(b));
                index.emplace(std::string(name), i);
                created.emplace_back(name);
                touched.push_back(0);
            } else {
                i = it->second;
                if (touched[i])
                    continue;  // duplicate field name: keep the first
            }
            columns[i].second.append(e);
            touched[i] = 1;
            guess = i + 1;
        }
        for (size_t i = 0; i < columns.size(); ++i)
            if (!touched[i])
                columns[i].second.skip();
        ++positions;
    }
    return created;
}

StatusWith<ColumnSet> ColumnSet::fromDataObject(const BSONObj& data, StringData timeField) {
    ColumnSet set;
    bool first = true;
    for (auto&& col : data) {
        if (col.type() != BSONType::kBinData || col.binDataType() != BinDataType::Column)
            return Status(ErrorCodes::BadValue, "bucket data field is not a BSONColumn");
        int len = 0;
        const char* bytes = col.binData(len);
        auto b = BSONColumnBuilder::fromBinary(bytes, static_cast<size_t>(len));
        if (!b.isOK())
            return b.getStatus();
        const uint32_t n = static_cast<uint32_t>(b.getValue().size());
        if (first)
            set.positions = n;
        if (n != set.positions && col.fieldNameStringData() == timeField)
            return Status(ErrorCodes::BadValue, "bucket columns have different lengths");
        set.positions = std::max(set.positions, n);
        first = false;
        set.index.emplace(std::string(col.fieldNameStringData()), set.columns.size());
        set.columns.emplace_back(std::string(col.fieldNameStringData()), std::move(b.getValue()));
    }
    // Columns shorter than the time column (trailing missing values) are padded.
    for (auto& [name, b] : set.columns)
        while (b.size() < set.positions)
            b.skip();
    return set;
}

void sortMeasurementsOnTime(std::vector<BSONObj>& measurements, StringData timeField) {
    // Read each time once; most batches arrive sorted already.
    std::vector<std::pair<long long, size_t>> keys;
    keys.reserve(measurements.size());
    bool sorted = true;
    for (size_t i = 0; i < measurements.size(); ++i) {
        const long long t = measurements[i][timeField].date().toMillisSinceEpoch();
        sorted = sorted && (keys.empty() || keys.back().first <= t);
        keys.emplace_back(t, i);
    }
    if (sorted)
        return;
    std::stable_sort(keys.begin(), keys.end(),
                     [](const auto& l, const auto& r) { return l.first < r.first; });
    std::vector<BSONObj> out;
    out.reserve(measurements.size());
    for (auto& [t, i] : keys)
        out.push_back(std::move(measurements[i]));
    measurements = std::move(out);
}

namespace {

StatusWith<std::vector<BSONObj>> extractV1(const BSONObj& data) {
    // data: {<field>: {"0": v, "1": v, ...}}; rows may be sparse.
    std::vector<std::vector<std::pair<StringData, BSONElement>>> rows;
    for (auto&& col : data) {
        if (col.type() != BSONType::kObject)
            return Status(ErrorCodes::BadValue, "v1 bucket data field is not an object");
        for (auto&& v : col.Obj()) {
            const std::string idx(v.fieldNameStringData());
            size_t pos = 0;
            try {
                pos = std::stoul(idx);
            } catch (...) {
                return Status(ErrorCodes::BadValue, "v1 bucket data key is not an index");
            }
            if (pos > 1000000)
                return Status(ErrorCodes::BadValue, "v1 bucket data index out of range");
            if (rows.size() <= pos)
                rows.resize(pos + 1);
            rows[pos].emplace_back(col.fieldNameStringData(), v);
        }
    }
    std::vector<BSONObj> out;
    out.reserve(rows.size());
    for (auto& row : rows) {
        BSONObjBuilder b;
        for (auto& [name, v] : row)
            b.appendAs(v, name);
        out.push_back(b.obj());
    }
    return out;
}

StatusWith<std::vector<BSONObj>> extractCompressed(const BSONObj& data, long long count) {
    if (count < 0 || count > static_cast<long long>(BSONColumn::kMaxPositions))
        return Status(ErrorCodes::BadValue, "bucket control.count is out of range");
    std::vector<std::pair<StringData, DecodedColumn>> cols;
    size_t positions = 0;
    for (auto&& col : data) {
        if (col.type() != BSONType::kBinData || col.binDataType() != BinDataType::Column)
            return Status(ErrorCodes::BadValue, "bucket data field is not a BSONColumn");
        auto d = BSONColumn(col).decompress();
        if (!d.isOK())
            return d.getStatus();
        if (static_cast<long long>(d.getValue().size()) > count)
            return Status(ErrorCodes::BadValue, "bucket column longer than control.count");
        // All columns of a bucket together: at most what one column may decode to, twice.
        positions += d.getValue().size();
        if (positions > 2 * BSONColumn::kMaxPositions)
            return Status(ErrorCodes::ExceededMemoryLimit, "bucket decodes to too many values");
        cols.emplace_back(col.fieldNameStringData(), std::move(d.getValue()));
    }
    std::vector<BSONObj> out;
    out.reserve(count);
    for (long long i = 0; i < count; ++i) {
        BSONObjBuilder b;
        for (auto& [name, d] : cols)
            if (static_cast<size_t>(i) < d.size() && !d.missing(i))
                b.appendAs(d[i], name);
        out.push_back(b.obj());
    }
    return out;
}

}  // namespace

StatusWith<std::vector<BSONObj>> extractMeasurements(const BSONObj& bucket, StringData timeField,
                                                     std::optional<StringData> metaField) {
    BSONElement control = bucket[kBucketControlFieldName];
    BSONElement data = bucket[kBucketDataFieldName];
    if (control.type() != BSONType::kObject || data.type() != BSONType::kObject)
        return Status(ErrorCodes::BadValue, "bucket has no control or data object");
    const int version = control.Obj()[kBucketControlVersionFieldName].numberInt();
    StatusWith<std::vector<BSONObj>> rows =
        version == kTimeseriesControlUncompressedVersion
            ? extractV1(data.Obj())
            : extractCompressed(data.Obj(),
                                control.Obj()[kBucketControlCountFieldName].numberLong());
    if (!rows.isOK() || !metaField)
        return rows;
    BSONElement meta = bucket[kBucketMetaFieldName];
    if (meta.eoo())
        return rows;
    for (auto& r : rows.getValue()) {
        BSONObjBuilder b;
        b.appendElements(r);
        b.appendAs(meta, *metaField);
        r = b.obj();
    }
    return rows;
}

StatusWith<BSONObj> makeNewCompressedBucket(const OID& id, const BSONElement& meta,
                                            std::vector<BSONObj> measurements,
                                            const TimeseriesOptions& options,
                                            const StringComparator* strings) {
    const std::string& timeField = options.getTimeField();
    for (auto& m : measurements)
        if (m[timeField].type() != BSONType::kDate)
            return Status(
                ErrorCodes::BadValue,
                "'" + timeField + "' must be present and contain a valid BSON UTC datetime value");
    if (measurements.empty())
        return Status(ErrorCodes::BadValue, "a bucket needs at least one measurement");
    sortMeasurementsOnTime(measurements, timeField);
    bucket_catalog::MinMax minmax(strings);
    for (auto& m : measurements)
        minmax.update(m, options.getMetaField());
    ColumnSet columns;
    columns.append(measurements, options.getMetaField());
    const Date_t minTime = roundTimestampToGranularity(measurements[0][timeField].date(), options);
    BSONObj doc = makeBucketDocument(id, meta, kTimeseriesControlCompressedSortedVersion,
                                     replaceMinTime(minmax.min(), timeField, minTime), minmax.max(),
                                     columns.positions, columns);
    if (doc.objsize() > BSONObjMaxUserSize)
        return Status(ErrorCodes::BSONObjectTooLarge, "bucket document exceeds 16 MB");
    return doc;
}

StatusWith<BSONObj> compressBucket(const BSONObj& bucket, StringData timeField) {
    BSONObj control = bucket[kBucketControlFieldName].Obj();
    if (control[kBucketControlVersionFieldName].numberInt() !=
        kTimeseriesControlUncompressedVersion)
        return bucket;
    auto rows = extractMeasurements(bucket, timeField, std::nullopt);
    if (!rows.isOK())
        return Status(ErrorCodes::TimeseriesBucketCompressionFailed,
                      "Failed to compress bucket: " + rows.getStatus().reason());
    for (auto& m : rows.getValue())
        if (m[timeField].type() != BSONType::kDate)
            return Status(ErrorCodes::TimeseriesBucketCompressionFailed,
                          "Failed to compress bucket: a measurement has no valid time");
    sortMeasurementsOnTime(rows.getValue(), timeField);
    ColumnSet columns;
    columns.append(rows.getValue(), std::nullopt);
    return makeBucketDocument(
        bucket[kBucketIdFieldName].OID(), bucket[kBucketMetaFieldName],
        kTimeseriesControlCompressedSortedVersion, control[kBucketControlMinFieldName].Obj(),
        control[kBucketControlMaxFieldName].Obj(), columns.positions, columns);
}

}  // namespace mongo::timeseries
