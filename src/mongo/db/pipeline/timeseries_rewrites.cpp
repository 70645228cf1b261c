#include "mongo/db/pipeline/timeseries_rewrites.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/unpack_dependencies.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/util/assert_util.h"

namespace mongo::timeseries_rewrite {

namespace {

/** The meta field is unpacked unchanged (not excluded, not recomputed before unpacking). */
bool metaUsable(const BucketSpec& spec) {
    if (!spec.metaField || !spec.includes(*spec.metaField))
        return false;
    return std::find(spec.computedMetaProjFields.begin(), spec.computedMetaProjFields.end(),
                     *spec.metaField) == spec.computedMetaProjFields.end();
}

bool isSortDirection(const BSONElement& e) {
    return e.isNumber() && (e.numberDouble() == 1 || e.numberDouble() == -1);
}

/**
 * Copies the expression `e` under `name` into `out` with every "$<meta>..." field path
 * renamed to "$meta...". False when the expression reads any other field or a variable.
 */
bool appendRenamedMetaExpr(const BSONElement& e, StringData name, const BucketSpec& spec,
                           BSONObjBuilder* out) {
    switch (e.type()) {
        case BSONType::kString: {
            StringData s = e.valueStringData();
            if (s.starts_with("$$"))
                return false;
            if (!s.starts_with("$")) {
                out->appendAs(e, name);
                return true;
            }
            auto renamed = renameMetaPath(s.substr(1), spec);
            if (!renamed)
                return false;
            out->append(name, "$" + *renamed);
            return true;
        }
        case BSONType::kObject: {
            BSONObjBuilder sub(out->subobjStart(name));
            for (auto f : e.embeddedObject()) {
                if (f.fieldNameStringData() == "$literal") {
                    sub.append(f);
                    continue;
                }
                if (readsCurrentDocumentImplicitly(f))
                    return false;
                if (!appendRenamedMetaExpr(f, f.fieldNameStringData(), spec, &sub))
                    return false;
            }
            return true;
        }
        case BSONType::kArray: {
            BSONObjBuilder sub(out->subarrayStart(name));
            for (auto f : e.embeddedObject())
                if (!appendRenamedMetaExpr(f, f.fieldNameStringData(), spec, &sub))
                    return false;
            return true;
        }
        default:
            out->appendAs(e, name);
            return true;
    }
}

/** "$f" with f a top-level measurement field (not meta); else nullopt. */
std::optional<std::string> plainMeasurementField(const BSONElement& e, const BucketSpec& spec) {
    if (e.type() != BSONType::kString)
        return std::nullopt;
    StringData s = e.valueStringData();
    if (s.size() < 2 || s[0] != '$' || s[1] == '$' || s.find('.') != StringData::npos)
        return std::nullopt;
    std::string f(s.substr(1));
    if (spec.metaField && f == *spec.metaField)
        return std::nullopt;
    return f;
}

/**
 * Whether `e` is a computed field of a $addFields (every value) or of a $project
 * (a "$path", or an {$operator: ...} object; numbers and booleans there are flags).
 */
bool isComputedValue(const BSONElement& e, bool project) {
    switch (e.type()) {
        case BSONType::kString:
            return !project || e.valueStringData().starts_with("$");
        case BSONType::kObject: {
            BSONObj o = e.embeddedObject();
            return o.nFields() == 1 && o.firstElement().fieldNameStringData().starts_with("$");
        }
        case BSONType::kArray:
            return !project;
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
        case BSONType::kNumberDouble:
        case BSONType::kNumberDecimal:
        case BSONType::kBool:
            return !project;
        default:
            return true;
    }
}

/** A name a computed meta field may take: top-level, not a bucket or time/meta field. */
bool eligibleComputedName(StringData f, const BucketSpec& spec) {
    if (f.empty() || f.find('.') != StringData::npos || f.starts_with("$"))
        return false;
    for (StringData reserved : {timeseries::kBucketIdFieldName, timeseries::kBucketControlFieldName,
                                timeseries::kBucketMetaFieldName, timeseries::kBucketDataFieldName})
        if (f == reserved)
            return false;
    if (f == spec.timeField || (spec.metaField && f == *spec.metaField))
        return false;
    return std::find(spec.computedMetaProjFields.begin(), spec.computedMetaProjFields.end(), f) ==
           spec.computedMetaProjFields.end();
}

/** True when `e` reads "$<name>..." for a name in `names`, or $$ROOT / $$CURRENT. */
bool readsAny(const BSONElement& e, const std::set<std::string>& names) {
    switch (e.type()) {
        case BSONType::kString: {
            StringData s = e.valueStringData();
            if (s.starts_with("$$"))
                return s.starts_with("$$ROOT") || s.starts_with("$$CURRENT");
            if (!s.starts_with("$"))
                return false;
            StringData path = s.substr(1);
            return names.count(std::string(path.substr(0, path.find('.')))) > 0;
        }
        case BSONType::kObject:
        case BSONType::kArray:
            for (auto sub : e.embeddedObject())
                if (sub.fieldNameStringData() != "$literal" &&
                    (readsCurrentDocumentImplicitly(sub) || readsAny(sub, names)))
                    return true;
            return false;
        default:
            return false;
    }
}

BSONObj andOf(const std::vector<BSONObj>& conjuncts) {
    if (conjuncts.empty())
        return BSONObj();
    if (conjuncts.size() == 1)
        return conjuncts.front();
    BSONArrayBuilder arr;
    for (const auto& c : conjuncts)
        arr.append(c);
    return BSON("$and" << arr.arr());
}

enum class Monotonicity { kConstant, kMonotonic, kOther };

Monotonicity monotonicity(const BSONElement& e, const std::string& timeField);

/** All operands constant -> constant; exactly one monotonic and the rest constant -> it. */
Monotonicity combine(const std::vector<BSONElement>& args, const std::string& timeField) {
    int monotonic = 0;
    for (const auto& a : args) {
        auto m = monotonicity(a, timeField);
        if (m == Monotonicity::kOther)
            return m;
        monotonic += m == Monotonicity::kMonotonic;
    }
    if (monotonic > 1)
        return Monotonicity::kOther;  // e.g. t - t, or increasing + decreasing
    return monotonic ? Monotonicity::kMonotonic : Monotonicity::kConstant;
}

Monotonicity monotonicity(const BSONElement& e, const std::string& timeField) {
    switch (e.type()) {
        case BSONType::kString: {
            StringData s = e.valueStringData();
            if (!s.starts_with("$"))
                return Monotonicity::kConstant;
            return s.substr(1) == timeField ? Monotonicity::kMonotonic : Monotonicity::kOther;
        }
        case BSONType::kObject: {
            BSONObj o = e.embeddedObject();
            if (o.nFields() != 1)
                return Monotonicity::kOther;
            BSONElement op = o.firstElement();
            StringData name = op.fieldNameStringData();
            if (name == "$literal")
                return Monotonicity::kConstant;
            std::vector<BSONElement> args;
            if (op.type() == BSONType::kArray)
                for (auto a : op.embeddedObject())
                    args.push_back(a);
            if (name == "$add" && op.type() == BSONType::kArray)
                return combine(args, timeField);
            if (name == "$subtract" && args.size() == 2)
                return combine(args, timeField);
            if (name == "$toLong" || name == "$toDate" || name == "$toDouble" ||
                name == "$toDecimal")
                return op.type() == BSONType::kArray
                           ? (args.size() == 1 ? combine(args, timeField) : Monotonicity::kOther)
                           : monotonicity(op, timeField);
            if (name == "$dateTrunc" && op.type() == BSONType::kObject) {
                Monotonicity date = Monotonicity::kOther;
                for (auto f : op.embeddedObject()) {
                    StringData arg = f.fieldNameStringData();
                    if (arg == "date")
                        date = monotonicity(f, timeField);
                    else if ((arg != "unit" && arg != "binSize" && arg != "timezone" &&
                              arg != "startOfWeek") ||
                             monotonicity(f, timeField) != Monotonicity::kConstant)
                        return Monotonicity::kOther;
                }
                return date;
            }
            return Monotonicity::kOther;
        }
        case BSONType::kArray:
            return Monotonicity::kOther;
        default:
            return Monotonicity::kConstant;
    }
}

}  // namespace

std::optional<std::vector<std::string>> monotonicIdFields(const BSONObj& groupSpec,
                                                          const std::string& timeField) {
    BSONElement id = groupSpec["_id"];
    if (id.eoo())
        return std::nullopt;
    std::vector<std::string> out;
    bool idObject = id.type() == BSONType::kObject && !id.embeddedObject().isEmpty() &&
                    !id.embeddedObject().firstElementFieldNameStringData().starts_with("$");
    if (!idObject) {
        if (monotonicity(id, timeField) == Monotonicity::kMonotonic)
            out.push_back("_id");
    } else {
        for (auto f : id.embeddedObject())
            if (monotonicity(f, timeField) == Monotonicity::kMonotonic)
                out.push_back(std::string(f.fieldNameStringData()));
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

std::optional<std::string> renameMetaPath(StringData path, const BucketSpec& spec) {
    if (!spec.metaField)
        return std::nullopt;
    const std::string& m = *spec.metaField;
    if (path == m)
        return std::string(timeseries::kBucketMetaFieldName);
    if (path.size() > m.size() && path.starts_with(m) && path[m.size()] == '.')
        return std::string(timeseries::kBucketMetaFieldName) + std::string(path.substr(m.size()));
    return std::nullopt;
}

std::optional<BSONObj> bucketSortForMetaSort(const BSONObj& sortSpec, const BucketSpec& spec) {
    if (!metaUsable(spec) || sortSpec.isEmpty())
        return std::nullopt;
    BSONObjBuilder b;
    for (auto e : sortSpec) {
        auto renamed = renameMetaPath(e.fieldNameStringData(), spec);
        if (!renamed || !isSortDirection(e))
            return std::nullopt;
        b.append(*renamed, e.numberInt());
    }
    return b.obj();
}

std::optional<BoundedSortPlan> planBoundedSort(const BSONObj& sortSpec, const BucketSpec& spec) {
    if (sortSpec.isEmpty() || !spec.includes(spec.timeField))
        return std::nullopt;
    std::vector<BSONElement> keys;
    for (auto e : sortSpec)
        keys.push_back(e);
    const BSONElement& last = keys.back();
    if (last.fieldNameStringData() != spec.timeField || !isSortDirection(last))
        return std::nullopt;
    BSONObjBuilder b;
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
        if (!metaUsable(spec))
            return std::nullopt;
        auto renamed = renameMetaPath(keys[i].fieldNameStringData(), spec);
        if (!renamed || !isSortDirection(keys[i]))
            return std::nullopt;
        b.append(*renamed, keys[i].numberInt());
    }
    bool asc = last.numberDouble() == 1;
    b.append(timeseries::controlMinPath(spec.timeField), asc ? 1 : -1);
    return BoundedSortPlan{b.obj(), asc};
}

std::optional<InternalizedProjection> internalizableProjection(const BSONObj& stage) {
    if (stage.isEmpty())
        return std::nullopt;
    BSONElement s = stage.firstElement();
    auto topLevel = [](StringData f) {
        return !f.empty() && f.find('.') == StringData::npos && !f.starts_with("$");
    };
    InternalizedProjection out{BucketSpec::Behavior::kExclude, {}};
    if (s.fieldNameStringData() == "$unset") {
        std::vector<BSONElement> names;
        if (s.type() == BSONType::kString)
            names.push_back(s);
        else if (s.type() == BSONType::kArray)
            for (auto e : s.embeddedObject())
                names.push_back(e);
        else
            return std::nullopt;
        for (const auto& e : names) {
            if (e.type() != BSONType::kString || !topLevel(e.valueStringData()))
                return std::nullopt;
            out.fields.insert(e.str());
        }
        return out.fields.empty() ? std::nullopt : std::optional(out);
    }
    if (s.fieldNameStringData() != "$project" || s.type() != BSONType::kObject ||
        s.embeddedObject().isEmpty())
        return std::nullopt;
    std::optional<bool> idIncluded;
    std::optional<bool> inclusion;
    std::set<std::string> named;
    for (auto e : s.embeddedObject()) {
        if (!(e.isNumber() || e.type() == BSONType::kBool) || !topLevel(e.fieldNameStringData()))
            return std::nullopt;
        if (e.fieldNameStringData() == "_id") {
            idIncluded = e.trueValue();
            continue;
        }
        if (inclusion && *inclusion != e.trueValue())
            return std::nullopt;  // mixed: the parser refuses it anyway
        inclusion = e.trueValue();
        named.insert(std::string(e.fieldNameStringData()));
    }
    if (!inclusion)
        inclusion = *idIncluded;  // {_id: 0|1} alone
    out.behavior = *inclusion ? BucketSpec::Behavior::kInclude : BucketSpec::Behavior::kExclude;
    out.fields = std::move(named);
    bool idListed = *inclusion ? idIncluded.value_or(true) : !idIncluded.value_or(true);
    if (idListed)
        out.fields.insert("_id");
    return out;
}

BSONObj bucketCountExpression(const std::string& timeField) {
    using namespace timeseries;
    const std::string control = "$" + std::string(kBucketControlFieldName) + ".";
    return BSON(
        "$cond" << BSON_ARRAY(
            BSON("$gte" << BSON_ARRAY(control + std::string(kBucketControlVersionFieldName)
                                      << kTimeseriesControlCompressedSortedVersion))
            << control + std::string(kBucketControlCountFieldName)
            << BSON("$size" << BSON("$objectToArray"
                                    << ("$" + std::string(kDataFieldNamePrefix) + timeField)))));
}

namespace {

/**
 * The UTC offsets (ms) a constant `timezone` argument takes between 1970 and 2038 (the range
 * of buckets without extended range): one for UTC and "+hh[:mm]" offsets, every offset of a
 * named zone; nullopt for a non-constant or unknown zone.
 */
std::optional<std::set<long long>> zoneOffsetsMillis(const BSONElement& timezone) {
    if (timezone.eoo())
        return std::set<long long>{0};
    if (timezone.type() != BSONType::kString)
        return std::nullopt;
    absl::TimeZone tz;
    try {
        tz = parseTimeZone(timezone.valueStringData());
    } catch (const DBException&) {
        return std::nullopt;
    }
    std::set<long long> offsets;
    absl::Time t = absl::UnixEpoch();
    const absl::Time end = absl::FromUnixSeconds(std::numeric_limits<int32_t>::max());
    offsets.insert(static_cast<long long>(tz.At(t).offset) * 1000);
    absl::TimeZone::CivilTransition transition;
    for (int guard = 0; guard < 4096 && tz.NextTransition(t, &transition); ++guard) {
        absl::Time at = tz.At(transition.to).trans;
        if (at > end || at <= t)
            break;
        offsets.insert(static_cast<long long>(tz.At(at).offset) * 1000);
        t = at;
    }
    return offsets;
}

/**
 * {$dateTrunc: {date: "$<time>", unit, binSize?, timezone?, startOfWeek?}} with constant
 * arguments whose bins are unions of fixed buckets of `spanSeconds` (bucket starts are the
 * multiples of the span): appended under `name` with date "$control.min.<time>", which then
 * falls in the same bin as every measurement of the bucket.
 */
bool appendAlignedDateTrunc(const BSONElement& e, StringData name, const BucketSpec& spec,
                            long long spanSeconds, BSONObjBuilder* out) {
    if (e.type() != BSONType::kObject || e.embeddedObject().nFields() != 1)
        return false;
    BSONElement op = e.embeddedObject().firstElement();
    if (op.fieldNameStringData() != "$dateTrunc" || op.type() != BSONType::kObject)
        return false;
    BSONElement date, unit, binSize, timezone, startOfWeek;
    for (auto a : op.embeddedObject()) {
        StringData f = a.fieldNameStringData();
        if (f == "date")
            date = a;
        else if (f == "unit")
            unit = a;
        else if (f == "binSize")
            binSize = a;
        else if (f == "timezone")
            timezone = a;
        else if (f == "startOfWeek")
            startOfWeek = a;
        else
            return false;
    }
    TimeUnit u;
    if (date.type() != BSONType::kString || date.valueStringData() != "$" + spec.timeField ||
        unit.type() != BSONType::kString || !parseTimeUnit(unit.valueStringData(), &u) ||
        (!startOfWeek.eoo() && startOfWeek.type() != BSONType::kString))
        return false;
    long long bins = 1;
    if (!binSize.eoo()) {
        if (!binSize.isNumber() || binSize.numberDouble() != std::floor(binSize.numberDouble()) ||
            binSize.numberDouble() < 1 || binSize.numberDouble() > 1e9)
            return false;
        bins = binSize.numberLong();
    }
    auto offsets = zoneOffsetsMillis(timezone);
    if (!offsets)
        return false;
    const long long spanMs = spanSeconds * 1000;
    // Bins of units up to the day start at 2000-01-01 local time plus multiples of their
    // width; longer units start at local midnights. Under every offset the zone takes, a bin
    // boundary must be a bucket boundary (a multiple of the span since the epoch).
    constexpr long long kRef = 946684800000LL;
    const bool upToDay = u <= TimeUnit::kDay;
    const long long width = upToDay ? unitMillis(u) * bins : 86400000LL;
    if (width % spanMs != 0)
        return false;
    for (long long offset : *offsets)
        if (((kRef - offset) % spanMs + spanMs) % spanMs != 0)
            return false;
    BSONObjBuilder sub(out->subobjStart(name));
    BSONObjBuilder args(sub.subobjStart("$dateTrunc"));
    for (auto a : op.embeddedObject()) {
        if (a.fieldNameStringData() == "date")
            args.append("date", "$" + timeseries::controlMinPath(spec.timeField));
        else
            args.append(a);
    }
    return true;
}

/**
 * A group key over buckets: meta expressions and constants (appendRenamedMetaExpr), and with
 * fixed buckets aligned $dateTrunc of the time field, also as fields of an _id object.
 */
bool appendBucketGroupKey(const BSONElement& e, StringData name, const BucketSpec& spec,
                          std::optional<long long> fixedSpanSeconds, BSONObjBuilder* out) {
    if (fixedSpanSeconds && appendAlignedDateTrunc(e, name, spec, *fixedSpanSeconds, out))
        return true;
    if (fixedSpanSeconds && e.type() == BSONType::kObject && !e.embeddedObject().isEmpty() &&
        !e.embeddedObject().firstElementFieldNameStringData().starts_with("$")) {
        BSONObjBuilder sub(out->subobjStart(name));
        for (auto f : e.embeddedObject())
            if (!appendBucketGroupKey(f, f.fieldNameStringData(), spec, fixedSpanSeconds, &sub))
                return false;
        return true;
    }
    return appendRenamedMetaExpr(e, name, spec, out);
}

}  // namespace

std::optional<GroupRewrite> rewriteGroupOverBuckets(const BSONObj& groupSpec,
                                                    const BucketSpec& spec,
                                                    std::optional<long long> fixedSpanSeconds) {
    if (!groupSpec.hasField("_id"))
        return std::nullopt;
    if (spec.metaField && !metaUsable(spec))
        return std::nullopt;
    GroupRewrite out;
    BSONObjBuilder b;
    for (auto e : groupSpec) {
        StringData name = e.fieldNameStringData();
        if (name == "_id") {
            if (!appendBucketGroupKey(e, "_id", spec, fixedSpanSeconds, &b))
                return std::nullopt;
            continue;
        }
        if (e.type() != BSONType::kObject || e.embeddedObject().nFields() != 1)
            return std::nullopt;
        BSONElement acc = e.embeddedObject().firstElement();
        StringData op = acc.fieldNameStringData();
        if (op == "$min" || op == "$max") {
            auto f = plainMeasurementField(acc, spec);
            if (!f || (op == "$min" && *f == spec.timeField))
                return std::nullopt;
            bool isMin = op == "$min";
            (isMin ? out.minFields : out.maxFields).push_back(*f);
            b.append(name, BSON(op << ("$" + (isMin ? timeseries::controlMinPath(*f)
                                                    : timeseries::controlMaxPath(*f)))));
        } else if ((op == "$sum" && acc.type() == BSONType::kNumberInt && acc._numberInt() == 1) ||
                   (op == "$count" && acc.type() == BSONType::kObject &&
                    acc.embeddedObject().isEmpty())) {
            b.append(name, BSON("$sum" << bucketCountExpression(spec.timeField)));
        } else {
            return std::nullopt;
        }
    }
    out.bucketGroup = b.obj();
    return out;
}

std::optional<ComputedMetaProjection> extractComputedMetaProjection(const BSONObj& stage,
                                                                    const BucketSpec& spec) {
    if (!metaUsable(spec) || stage.isEmpty())
        return std::nullopt;
    BSONElement s = stage.firstElement();
    StringData name = s.fieldNameStringData();
    bool project = name == "$project";
    if ((!project && name != "$addFields" && name != "$set") || s.type() != BSONType::kObject)
        return std::nullopt;
    BSONObj body = s.embeddedObject();
    if (project)
        for (auto e : body)
            if (e.fieldNameStringData() != "_id" && (e.isNumber() || e.type() == BSONType::kBool) &&
                !e.trueValue())
                return std::nullopt;  // an exclusion projection
    ComputedMetaProjection out;
    BSONObjBuilder bucket;
    BSONObjBuilder rest;
    std::set<std::string> taken;
    bool open = true;  // still in the leading run of computed fields
    for (auto e : body) {
        StringData f = e.fieldNameStringData();
        bool computed = isComputedValue(e, project);
        bool takeable = computed && (!project || e.type() == BSONType::kString ||
                                     e.type() == BSONType::kObject);
        if (open && takeable && eligibleComputedName(f, spec)) {
            BSONObjBuilder renamed;
            if (appendRenamedMetaExpr(e, f, spec, &renamed)) {
                bucket.appendElements(renamed.obj());
                taken.insert(std::string(f));
                out.fields.push_back(std::string(f));
                if (project)
                    rest.append(f, 1);
                continue;
            }
        }
        // In a $project the computed fields follow the included ones whatever their
        // position in the spec: only a computed field left behind ends the run.
        if (computed || !project)
            open = false;
        rest.append(e);
    }
    if (taken.empty())
        return std::nullopt;
    BSONObj restBody = rest.obj();
    for (auto e : restBody)
        if (!(project && taken.count(std::string(e.fieldNameStringData())) && e.isNumber()) &&
            readsAny(e, taken))
            return std::nullopt;
    out.bucketAddFields = bucket.obj();
    if (!restBody.isEmpty())
        out.rest = BSON(name << restBody);
    return out;
}

ComputedMetaMatch splitComputedMetaMatch(const BSONObj& filter, const BucketSpec& spec) {
    std::set<std::string> computed(spec.computedMetaProjFields.begin(),
                                   spec.computedMetaProjFields.end());
    std::vector<BSONObj> bucket, rest, pred;
    ComputedMetaMatch out;
    auto place = [&](const BSONObj& conjunct) {
        auto fields = matchFilterFields(conjunct);
        bool touches = !fields;
        bool onlyComputed = fields && !fields->empty();
        if (fields)
            for (const auto& f : *fields) {
                if (computed.count(f))
                    touches = true;
                else
                    onlyComputed = false;
            }
        if (fields && touches && onlyComputed) {
            bucket.push_back(conjunct);
            return;
        }
        rest.push_back(conjunct);
        if (touches)
            out.predicatesComplete = false;
        else
            pred.push_back(conjunct);
    };
    for (auto e : filter) {
        bool flatten = e.fieldNameStringData() == "$and" && e.type() == BSONType::kArray;
        if (flatten)
            for (auto sub : e.embeddedObject())
                flatten = flatten && sub.type() == BSONType::kObject;
        if (flatten) {
            for (auto sub : e.embeddedObject())
                place(sub.embeddedObject().getOwned());
        } else {
            BSONObjBuilder one;
            one.append(e);
            place(one.obj());
        }
    }
    out.bucketFilter = andOf(bucket);
    out.rest = andOf(rest);
    out.predicateSource = andOf(pred);
    return out;
}

}  // namespace mongo::timeseries_rewrite
