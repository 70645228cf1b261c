#include "mongo/db/timeseries/rollups/rollup_levels.h"

#include <limits>

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

}  // namespace

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
