#include "mongo/db/timeseries/timeseries_update_delete_util.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/bucket_level_predicates.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_index_schema_conversion_functions.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries {
namespace {

bool isLogicalArrayOperator(StringData name) {
    return name == "$and" || name == "$or" || name == "$nor";
}

/** Appends the renamed form of `query`'s fields to `out`; false when not meta-only. */
bool renameInto(const BSONObj& query, const std::string* metaField, BSONObjBuilder& out) {
    for (auto e : query) {
        StringData name = e.fieldNameStringData();
        if (isLogicalArrayOperator(name)) {
            if (e.type() != BSONType::kArray)
                return false;
            BSONArrayBuilder arr(out.subarrayStart(name));
            for (auto child : e.embeddedObject()) {
                if (child.type() != BSONType::kObject)
                    return false;
                BSONObjBuilder sub(arr.subobjStart());
                if (!renameInto(child.embeddedObject(), metaField, sub))
                    return false;
            }
            continue;
        }
        if (!metaField)
            return false;
        const std::string& m = *metaField;
        if (name == m) {
            out.appendAs(e, kBucketMetaFieldName);
        } else if (name.size() > m.size() && name.substr(0, m.size()) == m &&
                   name[m.size()] == '.') {
            out.appendAs(e, std::string(kBucketMetaFieldName) + std::string(name.substr(m.size())));
        } else {
            return false;  // another field, or $expr / $where / $text / $comment ...
        }
    }
    return true;
}

BSONObj andWithClosedFilter(const BSONObj& pred) {
    if (pred.isEmpty())
        return closedBucketFilter();
    return BSON("$and" << BSON_ARRAY(closedBucketFilter() << pred));  // upstream's order
}

}  // namespace

BSONObj closedBucketFilter() {
    return BSON(
        std::string(kBucketControlFieldName) + "." + std::string(kBucketControlClosedFieldName)
        << BSON("$not" << BSON("$eq" << true)));
}

std::optional<BSONObj> renameMetaOnlyPredicate(const BSONObj& query,
                                               const std::optional<std::string>& metaField) {
    BSONObjBuilder b;
    if (!renameInto(query, metaField ? &*metaField : nullptr, b))
        return std::nullopt;
    return b.obj();
}

TimeseriesQuerySplit splitTimeseriesQuery(const TimeseriesOptions& options, const BSONObj& query,
                                          bool usesExtendedRange, bool collationMatchesDefault) {
    TimeseriesQuerySplit split;
    if (auto renamed = renameMetaOnlyPredicate(query, options.getMetaField())) {
        split.bucketFilter = andWithClosedFilter(*renamed);
        return split;
    }
    BucketSpec spec;
    spec.timeField = options.getTimeField();
    spec.metaField = options.getMetaField();
    BucketPredicateOptions predOptions;
    predOptions.bucketMaxSpanSeconds = getMaxSpanSeconds(options);
    predOptions.assumeNoMixedSchemaData = true;
    predOptions.usesExtendedRange = usesExtendedRange;
    predOptions.collationMatchesDefault = collationMatchesDefault;
    BucketLevelPredicates preds = makeBucketLevelPredicates(query, spec, predOptions);
    split.bucketFilter = andWithClosedFilter(preds.loose);
    split.residualFilter = query.getOwned();
    return split;
}

StatusWith<BSONObj> translateTimeseriesHint(const TimeseriesOptions& options, const BSONObj& hint) {
    if (hint.isEmpty())
        return hint;
    StringData first = hint.firstElementFieldNameStringData();
    if (first == "$natural" || first == "$hint")
        return hint.getOwned();
    auto key = createBucketsIndexSpecFromTimeseriesIndexSpec(options, hint);
    if (!key.isOK())
        return Status(ErrorCodes::BadValue,
                      "hint provided does not correspond to an existing index");
    return key.getValue();
}

}  // namespace mongo::timeseries
