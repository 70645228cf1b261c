#include "mongo/db/pipeline/bucket_level_predicates.h"

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/timeseries_constants.h"

namespace mongo {

namespace {

constexpr long long kMaxOidSeconds = 0xFFFFFFFFLL;

struct Mapped {
    std::optional<BSONObj> loose;  // nullopt: unmappable
    std::optional<BSONObj> tight;  // nullopt: no tight form
};

BSONObj andOf(const std::vector<BSONObj>& parts) {
    if (parts.size() == 1)
        return parts[0];
    BSONArrayBuilder arr;
    for (const auto& p : parts) {
        // Splice nested conjunctions: {$and: [a, {$and: [b, c]}]} -> {$and: [a, b, c]}.
        if (p.nFields() == 1 && p.firstElementFieldNameStringData() == "$and") {
            for (auto sub : p.firstElement().embeddedObject())
                arr.append(sub);
        } else {
            arr.append(p);
        }
    }
    return BSON("$and" << arr.arr());
}

BSONObj orOf(const std::vector<BSONObj>& parts) {
    if (parts.size() == 1)
        return parts[0];
    BSONArrayBuilder arr;
    for (const auto& p : parts)
        arr.append(p);
    return BSON("$or" << arr.arr());
}

BSONObj cmp(const std::string& path, StringData op, const BSONElement& v) {
    BSONObjBuilder inner;
    inner.appendAs(v, op);
    return BSON(path << inner.obj());
}

constexpr StringData kExprLte = "$_internalExprLte";
constexpr StringData kExprGte = "$_internalExprGte";

/** $_internalExprGt/Gte/Lt/Lte for $gt/$gte/$lt/$lte. */
StringData exprOp(StringData op) {
    if (op == "$gt")
        return "$_internalExprGt";
    if (op == "$gte")
        return kExprGte;
    if (op == "$lt")
        return "$_internalExprLt";
    return kExprLte;
}

BSONObj cmpDate(const std::string& path, StringData op, long long millis) {
    BSONObjBuilder inner;
    inner.append(op, Date_t::fromMillisSinceEpoch(millis));
    return BSON(path << inner.obj());
}

OID oidAt(long long seconds, bool max) {
    OID o;
    o.initFromTimestampSeconds(static_cast<std::uint32_t>(seconds));
    if (max)
        std::memset(o.mutableView() + 4, 0xFF, 8);
    return o;
}

BSONObj cmpId(StringData op, long long seconds, bool max) {
    BSONObjBuilder inner;
    inner.append(op, oidAt(seconds, max));
    return BSON("_id" << inner.obj());
}

bool scalarOperand(const BSONElement& v) {
    switch (v.type()) {
        case BSONType::kNumberDouble:
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
        case BSONType::kNumberDecimal:
        case BSONType::kString:
        case BSONType::kDate:
        case BSONType::kOid:
        case BSONType::kBool:
        case BSONType::kTimestamp:
            return true;
        default:
            return false;
    }
}

class Generator {
public:
    Generator(const BucketSpec& spec, const BucketPredicateOptions& opts)
        : _spec(spec),
          _opts(opts),
          _spanMillis(static_cast<long long>(opts.bucketMaxSpanSeconds) * 1000) {}

    Mapped mapFilter(const BSONObj& filter) {
        std::vector<Mapped> parts;
        for (auto e : filter)
            parts.push_back(mapElement(e));
        return combineAnd(parts);
    }

private:
    Mapped combineAnd(const std::vector<Mapped>& parts) {
        std::vector<BSONObj> loose, tight;
        bool allTight = true;
        for (const auto& p : parts) {
            if (p.loose)
                loose.push_back(*p.loose);
            if (p.tight)
                tight.push_back(*p.tight);
            else
                allTight = false;
        }
        Mapped m;
        m.loose = loose.empty() ? BSONObj() : andOf(loose);
        if (allTight && !tight.empty())
            m.tight = andOf(tight);
        return m;
    }

    Mapped mapElement(const BSONElement& e) {
        StringData name = e.fieldNameStringData();
        if (name == "$and" && e.type() == BSONType::kArray) {
            std::vector<Mapped> parts;
            for (auto sub : e.embeddedObject()) {
                if (sub.type() != BSONType::kObject)
                    return Mapped{BSONObj(), std::nullopt};
                parts.push_back(mapFilter(sub.embeddedObject()));
            }
            return combineAnd(parts);
        }
        if (name == "$or" && e.type() == BSONType::kArray) {
            std::vector<BSONObj> loose, tight;
            bool allTight = true;
            for (auto sub : e.embeddedObject()) {
                if (sub.type() != BSONType::kObject)
                    return Mapped{BSONObj(), std::nullopt};
                Mapped m = mapFilter(sub.embeddedObject());
                if (!m.loose || m.loose->isEmpty())
                    return Mapped{BSONObj(), std::nullopt};  // one open branch: no constraint
                loose.push_back(*m.loose);
                if (m.tight)
                    tight.push_back(*m.tight);
                else
                    allTight = false;
            }
            Mapped out;
            out.loose = orOf(loose);
            if (allTight && !tight.empty())
                out.tight = orOf(tight);
            return out;
        }
        if (!name.empty() && name[0] == '$')
            return Mapped{BSONObj(), std::nullopt};

        std::string path(name);
        if (_spec.metaField &&
            (path == *_spec.metaField || path.rfind(*_spec.metaField + ".", 0) == 0)) {
            if (!_spec.includes(*_spec.metaField))
                return Mapped{BSONObj(), std::nullopt};
            std::string renamed = std::string(timeseries::kBucketMetaFieldName) +
                                  path.substr(_spec.metaField->size());
            BSONObjBuilder b;
            b.appendAs(e, renamed);
            BSONObj pred = b.obj();
            return Mapped{pred, pred};
        }
        // Operators of this field: {f: v} is {f: {$eq: v}}.
        std::vector<std::pair<std::string, BSONElement>> ops;
        BSONObj holder;
        if (e.type() == BSONType::kObject && !e.embeddedObject().isEmpty() &&
            e.embeddedObject().firstElementFieldNameStringData().substr(0, 1) == "$") {
            for (auto op : e.embeddedObject())
                ops.emplace_back(std::string(op.fieldNameStringData()), op);
        } else {
            ops.emplace_back("$eq", e);
        }
        std::vector<Mapped> parts;
        for (const auto& [op, v] : ops)
            parts.push_back(path == _spec.timeField ? mapTime(op, v) : mapMeasurement(path, op, v));
        return combineAnd(parts);
    }

    Mapped mapTime(const std::string& op, const BSONElement& v) {
        if (op == "$in" && v.type() == BSONType::kArray) {
            std::vector<BSONObj> loose;
            for (auto item : v.embeddedObject()) {
                Mapped m = mapTime("$eq", item);
                if (!m.loose || m.loose->isEmpty())
                    return Mapped{BSONObj(), std::nullopt};
                loose.push_back(*m.loose);
            }
            if (loose.empty())
                return Mapped{BSONObj(), std::nullopt};
            return Mapped{orOf(loose), std::nullopt};
        }
        if (v.type() != BSONType::kDate)
            return Mapped{BSONObj(), std::nullopt};
        const std::string minT = timeseries::controlMinPath(_spec.timeField);
        const std::string maxT = timeseries::controlMaxPath(_spec.timeField);
        long long d = v.date().toMillisSinceEpoch();
        auto floorSec = [](long long ms) { return ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000); };
        auto ceilSec = [](long long ms) { return ms >= 0 ? (ms + 999) / 1000 : -((-ms) / 1000); };
        bool idUsable = !_opts.usesExtendedRange && d >= 0 && floorSec(d) <= kMaxOidSeconds;
        long long lowSec = std::max(0LL, floorSec(d - _spanMillis));
        std::vector<BSONObj> loose;
        std::optional<BSONObj> tight;
        // control.min/max comparisons are written as upstream writes them: $_internalExpr*
        // (no type bracketing, arrays not traversed); the time is always a date there.
        if (op == "$eq") {
            loose = {cmpDate(minT, kExprLte, d), cmpDate(minT, kExprGte, d - _spanMillis),
                     cmpDate(maxT, kExprGte, d), cmpDate(maxT, kExprLte, d + _spanMillis)};
            if (idUsable) {
                loose.push_back(cmpId("$lte", floorSec(d), true));
                loose.push_back(cmpId("$gte", lowSec, false));
            }
            tight = andOf({cmpDate(minT, "$eq", d), cmpDate(maxT, "$eq", d)});
        } else if (op == "$gt" || op == "$gte") {
            loose = {cmpDate(maxT, exprOp(op), d), cmpDate(minT, exprOp(op), d - _spanMillis)};
            if (idUsable)
                loose.push_back(cmpId(op == "$gt" ? "$gt" : "$gte", lowSec, op == "$gt"));
            tight = cmpDate(minT, op, d);
        } else if (op == "$lt" || op == "$lte") {
            loose = {cmpDate(minT, exprOp(op), d), cmpDate(maxT, exprOp(op), d + _spanMillis)};
            if (idUsable && ceilSec(d) <= kMaxOidSeconds)
                loose.push_back(cmpId(op, ceilSec(d), op == "$lte"));
            tight = cmpDate(maxT, op, d);
        } else {
            return Mapped{BSONObj(), std::nullopt};
        }
        return Mapped{andOf(loose), tight};
    }

    BSONObj typeGuard(const std::string& field) {
        BSONObj typeMin = BSON("$type" << ("$" + timeseries::controlMinPath(field)));
        BSONObj typeMax = BSON("$type" << ("$" + timeseries::controlMaxPath(field)));
        return BSON("$expr" << BSON("$ne" << BSON_ARRAY(typeMin << typeMax)));
    }

    Mapped mapMeasurement(const std::string& field, const std::string& op, const BSONElement& v) {
        if ((op == "$geoWithin" || op == "$within" || op == "$geoIntersects") &&
            v.type() == BSONType::kObject) {
            // Exact per-measurement test on the bucket's column (expression_geo.h): loose.
            if (!_spec.includes(field.substr(0, field.find('.'))))
                return Mapped{BSONObj(), std::nullopt};
            BSONObjBuilder b;
            {
                BSONObjBuilder sub(b.subobjStart("$_internalBucketGeoWithin"));
                sub.append(op == "$geoIntersects" ? "intersectsRegion" : "withinRegion",
                           v.embeddedObject());
                sub.append("field", field);
            }
            return Mapped{b.obj(), std::nullopt};
        }
        if (field.find('.') != std::string::npos || !_spec.includes(field))
            return Mapped{BSONObj(), std::nullopt};
        if (op == "$in" && v.type() == BSONType::kArray) {
            std::vector<BSONObj> loose;
            for (auto item : v.embeddedObject()) {
                Mapped m = mapMeasurement(field, "$eq", item);
                if (!m.loose || m.loose->isEmpty())
                    return Mapped{BSONObj(), std::nullopt};
                loose.push_back(*m.loose);
            }
            if (loose.empty())
                return Mapped{BSONObj(), std::nullopt};
            return Mapped{orOf(loose), std::nullopt};
        }
        if (!scalarOperand(v))
            return Mapped{BSONObj(), std::nullopt};
        if (v.type() == BSONType::kString && !_opts.collationMatchesDefault)
            return Mapped{BSONObj(), std::nullopt};  // min/max ordered by another collation
        const std::string minF = timeseries::controlMinPath(field);
        const std::string maxF = timeseries::controlMaxPath(field);
        // As upstream: $_internalExpr* comparisons of control.min/max, which order values of
        // all types (NaN below every number, as control.min/max do) and match an array
        // (control values of array measurements), so no other bucket needs keeping.
        BSONObj core;
        if (op == "$eq")
            core = andOf({cmp(minF, kExprLte, v), cmp(maxF, kExprGte, v)});
        else if (op == "$gt" || op == "$gte")
            core = cmp(maxF, exprOp(op), v);
        else if (op == "$lt" || op == "$lte")
            core = cmp(minF, exprOp(op), v);
        else
            return Mapped{BSONObj(), std::nullopt};
        std::vector<BSONObj> alternatives{core};
        if (!_opts.assumeNoMixedSchemaData)
            alternatives.push_back(typeGuard(field));
        return Mapped{orOf(alternatives), std::nullopt};
    }

    const BucketSpec& _spec;
    BucketPredicateOptions _opts;
    long long _spanMillis;
};

}  // namespace

bool collationMatchesCollectionDefault(const ExpressionContext& expCtx) {
    std::shared_ptr<Collection> coll;
    if (expCtx.opCtx && expCtx.opCtx->getServiceContext() &&
        expCtx.opCtx->getServiceContext()->catalog)
        coll = expCtx.opCtx->getServiceContext()->catalog->lookup(expCtx.ns);
    return CollatorInterface::collatorsMatch(expCtx.getCollator(),
                                             coll ? coll->getDefaultCollator() : nullptr);
}

BucketLevelPredicates makeBucketLevelPredicates(const BSONObj& eventFilter, const BucketSpec& spec,
                                                const BucketPredicateOptions& options) {
    Generator g(spec, options);
    Mapped m = g.mapFilter(eventFilter);
    BucketLevelPredicates out;
    if (m.loose)
        out.loose = m.loose->getOwned();
    if (m.tight)
        out.tight = m.tight->getOwned();
    return out;
}

}  // namespace mongo
