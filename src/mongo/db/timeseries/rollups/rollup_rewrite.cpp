#include "mongo/db/timeseries/rollups/rollup_rewrite.h"

#include <algorithm>
#include <limits>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/db/timeseries/rollups/rollup_levels.h"
#include "mongo/db/timeseries/rollups/rollup_maintenance.h"
#include "mongo/db/timeseries/timeseries_commands.h"

namespace mongo::timeseries::rollups {
namespace {

/** What a pipeline needs of a level, gathered while its stages are read. */
struct Needs {
    std::vector<long long> fixedWidths;  // $dateTrunc widths in seconds (a span must divide each)
    bool calendarUnit = false;           // week/month/quarter/year: a span must divide a day
    std::optional<long long> lo, hi;     // the time range [lo, hi) in milliseconds (none: open)
    std::vector<std::pair<std::string, unsigned>> fields;  // field -> accumulator bits
};

struct Analysis {
    const TimeseriesOptions* options;
    Needs needs;
    BSONObj rowMatch;   // the meta tests on the level's rows (empty: none)
    BSONObj metaMatch;  // the same tests on the view's measurements
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

/**
 * The time predicate: $gte / $gt / $lt / $lte on dates, kept as the half-open [lo, hi) in
 * milliseconds (dates are whole milliseconds, so $gt x is $gte x + 1); false for anything else.
 */
bool readTimeRange(const BSONElement& e, Needs& n) {
    if (e.type() != BSONType::kObject || e.Obj().isEmpty())
        return false;
    constexpr long long kMax = std::numeric_limits<long long>::max();
    for (const BSONElement& op : e.Obj()) {
        if (op.type() != BSONType::kDate)
            return false;
        const long long ms = op.date().toMillisSinceEpoch();
        StringData name = op.fieldNameStringData();
        if (name == "$gte" || name == "$gt") {
            if (name == "$gt" && ms == kMax)
                return false;  // nothing matches: not worth a rewrite
            const long long lo = name == "$gt" ? ms + 1 : ms;
            n.lo = n.lo ? std::max(*n.lo, lo) : lo;
        } else if (name == "$lt" || name == "$lte") {
            if (name == "$lte" && ms == kMax)
                continue;  // every date
            const long long hi = name == "$lte" ? ms + 1 : ms;
            n.hi = n.hi ? std::min(*n.hi, hi) : hi;
        } else {
            return false;
        }
    }
    return true;
}

/** Reads one $match object into `a` (time range, meta tests renamed). */
bool readMatch(const BSONObj& filter, Analysis& a, BSONObjBuilder& out, BSONArrayBuilder& raw) {
    for (const BSONElement& e : filter) {
        StringData name = e.fieldNameStringData();
        if (name == "$and") {
            if (e.type() != BSONType::kArray)
                return false;
            for (const BSONElement& clause : e.Obj())
                if (clause.type() != BSONType::kObject || !readMatch(clause.Obj(), a, out, raw))
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
        BSONObjBuilder test;
        test.append(e);
        raw.append(test.obj());
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
 * One partial aggregate of an accumulator, computed the same way from every source: from a
 * level's rows (`level`), from raw measurements (`raw`), and merged across sources
 * (`combine`), each an accumulator spec {$op: arg} under the name `name`.
 */
struct Part {
    std::string name;
    BSONObj level, raw, combine;
};

/** {$op: arg} */
BSONObj accSpec(StringData op, const BSONElement& arg) {
    BSONObjBuilder b;
    b.appendAs(arg, op);
    return b.obj();
}

BSONObj accSpec(StringData op, const std::string& arg) {
    return BSON(op << arg);
}

void addPart(std::vector<Part>& parts, const std::string& name, StringData op,
             const BSONObj& levelArgWrapped, const BSONObj& rawArgWrapped, StringData combineOp) {
    parts.push_back({name, accSpec(op, levelArgWrapped.firstElement()),
                     accSpec(op, rawArgWrapped.firstElement()), accSpec(combineOp, "$" + name)});
}

BSONObj wrapped(const std::string& s) {
    return BSON("" << s);
}

/**
 * One accumulator `out: {op: arg}` of the $group: its partial aggregates into `parts` and its
 * final value into `project`. False when no level can answer it.
 */
bool readAccumulator(const BSONElement& acc, Analysis& a, std::vector<Part>& parts,
                     BSONObjBuilder& project, int index) {
    const std::string out(acc.fieldNameStringData());
    if (acc.type() != BSONType::kObject || acc.Obj().nFields() != 1 ||
        out.find('.') != std::string::npos || out.starts_with("$"))
        return false;
    const BSONElement spec = acc.Obj().firstElement();
    const StringData op = spec.fieldNameStringData();
    const auto& o = *a.options;
    const std::string p = "__rollup" + std::to_string(index);
    const std::string timePath = "$" + o.getTimeField();
    const bool onTime = spec.type() == BSONType::kString && spec.valueStringData() == timePath;
    if ((op == "$min" || op == "$max") && onTime) {
        addPart(parts, p, op, wrapped("$" + std::string(op == "$min" ? kRowMinTime : kRowMaxTime)),
                wrapped(timePath), op);
        project.append(out, "$" + p);
        return true;
    }
    const bool count = op == "$count" && spec.type() == BSONType::kObject && spec.Obj().isEmpty();
    const bool sumOfOne = op == "$sum" && spec.isNumber() && spec.numberDouble() == 1 &&
                          spec.type() != BSONType::kNumberDecimal;
    if (count || sumOfOne) {
        parts.push_back({p,
                         BSON("$sum"
                              << "$" + std::string(kRowCount)),
                         count ? BSON("$sum" << 1) : accSpec("$sum", spec),
                         BSON("$sum"
                              << "$" + p)});
        if (count || spec.type() == BSONType::kNumberInt)
            project.append(out, countAsInt(p));
        else if (spec.type() == BSONType::kNumberLong)
            project.append(out, "$" + p);
        else
            project.append(out, BSON("$toDouble"
                                     << "$" + p));
        return true;
    }
    auto field = measurementField(spec, o);
    if (!field)
        return false;
    const std::string fieldPath = "$" + *field;
    if (op == "$min" || op == "$max") {
        Accumulator acc = op == "$min" ? kMin : kMax;
        need(a.needs, *field, acc);
        addPart(parts, p, op, wrapped(rowAcc(*field, acc)), wrapped(fieldPath), op);
        project.append(out, "$" + p);
        return true;
    }
    if (op == "$sum") {
        need(a.needs, *field, kSum);
        addPart(parts, p, "$sum", wrapped(rowAcc(*field, kSum)), wrapped(fieldPath), "$sum");
        project.append(out, "$" + p);
        return true;
    }
    if (op == "$avg") {
        need(a.needs, *field, kSum | kCount);
        const std::string s = p + "s", c = p + "c";
        addPart(parts, s, "$sum", wrapped(rowAcc(*field, kSum)), wrapped(fieldPath), "$sum");
        parts.push_back({c, BSON("$sum" << rowAcc(*field, kCount)),
                         BSON("$sum" << BSON(
                                  "$cond" << BSON_ARRAY(BSON("$isNumber" << fieldPath) << 1 << 0))),
                         BSON("$sum"
                              << "$" + c)});
        project.append(
            out, BSON("$cond" << BSON_ARRAY(BSON("$eq" << BSON_ARRAY("$" + c << 0))
                                            << BSONNULL
                                            << BSON("$divide" << BSON_ARRAY("$" + s << "$" + c)))));
        return true;
    }
    if ((op == "$first" || op == "$last") && a.sortDirection != 0) {
        // In time order, the first value is the stored first of the row with the earliest
        // measurement (rows of several series may share a bin); each source gives its
        // {t, v} and the merge keeps the earliest (latest) t.
        const bool earliest = (op == "$first") == (a.sortDirection > 0);
        const Accumulator acc = earliest ? kFirst : kLast;
        const StringData top = earliest ? "$top" : "$bottom";
        const std::string rowTime = "$" + std::string(earliest ? kRowMinTime : kRowMaxTime);
        need(a.needs, *field, acc);
        auto pick = [&](StringData sortField, const std::string& time, const std::string& value) {
            return BSON(
                top << BSON("sortBy"
                            << BSON(sortField << 1) << "output"
                            << BSON("t" << time << "v"
                                        << BSON("$ifNull" << BSON_ARRAY(value << BSONNULL)))));
        };
        parts.push_back({p,
                         pick(earliest ? kRowMinTime : kRowMaxTime, rowTime, rowAcc(*field, acc)),
                         pick(o.getTimeField(), timePath, fieldPath),
                         BSON(top << BSON("sortBy" << BSON(p + ".t" << 1) << "output"
                                                   << "$" + p))});
        project.append(out, "$" + p + ".v");
        return true;
    }
    return false;
}

/** The level keeps what the pipeline reads and its bins nest in the pipeline's. */
bool levelServes(const RollupLevel& level, const Needs& needs) {
    const long long span = level.spanSeconds;
    for (long long w : needs.fixedWidths)
        if (w % span != 0)
            return false;
    if (needs.calendarUnit && 86400 % span != 0)
        return false;
    for (const auto& [field, accs] : needs.fields)
        if ((level.accumulatorsOf(field) & accs) != accs)
            return false;
    return true;
}

/** A piece of the query's time range and what answers it: a level (index) or the raw data. */
struct Piece {
    const RollupLevel* level;  // null: the raw measurements
    std::optional<long long> lo, hi;
};

/** The first bin start at or after `ms` (for `span` seconds); nullopt past the largest date. */
std::optional<long long> ceilBin(long long ms, long long spanSeconds) {
    const long long start = binStartMillis(ms, spanSeconds);
    if (start == ms)
        return ms;
    if (start > std::numeric_limits<long long>::max() - spanSeconds * 1000)
        return std::nullopt;
    return start + spanSeconds * 1000;
}

/**
 * Covers [lo, hi) with the coarsest levels first (`levels` coarsest first, from `k`): each
 * level takes the whole bins inside the range, the edges go to the finer levels and at last
 * to the raw data.
 */
void cover(const std::vector<const RollupLevel*>& levels, size_t k, std::optional<long long> lo,
           std::optional<long long> hi, std::vector<Piece>& out) {
    if (lo && hi && *lo >= *hi)
        return;
    if (k == levels.size()) {
        out.push_back({nullptr, lo, hi});
        return;
    }
    const long long span = levels[k]->spanSeconds;
    std::optional<long long> innerLo = lo, innerHi = hi;
    if (lo) {
        innerLo = ceilBin(*lo, span);
        if (!innerLo) {
            cover(levels, k + 1, lo, hi, out);
            return;
        }
    }
    if (hi)
        innerHi = binStartMillis(*hi, span);
    if (innerLo && innerHi && *innerLo >= *innerHi) {
        cover(levels, k + 1, lo, hi, out);
        return;
    }
    if (lo)
        cover(levels, k + 1, lo, innerLo, out);
    out.push_back({levels[k], innerLo, innerHi});
    if (hi)
        cover(levels, k + 1, innerHi, hi, out);
}

/** {<path>: {$gte: lo, $lt: hi}} (the bounds that are set), or {} for an open range. */
BSONObj timeRange(StringData path, const std::optional<long long>& lo,
                  const std::optional<long long>& hi) {
    if (!lo && !hi)
        return BSONObj();
    BSONObjBuilder b;
    {
        BSONObjBuilder range(b.subobjStart(path));
        if (lo)
            range.append("$gte", Date_t::fromMillisSinceEpoch(*lo));
        if (hi)
            range.append("$lt", Date_t::fromMillisSinceEpoch(*hi));
    }
    return b.obj();
}

/** The $match of one piece: its time range and the meta tests (of rows or measurements). */
BSONObj pieceMatch(const BSONObj& range, const BSONObj& tests, bool testsAreArray) {
    BSONObjBuilder b;
    b.appendElements(range);
    if (testsAreArray) {
        if (!tests.isEmpty())
            b.appendArray("$and", tests);
    } else {
        b.appendElements(tests);
    }
    return b.obj();
}

/** The stages computing the partial aggregates of one piece, grouped by the key. */
std::vector<BSONObj> pieceStages(const Piece& piece, const Analysis& a, const BSONObj& levelKey,
                                 const BSONElement& rawKey, const std::vector<Part>& parts) {
    std::vector<BSONObj> stages;
    BSONObj match = piece.level
                        ? pieceMatch(timeRange(kRowTime, piece.lo, piece.hi), a.rowMatch, false)
                        : pieceMatch(timeRange(a.options->getTimeField(), piece.lo, piece.hi),
                                     a.metaMatch, true);
    if (!match.isEmpty())
        stages.push_back(BSON("$match" << match));
    BSONObjBuilder group;
    if (piece.level)
        group.appendElements(levelKey);
    else
        group.appendAs(rawKey, "_id");
    for (const auto& part : parts)
        group.append(part.name, piece.level ? part.level : part.raw);
    stages.push_back(BSON("$group" << group.obj()));
    return stages;
}

BSONObj pieceExplain(const Piece& piece) {
    BSONObjBuilder b;
    if (piece.level) {
        b.appendNumber("bucketSpanSeconds", piece.level->spanSeconds);
        b.append("ns", piece.level->nss.ns());
    } else {
        b.append("raw", true);
    }
    for (const auto& [name, bound] : {std::pair{"from", piece.lo}, std::pair{"to", piece.hi}}) {
        if (bound)
            b.append(name, Date_t::fromMillisSinceEpoch(*bound));
        else
            b.appendNull(name);
    }
    return b.obj();
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

    Analysis a{&ts->options, {}, BSONObj(), BSONObj(), 0};
    size_t i = 0;
    if (stages[i].firstElementFieldNameStringData() == "$match") {
        if (stages[i].firstElement().type() != BSONType::kObject)
            return std::nullopt;
        BSONObjBuilder match;
        BSONArrayBuilder raw;
        if (!readMatch(stages[i].firstElement().Obj(), a, match, raw))
            return std::nullopt;
        a.rowMatch = match.obj();
        a.metaMatch = raw.arr();
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

    BSONObjBuilder levelKeyBuilder, project;
    project.append("_id", 1);
    std::vector<Part> parts;
    BSONElement rawKey;
    int index = 0;
    for (const BSONElement& e : groupSpec) {
        if (e.fieldNameStringData() == "_id") {
            if (!readGroupKey(e, a, levelKeyBuilder))
                return std::nullopt;
            rawKey = e;
            continue;
        }
        if (!readAccumulator(e, a, parts, project, index++))
            return std::nullopt;
    }
    if (rawKey.eoo())
        return std::nullopt;
    const BSONObj levelKey = levelKeyBuilder.obj();

    // The levels that can answer, coarsest first, then the pieces of the time range.
    std::vector<const RollupLevel*> usable;
    const auto levels = getRollupLevels(viewNss, ts->options);
    for (auto it = levels.rbegin(); it != levels.rend(); ++it)
        if (levelServes(*it, a.needs))
            usable.push_back(&*it);
    std::vector<Piece> pieces;
    cover(usable, 0, a.needs.lo, a.needs.hi, pieces);
    auto main = std::find_if(pieces.begin(), pieces.end(),
                             [](const Piece& p) { return p.level != nullptr; });
    if (main == pieces.end())
        return std::nullopt;  // the range is narrower than every level's bins
    // The levels are exact only once caught up, which writes: not on a node that cannot.
    if (!repl::ReplicationCoordinator::get()->canAcceptWrites())
        return std::nullopt;

    catchUp(opCtx, viewNss);

    RollupRewrite r;
    r.levelNss = main->level->nss;
    r.stages = pieceStages(*main, a, levelKey, rawKey, parts);
    if (pieces.size() > 1) {
        for (auto it = pieces.begin(); it != pieces.end(); ++it) {
            if (it == main)
                continue;
            BSONArrayBuilder sub;
            for (const auto& st : pieceStages(*it, a, levelKey, rawKey, parts))
                sub.append(st);
            const std::string coll = it->level ? it->level->nss.coll() : viewNss.coll();
            r.stages.push_back(
                BSON("$unionWith" << BSON("coll" << coll << "pipeline" << sub.arr())));
        }
        BSONObjBuilder merge;
        merge.append("_id", "$_id");
        for (const auto& part : parts)
            merge.append(part.name, part.combine);
        r.stages.push_back(BSON("$group" << merge.obj()));
    }
    r.stages.push_back(BSON("$project" << project.obj()));
    for (; i < stages.size(); ++i)
        r.stages.push_back(stages[i]);

    BSONObjBuilder ex;
    {
        BSONArrayBuilder served(ex.subarrayStart("servedBy"));
        for (const auto& piece : pieces)
            served.append(pieceExplain(piece));
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
