// libFuzzer target, grammar-aware: the bytes choose a pipeline (stages, expressions from
// the expression registry, accumulators, window functions, field paths and values), which
// is parsed, optimised and run over a small in-memory collection (no storage, no
// OperationContext). The only acceptable failure is a DBException; anything else (a crash,
// a sanitizer report, another exception, memory past libFuzzer's -rss_limit_mb /
// -malloc_limit_mb) is a finding. Generated sizes are capped (strings <= 8 bytes, arrays
// <= 4 elements, $range bounds <= 50, expression depth <= 4, $reduce only over short
// inputs) to keep each run fast; the memory limits of the query layer bound the rest.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/pipeline/vector_source_bm.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr int kMaxExprDepth = 4;
constexpr int kMaxStages = 6;
constexpr int kMaxOutputDocs = 10000;

const std::vector<BSONObj>& collection() {
    static const std::vector<BSONObj> docs = [] {
        std::vector<BSONObj> v;
        for (int i = 0; i < 12; ++i) {
            BSONObjBuilder b;
            b.append("_id", i);
            if (i % 3 == 0)
                b.append("a", i);
            else
                b.append("a", i * 1.5);
            if (i % 4 != 0)
                b.append("b", std::string(1, static_cast<char>('a' + i % 5)));
            if (i % 2 == 0)
                b.append("arr", BSON_ARRAY(i << BSON("x" << i) << "s"));
            else
                b.append("arr", BSONArray());
            b.append("c", BSON("d" << i % 2 << "e" << BSON_ARRAY(1 << 2)));
            b.append("t", Date_t::fromMillisSinceEpoch(1'600'000'000'000LL + i * 3'600'000LL));
            b.append("m", BSON("sensor" << i % 3));
            if (i == 5)
                b.appendNull("n");
            if (i == 7)
                b.append("n", -0.0);
            v.push_back(b.obj());
        }
        return v;
    }();
    return docs;
}

const char* const kPaths[] = {"_id",   "a", "b", "c",        "c.d", "c.e", "arr",
                              "arr.x", "t", "m", "m.sensor", "n",   "z",   "a.b"};
const char* const kNewFields[] = {"a", "b", "f", "g", "c.d", "out", "_id", "arr"};

// Operators taking positional arguments (an array of operands, or one operand).
const char* const kOps[] = {"$abs",
                            "$add",
                            "$allElementsTrue",
                            "$and",
                            "$anyElementTrue",
                            "$arrayElemAt",
                            "$arrayToObject",
                            "$acos",
                            "$acosh",
                            "$asin",
                            "$asinh",
                            "$atan",
                            "$atanh",
                            "$binarySize",
                            "$bsonSize",
                            "$ceil",
                            "$cmp",
                            "$concat",
                            "$concatArrays",
                            "$cond",
                            "$cos",
                            "$cosh",
                            "$dayOfMonth",
                            "$dayOfWeek",
                            "$dayOfYear",
                            "$degreesToRadians",
                            "$divide",
                            "$eq",
                            "$exp",
                            "$first",
                            "$floor",
                            "$gt",
                            "$gte",
                            "$hour",
                            "$ifNull",
                            "$in",
                            "$indexOfArray",
                            "$indexOfBytes",
                            "$indexOfCP",
                            "$isArray",
                            "$isNumber",
                            "$isoDayOfWeek",
                            "$isoWeek",
                            "$isoWeekYear",
                            "$last",
                            "$literal",
                            "$ln",
                            "$log",
                            "$log10",
                            "$lt",
                            "$lte",
                            "$max",
                            "$mergeObjects",
                            "$millisecond",
                            "$min",
                            "$minute",
                            "$mod",
                            "$month",
                            "$multiply",
                            "$ne",
                            "$not",
                            "$objectToArray",
                            "$or",
                            "$pow",
                            "$radiansToDegrees",
                            "$reverseArray",
                            "$round",
                            "$second",
                            "$setDifference",
                            "$setEquals",
                            "$setIntersection",
                            "$setIsSubset",
                            "$setUnion",
                            "$sin",
                            "$sinh",
                            "$size",
                            "$slice",
                            "$split",
                            "$sqrt",
                            "$strLenBytes",
                            "$substr",
                            "$substrBytes",
                            "$substrCP",
                            "$strLenCP",
                            "$strcasecmp",
                            "$subtract",
                            "$sum",
                            "$avg",
                            "$tan",
                            "$tanh",
                            "$toBool",
                            "$toDate",
                            "$toDecimal",
                            "$toDouble",
                            "$toInt",
                            "$toLong",
                            "$toLower",
                            "$toObjectId",
                            "$toString",
                            "$toUpper",
                            "$trunc",
                            "$tsIncrement",
                            "$tsSecond",
                            "$type",
                            "$week",
                            "$year",
                            "$const",
                            "$rand",
                            "$stdDevPop",
                            "$nope"};

// Operators taking named arguments, with the names they know.
struct NamedOp {
    const char* name;
    std::vector<const char*> args;
};
const std::vector<NamedOp>& namedOps() {
    static const std::vector<NamedOp> ops = {
        {"$cond", {"if", "then", "else"}},
        {"$switch", {"branches", "default"}},
        {"$let", {"vars", "in"}},
        {"$map", {"input", "as", "in"}},
        {"$filter", {"input", "as", "cond", "limit"}},
        {"$reduce", {"input", "initialValue", "in"}},
        {"$convert", {"input", "to", "onError", "onNull"}},
        {"$dateTrunc", {"date", "unit", "binSize", "timezone", "startOfWeek"}},
        {"$dateAdd", {"startDate", "unit", "amount", "timezone"}},
        {"$dateSubtract", {"startDate", "unit", "amount", "timezone"}},
        {"$dateDiff", {"startDate", "endDate", "unit", "timezone", "startOfWeek"}},
        {"$dateToString", {"date", "format", "timezone", "onNull"}},
        {"$dateFromString", {"dateString", "format", "timezone", "onError", "onNull"}},
        {"$dateToParts", {"date", "timezone", "iso8601"}},
        {"$dateFromParts",
         {"year", "month", "day", "hour", "minute", "second", "millisecond", "isoWeekYear",
          "isoWeek", "isoDayOfWeek", "timezone"}},
        {"$zip", {"inputs", "useLongestLength", "defaults"}},
        {"$sortArray", {"input", "sortBy"}},
        {"$regexFind", {"input", "regex", "options"}},
        {"$regexFindAll", {"input", "regex", "options"}},
        {"$regexMatch", {"input", "regex", "options"}},
        {"$replaceAll", {"input", "find", "replacement"}},
        {"$replaceOne", {"input", "find", "replacement"}},
        {"$trim", {"input", "chars"}},
        {"$ltrim", {"input", "chars"}},
        {"$rtrim", {"input", "chars"}},
        {"$getField", {"field", "input"}},
        {"$setField", {"field", "input", "value"}},
        {"$unsetField", {"field", "input"}},
        {"$firstN", {"input", "n"}},
        {"$lastN", {"input", "n"}},
        {"$maxN", {"input", "n"}},
        {"$minN", {"input", "n"}},
        {"$median", {"input", "method"}},
        {"$percentile", {"input", "p", "method"}},
    };
    return ops;
}

const char* const kAccumulators[] = {
    "$sum",    "$avg",      "$min",          "$max",       "$first",      "$last",
    "$push",   "$addToSet", "$mergeObjects", "$stdDevPop", "$stdDevSamp", "$count",
    "$firstN", "$lastN",    "$minN",         "$maxN",      "$top",        "$bottom",
    "$topN",   "$bottomN",  "$median",       "$percentile"};
const char* const kWindowOnly[] = {
    "$rank",         "$denseRank",     "$documentNumber", "$shift", "$derivative", "$integral",
    "$expMovingAvg", "$covariancePop", "$covarianceSamp", "$locf",  "$linearFill"};
const char* const kStrings[] = {"",
                                "a",
                                "B",
                                "abc",
                                "hour",
                                "day",
                                "%Y-%m-%d",
                                "UTC",
                                "int",
                                "string",
                                "double",
                                "x.y",
                                "$a",
                                "$$ROOT",
                                "$$CURRENT",
                                "$$NOW",
                                "$$this",
                                "$$value",
                                "week",
                                "millisecond",
                                "approximate",
                                "GMT+2",
                                "America/New_York",
                                "i",
                                "ms"};
const char* const kUnits[] = {"year", "quarter", "month",  "week",        "day",
                              "hour", "minute",  "second", "millisecond", "decade"};

template <typename T, std::size_t N>
const T& pick(FuzzedDataProvider& f, const T (&arr)[N]) {
    return arr[f.ConsumeIntegralInRange<std::size_t>(0, N - 1)];
}

class Gen {
public:
    explicit Gen(FuzzedDataProvider& f) : _f(f) {}

    std::string path() {
        return pick(_f, kPaths);
    }
    std::string fieldRef() {
        return "$" + path();
    }

    void value(BSONObjBuilder& b, StringData name, int depth) {
        switch (_f.ConsumeIntegralInRange<int>(0, depth >= 2 ? 9 : 11)) {
            case 0:
                b.append(name, _f.ConsumeIntegralInRange<int>(-5, 20));
                break;
            case 1:
                b.append(name, _f.ConsumeIntegralInRange<long long>(-1000, 1000));
                break;
            case 2: {
                static const double kD[] = {0.5,
                                            -2.25,
                                            1e308,
                                            -1e-300,
                                            0.0,
                                            -0.0,
                                            3.0,
                                            std::numeric_limits<double>::quiet_NaN(),
                                            std::numeric_limits<double>::infinity()};
                b.append(name, pick(_f, kD));
                break;
            }
            case 3:
                b.append(name, std::string(pick(_f, kStrings)));
                break;
            case 4:
                b.append(name, _f.ConsumeRandomLengthString(8));
                break;
            case 5:
                b.appendNull(name);
                break;
            case 6:
                b.append(name, _f.ConsumeBool());
                break;
            case 7:
                b.append(name, Date_t::fromMillisSinceEpoch(
                                   _f.ConsumeIntegralInRange<long long>(-1LL << 42, 1LL << 42)));
                break;
            case 8: {
                static const long long kL[] = {
                    std::numeric_limits<long long>::max(), std::numeric_limits<long long>::min(),
                    std::numeric_limits<int>::max(), std::numeric_limits<int>::min(), -1};
                b.append(name, pick(_f, kL));
                break;
            }
            case 9:
                b.append(name, Timestamp(_f.ConsumeIntegral<std::uint32_t>(), 1));
                break;
            case 10: {
                BSONArrayBuilder a(b.subarrayStart(name));
                int n = _f.ConsumeIntegralInRange<int>(0, 4);
                for (int i = 0; i < n; ++i) {
                    BSONObjBuilder tmp;
                    value(tmp, "x", depth + 1);
                    a.append(tmp.obj().firstElement());
                }
                break;
            }
            case 11: {
                BSONObjBuilder o(b.subobjStart(name));
                int n = _f.ConsumeIntegralInRange<int>(0, 3);
                for (int i = 0; i < n; ++i)
                    value(o, pick(_f, kNewFields), depth + 1);
                break;
            }
        }
    }

    /** Appends an aggregation expression under `name`. */
    void expr(BSONObjBuilder& b, StringData name, int depth) {
        int choice = _f.ConsumeIntegralInRange<int>(0, depth >= kMaxExprDepth ? 2 : 7);
        switch (choice) {
            case 0:
                b.append(name, fieldRef());
                return;
            case 1:
                value(b, name, 1);
                return;
            case 2:
                b.append(name, std::string(pick(_f, kStrings)));
                return;
            case 3:
            case 4: {  // positional operator
                BSONObjBuilder o(b.subobjStart(name));
                const char* op = pick(_f, kOps);
                int n = _f.ConsumeIntegralInRange<int>(0, 3);
                if (n == 0 && _f.ConsumeBool()) {
                    expr(o, op, depth + 1);
                    return;
                }
                BSONArrayBuilder a(o.subarrayStart(op));
                for (int i = 0; i < n; ++i)
                    expr(a, depth + 1);
                return;
            }
            case 5: {  // named-argument operator
                const auto& ops = namedOps();
                const auto& op = ops[_f.ConsumeIntegralInRange<std::size_t>(0, ops.size() - 1)];
                BSONObjBuilder o(b.subobjStart(name));
                BSONObjBuilder args(o.subobjStart(op.name));
                for (const char* arg : op.args) {
                    if (_f.ConsumeIntegralInRange<int>(0, 5) == 0)
                        continue;  // sometimes leave an argument out
                    namedArg(args, op.name, arg, depth + 1);
                }
                return;
            }
            case 6: {  // $range, with small literal bounds
                BSONObjBuilder o(b.subobjStart(name));
                BSONArrayBuilder a(o.subarrayStart("$range"));
                a.append(_f.ConsumeIntegralInRange<int>(-50, 50));
                a.append(_f.ConsumeIntegralInRange<int>(-50, 50));
                if (_f.ConsumeBool())
                    a.append(_f.ConsumeIntegralInRange<int>(-5, 5));
                return;
            }
            case 7: {  // object literal of expressions
                BSONObjBuilder o(b.subobjStart(name));
                int n = _f.ConsumeIntegralInRange<int>(1, 3);
                for (int i = 0; i < n; ++i)
                    expr(o, pick(_f, kNewFields), depth + 1);
                return;
            }
        }
    }
    void expr(BSONArrayBuilder& a, int depth) {
        BSONObjBuilder tmp;
        expr(tmp, "x", depth);
        a.append(tmp.obj().firstElement());
    }

    void namedArg(BSONObjBuilder& args, StringData op, StringData arg, int depth) {
        if (arg == "as") {
            args.append(arg, _f.ConsumeBool() ? "this" : "v");
        } else if (arg == "vars") {
            BSONObjBuilder v(args.subobjStart(arg));
            expr(v, _f.ConsumeBool() ? "v" : "w", depth);
        } else if (arg == "unit") {
            args.append(arg, pick(_f, kUnits));
        } else if (arg == "branches") {
            BSONArrayBuilder br(args.subarrayStart(arg));
            int n = _f.ConsumeIntegralInRange<int>(0, 2);
            for (int i = 0; i < n; ++i) {
                BSONObjBuilder c(br.subobjStart());
                expr(c, "case", depth);
                expr(c, "then", depth);
            }
        } else if (op == "$reduce" && arg == "input") {
            // Only document fields or short literals: a doubling $concatArrays over a long
            // input is a known problem being fixed separately.
            if (_f.ConsumeBool())
                args.append(arg, fieldRef());
            else
                value(args, arg, 1);
        } else if (arg == "sortBy") {
            if (_f.ConsumeBool())
                args.append(arg, BSON(path() << (_f.ConsumeBool() ? 1 : -1)));
            else
                args.append(arg, _f.ConsumeBool() ? 1 : -1);
        } else {
            expr(args, arg, depth);
        }
    }

    BSONObj filter(int depth) {
        BSONObjBuilder b;
        int n = _f.ConsumeIntegralInRange<int>(0, 2);
        for (int i = 0; i < n; ++i) {
            switch (_f.ConsumeIntegralInRange<int>(0, depth >= 2 ? 3 : 5)) {
                case 0:
                    value(b, path(), 1);
                    break;
                case 1: {
                    static const char* kCmp[] = {"$eq",     "$ne",    "$gt",   "$gte",
                                                 "$lt",     "$lte",   "$in",   "$nin",
                                                 "$exists", "$type",  "$size", "$all",
                                                 "$mod",    "$regex", "$not",  "$elemMatch"};
                    BSONObjBuilder o(b.subobjStart(path()));
                    const char* op = pick(_f, kCmp);
                    if (StringData(op) == "$not" || StringData(op) == "$elemMatch")
                        o.append(op, filter(depth + 1));
                    else
                        value(o, op, 0);
                    break;
                }
                case 2:
                    expr(b, "$expr", 1);
                    break;
                case 3:
                    b.append("$alwaysTrue", 1);
                    break;
                case 4:
                case 5: {
                    static const char* kLogic[] = {"$and", "$or", "$nor"};
                    BSONArrayBuilder a(b.subarrayStart(pick(_f, kLogic)));
                    int m = _f.ConsumeIntegralInRange<int>(1, 2);
                    for (int j = 0; j < m; ++j)
                        a.append(filter(depth + 1));
                    break;
                }
            }
        }
        return b.obj();
    }

    void accumulator(BSONObjBuilder& out, StringData name, bool window) {
        BSONObjBuilder a(out.subobjStart(name));
        const char* acc =
            window && _f.ConsumeBool() ? pick(_f, kWindowOnly) : pick(_f, kAccumulators);
        StringData s(acc);
        if (s == "$count" || s == "$rank" || s == "$denseRank" || s == "$documentNumber") {
            a.append(acc, BSONObj());
        } else if (s == "$topN" || s == "$bottomN" || s == "$top" || s == "$bottom") {
            BSONObjBuilder o(a.subobjStart(acc));
            if (s.size() > 5 && s[s.size() - 1] == 'N')
                expr(o, "n", 2);
            o.append("sortBy", BSON(path() << (_f.ConsumeBool() ? 1 : -1)));
            expr(o, "output", 1);
        } else if (s == "$firstN" || s == "$lastN" || s == "$minN" || s == "$maxN") {
            BSONObjBuilder o(a.subobjStart(acc));
            expr(o, "input", 1);
            if (_f.ConsumeBool())
                o.append("n", _f.ConsumeIntegralInRange<int>(-1, 5));
            else
                expr(o, "n", 2);
        } else if (s == "$median" || s == "$percentile") {
            BSONObjBuilder o(a.subobjStart(acc));
            expr(o, "input", 1);
            if (s == "$percentile")
                value(o, "p", 0);
            o.append("method", "approximate");
        } else if (s == "$shift") {
            BSONObjBuilder o(a.subobjStart(acc));
            expr(o, "output", 1);
            o.append("by", _f.ConsumeIntegralInRange<int>(-3, 3));
            if (_f.ConsumeBool())
                value(o, "default", 1);
        } else if (s == "$derivative" || s == "$integral" || s == "$expMovingAvg") {
            BSONObjBuilder o(a.subobjStart(acc));
            expr(o, "input", 1);
            if (_f.ConsumeBool())
                o.append("unit", pick(_f, kUnits));
            if (s == "$expMovingAvg") {
                if (_f.ConsumeBool())
                    value(o, "N", 0);
                else
                    value(o, "alpha", 0);
            }
        } else if (s == "$covariancePop" || s == "$covarianceSamp") {
            BSONArrayBuilder arr(a.subarrayStart(acc));
            expr(arr, 1);
            expr(arr, 1);
        } else {
            expr(a, acc, 1);
        }
        if (window && _f.ConsumeBool()) {
            BSONObjBuilder w(a.subobjStart("window"));
            BSONArrayBuilder bounds(w.subarrayStart(_f.ConsumeBool() ? "documents" : "range"));
            for (int i = 0; i < 2; ++i) {
                switch (_f.ConsumeIntegralInRange<int>(0, 3)) {
                    case 0:
                        bounds.append("unbounded");
                        break;
                    case 1:
                        bounds.append("current");
                        break;
                    default:
                        bounds.append(_f.ConsumeIntegralInRange<int>(-3, 3));
                        break;
                }
            }
            bounds.done();
            if (_f.ConsumeIntegralInRange<int>(0, 3) == 0)
                w.append("unit", pick(_f, kUnits));
        }
    }

    BSONObj sortSpec() {
        BSONObjBuilder b;
        int n = _f.ConsumeIntegralInRange<int>(1, 2);
        for (int i = 0; i < n; ++i) {
            std::string p = path();
            if (!b.asTempObj().hasField(p))
                b.append(p, _f.ConsumeBool() ? 1 : -1);
        }
        return b.obj();
    }

    /** One stage {$name: spec}. */
    BSONObj stage(int facetDepth) {
        BSONObjBuilder s;
        switch (_f.ConsumeIntegralInRange<int>(0, 22)) {
            case 0:
                s.append("$match", filter(0));
                break;
            case 1: {
                BSONObjBuilder p(s.subobjStart("$project"));
                int mode = _f.ConsumeIntegralInRange<int>(0, 2);
                int n = _f.ConsumeIntegralInRange<int>(1, 3);
                for (int i = 0; i < n; ++i) {
                    std::string f = pick(_f, kNewFields);
                    if (p.asTempObj().hasField(f))
                        continue;
                    if (mode == 0)
                        p.append(f, 1);
                    else if (mode == 1)
                        p.append(f, 0);
                    else
                        expr(p, f, 0);
                }
                break;
            }
            case 2:
            case 3: {
                BSONObjBuilder p(s.subobjStart(_f.ConsumeBool() ? "$addFields" : "$set"));
                int n = _f.ConsumeIntegralInRange<int>(1, 2);
                for (int i = 0; i < n; ++i) {
                    std::string f = pick(_f, kNewFields);
                    if (!p.asTempObj().hasField(f))
                        expr(p, f, 0);
                }
                break;
            }
            case 4: {
                BSONObjBuilder g(s.subobjStart("$group"));
                expr(g, "_id", 2);
                int n = _f.ConsumeIntegralInRange<int>(0, 3);
                for (int i = 0; i < n; ++i) {
                    std::string f = std::string("g") + char('0' + i);
                    accumulator(g, f, false);
                }
                break;
            }
            case 5:
                s.append("$sort", sortSpec());
                break;
            case 6:
                s.append("$limit", _f.ConsumeIntegralInRange<long long>(-1, 20));
                break;
            case 7:
                s.append("$skip", _f.ConsumeIntegralInRange<long long>(-1, 20));
                break;
            case 8:
                if (_f.ConsumeBool()) {
                    s.append("$unwind", fieldRef());
                } else {
                    BSONObjBuilder u(s.subobjStart("$unwind"));
                    u.append("path", fieldRef());
                    if (_f.ConsumeBool())
                        u.append("includeArrayIndex", "idx");
                    u.append("preserveNullAndEmptyArrays", _f.ConsumeBool());
                }
                break;
            case 9: {
                BSONObjBuilder bk(s.subobjStart("$bucket"));
                expr(bk, "groupBy", 2);
                BSONArrayBuilder bounds(bk.subarrayStart("boundaries"));
                int n = _f.ConsumeIntegralInRange<int>(0, 4);
                int lo = _f.ConsumeIntegralInRange<int>(-5, 5);
                for (int i = 0; i < n; ++i) {
                    bounds.append(lo);
                    lo += _f.ConsumeIntegralInRange<int>(0, 4);
                }
                bounds.done();
                if (_f.ConsumeBool())
                    value(bk, "default", 1);
                if (_f.ConsumeBool()) {
                    BSONObjBuilder o(bk.subobjStart("output"));
                    accumulator(o, "acc", false);
                }
                break;
            }
            case 10: {
                BSONObjBuilder bk(s.subobjStart("$bucketAuto"));
                expr(bk, "groupBy", 2);
                bk.append("buckets", _f.ConsumeIntegralInRange<int>(-1, 6));
                if (_f.ConsumeBool()) {
                    static const char* kG[] = {"R5", "R10", "1-2-5", "E6", "POWERSOF2", "bad"};
                    bk.append("granularity", pick(_f, kG));
                }
                if (_f.ConsumeBool()) {
                    BSONObjBuilder o(bk.subobjStart("output"));
                    accumulator(o, "acc", false);
                }
                break;
            }
            case 11: {
                BSONObjBuilder w(s.subobjStart("$setWindowFields"));
                if (_f.ConsumeBool())
                    expr(w, "partitionBy", 2);
                if (_f.ConsumeBool())
                    w.append("sortBy", sortSpec());
                BSONObjBuilder o(w.subobjStart("output"));
                int n = _f.ConsumeIntegralInRange<int>(1, 2);
                for (int i = 0; i < n; ++i)
                    accumulator(o, std::string("w") + char('0' + i), true);
                break;
            }
            case 12: {
                if (facetDepth >= 1) {
                    s.append("$count", "n");
                    break;
                }
                BSONObjBuilder fb(s.subobjStart("$facet"));
                int n = _f.ConsumeIntegralInRange<int>(1, 2);
                for (int i = 0; i < n; ++i) {
                    BSONArrayBuilder sub(fb.subarrayStart(std::string("f") + char('0' + i)));
                    int m = _f.ConsumeIntegralInRange<int>(1, 3);
                    for (int j = 0; j < m; ++j)
                        sub.append(stage(facetDepth + 1));
                }
                break;
            }
            case 13: {
                BSONObjBuilder d(s.subobjStart("$densify"));
                d.append("field", _f.ConsumeBool() ? "a" : "t");
                if (_f.ConsumeBool())
                    d.append("partitionByFields", BSON_ARRAY("m.sensor"));
                BSONObjBuilder r(d.subobjStart("range"));
                // Steps up to the ends of long long; $densify stops at
                // internalQueryMaxAllowedDensifyDocs generated documents.
                switch (_f.ConsumeIntegralInRange<int>(0, 2)) {
                    case 0:
                        r.append("step", _f.ConsumeIntegralInRange<int>(-1, 5));
                        break;
                    case 1:
                        r.append("step", _f.ConsumeBool() ? 0.5 : 1.5);
                        break;
                    case 2:
                        r.append("step", _f.ConsumeIntegral<long long>());
                        break;
                }
                static const char* kCoarseUnits[] = {"millisecond", "second", "minute",
                                                     "hour",        "day",    "week",
                                                     "month",       "year",   "decade"};
                if (_f.ConsumeBool())
                    r.append("unit", pick(_f, kCoarseUnits));
                switch (_f.ConsumeIntegralInRange<int>(0, 2)) {
                    case 0:
                        r.append("bounds", "full");
                        break;
                    case 1:
                        r.append("bounds", "partition");
                        break;
                    case 2: {
                        BSONArrayBuilder bb(r.subarrayStart("bounds"));
                        if (_f.ConsumeBool()) {
                            bb.append(_f.ConsumeIntegralInRange<int>(-20, 40));
                            bb.append(_f.ConsumeIntegralInRange<int>(-20, 40));
                        } else {
                            long long base = 1'600'000'000'000LL;
                            long long span = 3LL * 24 * 3'600'000;
                            bb.append(Date_t::fromMillisSinceEpoch(
                                base + _f.ConsumeIntegralInRange<long long>(-span, span)));
                            bb.append(Date_t::fromMillisSinceEpoch(
                                base + _f.ConsumeIntegralInRange<long long>(-span, span)));
                        }
                        break;
                    }
                }
                break;
            }
            case 14: {
                BSONObjBuilder fl(s.subobjStart("$fill"));
                if (_f.ConsumeBool())
                    fl.append("sortBy", sortSpec());
                if (_f.ConsumeBool())
                    expr(fl, "partitionBy", 2);
                BSONObjBuilder o(fl.subobjStart("output"));
                std::string f = pick(_f, kNewFields);
                BSONObjBuilder spec(o.subobjStart(f));
                switch (_f.ConsumeIntegralInRange<int>(0, 2)) {
                    case 0:
                        spec.append("method", "linear");
                        break;
                    case 1:
                        spec.append("method", "locf");
                        break;
                    case 2:
                        expr(spec, "value", 1);
                        break;
                }
                break;
            }
            case 15:
                expr(s, "$sortByCount", 1);
                break;
            case 16:
                s.append("$count", _f.ConsumeBool() ? "n" : pick(_f, kStrings));
                break;
            case 17: {
                BSONObjBuilder r(s.subobjStart("$replaceRoot"));
                expr(r, "newRoot", 1);
                break;
            }
            case 18:
                expr(s, "$replaceWith", 1);
                break;
            case 19: {
                BSONObjBuilder r(s.subobjStart("$redact"));
                BSONObjBuilder c(r.subobjStart("$cond"));
                expr(c, "if", 2);
                static const char* kR[] = {"$$DESCEND", "$$PRUNE", "$$KEEP", "x"};
                c.append("then", pick(_f, kR));
                c.append("else", pick(_f, kR));
                break;
            }
            case 20:
                s.append("$unset",
                         _f.ConsumeBool() ? BSON_ARRAY(path()) : BSON_ARRAY(path() << path()));
                break;
            case 21:
                s.append("$sample", BSON("size" << _f.ConsumeIntegralInRange<int>(-1, 20)));
                break;
            case 22: {  // any stage name with a random value: exercises the parse errors
                static const char* kAny[] = {
                    "$match",      "$project",         "$group",       "$sort",  "$bucket",
                    "$bucketAuto", "$setWindowFields", "$densify",     "$fill",  "$unwind",
                    "$facet",      "$documents",       "$replaceRoot", "$count", "$bogus"};
                value(s, pick(_f, kAny), 0);
                break;
            }
        }
        return s.obj();
    }

    bool coin() {
        return _f.ConsumeBool();
    }

private:
    FuzzedDataProvider& _f;
};

}  // namespace
}  // namespace mongo

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace mongo;
    if (size > 4096)
        return 0;
    FuzzedDataProvider f(data, size);
    Gen gen(f);
    std::vector<BSONObj> stages;
    int n = f.ConsumeIntegralInRange<int>(1, kMaxStages);
    bool withCollation = gen.coin();
    for (int i = 0; i < n; ++i)
        stages.push_back(gen.stage(0));
    // PIPELINE_FUZZER_PRINT=1 shows the pipeline an input stands for (to read a finding).
    static const bool print = std::getenv("PIPELINE_FUZZER_PRINT") != nullptr;
    if (print) {
        std::fprintf(stderr, "collation: %s\n", withCollation ? "en/1" : "simple");
        for (const auto& st : stages)
            std::fprintf(stderr, "stage: %s\n", st.toString().c_str());
    }
    try {
        auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("fuzz", "c"));
        if (withCollation) {
            auto sw = makeCollator(BSON("locale"
                                        << "en"
                                        << "strength" << 1));
            if (sw.isOK())
                expCtx->setCollator(std::move(sw.getValue()));
        }
        auto p = Pipeline::parse(stages, expCtx);
        p->optimize();
        (void)p->serialize();
        if (!p->isCollectionless())
            p->attachSource(std::make_unique<VectorSource>(expCtx, &collection()));
        int out = 0;
        while (auto d = p->getNext()) {
            if (++out > kMaxOutputDocs)
                break;
        }
    } catch (const DBException&) {
    }
    return 0;
}
