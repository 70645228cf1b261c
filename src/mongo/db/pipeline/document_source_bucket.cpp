// $bucket (fixed boundaries) and $bucketAuto (evenly filled buckets).
#include <algorithm>

#include "mongo/db/pipeline/document_source_group.h"
#include "mongo/db/pipeline/document_source_sort.h"
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
                Value::compare(a, b) < 0);
    }
    std::shared_ptr<Value> defaultValue;
    if (!dflt.eoo()) {
        defaultValue = std::make_shared<Value>(Value::copyOf(dflt));
        bool between = Value::compare(*defaultValue, bounds->front()) >= 0 &&
            Value::compare(*defaultValue, bounds->back()) < 0 &&
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
        [groupExpr, bounds, defaultValue](const BSONObj& root, Variables* vars) {
            Value v = groupExpr->evaluate(root, vars);
            if (Value::compare(v, bounds->front()) >= 0 && Value::compare(v, bounds->back()) < 0 &&
                canonicalizeBSONType(v.getType()) ==
                    canonicalizeBSONType(bounds->front().getType())) {
                auto it = std::upper_bound(bounds->begin(), bounds->end(), v, ValueLess());
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
            else if (n == "granularity")
                uassert(ErrorCodes::NotImplemented, "$bucketAuto granularity is not supported",
                        f.type() == BSONType::kString && f.valueStringData() == "none");
            else
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
        while (auto doc = _source->getNext()) {
            BSONObj owned = doc->getOwned();
            Value key = _groupBy->evaluate(owned, vars).getOwned();
            if (key.missing())
                key = Value::null();
            items.emplace_back(std::move(key), owned);
        }
        std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
            return Value::compare(a.first, b.first) < 0;
        });
        size_t n = items.size();
        if (n == 0)
            return;
        size_t per = (n + _buckets - 1) / _buckets;
        per = std::max<size_t>(1, n / _buckets + (n % _buckets ? 1 : 0));
        size_t i = 0;
        while (i < n) {
            size_t end = std::min(n, i + per);
            // Equal keys stay in one bucket.
            while (end < n && Value::compare(items[end].first, items[end - 1].first) == 0)
                ++end;
            std::vector<std::unique_ptr<Accumulator>> accs;
            for (const auto& a : _accs)
                accs.push_back(a.factory());
            for (size_t j = i; j < end; ++j)
                for (size_t k = 0; k < _accs.size(); ++k)
                    accs[k]->process(_accs[k].expr->evaluate(items[j].second, vars));
            BSONObjBuilder b;
            {
                BSONObjBuilder id(b.subobjStart("_id"));
                items[i].first.addToBsonObj(&id, "min");
                (end < n ? items[end].first : items[end - 1].first).addToBsonObj(&id, "max");
            }
            for (size_t k = 0; k < _accs.size(); ++k)
                accs[k]->getValue().addToBsonObj(&b, _accs[k].fieldName);
            _results.push_back(b.obj());
            i = end;
        }
    }

    BSONObj _spec;
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
