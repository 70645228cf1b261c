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
#include "mongo/idl/document_source_densify_gen.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** True when dotted path `prefix` is `path` or one of its parents ("a" of "a.b"). */
bool isPathPrefixOf(StringData prefix, StringData path) {
    return path == prefix ||
           (path.size() > prefix.size() && path.starts_with(prefix) && path[prefix.size()] == '.');
}

class DocumentSourceDensify final : public DocumentSourceMaterialized {
public:
    DocumentSourceDensify(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec)
        : DocumentSourceMaterialized(std::move(expCtx)), _spec(spec.getOwned()) {
        const auto parsed = DensifySpec::parse(IDLParserContext("$densify"), _spec);
        const std::string& field = parsed.getField();
        _field = splitFieldPath(field);  // 15998/16410 for bad paths
        if (const auto& partitionBy = parsed.getPartitionByFields()) {
            for (const std::string& p : *partitionBy) {
                _partitionFields.push_back(splitFieldPath(p));
                uassert(8993000,
                        "BSON field '$densify.partitionByFields' contains the field that is "
                        "being densified",
                        !isPathPrefixOf(field, p));
                uassert(9554500,
                        "The field that is being densified contains the BSON field "
                        "'$densify.partitionByFields'",
                        !isPathPrefixOf(p, field));
            }
        }
        const RangeSpec& range = parsed.getRange();
        BSONElement step = range.getStep().getElement();
        uassert(5733401,
                "the step parameter in a range statement must be a strictly positive numeric "
                "value",
                step.numberDouble() > 0);
        _step = step.numberDouble();
        if (const auto& unit = range.getUnit()) {
            TimeUnit u;
            uassert(ErrorCodes::FailedToParse, "unknown time unit value: " + *unit,
                    parseTimeUnit(*unit, &u));
            _unit = u;
        }
        if (const auto* mode = std::get_if<std::string>(&range.getBounds())) {
            uassert(5946800, "Bounds string must either be 'full' or 'partition'",
                    *mode == "full" || *mode == "partition");
            _mode = *mode == "full" ? Mode::kFull : Mode::kPartition;
            uassert(5733408,
                    "one may not specify the bounds as 'partition' without specifying a "
                    "non-empty array of partitionByFields. You may have meant to specify 'full' "
                    "bounds.",
                    _mode == Mode::kFull || !_partitionFields.empty());
        } else {
            const auto& b = std::get<std::vector<IDLAnyTypeOwned>>(range.getBounds());
            uassert(5733403, "a bounding array in a range statement must have exactly two elements",
                    b.size() == 2);
            BSONElement lo = b[0].getElement(), hi = b[1].getElement();
            const bool numbers = lo.isNumber() && hi.isNumber();
            const bool dates = lo.type() == BSONType::kDate && hi.type() == BSONType::kDate;
            if (numbers)
                uassert(5733409, "numeric bounds may not have unit parameter", !_unit);
            else if (dates)
                uassert(5733405, "date bounds must have a unit parameter", _unit.has_value());
            else if (_unit)
                uasserted(5733402,
                          "a bounding array must be an ascending array of either two dates or two "
                          "numbers");
            else
                uasserted(5733406,
                          "a bounding array must contain either both dates or both numeric types");
            _lower = Value::copyOf(lo);
            _upper = Value::copyOf(hi);
            uassert(5733402,
                    "the bounds in a range statement must be the string 'full', 'partition', or "
                    "an ascending array of two numbers or two dates",
                    Value::compare(_lower, _upper) <= 0);
            _mode = Mode::kExplicit;
        }
        if (_unit)
            uassert(6586400,
                    "The step parameter in a range statement must be a whole number when "
                    "densifying a date range",
                    Value(step).integral64Bit());
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
            return Value(
                addToDate(v.getDate(), *_unit, static_cast<long long>(_step), absl::UTCTimeZone()));
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
        if (_unit) {
            uassert(6053600, "Encountered non-date value in $densify with a unit: " + v.toString(),
                    v.getType() == BSONType::kDate);
        } else {
            // A date in a numeric densification is upstream's mixed-kind error (6053600).
            uassert(6053600,
                    "Encountered date value in $densify without a unit (the range is numeric): " +
                        v.toString(),
                    v.getType() != BSONType::kDate);
            uassert(5733201,
                    "Densify field type must be numeric when no unit is given: " + v.toString(),
                    v.numeric());
        }
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
        // An explicit range without partitions is filled even when no document has the field.
        if (parts.empty() && _mode == Mode::kExplicit && _partitionFields.empty())
            parts.push_back({BSONObj(), {}});
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
    registerDocumentSource(
        "$densify", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
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
