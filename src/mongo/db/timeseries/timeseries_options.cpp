#include "mongo/db/timeseries/timeseries_options.h"

#include <climits>
#include <cmath>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/coll_mod.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/idl/ddl_commands_gen.h"
#include "mongo/idl/generic_argument.h"

namespace mongo::timeseries {
namespace {

constexpr int kDefaultSpanSeconds = 3600;
constexpr int kDefaultRoundingSeconds = 60;

std::string str(StringData s) {
    return std::string(s);
}

bool isWhitelistedCreateOption(StringData name) {
    return name == "storageEngine" || name == "indexOptionDefaults" || name == "collation" ||
           name == "timeseries" || name == "expireAfterSeconds" || name == "temp";
}

Status invalid(std::string msg) {
    return Status(ErrorCodes::InvalidOptions, std::move(msg));
}

}  // namespace

int getMaxSpanSecondsFromGranularity(BucketGranularity granularity) {
    switch (granularity) {
        case BucketGranularity::kSeconds:
            return 60 * 60;
        case BucketGranularity::kMinutes:
            return 60 * 60 * 24;
        case BucketGranularity::kHours:
            return 60 * 60 * 24 * 30;
    }
    MONGO_UNREACHABLE;
}

int getBucketRoundingSecondsFromGranularity(BucketGranularity granularity) {
    switch (granularity) {
        case BucketGranularity::kSeconds:
            return 60;
        case BucketGranularity::kMinutes:
            return 60 * 60;
        case BucketGranularity::kHours:
            return 60 * 60 * 24;
    }
    MONGO_UNREACHABLE;
}

int getMaxSpanSeconds(const TimeseriesOptions& options) {
    if (auto span = options.getBucketMaxSpanSeconds())
        return *span;
    if (auto g = options.getGranularity())
        return getMaxSpanSecondsFromGranularity(*g);
    return kDefaultSpanSeconds;
}

int getBucketRoundingSeconds(const TimeseriesOptions& options) {
    if (auto g = options.getGranularity())
        return getBucketRoundingSecondsFromGranularity(*g);
    if (auto r = options.getBucketRoundingSeconds())
        return *r;
    return kDefaultRoundingSeconds;
}

Date_t roundTimestampBySeconds(Date_t time, long long roundingSeconds) {
    const long long unit = roundingSeconds * 1000;
    const long long ms = time.toMillisSinceEpoch();
    long long rem = ms % unit;
    if (rem < 0)
        rem += unit;
    if (ms < LLONG_MIN + rem)
        return Date_t::min();
    return Date_t::fromMillisSinceEpoch(ms - rem);
}

Date_t roundTimestampToGranularity(Date_t time, const TimeseriesOptions& options) {
    return roundTimestampBySeconds(time, getBucketRoundingSeconds(options));
}

Status validateTimeAndMetaFields(StringData ns, const TimeseriesOptions& options) {
    const std::string& timeField = options.getTimeField();
    const auto& metaField = options.getMetaField();
    if (timeField.find('\0') != std::string::npos ||
        (metaField && metaField->find('\0') != std::string::npos)) {
        return Status(ErrorCodes::BadValue,
                      "The 'timeField' or the 'metaField' cannot contain embedded null bytes");
    }
    if (timeField.find('.') != std::string::npos)
        return invalid(str(ns) + ": 'timeField' must be a top-level field and not contain a '.'");
    if (metaField) {
        if (*metaField == "_id")
            return invalid(str(ns) + ": 'metaField' cannot be \"_id\"");
        if (*metaField == timeField)
            return invalid(str(ns) + ": 'metaField' cannot be the same as 'timeField'");
        if (metaField->find('.') != std::string::npos)
            return invalid(str(ns) +
                           ": 'metaField' must be a top-level field and not contain a '.'");
    }
    return Status::OK();
}

Status validateAndSetBucketingParameters(TimeseriesOptions& options) {
    auto granularity = options.getGranularity();
    auto span = options.getBucketMaxSpanSeconds();
    auto rounding = options.getBucketRoundingSeconds();
    if (granularity) {
        const int preset = getMaxSpanSecondsFromGranularity(*granularity);
        if (span && *span != preset) {
            return invalid(
                "Time-series 'bucketMaxSpanSeconds' cannot be set to a value other "
                "than the default of " +
                std::to_string(preset) + " for the provided granularity");
        }
        if (rounding) {
            return invalid(
                "Time-series 'bucketRoundingSeconds' cannot be set alongside the "
                "granularity parameter");
        }
        options.setBucketMaxSpanSeconds(preset);
        return Status::OK();
    }
    if (!span && !rounding) {
        options.setGranularity(BucketGranularity::kSeconds);
        options.setBucketMaxSpanSeconds(kDefaultSpanSeconds);
        return Status::OK();
    }
    if (!span || !rounding || *span != *rounding) {
        return invalid(
            "Time-series 'bucketRoundingSeconds' must be equal to 'bucketMaxSpanSeconds'");
    }
    return Status::OK();
}

/**
 * clusteredIndex on a create of system.buckets.* with `timeseries`: only the legacy `true`.
 * A sub-document is parsed first (its IDL errors, e.g. 40414 without `key`), then refused
 * with 5979703; `false` is InvalidOptions. (A wrong type failed the create command's parse.)
 */
static Status validateBucketsClusteredIndex(const BSONElement& e) {
    if (e.type() == BSONType::kObject) {
        auto spec = ClusteredIndexSpec::parseNoThrow(e.Obj(), "create.clusteredIndex");
        if (!spec.isOK())
            return spec.getStatus();
        return Status(ErrorCodes::Error(5979703),
                      "Time-series buckets collections require the legacy clusteredIndex format "
                      "{clusteredIndex: true}");
    }
    if (!e.trueValue())
        return invalid(
            "Time-series buckets collections must be clustered: "
            "{clusteredIndex: false} is not allowed");
    return Status::OK();
}

Status validateCreateCommandFields(StringData ns, const BSONObj& cmd, bool isBucketsNs) {
    bool first = true;
    for (auto&& e : cmd) {
        if (first) {
            first = false;
            continue;
        }
        StringData name = e.fieldNameStringData();
        if (isWhitelistedCreateOption(name) || isGenericArgument(name))
            continue;
        if (name == "capped" && !e.trueValue())
            continue;
        if (isBucketsNs && name == "validator")
            continue;
        if (isBucketsNs && name == "clusteredIndex") {
            if (Status s = validateBucketsClusteredIndex(e); !s.isOK())
                return s;
            continue;
        }
        return invalid(str(ns) + ": 'timeseries' is not allowed with '" + str(name) + "'");
    }
    return Status::OK();
}

Status validateExpireAfterSeconds(const BSONElement& value) {
    return validateClusteredExpireAfterSeconds(value);
}

bool isValidTimeseriesGranularityTransition(BucketGranularity current, BucketGranularity target) {
    if (current == target)
        return true;
    return (current == BucketGranularity::kSeconds &&
            (target == BucketGranularity::kMinutes || target == BucketGranularity::kHours)) ||
           (current == BucketGranularity::kMinutes && target == BucketGranularity::kHours);
}

namespace {

StatusWith<CollModTimeseriesResult> applyGranularity(const TimeseriesOptions& current,
                                                     const CollModTimeseries& mod,
                                                     BucketGranularity target) {
    const int presetSpan = getMaxSpanSecondsFromGranularity(target);
    if (auto span = mod.getBucketMaxSpanSeconds(); span && *span != presetSpan) {
        return invalid(
            "Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other "
            "than the default for the provided granularity");
    }
    if (mod.getBucketRoundingSeconds()) {
        return invalid(
            "Timeseries 'bucketRoundingSeconds' is not configurable alongside the "
            "granularity parameter");
    }
    CollModTimeseriesResult result{current, false};
    if (auto cur = current.getGranularity()) {
        if (*cur == target)
            return result;
        if (!isValidTimeseriesGranularityTransition(*cur, target)) {
            return invalid(
                "Invalid transition for timeseries.granularity. Can only transition "
                "from 'seconds' to 'minutes' or 'minutes' to 'hours'.");
        }
    } else if (presetSpan < getMaxSpanSeconds(current) ||
               getBucketRoundingSecondsFromGranularity(target) <
                   getBucketRoundingSeconds(current)) {
        return invalid(
            "Invalid transition for timeseries.granularity. The granularity's "
            "bucketing parameters must be greater than or equal to the current "
            "'bucketMaxSpanSeconds' and 'bucketRoundingSeconds'.");
    }
    result.options.setGranularity(target);
    result.options.setBucketMaxSpanSeconds(presetSpan);
    result.options.setBucketRoundingSeconds(std::nullopt);
    result.changed = true;
    return result;
}

}  // namespace

StatusWith<CollModTimeseriesResult> applyTimeseriesOptionsModifications(
    const TimeseriesOptions& current, const CollModTimeseries& mod) {
    if (auto target = mod.getGranularity())
        return applyGranularity(current, mod, *target);

    auto span = mod.getBucketMaxSpanSeconds();
    auto rounding = mod.getBucketRoundingSeconds();
    CollModTimeseriesResult result{current, false};
    if (!span && !rounding)
        return result;
    if (!span || !rounding) {
        return invalid(
            "Timeseries 'bucketMaxSpanSeconds' and 'bucketRoundingSeconds' need to "
            "be set alongside each other");
    }
    if (*span != *rounding) {
        return invalid(
            "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'");
    }
    const int curSpan = getMaxSpanSeconds(current);
    const int curRounding = getBucketRoundingSeconds(current);
    if (*span < curSpan) {
        return invalid(
            "Timeseries 'bucketMaxSpanSeconds' needs to be equal or greater to "
            "transition");
    }
    if (*rounding < curRounding) {
        return invalid(
            "Timeseries 'bucketRoundingSeconds' needs to be equal or greater to "
            "transition");
    }
    if (*span == curSpan && *rounding == curRounding && !current.getGranularity())
        return result;
    result.options.setGranularity(std::nullopt);
    result.options.setBucketRoundingSeconds(*rounding);
    result.options.setBucketMaxSpanSeconds(*span);
    result.changed = true;
    return result;
}

bool optionsAreEqual(const TimeseriesOptions& a, const TimeseriesOptions& b) {
    TimeseriesOptions na = a, nb = b;
    if (!validateAndSetBucketingParameters(na).isOK() ||
        !validateAndSetBucketingParameters(nb).isOK())
        return false;
    return na.toBSON().binaryEqual(nb.toBSON());
}

BSONObj generateViewPipelineStage(const TimeseriesOptions& options) {
    BSONObjBuilder stage;
    {
        BSONObjBuilder spec(stage.subobjStart(kUnpackBucketStageName));
        spec.append("timeField", options.getTimeField());
        if (auto& meta = options.getMetaField())
            spec.append("metaField", *meta);
        spec.append("bucketMaxSpanSeconds", static_cast<int>(getMaxSpanSeconds(options)));
    }
    return stage.obj();
}

std::vector<BSONObj> generateViewPipeline(const TimeseriesOptions& options) {
    return {generateViewPipelineStage(options)};
}

namespace {

BSONObj timeBoundSchema(StringData timeField) {
    BSONObjBuilder b;
    b.append("bsonType", "object");
    b.appendArray("required", BSON_ARRAY(timeField));
    b.append("properties", BSON(timeField << BSON("bsonType"
                                                  << "date")));
    return b.obj();
}

}  // namespace

BSONObj generateTimeseriesValidator(int bucketVersion, StringData timeField) {
    const bool compressed = bucketVersion >= kTimeseriesControlCompressedSortedVersion;
    BSONObjBuilder controlProps;
    controlProps.append("version", BSON("bsonType"
                                        << "number"));
    controlProps.append("min", timeBoundSchema(timeField));
    controlProps.append("max", timeBoundSchema(timeField));
    controlProps.append("closed", BSON("bsonType"
                                       << "bool"));
    if (compressed)
        controlProps.append("count", BSON("bsonType"
                                          << "number"
                                          << "minimum" << 1));

    BSONObjBuilder control;
    control.append("bsonType", "object");
    control.appendArray("required", BSON_ARRAY("version"
                                               << "min"
                                               << "max"));
    control.append("properties", controlProps.obj());
    if (compressed)
        control.append("additionalProperties", false);

    BSONObjBuilder props;
    props.append("_id", BSON("bsonType"
                             << "objectId"));
    props.append("control", control.obj());
    props.append("data", BSON("bsonType"
                              << "object"));
    props.append("meta", BSONObj());

    BSONObjBuilder schema;
    schema.append("bsonType", "object");
    schema.appendArray("required", BSON_ARRAY("_id"
                                              << "control"
                                              << "data"));
    schema.append("properties", props.obj());
    schema.append("additionalProperties", false);
    return BSON("$jsonSchema" << schema.obj());
}

BSONObj makeBucketsCollectionOptions(const TimeseriesOptions& options,
                                     std::optional<long long> expireAfterSeconds,
                                     const BSONObj& collation, const BSONObj& extra) {
    BSONObjBuilder b;
    b.append("validator",
             generateTimeseriesValidator(kTimeseriesControlLatestVersion, options.getTimeField()));
    b.append("clusteredIndex", true);
    b.append("timeseries", options.toBSON());
    if (expireAfterSeconds)
        b.append("expireAfterSeconds", *expireAfterSeconds);
    if (!collation.isEmpty())
        b.append("collation", collation);
    for (auto&& e : extra) {
        StringData n = e.fieldNameStringData();
        if (n == "storageEngine" || n == "indexOptionDefaults" || n == "temp")
            b.append(e);
    }
    return b.obj();
}

BSONObj filterBucketsOptionsForView(const BSONObj& bucketsOptions) {
    BSONObjBuilder b;
    for (auto&& e : bucketsOptions) {
        if (isWhitelistedCreateOption(e.fieldNameStringData()))
            b.append(e);
    }
    return b.obj();
}

std::optional<BSONObj> generateDefaultIndexSpec(const TimeseriesOptions& options,
                                                const BSONObj& collation) {
    const auto& meta = options.getMetaField();
    if (!meta)
        return std::nullopt;
    const std::string& time = options.getTimeField();
    BSONObjBuilder key;
    key.append(kBucketMetaFieldName, 1);
    key.append(str(kControlMinFieldNamePrefix) + time, 1);
    key.append(str(kControlMaxFieldNamePrefix) + time, 1);
    BSONObjBuilder spec;
    spec.append("v", 2);
    spec.append("key", key.obj());
    spec.append("name", *meta + "_1_" + time + "_1");
    if (!collation.isEmpty())
        spec.append("collation", collation);
    return spec.obj();
}

}  // namespace mongo::timeseries
