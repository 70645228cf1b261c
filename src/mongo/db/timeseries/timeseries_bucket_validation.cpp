#include "mongo/db/timeseries/timeseries_bucket_validation.h"

#include <string>
#include <vector>

#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/db/timeseries/bucket_catalog/flat_bson.h"
#include "mongo/db/timeseries/timeseries_constants.h"

namespace mongo::timeseries {
namespace {

Status bad(std::string msg) {
    return Status(ErrorCodes::BadValue, std::move(msg));
}

bool isColumn(const BSONElement& e) {
    return e.type() == BSONType::kBinData && e.binDataType() == BinDataType::Column;
}

/** -1 unless `s` is a non-negative decimal number without leading zeros. */
long long positionOf(StringData s) {
    if (s.empty() || s.size() > 9 || (s.size() > 1 && s[0] == '0'))
        return -1;
    long long v = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

/** The values of one data field (owned), in position order; missing positions skipped. */
struct FieldValues {
    std::vector<BSONObj> values;  // each {<field>: value}
    long long positions = 0;      // v1: count of entries; v2/v3: column length
};

Status decodeField(const BSONElement& field, int version, bool isTime, FieldValues* out) {
    const StringData name = field.fieldNameStringData();
    if (version == kTimeseriesControlUncompressedVersion) {
        if (field.type() != BSONType::kObject)
            return Status(ErrorCodes::TypeMismatch,
                          "Mismatch between time-series schema version and data field type. "
                          "Expected type object, but got " +
                              std::string(typeName(field.type())) + ".");
        long long prev = -1;
        for (auto e : field.Obj()) {
            const long long pos = positionOf(e.fieldNameStringData());
            if (isTime && pos != out->positions)
                return bad("The index '" + std::string(e.fieldNameStringData()) +
                           "' in time-series bucket data field '" + std::string(name) +
                           "' is not consecutively increasing from '0'");
            if (pos < 0)
                return bad("The index '" + std::string(e.fieldNameStringData()) +
                           "' in time-series bucket data field '" + std::string(name) +
                           "' is negative or non-numerical");
            if (pos <= prev)
                return bad("The index '" + std::string(e.fieldNameStringData()) +
                           "' in time-series bucket data field '" + std::string(name) +
                           "' is not in increasing order");
            prev = pos;
            BSONObjBuilder b;
            b.appendAs(e, name);
            out->values.push_back(b.obj());
            ++out->positions;
        }
        out->positions = isTime ? out->positions : prev + 1;
        return Status::OK();
    }
    if (!isColumn(field))
        return Status(ErrorCodes::TypeMismatch,
                      "Mismatch between time-series schema version and data field type. "
                      "Expected type binData, but got " +
                          std::string(typeName(field.type())) + ".");
    BSONColumn column(field);
    auto it = column.begin();
    while (it.next()) {
        ++out->positions;
        if (it.missing())
            continue;
        BSONObjBuilder b;
        b.appendAs(it.value(), name);
        out->values.push_back(b.obj());
    }
    if (!it.status().isOK())
        return it.status().withContext("Time-series bucket data field '" + std::string(name) +
                                       "' does not decode");
    return Status::OK();
}

Status checkTimeField(const FieldValues& time, int version, StringData name) {
    if (static_cast<long long>(time.values.size()) != time.positions)
        return bad("Time-series bucket has missing time fields");
    Date_t prev = Date_t::min();
    for (const auto& v : time.values) {
        BSONElement e = v.firstElement();
        if (e.type() != BSONType::kDate)
            return bad("Time-series bucket '" + std::string(name) + "' field is not a Date");
        if (version == kTimeseriesControlCompressedSortedVersion && e.date() < prev)
            return bad("Time-series bucket '" + std::string(name) +
                       "' field is not in ascending order");
        prev = e.date();
    }
    return Status::OK();
}

/** {name: obj[name]}, or {} when obj has no such field. */
BSONObj fieldOf(const BSONObj& obj, StringData name) {
    BSONObjBuilder b;
    if (BSONElement e = obj[name]; e.ok())
        b.append(e);
    return b.obj();
}

/**
 * control.min/max of one field against the values. The time field's control.min is the
 * bucket's rounded start: at most the observed minimum (a bucket rewritten after a delete
 * keeps its start, spec §6.3; collMod may since have changed the rounding); its control.max
 * is the observed maximum.
 */
Status checkMinMax(const FieldValues& field, StringData name, const BSONObj& controlMin,
                   const BSONObj& controlMax, const TimeseriesOptions& options,
                   const StringComparator* strings) {
    bucket_catalog::MinMax mm(strings);
    for (const auto& v : field.values)
        mm.updateField(v.firstElement(), 0);
    const BSONObj min = mm.min(), max = mm.max();
    const BSONObj cminObj = fieldOf(controlMin, name), cmaxObj = fieldOf(controlMax, name);
    bool minOk;
    if (name == options.getTimeField() && min[name].type() == BSONType::kDate) {
        const BSONElement cmin = controlMin[name];
        minOk = cmin.type() == BSONType::kDate && cmin.date() <= min[name].date();
    } else {
        minOk = cminObj.woCompare(fieldOf(min, name)) == 0;
    }
    if (!minOk || cmaxObj.woCompare(fieldOf(max, name)) != 0)
        return bad("Mismatch between time-series control and observed min or max for field " +
                   std::string(name) + ". Control had min " + cminObj.toString() + " and max " +
                   cmaxObj.toString() + ", but observed data had min " + min.toString() +
                   " and max " + max.toString() + ".");
    return Status::OK();
}

}  // namespace

Status validateBucket(const BSONObj& bucket, const TimeseriesOptions& options,
                      const StringComparator* strings) {
    if (bucket[kBucketIdFieldName].type() != BSONType::kOid)
        return bad("Time-series bucket '_id' is not an ObjectId");
    BSONElement control = bucket[kBucketControlFieldName];
    if (control.type() != BSONType::kObject)
        return bad("Time-series bucket has no 'control' object");
    BSONElement versionElem = control.Obj()[kBucketControlVersionFieldName];
    const int version = versionElem.isNumber() ? versionElem.numberInt() : 0;
    if (version != kTimeseriesControlUncompressedVersion &&
        version != kTimeseriesControlCompressedSortedVersion &&
        version != kTimeseriesControlCompressedUnsortedVersion)
        return bad("Invalid value for 'control.version'. Expected 1, 2, or 3, but got " +
                   (versionElem.ok() ? versionElem.toString(false) : std::string("nothing")) + ".");
    BSONElement minElem = control.Obj()[kBucketControlMinFieldName];
    BSONElement maxElem = control.Obj()[kBucketControlMaxFieldName];
    BSONElement dataElem = bucket[kBucketDataFieldName];
    if (minElem.type() != BSONType::kObject || maxElem.type() != BSONType::kObject ||
        dataElem.type() != BSONType::kObject)
        return bad("Time-series bucket 'control.min', 'control.max' and 'data' must be objects");
    const BSONObj controlMin = minElem.Obj(), controlMax = maxElem.Obj(), data = dataElem.Obj();
    if (data.nFields() != controlMin.nFields() || controlMin.nFields() != controlMax.nFields())
        return bad(
            "Mismatch between the number of time-series control fields and the number of "
            "data fields. Control had " +
            std::to_string(controlMin.nFields()) + " min fields and " +
            std::to_string(controlMax.nFields()) + " max fields, but observed data had " +
            std::to_string(data.nFields()) + " fields.");

    const StringData timeField = options.getTimeField();
    if (!data[timeField].ok())
        return bad("Time-series bucket has missing time fields");
    FieldValues time;
    if (Status s = decodeField(data[timeField], version, true, &time); !s.isOK())
        return s;
    if (Status s = checkTimeField(time, version, timeField); !s.isOK())
        return s;
    const long long count = time.positions;
    if (version != kTimeseriesControlUncompressedVersion) {
        BSONElement c = control.Obj()[kBucketControlCountFieldName];
        if (!c.isNumber())
            return bad("Time-series bucket 'control.count' is missing or not a number");
        if (c.numberLong() != count)
            return bad("The 'control.count' field (" + std::to_string(c.numberLong()) +
                       ") does not match the actual number of measurements in the document (" +
                       std::to_string(count) + ").");
    }
    if (Status s = checkMinMax(time, timeField, controlMin, controlMax, options, strings);
        !s.isOK())
        return s;
    for (auto field : data) {
        const StringData name = field.fieldNameStringData();
        if (name == timeField)
            continue;
        FieldValues values;
        if (Status s = decodeField(field, version, false, &values); !s.isOK())
            return s;
        if (values.positions > count)
            return bad("Time-series bucket data field '" + std::string(name) +
                       "' has more entries (" + std::to_string(values.positions) +
                       ") than the bucket has measurements (" + std::to_string(count) + ")");
        if (Status s = checkMinMax(values, name, controlMin, controlMax, options, strings);
            !s.isOK())
            return s;
    }
    return Status::OK();
}

}  // namespace mongo::timeseries
