// $bucket (fixed boundaries) and $bucketAuto (evenly filled buckets, optionally with
// boundaries on a preferred number series: `granularity`, granularity_rounder.h).
#include <algorithm>
#include <cmath>

#include "mongo/db/pipeline/document_source_group.h"
#include "mongo/db/pipeline/granularity_rounder.h"
#include "mongo/db/pipeline/document_source_sort.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

std::vector<StagePtr> parseBucket(const BSONElement& e,
                                  const std::shared_ptr<ExpressionContext>& expCtx) {
    uassert(40201, "Argument to $bucket stage must be an object, but found type: " +
                       typeNameOf(Value(e)),
            e.type() == BSONType::kObject);
    BSONElement groupBy, boundaries, dflt, output;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "groupBy")
            groupBy = f;
        else if (n == "boundaries")
            boundaries = f;
        else if (n == "default")
            dflt = f;
        else if (n == "output")
            output = f;
        else
            uasserted(40197, "Unrecognized option to $bucket: " + std::string(n) + ".");
    }
    uassert(40198, "$bucket requires 'groupBy' and 'boundaries' to be specified.",
            !groupBy.eoo() && !boundaries.eoo());
    uassert(40202, "The $bucket 'groupBy' field must be defined as a $-prefixed path or an "
                   "expression, but found: " + groupBy.toString(false),
            (groupBy.type() == BSONType::kString && groupBy.valueStringData().starts_with("$")) ||
                groupBy.type() == BSONType::kObject);
    uassert(40200, "The $bucket 'boundaries' field must be an array, but found type: " +
                       typeNameOf(Value(boundaries)),
            boundaries.type() == BSONType::kArray);
    auto bounds = std::make_shared<std::vector<Value>>();
    for (auto b : boundaries.Obj())
        bounds->push_back(Value::copyOf(b));
    uassert(40192, "The $bucket 'boundaries' field must have at least 2 values, but found " +
                       std::to_string(bounds->size()) + " value(s).",
            bounds->size() >= 2);
    const StringComparator* strings = expCtx->getCollator();
    for (size_t i = 1; i < bounds->size(); ++i) {
        const Value& a = (*bounds)[i - 1];
        const Value& b = (*bounds)[i];
        uassert(40193, "All values in the the 'boundaries' option to $bucket must have the same "
                       "type. Found conflicting types " + typeNameOf(a) + " and " + typeNameOf(b) +
                           ".",
                canonicalizeBSONType(a.getType()) == canonicalizeBSONType(b.getType()));
        uassert(40194, "The 'boundaries' option to $bucket must be sorted, but elements " +
                           std::to_string(i - 1) + " and " + std::to_string(i) +
                           " are not in ascending order (" + a.toString() + " is not less than " +
                           b.toString() + ").",
                Value::compare(a, b, strings) < 0);
    }
    std::shared_ptr<Value> defaultValue;
    if (!dflt.eoo()) {
        defaultValue = std::make_shared<Value>(Value::copyOf(dflt));
        bool between = Value::compare(*defaultValue, bounds->front(), strings) >= 0 &&
            Value::compare(*defaultValue, bounds->back(), strings) < 0 &&
            canonicalizeBSONType(defaultValue->getType()) ==
                canonicalizeBSONType(bounds->front().getType());
        uassert(40199, "The $bucket 'default' field must be less than the lowest boundary or "
                       "greater than or equal to the highest boundary.",
                !between);
    }
    auto groupExpr = std::shared_ptr<Expression>(
        Expression::parseOperand(expCtx.get(), groupBy, expCtx->makeParseState()));
    BSONObjBuilder spec;
    spec.append(e);
    auto idExpr = std::make_unique<ExpressionCustom>(
        "$bucket", spec.obj(), ExprVector{},
        [groupExpr, bounds, defaultValue, ctx = expCtx.get()](const BSONObj& root,
                                                              Variables* vars) {
            Value v = groupExpr->evaluate(root, vars);
            const StringComparator* strings = ctx->getCollator();
            if (Value::compare(v, bounds->front(), strings) >= 0 &&
                Value::compare(v, bounds->back(), strings) < 0 &&
                canonicalizeBSONType(v.getType()) ==
                    canonicalizeBSONType(bounds->front().getType())) {
                auto it = std::upper_bound(bounds->begin(), bounds->end(), v, ValueLess{strings});
                return *(it - 1);
            }
            uassert(40066,
                    "$switch could not find a matching branch for an input, and no default was "
                    "specified.",
                    defaultValue);
            return *defaultValue;
        });
    std::vector<AccumulationStatement> accs;
    BSONObj out = output.eoo() ? BSON("count" << BSON("$sum" << 1)) : output.Obj();
    uassert(40196, "The $bucket 'output' field must be an object, but found type: " +
                       typeNameOf(Value(output)),
            output.eoo() || output.type() == BSONType::kObject);
    for (auto f : out)
        accs.push_back(parseAccumulationStatement(expCtx.get(), f, expCtx->makeParseState()));
    std::vector<StagePtr> stages;
    stages.push_back(std::make_unique<DocumentSourceGroup>(expCtx, std::move(idExpr),
                                                           std::move(accs), e.Obj()));
    stages.push_back(std::make_unique<DocumentSourceSort>(expCtx, BSON("_id" << 1)));
    return stages;
}

class DocumentSourceBucketAuto final : public DocumentSourceMaterialized {
public:
    DocumentSourceBucketAuto(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec)
        : DocumentSourceMaterialized(std::move(expCtx)), _spec(spec.getOwned()) {
        BSONElement groupBy, buckets, output;
        for (auto f : _spec) {
            StringData n = f.fieldNameStringData();
            if (n == "groupBy")
                groupBy = f;
            else if (n == "buckets")
                buckets = f;
            else if (n == "output")
                output = f;
            else if (n == "granularity") {
                uassert(40261, "The $bucketAuto 'granularity' field must be a string, but found "
                               "type: " + typeNameOf(Value(f)),
                        f.type() == BSONType::kString);
                _rounder = uassertStatusOK(GranularityRounder::make(f.valueStringData()));
            } else
                uasserted(40245, "Unrecognized option to $bucketAuto: " + std::string(n) + ".");
        }
        uassert(40246, "$bucketAuto requires 'groupBy' and 'buckets' to be specified",
                !groupBy.eoo() && !buckets.eoo());
        uassert(40241, "The $bucketAuto 'buckets' field must be a numeric value, but found type: " +
                           typeNameOf(Value(buckets)),
                buckets.isNumber());
        uassert(40242, "The $bucketAuto 'buckets' field must be representable as a 32-bit "
                       "integer",
                Value(buckets).integral());
        _buckets = buckets.numberInt();
        uassert(40243, "The $bucketAuto 'buckets' field must be greater than 0, but found: " +
                           std::to_string(_buckets),
                _buckets > 0);
        uassert(40239, "The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an "
                       "expression object",
                (groupBy.type() == BSONType::kString &&
                 groupBy.valueStringData().starts_with("$")) ||
                    groupBy.type() == BSONType::kObject);
        _groupBy = Expression::parseOperand(_expCtx.get(), groupBy, _expCtx->makeParseState());
        BSONObj out = output.eoo() ? BSON("count" << BSON("$sum" << 1)) : output.Obj();
        for (auto f : out)
            _accs.push_back(
                parseAccumulationStatement(_expCtx.get(), f, _expCtx->makeParseState()));
    }

    const char* getSourceName() const override {
        return "$bucketAuto";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append("$bucketAuto", _spec);
    }

private:
    std::vector<BSONObj> materialize() override {
        populate();
        return std::move(_results);
    }

    void populate() {
        std::vector<std::pair<Value, BSONObj>> items;
        Variables* vars = &_expCtx->variables;
        size_t bytes = 0;
        const long long limit = gInternalDocumentSourceBucketAutoMaxMemoryBytes.load();
        while (auto doc = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            BSONObj owned = doc->getOwned();
            Value key = _groupBy->evaluate(owned, vars).getOwned();
            // Every input is held until the boundaries are known; this stage cannot spill.
            bytes += owned.objsize() + key.byteSize() + sizeof(items[0]);
            uassert(_expCtx->allowDiskUse ? ErrorCodes::ExceededMemoryLimit
                                          : ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed,
                    "$bucketAuto exceeded its memory limit of " + std::to_string(limit) +
                        " bytes" +
                        (_expCtx->allowDiskUse ? " (it cannot spill to disk)"
                                               : ", but did not opt in to external sorting."),
                    bytes <= static_cast<size_t>(limit));
            if (key.missing())
                key = Value::null();
            if (_rounder)
                checkGranularityKey(key);
            items.emplace_back(std::move(key), owned);
        }
        const StringComparator* strings = _expCtx->getCollator();
        std::stable_sort(items.begin(), items.end(), [strings](const auto& a, const auto& b) {
            return Value::compare(a.first, b.first, strings) < 0;
        });
        size_t n = items.size();
        if (n == 0)
            return;
        size_t per = (n + _buckets - 1) / _buckets;
        per = std::max<size_t>(1, n / _buckets + (n % _buckets ? 1 : 0));
        size_t i = 0;
        Value prevMax;  // with granularity: the rounded max of the previous bucket
        while (i < n) {
            _expCtx->checkForInterruptEvery128();
            size_t end = std::min(n, i + per);
            // Equal keys stay in one bucket.
            while (end < n &&
                   Value::compare(items[end].first, items[end - 1].first, strings) == 0)
                ++end;
            Value min, max;
            if (_rounder) {
                // Boundaries are series values: the bucket takes every key below the
                // rounded-up last key; the next bucket starts at that boundary.
                max = Value(_rounder->roundUp(items[end - 1].first.getDouble()));
                while (end < n && Value::compare(items[end].first, max, strings) < 0)
                    ++end;
                min = prevMax.missing() ? Value(_rounder->roundDown(items[i].first.getDouble()))
                                        : prevMax;
                prevMax = max;
            } else {
                min = items[i].first;
                max = end < n ? items[end].first : items[end - 1].first;
            }
            std::vector<std::unique_ptr<Accumulator>> accs;
            for (const auto& a : _accs)
                accs.push_back(a.factory());
            for (size_t j = i; j < end; ++j)
                for (size_t k = 0; k < _accs.size(); ++k)
                    accs[k]->process(_accs[k].expr->evaluate(items[j].second, vars));
            BSONObjBuilder b;
            {
                BSONObjBuilder id(b.subobjStart("_id"));
                min.addToBsonObj(&id, "min");
                max.addToBsonObj(&id, "max");
            }
            for (size_t k = 0; k < _accs.size(); ++k)
                accs[k]->getValue().addToBsonObj(&b, _accs[k].fieldName);
            _results.push_back(b.obj());
            i = end;
        }
    }

    /** With granularity every key must be a non-negative number (40258, 40259, 40260). */
    static void checkGranularityKey(const Value& key) {
        uassert(40258, "$bucketAuto can specify a 'granularity' with numeric boundaries only, "
                       "but found a value with type: " + typeNameOf(key),
                key.numeric());
        double d = key.getDouble();
        uassert(40259, "$bucketAuto can specify a 'granularity' with numeric boundaries only, "
                       "but found a NaN",
                !std::isnan(d));
        uassert(40260, "$bucketAuto can specify a 'granularity' with non-negative numbers only, "
                       "but found a negative number",
                d >= 0.0);
    }

    BSONObj _spec;
    std::shared_ptr<const GranularityRounder> _rounder;  // null without granularity
    int _buckets = 1;
    ExprPtr _groupBy;
    std::vector<AccumulationStatement> _accs;
    std::vector<BSONObj> _results;
};

const bool kRegistered = [] {
    registerDocumentSource("$bucket", parseBucket);
    registerDocumentSource("$bucketAuto", [](const BSONElement& e,
                                             const std::shared_ptr<ExpressionContext>& expCtx) {
        uassert(40240, "The argument to $bucketAuto must be an object, but found type: " +
                           typeNameOf(Value(e)),
                e.type() == BSONType::kObject);
        std::vector<StagePtr> out;
        out.push_back(std::make_unique<DocumentSourceBucketAuto>(expCtx, e.Obj()));
        return out;
    });
    return true;
}();

}  // namespace
}  // namespace mongo
