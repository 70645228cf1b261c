// $bucket (fixed boundaries) and $bucketAuto (evenly filled buckets, optionally with
// boundaries on a preferred number series: `granularity`, granularity_rounder.h).
#include <algorithm>
#include <cmath>

#include "mongo/db/exec/sorter.h"
#include "mongo/db/pipeline/collation_keys.h"
#include "mongo/db/pipeline/document_source_group.h"
#include "mongo/db/pipeline/document_source_sort.h"
#include "mongo/db/pipeline/granularity_rounder.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

std::vector<StagePtr> parseBucket(const BSONElement& e,
                                  const std::shared_ptr<ExpressionContext>& expCtx) {
    uassert(40201,
            "Argument to $bucket stage must be an object, but found type: " + typeNameOf(Value(e)),
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
    uassert(40202,
            "The $bucket 'groupBy' field must be defined as a $-prefixed path or an "
            "expression, but found: " +
                groupBy.toString(false),
            (groupBy.type() == BSONType::kString && groupBy.valueStringData().starts_with("$")) ||
                groupBy.type() == BSONType::kObject);
    uassert(40200,
            "The $bucket 'boundaries' field must be an array, but found type: " +
                typeNameOf(Value(boundaries)),
            boundaries.type() == BSONType::kArray);
    auto bounds = std::make_shared<std::vector<Value>>();
    for (auto b : boundaries.Obj())
        bounds->push_back(Value::copyOf(b));
    uassert(40192,
            "The $bucket 'boundaries' field must have at least 2 values, but found " +
                std::to_string(bounds->size()) + " value(s).",
            bounds->size() >= 2);
    const StringComparator* strings = expCtx->getCollator();
    for (size_t i = 1; i < bounds->size(); ++i) {
        const Value& a = (*bounds)[i - 1];
        const Value& b = (*bounds)[i];
        uassert(40193,
                "All values in the the 'boundaries' option to $bucket must have the same "
                "type. Found conflicting types " +
                    typeNameOf(a) + " and " + typeNameOf(b) + ".",
                canonicalizeBSONType(a.getType()) == canonicalizeBSONType(b.getType()));
        uassert(40194,
                "The 'boundaries' option to $bucket must be sorted, but elements " +
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
        uassert(40199,
                "The $bucket 'default' field must be less than the lowest boundary or "
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
    uassert(40196,
            "The $bucket 'output' field must be an object, but found type: " +
                typeNameOf(Value(output)),
            output.eoo() || output.type() == BSONType::kObject);
    for (auto f : out)
        accs.push_back(parseAccumulationStatement(expCtx.get(), f, expCtx->makeParseState()));
    std::vector<StagePtr> stages;
    stages.push_back(
        std::make_unique<DocumentSourceGroup>(expCtx, std::move(idExpr), std::move(accs), e.Obj()));
    stages.push_back(std::make_unique<DocumentSourceSort>(expCtx, BSON("_id" << 1)));
    return stages;
}

/**
 * $bucketAuto sorts its input by the groupBy value with the external sorter (spilling past
 * internalDocumentSourceBucketAutoMaxMemoryBytes with allowDiskUse, else 292); each sorted
 * entry holds the key and the accumulators' inputs, not the document. Buckets are then
 * built one per getNext() from the sorted stream.
 */
class DocumentSourceBucketAuto final : public DocumentSource {
public:
    DocumentSourceBucketAuto(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec)
        : DocumentSource(std::move(expCtx)), _spec(spec.getOwned()) {
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
                uassert(40261,
                        "The $bucketAuto 'granularity' field must be a string, but found "
                        "type: " +
                            typeNameOf(Value(f)),
                        f.type() == BSONType::kString);
                _rounder = uassertStatusOK(GranularityRounder::make(f.valueStringData()));
            } else
                uasserted(40245, "Unrecognized option to $bucketAuto: " + std::string(n) + ".");
        }
        uassert(40246, "$bucketAuto requires 'groupBy' and 'buckets' to be specified",
                !groupBy.eoo() && !buckets.eoo());
        uassert(40241,
                "The $bucketAuto 'buckets' field must be a numeric value, but found type: " +
                    typeNameOf(Value(buckets)),
                buckets.isNumber());
        uassert(40242,
                "The $bucketAuto 'buckets' field must be representable as a 32-bit "
                "integer",
                Value(buckets).integral());
        _buckets = buckets.numberInt();
        uassert(40243,
                "The $bucketAuto 'buckets' field must be greater than 0, but found: " +
                    std::to_string(_buckets),
                _buckets > 0);
        uassert(
            40239,
            "The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an "
            "expression object",
            (groupBy.type() == BSONType::kString && groupBy.valueStringData().starts_with("$")) ||
                groupBy.type() == BSONType::kObject);
        _groupBy = Expression::parseOperand(_expCtx.get(), groupBy, _expCtx->makeParseState());
        BSONObj out = output.eoo() ? BSON("count" << BSON("$sum" << 1)) : output.Obj();
        for (auto f : out) {
            _accs.push_back(
                parseAccumulationStatement(_expCtx.get(), f, _expCtx->makeParseState()));
            uassert(4544714, "Can't refer to the group key in $bucketAuto",
                    !_accs.back().factory()->needsGroupKey());
        }
    }

    const char* getSourceName() const override {
        return "$bucketAuto";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append("$bucketAuto", _spec);
    }

    std::optional<BSONObj> getNext() override {
        if (!_sorter)
            populate();
        clearMetadata();
        return nextBucket();
    }

    void dispose() override {
        _sorter.reset();
    }

    void appendExplainStats(BSONObjBuilder* b) const override {
        SpillingStats s = _sorter ? _sorter->spillingStats() : SpillingStats{};
        s.appendTo(b);
    }

private:
    /** One sorted input: its groupBy value and its accumulators' inputs. */
    struct Item {
        Value key;
        BSONObj entry;  // {k: <key>, "0": <input 0>, "1": ...} (a missing input is absent)
    };

    void populate() {
        static const auto kByKey =
            std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(BSON("k" << 1))));
        _sorter = std::make_unique<ExternalSorter>(
            kByKey, gInternalDocumentSourceBucketAutoMaxMemoryBytes.load(), _expCtx->allowDiskUse);
        Variables* vars = &_expCtx->variables;
        const StringComparator* strings = _expCtx->getCollator();
        while (auto doc = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            ScopedFieldCache fieldCache(vars, *doc);
            Value key = _groupBy->evaluate(*doc, vars);
            if (key.missing())
                key = Value::null();
            if (_rounder)
                checkGranularityKey(key);
            BSONObjBuilder entry;
            key.addToBsonObj(&entry, "k");
            for (size_t i = 0; i < _accs.size(); ++i)
                _accs[i].expr->evaluate(*doc, vars).addToBsonObj(&entry, std::to_string(i));
            BSONObj e = entry.obj();
            BSONObjBuilder sortKey;
            sortKey.append(e.firstElement());
            _sorter->add(toComparisonKeys(sortKey.obj(), strings), e);
            ++_count;
        }
        _sorter->finish();
        _perBucket = std::max<long long>(1, _count / _buckets + (_count % _buckets ? 1 : 0));
        _pending = nextItem();
    }

    std::optional<Item> nextItem() {
        auto e = _sorter->next();
        if (!e)
            return std::nullopt;
        _expCtx->checkForInterruptEvery128();
        Item it;
        it.entry = std::move(*e);
        it.key = Value(it.entry.firstElement());
        return it;
    }

    /** Folds _pending into `accs` and moves to the next item; returns the folded key. */
    Value take(std::vector<std::unique_ptr<Accumulator>>& accs) {
        Item it = std::move(*_pending);
        for (size_t k = 0; k < _accs.size(); ++k)
            accs[k]->process(Value(it.entry.getField(std::to_string(k))));
        _pending = nextItem();
        return it.key.getOwned();
    }

    /** The next bucket: _perBucket items, then every item with the last key (and, with
     * granularity, every item below the rounded-up boundary). */
    std::optional<BSONObj> nextBucket() {
        if (!_pending)
            return std::nullopt;
        const StringComparator* strings = _expCtx->getCollator();
        std::vector<std::unique_ptr<Accumulator>> accs;
        for (const auto& a : _accs)
            accs.push_back(a.factory());
        Value firstKey = take(accs);
        Value lastKey = firstKey;
        for (long long taken = 1; taken < _perBucket && _pending; ++taken)
            lastKey = take(accs);
        while (_pending && Value::compare(_pending->key, lastKey, strings) == 0)
            take(accs);  // equal keys stay in one bucket
        Value min, max;
        if (_rounder) {
            // Boundaries are series values: the bucket takes every key below the rounded-up
            // last key; the next bucket starts at that boundary.
            max = Value(_rounder->roundUp(lastKey.getDouble()));
            while (_pending && Value::compare(_pending->key, max, strings) < 0)
                take(accs);
            min = _prevMax.missing() ? Value(_rounder->roundDown(firstKey.getDouble())) : _prevMax;
            _prevMax = max;
        } else {
            min = firstKey;
            max = _pending ? _pending->key.getOwned() : lastKey;
        }
        BSONObjBuilder b;
        {
            BSONObjBuilder id(b.subobjStart("_id"));
            min.addToBsonObj(&id, "min");
            max.addToBsonObj(&id, "max");
        }
        for (size_t k = 0; k < _accs.size(); ++k)
            accs[k]->getValue().addToBsonObj(&b, _accs[k].fieldName);
        return b.obj();
    }

    /** With granularity every key must be a non-negative number (40258, 40259, 40260). */
    static void checkGranularityKey(const Value& key) {
        uassert(40258,
                "$bucketAuto can specify a 'granularity' with numeric boundaries only, "
                "but found a value with type: " +
                    typeNameOf(key),
                key.numeric());
        double d = key.getDouble();
        uassert(40259,
                "$bucketAuto can specify a 'granularity' with numeric boundaries only, "
                "but found a NaN",
                !std::isnan(d));
        uassert(40260,
                "$bucketAuto can specify a 'granularity' with non-negative numbers only, "
                "but found a negative number",
                d >= 0.0);
    }

    BSONObj _spec;
    std::shared_ptr<const GranularityRounder> _rounder;  // null without granularity
    int _buckets = 1;
    ExprPtr _groupBy;
    std::vector<AccumulationStatement> _accs;
    std::unique_ptr<ExternalSorter> _sorter;  // set on the first getNext()
    long long _count = 0;                     // input documents
    long long _perBucket = 1;
    std::optional<Item> _pending;  // the next sorted item
    Value _prevMax;                // with granularity: the previous bucket's max
};

const bool kRegistered = [] {
    registerDocumentSource("$bucket", parseBucket);
    registerDocumentSource(
        "$bucketAuto", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(40240,
                    "The argument to $bucketAuto must be an object, but found type: " +
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
