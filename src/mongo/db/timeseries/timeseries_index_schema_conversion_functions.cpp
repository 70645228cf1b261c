#include "mongo/db/timeseries/timeseries_index_schema_conversion_functions.h"

#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries {
namespace {

constexpr StringData k2dsphere = "2dsphere";
constexpr StringData k2dsphereBucket = "2dsphere_bucket";

std::string str(StringData s) {
    return std::string(s);
}

bool startsWith(StringData s, StringData prefix) {
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

/** `<meta>` or `<meta>.<path>`: the suffix after the meta field name ("" or ".path"). */
std::optional<StringData> metaSuffix(const TimeseriesOptions& options, StringData field) {
    const auto& meta = options.getMetaField();
    if (!meta)
        return std::nullopt;
    if (field == *meta)
        return StringData();
    if (field.size() > meta->size() && startsWith(field, *meta) && field[meta->size()] == '.')
        return field.substr(meta->size());
    return std::nullopt;
}

bool isTextIndex(const BSONObj& key) {
    for (auto&& e : key)
        if (e.type() == BSONType::kString && e.valueStringData() == "text")
            return true;
    return false;
}

enum class KeyMode { kIndex, kShardKey };

StatusWith<BSONObj> convertKey(const TimeseriesOptions& options, const BSONObj& key, KeyMode mode) {
    if (key.isEmpty())
        return Status(ErrorCodes::BadValue, "Index keys cannot be an empty field");
    StringData first = key.firstElementFieldNameStringData();
    if (first == "$hint" || first == "$natural")
        return Status(ErrorCodes::BadValue,
                      "Invalid index spec: '" + str(first) + "' is not a valid index key");
    const std::string& timeField = options.getTimeField();
    BSONObjBuilder b;
    for (auto&& e : key) {
        StringData field = e.fieldNameStringData();
        if (field == timeField) {
            if (!e.isNumber())
                return Status(ErrorCodes::BadValue,
                              "Invalid index spec for time-series collection: " + key.toString() +
                                  ". Indexes on the time field must be ascending or descending "
                                  "(numbers only): " +
                                  e.toString());
            if (mode == KeyMode::kShardKey) {
                b.appendAs(e, str(kControlMinFieldNamePrefix) + timeField);
            } else if (e.numberDouble() >= 0) {
                b.appendAs(e, str(kControlMinFieldNamePrefix) + timeField);
                b.appendAs(e, str(kControlMaxFieldNamePrefix) + timeField);
            } else {
                b.appendAs(e, str(kControlMaxFieldNamePrefix) + timeField);
                b.appendAs(e, str(kControlMinFieldNamePrefix) + timeField);
            }
            continue;
        }
        if (auto suffix = metaSuffix(options, field)) {
            b.appendAs(e, str(kBucketMetaFieldName) + str(*suffix));
            continue;
        }
        if (mode == KeyMode::kShardKey)
            return Status(ErrorCodes::BadValue,
                          "Only the time field and the metaField may be used in a shard key of a "
                          "time-series collection: " +
                              str(field));
        if (field == "$**" || field.ends_with(".$**"))
            return Status(ErrorCodes::BadValue,
                          "Invalid index spec for time-series collection: " + key.toString() +
                              ". Wildcard indexes are not supported on measurement fields, only "
                              "on the metaField: " +
                              e.toString());
        if (e.type() == BSONType::kString && e.valueStringData() == k2dsphere) {
            b.append(str(kDataFieldNamePrefix) + str(field), k2dsphereBucket);
            continue;
        }
        if (!e.isNumber())
            return Status(ErrorCodes::BadValue,
                          "Invalid index spec for time-series collection: " + key.toString() +
                              ". Indexes on measurement fields must be ascending or descending "
                              "(numbers only), or '2dsphere': " +
                              e.toString());
        if (e.numberDouble() >= 0) {
            b.appendAs(e, str(kControlMinFieldNamePrefix) + str(field));
            b.appendAs(e, str(kControlMaxFieldNamePrefix) + str(field));
        } else {
            b.appendAs(e, str(kControlMaxFieldNamePrefix) + str(field));
            b.appendAs(e, str(kControlMinFieldNamePrefix) + str(field));
        }
    }
    return b.obj();
}

bool sameDirection(const BSONElement& a, const BSONElement& b) {
    return a.isNumber() && b.isNumber() && a.numberDouble() == b.numberDouble();
}

/** Only the time field and meta paths: the key reverses without originalSpec. */
bool keyIsTimeOrMetaOnly(const TimeseriesOptions& options, const BSONObj& key) {
    for (auto&& e : key) {
        StringData f = e.fieldNameStringData();
        if (f != options.getTimeField() && !metaSuffix(options, f))
            return false;
    }
    return true;
}

/** True when `filter` names only the metaField (or its sub-paths) and operators. */
bool filterIsMetaOnly(const TimeseriesOptions& options, const BSONObj& filter) {
    for (auto&& e : filter) {
        StringData f = e.fieldNameStringData();
        if (f == "$and" || f == "$or" || f == "$nor") {
            if (e.type() != BSONType::kArray)
                return false;
            for (auto&& child : e.Obj())
                if (child.type() != BSONType::kObject || !filterIsMetaOnly(options, child.Obj()))
                    return false;
            continue;
        }
        if (!metaSuffix(options, f))
            return false;
    }
    return !filter.isEmpty();
}

}  // namespace

StatusWith<BSONObj> createBucketsIndexSpecFromTimeseriesIndexSpec(const TimeseriesOptions& options,
                                                                  const BSONObj& timeseriesKey) {
    return convertKey(options, timeseriesKey, KeyMode::kIndex);
}

StatusWith<BSONObj> createBucketsShardKeySpecFromTimeseriesShardKeySpec(
    const TimeseriesOptions& options, const BSONObj& timeseriesKey) {
    return convertKey(options, timeseriesKey, KeyMode::kShardKey);
}

std::optional<BSONObj> createTimeseriesIndexSpecFromBucketsIndexSpec(
    const TimeseriesOptions& options, const BSONObj& bucketsKey) {
    const std::string& timeField = options.getTimeField();
    std::vector<BSONElement> elems(bucketsKey.begin(), bucketsKey.end());
    BSONObjBuilder b;
    const std::string minPrefix = str(kControlMinFieldNamePrefix);
    const std::string maxPrefix = str(kControlMaxFieldNamePrefix);
    for (size_t i = 0; i < elems.size(); ++i) {
        const BSONElement& e = elems[i];
        StringData f = e.fieldNameStringData();
        if (f == kBucketMetaFieldName ||
            (startsWith(f, kBucketMetaFieldName) && f.size() > 4 && f[4] == '.')) {
            if (!options.getMetaField())
                return std::nullopt;
            b.appendAs(e, *options.getMetaField() + str(f.substr(4)));
            continue;
        }
        if (startsWith(f, kDataFieldNamePrefix) && e.type() == BSONType::kString &&
            e.valueStringData() == k2dsphereBucket) {
            b.append(f.substr(kDataFieldNamePrefix.size()), k2dsphere);
            continue;
        }
        const bool isMin = startsWith(f, minPrefix);
        const bool isMax = startsWith(f, maxPrefix);
        if ((!isMin && !isMax) || !e.isNumber())
            return std::nullopt;
        StringData field = f.substr(minPrefix.size());
        const bool ascending = e.numberDouble() >= 0;
        const std::string partner = (isMin ? maxPrefix : minPrefix) + str(field);
        const bool hasPartner = i + 1 < elems.size() &&
                                elems[i + 1].fieldNameStringData() == partner &&
                                sameDirection(e, elems[i + 1]);
        if (hasPartner && isMin == ascending) {
            b.appendAs(e, field);
            ++i;
            continue;
        }
        if (field == timeField && isMin && !hasPartner) {
            b.appendAs(e, field);  // e.g. the TTL key {control.min.<time>: 1}
            continue;
        }
        return std::nullopt;
    }
    BSONObj out = b.obj();
    if (out.isEmpty())
        return std::nullopt;
    return out;
}

namespace {

// control.min/max bounds for a comparison on a measurement or the time field.
Status appendComparison(const TimeseriesOptions& options, StringData field, StringData op,
                        const BSONElement& operand, BSONArrayBuilder& out) {
    const std::string minPath = str(kControlMinFieldNamePrefix) + str(field);
    const std::string maxPath = str(kControlMaxFieldNamePrefix) + str(field);
    auto pred = [&](const std::string& path, StringData internalOp, const BSONElement& v) {
        BSONObjBuilder inner;
        inner.appendAs(v, internalOp);
        out.append(BSON(path << inner.obj()));
    };
    const bool isTime = field == options.getTimeField();
    if (operand.isABSONObj() || operand.isNull() || operand.type() == BSONType::kRegEx ||
        (isTime && operand.type() != BSONType::kDate))
        return Status(ErrorCodes::InvalidOptions,
                      "Unsupported partialFilterExpression predicate on time-series field '" +
                          str(field) + "'");
    if (isTime) {
        const Date_t d = operand.date();
        const auto span = std::chrono::seconds(getMaxSpanSeconds(options));
        auto date = [](Date_t t) { return BSON("" << t); };
        if (op == "$eq") {
            pred(minPath, "$_internalExprLte", operand);
            pred(minPath, "$_internalExprGte", date(d - span).firstElement());
            pred(maxPath, "$_internalExprGte", operand);
            pred(maxPath, "$_internalExprLte", date(d + span).firstElement());
        } else if (op == "$gt" || op == "$gte") {
            pred(maxPath, op == "$gt" ? "$_internalExprGt" : "$_internalExprGte", operand);
            pred(minPath, op == "$gt" ? "$_internalExprGt" : "$_internalExprGte",
                 date(d - span).firstElement());
        } else {
            pred(minPath, op == "$lt" ? "$_internalExprLt" : "$_internalExprLte", operand);
            pred(maxPath, op == "$lt" ? "$_internalExprLt" : "$_internalExprLte",
                 date(d + span).firstElement());
        }
        return Status::OK();
    }
    if (op == "$eq") {
        pred(minPath, "$_internalExprLte", operand);
        pred(maxPath, "$_internalExprGte", operand);
    } else if (op == "$gt") {
        pred(maxPath, "$_internalExprGt", operand);
    } else if (op == "$gte") {
        pred(maxPath, "$_internalExprGte", operand);
    } else if (op == "$lt") {
        pred(minPath, "$_internalExprLt", operand);
    } else {
        pred(minPath, "$_internalExprLte", operand);
    }
    return Status::OK();
}

Status translateField(const TimeseriesOptions& options, const BSONElement& e,
                      BSONArrayBuilder& out) {
    StringData field = e.fieldNameStringData();
    if (auto suffix = metaSuffix(options, field)) {
        BSONObjBuilder b;
        b.appendAs(e, str(kBucketMetaFieldName) + str(*suffix));
        out.append(b.obj());
        return Status::OK();
    }
    const bool isOperatorObject = e.type() == BSONType::kObject && !e.Obj().isEmpty() &&
                                  e.Obj().firstElementFieldNameStringData()[0] == '$';
    if (!isOperatorObject)
        return appendComparison(options, field, "$eq", e, out);
    for (auto&& op : e.Obj()) {
        StringData name = op.fieldNameStringData();
        if (name == "$eq" || name == "$gt" || name == "$gte" || name == "$lt" || name == "$lte") {
            Status s = appendComparison(options, field, name, op, out);
            if (!s.isOK())
                return s;
        } else if (name == "$exists" && op.trueValue()) {
            out.append(
                BSON(str(kControlMinFieldNamePrefix) + str(field) << BSON("$exists" << true)));
            out.append(
                BSON(str(kControlMaxFieldNamePrefix) + str(field) << BSON("$exists" << true)));
        } else {
            return Status(ErrorCodes::InvalidOptions,
                          "Unsupported partialFilterExpression operator on time-series "
                          "measurement '" +
                              str(field) + "': " + str(name));
        }
    }
    return Status::OK();
}

}  // namespace

StatusWith<BSONObj> translatePartialFilterExpression(const TimeseriesOptions& options,
                                                     const BSONObj& filter) {
    BSONArrayBuilder ands;
    for (auto&& e : filter) {
        StringData f = e.fieldNameStringData();
        if (f == "$and" || f == "$or") {
            if (e.type() != BSONType::kArray)
                return Status(ErrorCodes::InvalidOptions, str(f) + " must be an array");
            BSONArrayBuilder children;
            for (auto&& child : e.Obj()) {
                if (child.type() != BSONType::kObject)
                    return Status(ErrorCodes::InvalidOptions, str(f) + " entries must be objects");
                auto t = translatePartialFilterExpression(options, child.Obj());
                if (!t.isOK())
                    return t;
                children.append(t.getValue());
            }
            ands.append(BSON(f << children.arr()));
            continue;
        }
        if (!f.empty() && f[0] == '$')
            return Status(ErrorCodes::InvalidOptions,
                          "Unsupported partialFilterExpression operator on a time-series "
                          "collection: " +
                              str(f));
        Status s = translateField(options, e, ands);
        if (!s.isOK())
            return s;
    }
    BSONArray arr = ands.arr();
    if (arr.nFields() == 1)
        return arr.firstElement().Obj().getOwned();
    return BSON("$and" << arr);
}

bool shouldIncludeOriginalSpec(const TimeseriesOptions& options,
                               const BSONObj& timeseriesIndexSpec) {
    if (timeseriesIndexSpec.hasField(kPartialFilterExpressionFieldName))
        return true;
    BSONElement key = timeseriesIndexSpec[kKeyFieldName];
    return key.type() != BSONType::kObject || !keyIsTimeOrMetaOnly(options, key.Obj());
}

StatusWith<BSONObj> createBucketsIndexFromTimeseriesIndex(const TimeseriesOptions& options,
                                                          const BSONObj& spec) {
    BSONElement keyElem = spec[kKeyFieldName];
    if (keyElem.type() != BSONType::kObject)
        return Status(ErrorCodes::CannotCreateIndex, "Index spec is missing its 'key' object");
    const BSONObj key = keyElem.Obj();
    if (spec["unique"].trueValue())
        return Status(ErrorCodes::InvalidOptions,
                      "Unique indexes are not supported on time-series collections");
    if (isTextIndex(key))
        return Status(ErrorCodes::InvalidOptions,
                      "Text indexes are not supported on time-series collections");
    if (spec["sparse"].trueValue()) {
        for (auto&& e : key)
            if (e.fieldNameStringData() != options.getTimeField() &&
                !metaSuffix(options, e.fieldNameStringData()))
                return Status(ErrorCodes::InvalidOptions,
                              "Sparse indexes are not supported on time-series measurements");
    }
    BSONElement partial = spec[kPartialFilterExpressionFieldName];
    if (!partial.eoo() && spec.hasField("collation"))
        return Status(ErrorCodes::IndexOptionsConflict,
                      "On a time-series collection, partialFilterExpression and collation "
                      "arguments are incompatible");

    StatusWith<BSONObj> bucketsKey = BSONObj();
    if (spec.hasField("expireAfterSeconds")) {
        if (key.nFields() != 1)
            return Status(ErrorCodes::CannotCreateIndex,
                          "TTL indexes are single-field indexes, compound indexes do not "
                          "support TTL. Index spec: " +
                              spec.toString());
        if (key.firstElementFieldNameStringData() != options.getTimeField())
            return Status(ErrorCodes::InvalidOptions,
                          "TTL indexes on non-time fields are not supported on time-series "
                          "collections");
        if (partial.type() != BSONType::kObject || !filterIsMetaOnly(options, partial.Obj()))
            return Status(ErrorCodes::InvalidOptions,
                          "TTL indexes on time-series collections require a "
                          "partialFilterExpression on the metaField");
        bucketsKey = BSON(str(kControlMinFieldNamePrefix) + options.getTimeField() << 1);
    } else {
        bucketsKey = createBucketsIndexSpecFromTimeseriesIndexSpec(options, key);
        if (!bucketsKey.isOK())
            return Status(ErrorCodes::CannotCreateIndex,
                          bucketsKey.getStatus().reason() + " Command request: " + spec.toString());
    }

    BSONObjBuilder b;
    for (auto&& e : spec) {
        StringData f = e.fieldNameStringData();
        if (f == kKeyFieldName) {
            b.append(kKeyFieldName, bucketsKey.getValue());
        } else if (f == kPartialFilterExpressionFieldName) {
            if (e.type() != BSONType::kObject)
                return Status(ErrorCodes::TypeMismatch,
                              "partialFilterExpression must be an object");
            auto translated = translatePartialFilterExpression(options, e.Obj());
            if (!translated.isOK())
                return translated.getStatus();
            b.append(kPartialFilterExpressionFieldName, translated.getValue());
        } else if (f != kOriginalSpecFieldName) {
            b.append(e);
        }
    }
    if (shouldIncludeOriginalSpec(options, spec))
        b.append(kOriginalSpecFieldName, spec);
    return b.obj();
}

std::optional<BSONObj> createTimeseriesIndexFromBucketsIndex(const TimeseriesOptions& options,
                                                             const BSONObj& bucketsIndexSpec) {
    BSONElement original = bucketsIndexSpec[kOriginalSpecFieldName];
    if (original.type() == BSONType::kObject)
        return original.Obj().getOwned();
    BSONElement key = bucketsIndexSpec[kKeyFieldName];
    if (key.type() != BSONType::kObject)
        return std::nullopt;
    auto userKey = createTimeseriesIndexSpecFromBucketsIndexSpec(options, key.Obj());
    if (!userKey)
        return std::nullopt;
    BSONObjBuilder b;
    for (auto&& e : bucketsIndexSpec) {
        if (e.fieldNameStringData() == kKeyFieldName)
            b.append(kKeyFieldName, *userKey);
        else
            b.append(e);
    }
    return b.obj();
}

bool isReopeningIndex(const TimeseriesOptions& options, const BSONObj& bucketsIndexSpec) {
    if (bucketsIndexSpec.hasField(kPartialFilterExpressionFieldName))
        return false;
    BSONElement key = bucketsIndexSpec[kKeyFieldName];
    if (key.type() != BSONType::kObject)
        return false;
    BSONObjIterator it = key.Obj().begin();
    const std::string minTime = str(kControlMinFieldNamePrefix) + options.getTimeField();
    if (options.getMetaField()) {
        if (!it.more() || (*it).fieldNameStringData() != kBucketMetaFieldName)
            return false;
        ++it;
    }
    return it.more() && (*it).fieldNameStringData() == minTime;
}

}  // namespace mongo::timeseries
