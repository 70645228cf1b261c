#include "mongo/db/pipeline/timeseries_geo_near.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/document_source_geo_near.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

std::string topComponent(const std::string& path) {
    return path.substr(0, path.find('.'));
}

}  // namespace

std::optional<std::vector<BSONObj>> rewriteTimeseriesGeoNear(
    ExpressionContext* expCtx, const NamespaceString& bucketsNss,
    const std::vector<BSONObj>& viewStages, const std::vector<BSONObj>& userStages) {
    if (userStages.empty() || viewStages.size() != 1 ||
        userStages[0].firstElementFieldNameStringData() != DocumentSourceGeoNear::kStageName ||
        viewStages[0].firstElementFieldNameStringData() != "$_internalUnpackBucket")
        return std::nullopt;
    uassert(40323, "A pipeline stage specification object must contain exactly one field.",
            userStages[0].nFields() == 1);
    GeoNearSpec spec = GeoNearSpec::parse(userStages[0].firstElement(), expCtx);
    OperationContext* opCtx = expCtx->opCtx;
    BSONObj unpack = viewStages[0].firstElement().Obj();
    std::optional<std::string> metaField;
    if (unpack["metaField"].type() == BSONType::kString)
        metaField = unpack["metaField"].str();

    // Candidate (user key, bucket key, is meta) from the buckets collection's geo indexes.
    struct Candidate {
        std::string userKey, bucketKey;
        bool meta;
    };
    std::vector<Candidate> candidates;
    for (const auto& [field, type] : geoIndexFields(opCtx, bucketsNss)) {
        const StringData meta = timeseries::kBucketMetaFieldName;
        const StringData data = timeseries::kDataFieldNamePrefix;
        StringData f = field;
        if ((type == "2dsphere" || type == "2d") && metaField &&
            (f == meta || (f.starts_with(meta) && f.size() > meta.size() && f[meta.size()] == '.')))
            candidates.push_back({*metaField + field.substr(meta.size()), field, true});
        else if (type == "2dsphere_bucket" && f.starts_with(data))
            candidates.push_back({field.substr(data.size()), field, false});
    }
    const Candidate* chosen = nullptr;
    if (!spec.key.empty()) {
        for (const auto& c : candidates)
            if (c.userKey == spec.key)
                chosen = &c;
        // A measurement field needs no index: its distances are computed from the unpacked
        // measurements (the meta field's $geoNearCursor does need one).
        const bool onMeta = metaField && (spec.key == *metaField ||
                                          StringData(spec.key).starts_with(*metaField + "."));
        if (!chosen && !onMeta) {
            candidates.push_back(
                {spec.key, std::string(timeseries::kDataFieldNamePrefix) + spec.key, false});
            chosen = &candidates.back();
        }
        uassert(ErrorCodes::IndexNotFound,
                "$geoNear requires a 2d or 2dsphere index, but none were found on key " + spec.key,
                chosen);
    } else {
        uassert(ErrorCodes::IndexNotFound,
                "$geoNear requires a 2d or 2dsphere index, but none were found",
                !candidates.empty());
        uassert(ErrorCodes::IndexNotFound,
                "There is more than one 2dsphere index on " + bucketsNss.ns() +
                    "; unsure which to use for $geoNear",
                candidates.size() == 1);
        chosen = &candidates[0];
    }

    std::vector<BSONObj> out;
    if (chosen->meta) {
        GeoNearSpec cursorSpec = spec;
        cursorSpec.key = chosen->bucketKey;
        cursorSpec.query = BSONObj();
        out.push_back(BSON(DocumentSourceGeoNear::kCursorStageName << cursorSpec.toBSON()));
        BSONObjBuilder u;
        BSONArrayBuilder computed;
        std::vector<std::string> names;
        if (unpack["computedMetaProjFields"].type() == BSONType::kArray)
            for (auto c : unpack["computedMetaProjFields"].Obj())
                names.push_back(c.str());
        for (const std::string& f : {spec.distanceField, spec.includeLocs})
            if (!f.empty() && std::find(names.begin(), names.end(), topComponent(f)) == names.end())
                names.push_back(topComponent(f));
        for (const auto& n : names)
            computed.append(n);
        for (auto e : unpack)
            if (e.fieldNameStringData() != "computedMetaProjFields")
                u.append(e);
        u.append("computedMetaProjFields", computed.arr());
        out.push_back(BSON("$_internalUnpackBucket" << u.obj()));
        if (!spec.query.isEmpty())
            out.push_back(BSON("$match" << spec.query));
        return out;
    }
    // The bucket-level prefilter is a spherical region: flat distances (a legacy `near` without
    // `spherical`) are computed over every bucket.
    if (spec.maxDistance && (spec.spherical || spec.nearIsGeoJSON)) {
        double radians = *spec.maxDistance / spec.radiusScale();
        BSONObj region = BSON("$centerSphere"
                              << BSON_ARRAY(BSON_ARRAY(spec.nearLng << spec.nearLat) << radians));
        out.push_back(BSON(
            "$match" << BSON("$_internalBucketGeoWithin"
                             << BSON("intersectsRegion" << region << "field" << chosen->userKey))));
    }
    out.push_back(viewStages[0]);
    GeoNearSpec distSpec = spec;
    distSpec.key = chosen->userKey;
    out.push_back(BSON(DocumentSourceGeoNear::kDistanceStageName << distSpec.toBSON()));
    return out;
}

}  // namespace mongo
