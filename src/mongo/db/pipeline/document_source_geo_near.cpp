#include "mongo/db/pipeline/document_source_geo_near.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <shared_mutex>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/geo/geo_query.h"
#include "mongo/db/geo/geometry_container.h"
#include "mongo/db/matcher/expression_geo.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/matcher/path.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_path.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/value.h"
#include "mongo/db/service_context.h"
#include "mongo/idl/document_source_geo_near_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

/**
 * minDistance/maxDistance: a number, or (with `expCtx`) an expression that does not read the
 * document ($$variables of `let`, operators over constants), evaluated once here. One that
 * reads a field is refused with `nonConstantCode` (upstream's 7555701 / 7555702).
 */
double parseDistance(const BSONElement& e, StringData name, ExpressionContext* expCtx,
                     int nonConstantCode) {
    double d = 0;
    if (e.isNumber()) {
        d = e.numberDouble();
    } else {
        const bool expression =
            e.type() == BSONType::kObject ||
            (e.type() == BSONType::kString && e.valueStringData().starts_with("$"));
        uassert(ErrorCodes::TypeMismatch,
                "$geoNear requires '" + std::string(name) + "' to be a number",
                expCtx && expression);
        auto v = Expression::evaluateConstantOperand(expCtx, e, expCtx->makeParseState());
        uassert(nonConstantCode,
                "$geoNear requires '" + std::string(name) +
                    "' to evaluate to a constant number, not to depend on the document: " +
                    e.toString(false),
                v.has_value());
        uassert(ErrorCodes::TypeMismatch,
                "$geoNear requires '" + std::string(name) + "' to evaluate to a number, found " +
                    v->toString(),
                v->numeric());
        d = v->getDouble();
    }
    uassert(ErrorCodes::BadValue, "$geoNear '" + std::string(name) + "' must be nonnegative",
            d >= 0);
    return d;
}

}  // namespace

GeoNearSpec GeoNearSpec::parse(const BSONElement& e, ExpressionContext* expCtx) {
    uassert(ErrorCodes::FailedToParse,
            "$geoNear must take a nested object but found: " + e.toString(),
            e.type() == BSONType::kObject);
    GeoNearSpec s;
    const auto spec = DocumentSourceGeoNearSpec::parse(IDLParserContext("$geoNear"), e.Obj());
    for (const auto& [name, removed] : {std::pair{"num", spec.getNum().has_value()},
                                        std::pair{"limit", spec.getLimit().has_value()},
                                        std::pair{"uniqueDocs", spec.getUniqueDocs().has_value()}})
        uassert(ErrorCodes::FailedToParse,
                "$geoNear no longer supports the '" + std::string(name) + "' argument.", !removed);
    if (const auto& near = spec.getNear()) {
        BSONObjBuilder b;
        b.appendAs(near->getElement(), "near");
        s.near = b.obj();
    }
    bool haveDistanceField = false;
    if (const auto& distanceField = spec.getDistanceField()) {
        BSONElement f = distanceField->getElement();
        uassert(ErrorCodes::TypeMismatch,
                "$geoNear requires that 'distanceField' option as a String",
                f.type() == BSONType::kString);
        s.distanceField = f.str();
        haveDistanceField = true;
    }
    if (const auto& key = spec.getKey()) {
        BSONElement f = key->getElement();
        uassert(ErrorCodes::TypeMismatch,
                "$geoNear parameter 'key' must be of type string but found type: " +
                    std::string(typeName(f.type())),
                f.type() == BSONType::kString);
        uassert(ErrorCodes::BadValue, "$geoNear parameter 'key' cannot be the empty string",
                !f.valueStringData().empty());
        s.key = f.str();
    }
    if (const auto& spherical = spec.getSpherical())
        s.spherical = spherical->getElement().trueValue();
    if (const auto& minDistance = spec.getMinDistance())
        s.minDistance = parseDistance(minDistance->getElement(), "minDistance", expCtx, 7555701);
    if (const auto& maxDistance = spec.getMaxDistance())
        s.maxDistance = parseDistance(maxDistance->getElement(), "maxDistance", expCtx, 7555702);
    if (const auto& query = spec.getQuery()) {
        BSONElement f = query->getElement();
        uassert(ErrorCodes::TypeMismatch, "query must be an object", f.type() == BSONType::kObject);
        s.query = f.Obj().getOwned();
    }
    if (const auto& includeLocs = spec.getIncludeLocs()) {
        BSONElement f = includeLocs->getElement();
        uassert(ErrorCodes::TypeMismatch, "includeLocs must be a string",
                f.type() == BSONType::kString);
        s.includeLocs = f.str();
    }
    if (const auto& distanceMultiplier = spec.getDistanceMultiplier()) {
        BSONElement f = distanceMultiplier->getElement();
        uassert(ErrorCodes::TypeMismatch, "distanceMultiplier must be a number", f.isNumber());
        s.distanceMultiplier = f.numberDouble();
        uassert(ErrorCodes::BadValue, "distanceMultiplier must be nonnegative",
                s.distanceMultiplier >= 0);
    }
    uassert(ErrorCodes::FailedToParse, "$geoNear requires a 'near' option as an Array",
            !s.near.isEmpty());
    uassert(ErrorCodes::FailedToParse, "$geoNear requires a 'distanceField' option as a String",
            haveDistanceField);
    splitFieldPath(s.distanceField);  // 15998/16410 for bad paths
    if (!s.includeLocs.empty())
        splitFieldPath(s.includeLocs);

    BSONElement near = s.near.firstElement();
    if (near.type() == BSONType::kObject && near.Obj()["type"].type() == BSONType::kString) {
        auto sw = GeometryContainer::parseGeoJSON(near.Obj());
        uassertStatusOK(sw.getStatus());
        uassert(ErrorCodes::BadValue,
                "$geoNear requires near to be a GeoJSON Point: " + near.toString(false),
                sw.getValue().isPoint());
        s.nearIsGeoJSON = true;
        s.nearLng = sw.getValue().x();
        s.nearLat = sw.getValue().y();
    } else {
        uassert(ErrorCodes::TypeMismatch, "$geoNear requires a 'near' option as an Array",
                near.type() == BSONType::kArray || near.type() == BSONType::kObject);
        auto sw = GeometryContainer::parseLegacyPoint(near, GeometryContainer::PointCRS::kSphere);
        uassertStatusOK(sw.getStatus());
        s.nearLng = sw.getValue().x();
        s.nearLat = sw.getValue().y();
    }
    return s;
}

BSONObj GeoNearSpec::toBSON() const {
    BSONObjBuilder b;
    b.appendAs(near.firstElement(), "near");
    b.append("distanceField", distanceField);
    if (!key.empty())
        b.append("key", key);
    b.append("spherical", spherical);
    if (minDistance)
        b.append("minDistance", *minDistance);
    if (maxDistance)
        b.append("maxDistance", *maxDistance);
    if (!query.isEmpty())
        b.append("query", query);
    if (!includeLocs.empty())
        b.append("includeLocs", includeLocs);
    if (distanceMultiplier != 1)
        b.append("distanceMultiplier", distanceMultiplier);
    return b.obj();
}

std::vector<std::pair<std::string, std::string>> geoIndexFields(OperationContext* opCtx,
                                                                const NamespaceString& nss) {
    std::vector<std::pair<std::string, std::string>> out;
    auto coll = opCtx->getServiceContext()->catalog->lookup(nss);
    if (!coll)
        return out;
    for (const auto& idx : coll->indexes()) {
        if (idx->desc.hidden)
            continue;
        for (auto k : idx->desc.keyPattern) {
            if (!isGeoKeyType(k))  // not "hashed", "text", ...
                continue;
            std::pair<std::string, std::string> f{std::string(k.fieldNameStringData()), k.str()};
            if (std::find(out.begin(), out.end(), f) == out.end())
                out.push_back(f);
        }
    }
    return out;
}

DocumentSourceGeoNear::DocumentSourceGeoNear(std::shared_ptr<ExpressionContext> expCtx,
                                             GeoNearSpec spec, std::string name)
    : DocumentSourceMaterialized(std::move(expCtx)),
      _spec(std::move(spec)),
      _name(std::move(name)) {
    if (!_spec.query.isEmpty()) {
        _query = uassertStatusOK(parseMatchExpression(_spec.query));
        _query->setCollator(_expCtx->getCollator());
    }
}

DocumentSourceGeoNear::~DocumentSourceGeoNear() = default;

void DocumentSourceGeoNear::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    b.append(_name, _spec.toBSON());
}

StageConstraints DocumentSourceGeoNear::constraints() const {
    StageConstraints c;
    c.requiresFirst = _name != kDistanceStageName;
    c.allowedInFacet = false;
    return c;
}

std::string DocumentSourceGeoNear::resolveKey() const {
    if (_name != kStageName)
        return _spec.key;
    auto fields = geoIndexFields(_expCtx->opCtx, _expCtx->ns);
    if (!_spec.key.empty()) {
        for (const auto& f : fields)
            if (f.first == _spec.key)
                return _spec.key;
        uasserted(
            ErrorCodes::IndexNotFound,
            "$geoNear requires a 2d or 2dsphere index, but none were found on key " + _spec.key);
    }
    uassert(ErrorCodes::IndexNotFound,
            "$geoNear requires a 2d or 2dsphere index, but none were found", !fields.empty());
    uassert(ErrorCodes::IndexNotFound,
            "There is more than one 2dsphere index on " + _expCtx->ns.ns() +
                "; unsure which to use for $geoNear",
            fields.size() == 1);
    return fields[0].first;
}

std::unique_ptr<PlanExecutor> DocumentSourceGeoNear::indexedCandidates(const std::string& key) {
    if (!_spec.maxDistance || _name == kDistanceStageName)
        return nullptr;
    auto coll = _expCtx->opCtx->getServiceContext()->catalog->lookup(_expCtx->ns);
    if (!coll)
        return nullptr;
    std::shared_lock<std::shared_mutex> lk(coll->lock());
    if (coll->isDropped())
        return nullptr;
    bool indexed = false;
    for (const auto& idx : coll->indexes())
        if (!idx->desc.hidden && idx->desc.keyPattern[key].type() == BSONType::kString &&
            idx->desc.keyPattern[key].valueStringData() == "2dsphere")
            indexed = true;
    if (!indexed)
        return nullptr;
    // Documents whose geometry comes within maxDistance of `near`: the same distance test
    // as below (GeometryContainer::minDistanceRadians), so the candidates are a superset.
    const double radians = *_spec.maxDistance / _spec.radiusScale();
    BSONObj operand =
        BSON("$centerSphere" << BSON_ARRAY(BSON_ARRAY(_spec.nearLng << _spec.nearLat) << radians));
    auto region = uassertStatusOK(GeoQueryRegion::parse(GeoQueryRegion::Op::kIntersects, operand,
                                                        GeoQueryRegion::Origin::kInternal));
    FindPlanParams params;
    params.matcher = std::make_shared<GeoMatchExpression>(key, "$geoIntersects", region);
    params.filter = params.matcher->serialize();
    params.collator = _expCtx->getCollator();
    return buildFindPlan(_expCtx->opCtx, coll, params);
}

std::vector<BSONObj> DocumentSourceGeoNear::materialize() {
    std::vector<BSONObj> out;
    if (_name == kStageName && !_expCtx->opCtx->getServiceContext()->catalog->lookup(_expCtx->ns))
        return out;  // no collection: no documents (and no index to require)
    const std::string key = resolveKey();
    const FieldPath path(key);
    const S2Point nearPoint = pointFromLngLat(_spec.nearLng, _spec.nearLat);
    const double scale = _spec.radiusScale();
    const std::vector<std::string> distanceParts = splitFieldPath(_spec.distanceField);
    std::vector<std::string> locParts;
    if (!_spec.includeLocs.empty())
        locParts = splitFieldPath(_spec.includeLocs);

    struct Hit {
        double distance;
        size_t order;
        BSONObj doc;
    };
    std::vector<Hit> hits;
    size_t order = 0;
    // With maxDistance and a 2dsphere index on the key: candidates through the index (the
    // input, a collection scan, is then not read). Otherwise every input document.
    // Flat distances between legacy points when the key has a 2d index and the stage is not
    // spherical (upstream's 2d $geoNear / $near); else spherical ones. Over time-series
    // measurements ($_internalGeoNearDistance) a legacy `near` without `spherical` is flat.
    bool planar = false;
    if (_name == kDistanceStageName)
        planar = !_spec.spherical && !_spec.nearIsGeoJSON;
    else if (_name == kStageName && !_spec.spherical && !_spec.nearIsGeoJSON)
        for (const auto& [field, type] : geoIndexFields(_expCtx->opCtx, _expCtx->ns))
            planar = planar || (field == key && type == "2d");
    std::unique_ptr<PlanExecutor> candidates = planar ? nullptr : indexedCandidates(key);
    auto nextInput = [&]() -> std::optional<BSONObj> {
        if (!candidates)
            return _source ? _source->getNext() : std::nullopt;
        BSONObj o;
        if (!candidates->getNext(_expCtx->opCtx, &o))
            return std::nullopt;
        return o;
    };
    while (auto doc = nextInput()) {
        _expCtx->checkForInterruptEvery128();
        BSONObj d = doc->getOwned();
        if (_query && !_query->matchesBSON(d))
            continue;
        double best = std::numeric_limits<double>::infinity();
        BSONElement bestLoc;
        walkPath(d, path, LeafArrayBehavior::kTraverse, [&](const PathValue& pv) {
            const BSONElement& e = pv.element;
            if (e.type() != BSONType::kObject && e.type() != BSONType::kArray)
                return false;
            if (planar) {
                double x, y;
                if (!parseLegacyPoint2d(e, &x, &y).isOK())
                    return false;  // an array of points: its elements come next
                double dist = std::hypot(x - _spec.nearLng, y - _spec.nearLat);
                if (dist < best) {
                    best = dist;
                    bestLoc = e;
                }
                return false;
            }
            auto sw = GeometryContainer::parseStored(e);
            if (!sw.isOK() || !sw.getValue().isSphereValid())
                return false;
            double dist = sw.getValue().minDistanceRadians(nearPoint) * scale;
            if (dist < best) {
                best = dist;
                bestLoc = e;
            }
            return false;
        });
        if (std::isinf(best))
            continue;
        if (_spec.minDistance && best < *_spec.minDistance)
            continue;
        if (_spec.maxDistance && best > *_spec.maxDistance)
            continue;
        BSONObj result = setNestedField(d, distanceParts, Value(best * _spec.distanceMultiplier));
        if (!locParts.empty())
            result = setNestedField(result, locParts, Value(bestLoc));
        hits.push_back({best, order++, result.getOwned()});
    }
    std::stable_sort(hits.begin(), hits.end(),
                     [](const Hit& a, const Hit& b) { return a.distance < b.distance; });
    out.reserve(hits.size());
    for (auto& h : hits)
        out.push_back(std::move(h.doc));
    return out;
}

namespace {}  // namespace

void uassertNearQueryIndexed(OperationContext* opCtx, const NamespaceString& nss,
                             const BSONObj& geoNearStage, const std::string& path) {
    BSONObj spec = geoNearStage.firstElement().Obj();
    const bool spherical = spec["spherical"].trueValue();
    BSONElement near = spec["near"];
    const bool geoJSON = near.type() == BSONType::kObject && !near.Obj()["type"].eoo();
    bool indexed = false;
    for (const auto& [field, type] : geoIndexFields(opCtx, nss))
        if (field == path)
            indexed = indexed || (type == "2d" && !geoJSON) || (type == "2dsphere" && spherical);
    uassert(ErrorCodes::NoQueryExecutionPlans,
            "error processing query: ns=" + nss.ns() +
                " planner returned error :: caused by :: unable to find index for $geoNear query",
            indexed);
}

std::optional<BSONObj> nearFilterToGeoNear(const BSONObj& filter, std::string* path) {
    BSONObjBuilder rest;
    std::optional<BSONObj> stage;
    for (BSONElement e : filter) {
        bool isNear = false;
        if (e.type() == BSONType::kObject && !e.fieldNameStringData().empty() &&
            e.fieldNameStringData()[0] != '$')
            for (BSONElement op : e.Obj())
                if (isNearOperator(op.fieldNameStringData()))
                    isNear = true;
        if (!isNear) {
            rest.append(e);
            continue;
        }
        uassert(ErrorCodes::BadValue, "Too many geoNear expressions", !stage);
        *path = std::string(e.fieldNameStringData());
        BSONObjBuilder spec;
        BSONElement point;
        bool sphere = false;
        std::optional<double> minD, maxD;
        auto distance = [](const BSONElement& d, StringData name) {
            uassert(ErrorCodes::BadValue, std::string(name) + " must be a number", d.isNumber());
            uassert(ErrorCodes::BadValue, std::string(name) + " must be non-negative",
                    d.numberDouble() >= 0);
            return d.numberDouble();
        };
        for (BSONElement op : e.Obj()) {
            StringData n = op.fieldNameStringData();
            if (isNearOperator(n)) {
                sphere = n == "$nearSphere";
                if (op.type() == BSONType::kObject && !op.Obj()["$geometry"].eoo()) {
                    for (BSONElement f : op.Obj()) {
                        if (f.fieldNameStringData() == "$geometry")
                            point = f;
                        else if (f.fieldNameStringData() == "$maxDistance")
                            maxD = distance(f, "$maxDistance");
                        else if (f.fieldNameStringData() == "$minDistance")
                            minD = distance(f, "$minDistance");
                        else
                            uasserted(ErrorCodes::BadValue,
                                      "invalid argument in geo near query: " +
                                          std::string(f.fieldNameStringData()));
                    }
                    uassert(ErrorCodes::BadValue, "$geometry must be a GeoJSON Point",
                            point.type() == BSONType::kObject);
                } else {
                    point = op;
                }
            } else if (n == "$maxDistance") {
                maxD = distance(op, n);
            } else if (n == "$minDistance") {
                minD = distance(op, n);
            } else {
                uasserted(ErrorCodes::BadValue,
                          "invalid argument in geo near query: " + std::string(n));
            }
        }
        const bool geoJSON = point.type() == BSONType::kObject && !point.Obj()["type"].eoo();
        spec.appendAs(point, "near");
        spec.append("distanceField", kNearQueryDistanceField);
        spec.append("key", *path);
        // $near with a legacy point measures flat distances (a 2d index); the others are
        // spherical (nearQueryNeedsIndexType).
        spec.append("spherical", geoJSON || sphere);
        if (minD)
            spec.append("minDistance", *minD);
        if (maxD)
            spec.append("maxDistance", *maxD);
        stage = spec.obj();
    }
    if (!stage)
        return std::nullopt;
    BSONObj query = rest.obj();
    BSONObjBuilder b;
    {
        BSONObjBuilder sub(b.subobjStart(DocumentSourceGeoNear::kStageName));
        sub.appendElements(*stage);
        if (!query.isEmpty())
            sub.append("query", query);
    }
    BSONObj out = b.obj();
    GeoNearSpec::parse(out.firstElement());  // validates the point
    return out;
}

namespace {
const bool kRegistered = [] {
    for (StringData name :
         {DocumentSourceGeoNear::kStageName, DocumentSourceGeoNear::kCursorStageName,
          DocumentSourceGeoNear::kDistanceStageName}) {
        std::string n(name);
        registerDocumentSource(
            name,
            [n](const BSONElement& e,
                const std::shared_ptr<ExpressionContext>& expCtx) -> std::vector<StagePtr> {
                std::vector<StagePtr> out;
                out.push_back(std::make_unique<DocumentSourceGeoNear>(
                    expCtx, GeoNearSpec::parse(e, expCtx.get()), n));
                return out;
            });
    }
    return true;
}();
}  // namespace

}  // namespace mongo
