// $densify: inserts documents so that a numeric or date field takes every value
// of a step sequence within the bounds ("full", "partition" or [lower, upper)),
// per partition of partitionByFields.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/document_path.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class DocumentSourceDensify final : public DocumentSourceMaterialized {
public:
    DocumentSourceDensify(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec)
        : DocumentSourceMaterialized(std::move(expCtx)), _spec(spec.getOwned()) {
        BSONElement field, partitionByFields, range;
        for (auto f : _spec) {
            StringData n = f.fieldNameStringData();
            if (n == "field")
                field = f;
            else if (n == "partitionByFields")
                partitionByFields = f;
            else if (n == "range")
                range = f;
            else
                uasserted(40415, "BSON field '$densify." + std::string(n) + "' is an unknown field.");
        }
        uassert(40414, "BSON field '$densify.field' is missing but a required field", !field.eoo());
        uassert(40414, "BSON field '$densify.range' is missing but a required field", !range.eoo());
        uassert(ErrorCodes::TypeMismatch, "$densify 'field' must be a string",
                field.type() == BSONType::kString);
        uassert(5733308, "Cannot densify a field starting with '$'",
                !field.valueStringData().starts_with("$"));
        _field = splitFieldPath(field.valueStringData());
        if (!partitionByFields.eoo()) {
            uassert(ErrorCodes::TypeMismatch, "partitionByFields must be an array",
                    partitionByFields.type() == BSONType::kArray);
            for (auto p : partitionByFields.Obj()) {
                uassert(ErrorCodes::TypeMismatch, "partitionByFields must contain strings",
                        p.type() == BSONType::kString);
                uassert(8993000, "Cannot include the densify field in partitionByFields",
                        p.valueStringData() != field.valueStringData());
                _partitionFields.push_back(splitFieldPath(p.valueStringData()));
            }
        }
        uassert(ErrorCodes::TypeMismatch, "$densify 'range' must be an object",
                range.type() == BSONType::kObject);
        BSONObj r = range.Obj();
        BSONElement step = r["step"], unit = r["unit"], bounds = r["bounds"];
        for (auto f : r) {
            StringData n = f.fieldNameStringData();
            uassert(40415, "BSON field '$densify.range." + std::string(n) + "' is an unknown field.",
                    n == "step" || n == "unit" || n == "bounds");
        }
        uassert(40414, "BSON field '$densify.range.step' is missing but a required field",
                !step.eoo());
        uassert(40414, "BSON field '$densify.range.bounds' is missing but a required field",
                !bounds.eoo());
        uassert(5733401, "the step parameter in a range statement must be a strictly positive "
                         "numeric value",
                step.isNumber() && step.numberDouble() > 0);
        _step = step.numberDouble();
        if (!unit.eoo()) {
            TimeUnit u;
            uassert(ErrorCodes::FailedToParse, "unknown time unit value: " + unit.toString(false),
                    unit.type() == BSONType::kString && parseTimeUnit(unit.valueStringData(), &u));
            uassert(5733402, "a bounding array in a range statement with a unit must have an integral step",
                    Value(step).integral64Bit());
            _unit = u;
        }
        if (bounds.type() == BSONType::kString) {
            uassert(5946800, "Bounds string must either be 'full' or 'partition'",
                    bounds.valueStringData() == "full" || bounds.valueStringData() == "partition");
            _mode = bounds.valueStringData() == "full" ? Mode::kFull : Mode::kPartition;
        } else {
            uassert(5733403, "a bounding array in a range statement must have exactly two elements",
                    bounds.type() == BSONType::kArray && bounds.Obj().nFields() == 2);
            auto b = bounds.Array();
            uassert(5733406, "a bounding array must contain either both dates or both numeric types",
                    (b[0].isNumber() && b[1].isNumber()) ||
                        (b[0].type() == BSONType::kDate && b[1].type() == BSONType::kDate));
            if (_unit)
                uassert(5733405, "a bounding array must be dates when a unit is given",
                        b[0].type() == BSONType::kDate);
            else
                uassert(5733410, "a bounding array with numeric bounds cannot have a unit",
                        b[0].isNumber());
            _lower = Value::copyOf(b[0]);
            _upper = Value::copyOf(b[1]);
            uassert(5733402, "the lower bound must be less than or equal to the upper bound",
                    Value::compare(_lower, _upper) <= 0);
            _mode = Mode::kExplicit;
        }
    }

    const char* getSourceName() const override {
        return "$densify";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append("$densify", _spec);
    }

private:
    enum class Mode { kFull, kPartition, kExplicit };

    /** The value after `v`; one past the range of dates or longs goes as far as it can. */
    Value next(const Value& v) const {
        // Steps are finite and positive (5733401); whole ones below 2^62 fit a long.
        const bool wholeStep = std::trunc(_step) == _step && _step < 4.6e18;
        if (_unit) {
            long long deltaMs, endMs;
            if (!wholeStep ||
                __builtin_mul_overflow(static_cast<long long>(_step), longestUnitMillis(*_unit),
                                       &deltaMs) ||
                __builtin_add_overflow(v.getDate().toMillisSinceEpoch(), deltaMs, &endMs))
                return Value(Date_t::fromMillisSinceEpoch(std::numeric_limits<long long>::max()));
            return Value(addToDate(v.getDate(), *_unit, static_cast<long long>(_step),
                                   absl::UTCTimeZone()));
        }
        if ((v.getType() == BSONType::kNumberInt || v.getType() == BSONType::kNumberLong) &&
            wholeStep) {
            long long r;
            if (!__builtin_add_overflow(v.getLong(), static_cast<long long>(_step), &r)) {
                if (v.getType() == BSONType::kNumberInt && r >= INT32_MIN && r <= INT32_MAX)
                    return Value(static_cast<int>(r));
                return Value(r);
            }
        }
        return Value(v.getDouble() + _step);
    }

    void checkType(const Value& v) const {
        if (_unit)
            uassert(6053600, "Encountered non-date value in $densify with a unit: " + v.toString(),
                    v.getType() == BSONType::kDate);
        else
            uassert(5733201, "Densify field type must be numeric when no unit is given: " +
                                 v.toString(),
                    v.numeric());
    }

    BSONObj makeDoc(const BSONObj& partitionDoc, const Value& v) const {
        BSONObj doc = setNestedField(BSONObj(), _field, v);
        for (auto e : partitionDoc)
            if (!doc.hasField(e.fieldNameStringData()))
                doc = setNestedField(doc, {std::string(e.fieldNameStringData())}, Value(e));
        return doc;
    }

    std::vector<BSONObj> materialize() override {
        populate();
        return std::move(_out);
    }

    void populate() {
        struct Part {
            BSONObj keyDoc;  // the partition fields
            std::vector<std::pair<Value, BSONObj>> docs;
        };
        std::vector<Part> parts;
        const StringComparator* collator = _expCtx->getCollator();
        auto keyLess = [collator](const BSONObj& a, const BSONObj& b) {
            return compareObjects(a, b, ComparisonRules::kConsiderFieldName, collator) < 0;
        };
        std::map<BSONObj, size_t, decltype(keyLess)> partIndex(keyLess);
        std::vector<BSONObj> untouched;
        std::optional<Value> globalMin, globalMax;
        size_t bytes = 0;
        const long long limit = gInternalDocumentSourceDensifyMaxMemoryBytes.load();
        while (auto d = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            BSONObj doc = d->getOwned();
            bytes += doc.objsize() + sizeof(std::pair<Value, BSONObj>);
            uassert(ErrorCodes::ExceededMemoryLimit,
                    "$densify exceeded its memory limit of " + std::to_string(limit) +
                        " bytes (it cannot spill to disk)",
                    bytes <= static_cast<size_t>(limit));
            Value v = getNestedField(doc, _field);
            if (v.nullish()) {
                untouched.push_back(doc);
                continue;
            }
            checkType(v);
            v = v.getOwned();
            BSONObj keyDoc;
            for (const auto& p : _partitionFields)
                keyDoc = setNestedField(keyDoc, p, getNestedField(doc, p).getOwned());
            auto [it, added] = partIndex.emplace(keyDoc.getOwned(), parts.size());
            if (added)
                parts.push_back({it->first, {}});
            Part* part = &parts[it->second];
            if (!globalMin || Value::compare(v, *globalMin) < 0)
                globalMin = v;
            if (!globalMax || Value::compare(v, *globalMax) > 0)
                globalMax = v;
            part->docs.emplace_back(v, doc);
        }
        for (auto& d : untouched)
            _out.push_back(d);
        for (auto& p : parts) {
            std::stable_sort(p.docs.begin(), p.docs.end(), [](const auto& a, const auto& b) {
                return Value::compare(a.first, b.first) < 0;
            });
            Value lo, hi;
            bool hiInclusive = true;
            if (_mode == Mode::kFull) {
                lo = *globalMin;
                hi = *globalMax;
            } else if (_mode == Mode::kPartition) {
                lo = p.docs.front().first;
                hi = p.docs.back().first;
            } else {
                lo = _lower;
                hi = _upper;
                hiInclusive = false;
            }
            emitPartition(p.keyDoc, p.docs, lo, hi, hiInclusive);
        }
    }

    void emitPartition(const BSONObj& keyDoc, std::vector<std::pair<Value, BSONObj>>& docs,
                       Value lo, const Value& hi, bool hiInclusive) {
        auto inRange = [&](const Value& v) {
            int c = Value::compare(v, hi);
            return hiInclusive ? c <= 0 : c < 0;
        };
        Value cur = lo;
        size_t i = 0;
        // Documents below the range pass through first.
        while (i < docs.size() && Value::compare(docs[i].first, lo) < 0)
            _out.push_back(docs[i++].second);
        while (inRange(cur)) {
            _expCtx->checkForInterruptEvery128();
            // Emit the existing documents at or below `cur`.
            bool present = false;
            while (i < docs.size() && Value::compare(docs[i].first, cur) <= 0) {
                if (Value::compare(docs[i].first, cur) == 0)
                    present = true;
                _out.push_back(docs[i++].second);
            }
            if (!present) {
                const long long maxDocs = gInternalQueryMaxAllowedDensifyDocs.load();
                uassert(5897900,
                        "Generated " + std::to_string(_generated + 1) +
                            " documents in $densify, which is over the limit of " +
                            std::to_string(maxDocs) +
                            ". Increase the 'internalQueryMaxAllowedDensifyDocs' parameter to "
                            "allow more generated documents",
                        ++_generated <= maxDocs);
                _out.push_back(makeDoc(keyDoc, cur));
            }
            cur = next(cur).getOwned();
        }
        while (i < docs.size())
            _out.push_back(docs[i++].second);
    }

    BSONObj _spec;
    long long _generated = 0;  // documents this stage made up, over all partitions
    std::vector<std::string> _field;
    std::vector<std::vector<std::string>> _partitionFields;
    double _step = 1;
    std::optional<TimeUnit> _unit;
    Mode _mode = Mode::kFull;
    Value _lower, _upper;
    std::vector<BSONObj> _out;
};

const bool kRegistered = [] {
    registerDocumentSource("$densify", [](const BSONElement& e,
                                          const std::shared_ptr<ExpressionContext>& expCtx) {
        uassert(ErrorCodes::TypeMismatch, "$densify specification must be an object",
                e.type() == BSONType::kObject);
        std::vector<StagePtr> out;
        out.push_back(std::make_unique<DocumentSourceDensify>(expCtx, e.Obj()));
        return out;
    });
    return true;
}();

}  // namespace
}  // namespace mongo
