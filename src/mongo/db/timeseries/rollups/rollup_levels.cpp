#include "mongo/db/timeseries/rollups/rollup_levels.h"

#include <limits>
#include <map>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo::timeseries::rollups {
namespace {

// $dateTrunc's reference instant for units up to a day: 2000-01-01T00:00:00Z.
constexpr long long kReferenceMillis = 946684800000LL;

std::string fieldPath(StringData field) {
    return "$" + std::string(field);
}

/** The $group output name of one stored accumulator: "f<index>_<acc>" (no dots allowed). */
std::string groupOutputName(size_t fieldIndex, Accumulator acc) {
    return "f" + std::to_string(fieldIndex) + "_" + std::string(accumulatorName(acc));
}

void appendGroupAccumulator(BSONObjBuilder& group, const std::string& out, Accumulator acc,
                            StringData field, StringData timeField) {
    BSONObjBuilder spec(group.subobjStart(out));
    switch (acc) {
        case kMin:
            spec.append("$min", fieldPath(field));
            break;
        case kMax:
            spec.append("$max", fieldPath(field));
            break;
        case kSum:
            spec.append("$sum", fieldPath(field));
            break;
        case kCount:
            // The divisor of $avg: measurements whose value is a number.
            spec.append("$sum", BSON("$cond" << BSON_ARRAY(BSON("$isNumber" << fieldPath(field))
                                                           << 1 << 0)));
            break;
        case kFirst:
        case kLast:
            // The value at the bin's earliest (latest) time; null when that measurement lacks it.
            spec.append(acc == kFirst ? "$top" : "$bottom",
                        BSON("sortBy" << BSON(timeField << 1) << "output" << fieldPath(field)));
            break;
    }
}

Status invalidRollups(const std::string& why) {
    return Status(ErrorCodes::InvalidOptions, "Invalid timeseries.rollups: " + why);
}

/** The width of the raw data's time unit (REQUIRES: a granularity): a level must be coarser. */
long long rawUnitSeconds(const TimeseriesOptions& options) {
    switch (*options.getGranularity()) {
        case BucketGranularity::kSeconds:
            return 1;
        case BucketGranularity::kMinutes:
            return 60;
        case BucketGranularity::kHours:
            return 3600;
    }
    return 1;
}

Status validateRollupFields(size_t index, const BSONObj& fields, const TimeseriesOptions& options) {
    const std::string where = "rollups." + std::to_string(index) + ".fields";
    if (fields.isEmpty())
        return invalidRollups("'" + where + "' must name at least one field");
    const std::string& timeField = options.getTimeField();
    const auto& metaField = options.getMetaField();
    for (const BSONElement& f : fields) {
        StringData name = f.fieldNameStringData();
        if (name.empty() || name.starts_with("$") || name.find('.') != std::string::npos)
            return invalidRollups("'" + where + "' has an invalid field name '" +
                                  std::string(name) + "'");
        if (name == "_id" || name == timeField || (metaField && name == *metaField))
            return invalidRollups("'" + where + "' cannot roll up '" + std::string(name) +
                                  "': it is the _id, the timeField or the metaField");
        if (f.type() != BSONType::kArray || f.Obj().isEmpty())
            return invalidRollups("'" + where + "." + std::string(name) +
                                  "' must be a non-empty array of accumulator names");
        unsigned seen = 0;
        for (const BSONElement& a : f.Obj()) {
            auto acc = a.type() == BSONType::kString ? parseAccumulatorName(a.valueStringData())
                                                     : std::nullopt;
            if (!acc)
                return invalidRollups("'" + where + "." + std::string(name) +
                                      "' has an unknown accumulator " + a.toString(false) +
                                      "; accepted: min, max, sum, count, first, last");
            if (seen & *acc)
                return invalidRollups("'" + where + "." + std::string(name) + "' repeats '" +
                                      std::string(accumulatorName(*acc)) + "'");
            seen |= *acc;
        }
    }
    return Status::OK();
}

}  // namespace

Status validateRollups(const TimeseriesOptions& options,
                       std::optional<long long> collectionExpireAfterSeconds) {
    if (!options.getRollups())
        return Status::OK();
    const auto& rollups = *options.getRollups();
    // Custom bucketing (no granularity after validation) counts as seconds.
    const long long unit = options.getGranularity() ? rawUnitSeconds(options) : 1;
    long long previousSpan = 0;
    // The finest retention so far: the raw data's, then each level's (none: forever).
    std::optional<long long> previousExpiry = collectionExpireAfterSeconds;
    bool previousForever = !collectionExpireAfterSeconds;
    for (size_t i = 0; i < rollups.size(); ++i) {
        const TimeseriesRollup& r = rollups[i];
        const std::string where = "rollups." + std::to_string(i);
        if (r.getGranularity().has_value() == r.getBucketSpanSeconds().has_value())
            return invalidRollups("'" + where +
                                  "' needs exactly one of 'granularity' and 'bucketSpanSeconds'");
        const long long span = getRollupSpanSeconds(r);
        if (span <= unit)
            return invalidRollups("'" + where + "' (" + std::to_string(span) +
                                  " s) is not coarser than the raw data (" + std::to_string(unit) +
                                  " s)");
        if (previousSpan && span <= previousSpan)
            return invalidRollups("levels must be listed finest first with increasing spans; '" +
                                  where + "' (" + std::to_string(span) + " s) follows " +
                                  std::to_string(previousSpan) + " s");
        if (previousSpan && span % previousSpan != 0)
            return invalidRollups("'" + where + "' (" + std::to_string(span) +
                                  " s) is not a multiple of the previous level's span (" +
                                  std::to_string(previousSpan) + " s)");
        if (86400 % span != 0 && span % 86400 != 0)
            return invalidRollups("'" + where + "' (" + std::to_string(span) +
                                  " s) must divide a day (86400 s) or be a multiple of it");
        const auto expiry = r.getExpireAfterSeconds();
        if (expiry && previousForever)
            return invalidRollups("'" + where +
                                  ".expireAfterSeconds' is set, but finer data is kept forever");
        if (expiry && previousExpiry && *expiry < *previousExpiry)
            return invalidRollups("'" + where + ".expireAfterSeconds' (" + std::to_string(*expiry) +
                                  ") is shorter than the retention of finer data (" +
                                  std::to_string(*previousExpiry) + ")");
        if (Status s = validateRollupFields(i, r.getFields(), options); !s.isOK())
            return s;
        previousSpan = span;
        previousExpiry = expiry;
        previousForever = !expiry;
    }
    return Status::OK();
}

StringData accumulatorName(Accumulator acc) {
    switch (acc) {
        case kMin:
            return "min";
        case kMax:
            return "max";
        case kSum:
            return "sum";
        case kCount:
            return "count";
        case kFirst:
            return "first";
        case kLast:
            return "last";
    }
    return "";
}

std::optional<Accumulator> parseAccumulatorName(StringData name) {
    for (Accumulator acc : kAllAccumulators)
        if (accumulatorName(acc) == name)
            return acc;
    return std::nullopt;
}

unsigned RollupLevel::accumulatorsOf(StringData field) const {
    for (const auto& f : fields)
        if (f.name == field)
            return f.accumulators;
    return 0;
}

long long getRollupSpanSeconds(const TimeseriesRollup& rollup) {
    if (auto span = rollup.getBucketSpanSeconds())
        return *span;
    switch (rollup.getGranularity().value_or(RollupGranularity::kSeconds)) {
        case RollupGranularity::kSeconds:
            return 1;
        case RollupGranularity::kMinutes:
            return 60;
        case RollupGranularity::kHours:
            return 3600;
        case RollupGranularity::kDays:
            return 86400;
    }
    return 1;
}

NamespaceString makeRollupNss(const NamespaceString& viewNss, long long spanSeconds) {
    return NamespaceString(viewNss.db(), std::string(kRollupsPrefix) + viewNss.coll() + "." +
                                             std::to_string(spanSeconds));
}

bool isRollupNss(const NamespaceString& nss) {
    return StringData(nss.coll()).starts_with(kRollupsPrefix);
}

std::vector<RollupLevel> getRollupLevels(const NamespaceString& viewNss,
                                         const TimeseriesOptions& options) {
    std::vector<RollupLevel> levels;
    if (!options.getRollups())
        return levels;
    for (const auto& rollup : *options.getRollups()) {
        RollupLevel level;
        level.spanSeconds = getRollupSpanSeconds(rollup);
        level.expireAfterSeconds = rollup.getExpireAfterSeconds();
        level.nss = makeRollupNss(viewNss, level.spanSeconds);
        for (const auto& f : rollup.getFields()) {
            RollupField field{std::string(f.fieldNameStringData()), 0};
            if (f.type() == BSONType::kArray)
                for (const auto& a : f.Obj())
                    if (a.type() == BSONType::kString)
                        if (auto acc = parseAccumulatorName(a.valueStringData()))
                            field.accumulators |= *acc;
            level.fields.push_back(std::move(field));
        }
        levels.push_back(std::move(level));
    }
    return levels;
}

std::vector<long long> levelsToRebuild(const TimeseriesOptions& before,
                                       const TimeseriesOptions& after) {
    auto bySpan = [](const TimeseriesOptions& o) {
        std::map<long long, BSONObj> m;
        if (o.getRollups())
            for (const auto& r : *o.getRollups())
                m[getRollupSpanSeconds(r)] = r.getFields();
        return m;
    };
    const auto old = bySpan(before), next = bySpan(after);
    std::vector<long long> spans;
    for (const auto& [span, fields] : next) {
        auto it = old.find(span);
        if (it == old.end() || !it->second.binaryEqual(fields))
            spans.push_back(span);
    }
    for (const auto& [span, fields] : old)
        if (!next.count(span))
            spans.push_back(span);
    return spans;
}

std::vector<BSONObj> makeRowComputationPipeline(const TimeseriesOptions& options,
                                                const RollupLevel& level,
                                                const BSONObj& measurementFilter) {
    const std::string& timeField = options.getTimeField();
    const auto& metaField = options.getMetaField();
    std::vector<BSONObj> pipeline;
    if (!measurementFilter.isEmpty())
        pipeline.push_back(BSON("$match" << measurementFilter));

    BSONObjBuilder group;
    {
        BSONObjBuilder id(group.subobjStart("_id"));
        id.append(kRowTime, BSON("$dateTrunc" << BSON("date" << fieldPath(timeField) << "unit"
                                                             << "second"
                                                             << "binSize" << level.spanSeconds)));
        if (metaField)
            id.append(kRowMeta, fieldPath(*metaField));
    }
    group.append(kRowCount, BSON("$sum" << 1LL));
    group.append(kRowMinTime, BSON("$min" << fieldPath(timeField)));
    group.append(kRowMaxTime, BSON("$max" << fieldPath(timeField)));
    for (size_t i = 0; i < level.fields.size(); ++i)
        for (Accumulator acc : kAllAccumulators)
            if (level.fields[i].accumulators & acc)
                appendGroupAccumulator(group, groupOutputName(i, acc), acc, level.fields[i].name,
                                       timeField);
    pipeline.push_back(BSON("$group" << group.obj()));

    BSONObjBuilder project;
    project.append("_id", 1);
    project.append(kRowTime, "$_id." + std::string(kRowTime));
    if (metaField)
        project.append(kRowMeta, "$_id." + std::string(kRowMeta));
    project.append(kRowCount, 1);
    project.append(kRowMinTime, 1);
    project.append(kRowMaxTime, 1);
    {
        BSONObjBuilder f(project.subobjStart(kRowFields));
        for (size_t i = 0; i < level.fields.size(); ++i) {
            if (!level.fields[i].accumulators)
                continue;
            BSONObjBuilder accs(f.subobjStart(level.fields[i].name));
            for (Accumulator acc : kAllAccumulators)
                if (level.fields[i].accumulators & acc)
                    accs.append(accumulatorName(acc), "$" + groupOutputName(i, acc));
        }
    }
    pipeline.push_back(BSON("$project" << project.obj()));
    return pipeline;
}

long long binStartMillis(long long timeMillis, long long spanSeconds) {
    const long long span = spanSeconds * 1000;
    long long offset = (timeMillis % span - kReferenceMillis % span) % span;
    if (offset < 0)
        offset += span;
    if (timeMillis < std::numeric_limits<long long>::min() + offset)
        return std::numeric_limits<long long>::min();
    return timeMillis - offset;
}

}  // namespace mongo::timeseries::rollups
