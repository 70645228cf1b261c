#include "mongo/db/timeseries/rollups/rollup_rewrite.h"

#include <limits>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/timeseries/rollups/rollup_levels.h"
#include "mongo/db/timeseries/rollups/rollup_maintenance.h"
#include "mongo/db/timeseries/timeseries_commands.h"

namespace mongo::timeseries::rollups {
namespace {

/** What a pipeline needs of a level, gathered while its stages are read. */
struct Needs {
    std::vector<long long> fixedWidths;  // $dateTrunc widths in seconds (a span must divide each)
    bool calendarUnit = false;           // week/month/quarter/year: a span must divide a day
    std::optional<long long> lo, hi;     // the time range [lo, hi) in milliseconds
    std::vector<std::pair<std::string, unsigned>> fields;  // field -> accumulator bits
};

struct Analysis {
    const TimeseriesOptions* options;
    Needs needs;
    BSONObj rowMatch;  // the $match on the level's rows (empty: none)
    int sortDirection = 0;
};

/** "$<meta>" or "$<meta>.<sub>" -> "$m" / "$m.<sub>"; empty when `path` is not under meta. */
std::string rowMetaPath(const TimeseriesOptions& options, StringData path) {
    const auto& meta = options.getMetaField();
    if (!meta)
        return "";
    if (path == *meta)
        return std::string(kRowMeta);
    if (path.starts_with(*meta + ".") && path.size() > meta->size() + 1)
        return std::string(kRowMeta) + std::string(path.substr(meta->size()));
    return "";
}

void need(Needs& n, const std::string& field, unsigned accs) {
    for (auto& [f, a] : n.fields)
        if (f == field) {
            a |= accs;
            return;
        }
    n.fields.emplace_back(field, accs);
}

/** The time predicate {$gte: Date, $lt: Date} (either or both); false for anything else. */
bool readTimeRange(const BSONElement& e, Needs& n) {
    if (e.type() != BSONType::kObject || e.Obj().isEmpty())
        return false;
    for (const BSONElement& op : e.Obj()) {
        if (op.type() != BSONType::kDate)
            return false;
        const long long ms = op.date().toMillisSinceEpoch();
        if (op.fieldNameStringData() == "$gte")
            n.lo = n.lo ? std::max(*n.lo, ms) : ms;
        else if (op.fieldNameStringData() == "$lt")
            n.hi = n.hi ? std::min(*n.hi, ms) : ms;
        else
            return false;
    }
    return true;
}

/** Reads one $match object into `a` (time range, meta tests renamed). */
bool readMatch(const BSONObj& filter, Analysis& a, BSONObjBuilder& out) {
    for (const BSONElement& e : filter) {
        StringData name = e.fieldNameStringData();
        if (name == "$and") {
            if (e.type() != BSONType::kArray)
                return false;
            for (const BSONElement& clause : e.Obj())
                if (clause.type() != BSONType::kObject || !readMatch(clause.Obj(), a, out))
                    return false;
            continue;
        }
        if (name == a.options->getTimeField()) {
            if (!readTimeRange(e, a.needs))
                return false;
            continue;
        }
        std::string path = rowMetaPath(*a.options, name);
        if (path.empty())
            return false;
        // A test on a meta path means the same on a row's m (the bucket's meta value), but
        // only operators that read the path itself: no $expr/$where inside field values.
        if (e.type() == BSONType::kObject)
            for (const BSONElement& op : e.Obj())
                if (op.fieldNameStringData() == "$where" || op.fieldNameStringData() == "$expr")
                    return false;
        out.appendAs(e, path);
    }
    return true;
}

/** Seconds per fixed $dateTrunc unit, 0 for calendar units, -1 for anything else. */
long long unitSeconds(StringData unit) {
    if (unit == "second")
        return 1;
    if (unit == "minute")
        return 60;
    if (unit == "hour")
        return 3600;
    if (unit == "day")
        return 86400;
    if (unit == "week" || unit == "month" || unit == "quarter" || unit == "year")
        return 0;
    return -1;
}

/** A $dateTrunc of the time field in UTC, rewritten to read the row's bin start. */
bool readDateTrunc(const BSONObj& spec, Analysis& a, BSONObjBuilder& out) {
    std::optional<long long> unit;
    long long binSize = 1;
    bool dateOk = false;
    BSONObjBuilder rewritten;
    for (const BSONElement& e : spec) {
        StringData f = e.fieldNameStringData();
        if (f == "date") {
            dateOk = e.type() == BSONType::kString && e.valueStringData().starts_with("$") &&
                     e.valueStringData().substr(1) == a.options->getTimeField();
            rewritten.append("date", "$" + std::string(kRowTime));
        } else if (f == "unit") {
            if (e.type() != BSONType::kString || unitSeconds(e.valueStringData()) < 0)
                return false;
            unit = unitSeconds(e.valueStringData());
            rewritten.append(e);
        } else if (f == "binSize") {
            if (!e.isNumber() || e.numberLong() < 1 || e.numberDouble() != e.numberLong())
                return false;
            binSize = e.numberLong();
            rewritten.append(e);
        } else if (f == "startOfWeek") {
            if (e.type() != BSONType::kString)
                return false;
            rewritten.append(e);
        } else {
            return false;  // timezone and unknown options: the raw path decides
        }
    }
    if (!dateOk || !unit)
        return false;
    if (*unit == 0)
        a.needs.calendarUnit = true;
    else if (binSize > std::numeric_limits<long long>::max() / *unit)
        return false;
    else
        a.needs.fixedWidths.push_back(*unit * binSize);
    out.append("$dateTrunc", rewritten.obj());
    return true;
}

/** One component of the group key: a constant, a meta path or a $dateTrunc. */
bool readKeyPart(const BSONElement& e, StringData outName, Analysis& a, BSONObjBuilder& out) {
    switch (e.type()) {
        case BSONType::kString: {
            StringData s = e.valueStringData();
            if (!s.starts_with("$")) {
                out.appendAs(e, outName);
                return true;
            }
            std::string path = rowMetaPath(*a.options, s.substr(1));
            if (path.empty())
                return false;
            out.append(outName, "$" + path);
            return true;
        }
        case BSONType::kObject: {
            BSONObj o = e.Obj();
            if (o.nFields() == 1 && o.firstElementFieldNameStringData() == "$dateTrunc") {
                if (o.firstElement().type() != BSONType::kObject)
                    return false;
                BSONObjBuilder sub(out.subobjStart(outName));
                return readDateTrunc(o.firstElement().Obj(), a, sub);
            }
            return false;
        }
        case BSONType::kNull:
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
        case BSONType::kNumberDouble:
        case BSONType::kBool:
            out.appendAs(e, outName);
            return true;
        default:
            return false;
    }
}

bool readGroupKey(const BSONElement& id, Analysis& a, BSONObjBuilder& out) {
    if (id.type() == BSONType::kObject &&
        !(id.Obj().nFields() == 1 && id.Obj().firstElementFieldNameStringData().starts_with("$"))) {
        BSONObjBuilder sub(out.subobjStart("_id"));
        for (const BSONElement& part : id.Obj()) {
            if (part.fieldNameStringData().starts_with("$") ||
                part.fieldNameStringData().find('.') != std::string::npos)
                return false;
            if (!readKeyPart(part, part.fieldNameStringData(), a, sub))
                return false;
        }
        return true;
    }
    return readKeyPart(id, "_id", a, out);
}

/** `arg` is "$<field>" for a measurement field a level may keep; returns the field. */
std::optional<std::string> measurementField(const BSONElement& arg, const TimeseriesOptions& o) {
    if (arg.type() != BSONType::kString || !arg.valueStringData().starts_with("$"))
        return std::nullopt;
    StringData f = arg.valueStringData().substr(1);
    if (f.empty() || f.find('.') != std::string::npos || f.starts_with("$") ||
        f == o.getTimeField() || (o.getMetaField() && f == *o.getMetaField()))
        return std::nullopt;
    return std::string(f);
}

std::string rowAcc(const std::string& field, Accumulator acc) {
    return "$" + std::string(kRowFields) + "." + field + "." + std::string(accumulatorName(acc));
}

/** A count read as $sum of n: an int when it fits, as $sum of 1 gives. */
BSONObj countAsInt(const std::string& name) {
    const std::string v = "$" + name;
    return BSON("$cond" << BSON_ARRAY(BSON("$lte" << BSON_ARRAY(v << 2147483647))
                                      << BSON("$toInt" << v) << v));
}

/**
 * One accumulator `out: {op: arg}`: its row-level accumulator(s) into `group` and its final
 * value into `project`. False when the level cannot answer it.
 */
bool readAccumulator(const BSONElement& acc, Analysis& a, BSONObjBuilder& group,
                     BSONObjBuilder& project, int index) {
    const std::string out(acc.fieldNameStringData());
    if (acc.type() != BSONType::kObject || acc.Obj().nFields() != 1 ||
        out.find('.') != std::string::npos)
        return false;
    const BSONElement spec = acc.Obj().firstElement();
    const StringData op = spec.fieldNameStringData();
    const auto& o = *a.options;
    const bool onTime =
        spec.type() == BSONType::kString && spec.valueStringData() == "$" + o.getTimeField();
    if ((op == "$min" || op == "$max") && onTime) {
        group.append(out, BSON(op << "$" + std::string(op == "$min" ? kRowMinTime : kRowMaxTime)));
        project.append(out, "$" + out);
        return true;
    }
    if (op == "$count" && spec.type() == BSONType::kObject && spec.Obj().isEmpty()) {
        group.append(out, BSON("$sum"
                               << "$" + std::string(kRowCount)));
        project.append(out, countAsInt(out));
        return true;
    }
    if (op == "$sum" && spec.isNumber() && spec.numberDouble() == 1 &&
        spec.type() != BSONType::kNumberDecimal) {
        group.append(out, BSON("$sum"
                               << "$" + std::string(kRowCount)));
        if (spec.type() == BSONType::kNumberInt)
            project.append(out, countAsInt(out));
        else if (spec.type() == BSONType::kNumberLong)
            project.append(out, "$" + out);
        else
            project.append(out, BSON("$toDouble"
                                     << "$" + out));
        return true;
    }
    auto field = measurementField(spec, o);
    if (!field)
        return false;
    if (op == "$min" || op == "$max") {
        Accumulator acc = op == "$min" ? kMin : kMax;
        need(a.needs, *field, acc);
        group.append(out, BSON(op << rowAcc(*field, acc)));
        project.append(out, "$" + out);
        return true;
    }
    if (op == "$sum") {
        need(a.needs, *field, kSum);
        group.append(out, BSON("$sum" << rowAcc(*field, kSum)));
        project.append(out, "$" + out);
        return true;
    }
    if (op == "$avg") {
        need(a.needs, *field, kSum | kCount);
        const std::string s = "__rollup_s" + std::to_string(index);
        const std::string c = "__rollup_c" + std::to_string(index);
        group.append(s, BSON("$sum" << rowAcc(*field, kSum)));
        group.append(c, BSON("$sum" << rowAcc(*field, kCount)));
        project.append(
            out, BSON("$cond" << BSON_ARRAY(BSON("$eq" << BSON_ARRAY("$" + c << 0))
                                            << BSONNULL
                                            << BSON("$divide" << BSON_ARRAY("$" + s << "$" + c)))));
        return true;
    }
    if ((op == "$first" || op == "$last") && a.sortDirection != 0) {
        // In time order, the first value is the stored first of the row with the earliest
        // measurement (rows of several series may share a bin).
        const bool earliest = (op == "$first") == (a.sortDirection > 0);
        Accumulator acc = earliest ? kFirst : kLast;
        need(a.needs, *field, acc);
        group.append(out, BSON((earliest ? "$top" : "$bottom")
                               << BSON("sortBy" << BSON((earliest ? kRowMinTime : kRowMaxTime) << 1)
                                                << "output" << rowAcc(*field, acc))));
        project.append(out, "$" + out);
        return true;
    }
    return false;
}

/** The level can serve `needs`. */
bool levelServes(const RollupLevel& level, const Needs& needs) {
    const long long span = level.spanSeconds;
    for (long long w : needs.fixedWidths)
        if (w % span != 0)
            return false;
    if (needs.calendarUnit && 86400 % span != 0)
        return false;
    for (const std::optional<long long>& bound : {needs.lo, needs.hi})
        if (bound && binStartMillis(*bound, span) != *bound)
            return false;
    for (const auto& [field, accs] : needs.fields)
        if ((level.accumulatorsOf(field) & accs) != accs)
            return false;
    return true;
}

}  // namespace

std::optional<RollupRewrite> rewriteForRollups(OperationContext* opCtx,
                                               const NamespaceString& viewNss,
                                               const std::vector<BSONObj>& stages,
                                               bool simpleCollation) {
    if (!simpleCollation || stages.empty())
        return std::nullopt;
    // The shape first (no catalog lookup for the pipelines that cannot qualify).
    {
        size_t g = 0;
        if (g < stages.size() && stages[g].firstElementFieldNameStringData() == "$match")
            ++g;
        if (g < stages.size() && stages[g].firstElementFieldNameStringData() == "$sort")
            ++g;
        if (g >= stages.size() || stages[g].firstElementFieldNameStringData() != "$group")
            return std::nullopt;
    }
    auto ts = lookupTimeseriesCollection(opCtx, viewNss);
    if (!ts || !ts->options.getRollups() || ts->options.getRollups()->empty())
        return std::nullopt;
    if (ts->buckets->getDefaultCollator())
        return std::nullopt;  // the rows' meta and group keys compare without a collation

    Analysis a{&ts->options, {}, BSONObj(), 0};
    size_t i = 0;
    if (stages[i].firstElementFieldNameStringData() == "$match") {
        if (stages[i].firstElement().type() != BSONType::kObject)
            return std::nullopt;
        BSONObjBuilder match;
        if (!readMatch(stages[i].firstElement().Obj(), a, match))
            return std::nullopt;
        a.rowMatch = match.obj();
        ++i;
    }
    if (i < stages.size() && stages[i].firstElementFieldNameStringData() == "$sort") {
        BSONElement s = stages[i].firstElement();
        if (s.type() != BSONType::kObject || s.Obj().nFields() != 1 ||
            s.Obj().firstElementFieldNameStringData() != ts->options.getTimeField() ||
            !s.Obj().firstElement().isNumber())
            return std::nullopt;
        a.sortDirection = s.Obj().firstElement().numberLong() > 0 ? 1 : -1;
        ++i;
    }
    if (i >= stages.size() || stages[i].firstElementFieldNameStringData() != "$group" ||
        stages[i].firstElement().type() != BSONType::kObject)
        return std::nullopt;
    const BSONObj groupSpec = stages[i].firstElement().Obj();
    ++i;

    BSONObjBuilder group, project;
    project.append("_id", 1);
    int index = 0;
    bool sawId = false;
    for (const BSONElement& e : groupSpec) {
        if (e.fieldNameStringData() == "_id") {
            if (!readGroupKey(e, a, group))
                return std::nullopt;
            sawId = true;
            continue;
        }
        if (!readAccumulator(e, a, group, project, index++))
            return std::nullopt;
    }
    if (!sawId)
        return std::nullopt;

    // The coarsest level that serves the pipeline exactly.
    const auto levels = getRollupLevels(viewNss, ts->options);
    const RollupLevel* chosen = nullptr;
    for (auto it = levels.rbegin(); it != levels.rend() && !chosen; ++it)
        if (levelServes(*it, a.needs))
            chosen = &*it;
    if (!chosen)
        return std::nullopt;

    catchUp(opCtx, viewNss);

    RollupRewrite r;
    r.levelNss = chosen->nss;
    BSONObjBuilder match;
    if (a.needs.lo || a.needs.hi) {
        BSONObjBuilder range(match.subobjStart(kRowTime));
        if (a.needs.lo)
            range.append("$gte", Date_t::fromMillisSinceEpoch(*a.needs.lo));
        if (a.needs.hi)
            range.append("$lt", Date_t::fromMillisSinceEpoch(*a.needs.hi));
    }
    match.appendElements(a.rowMatch);
    BSONObj m = match.obj();
    if (!m.isEmpty())
        r.stages.push_back(BSON("$match" << m));
    r.stages.push_back(BSON("$group" << group.obj()));
    r.stages.push_back(BSON("$project" << project.obj()));
    for (; i < stages.size(); ++i)
        r.stages.push_back(stages[i]);

    BSONObjBuilder ex;
    {
        BSONArrayBuilder served(ex.subarrayStart("servedBy"));
        BSONObjBuilder level(served.subobjStart());
        level.appendNumber("bucketSpanSeconds", chosen->spanSeconds);
        level.append("ns", chosen->nss.ns());
        if (a.needs.lo)
            level.append("from", Date_t::fromMillisSinceEpoch(*a.needs.lo));
        else
            level.appendNull("from");
        if (a.needs.hi)
            level.append("to", Date_t::fromMillisSinceEpoch(*a.needs.hi));
        else
            level.appendNull("to");
    }
    ex.append("rawPath", false);
    r.explain = ex.obj();
    return r;
}

bool hasRollups(OperationContext* opCtx, const NamespaceString& nss) {
    auto ts = lookupTimeseriesCollection(opCtx, nss);
    return ts && ts->options.getRollups() && !ts->options.getRollups()->empty();
}

}  // namespace mongo::timeseries::rollups
