// Array and set operators: $arrayElemAt $first $last $size $slice $in $concatArrays
// $range $reverseArray $zip $sortArray $arrayToObject $objectToArray $isArray
// $indexOfArray $setUnion $setIntersection $setDifference $setEquals $setIsSubset
// $anyElementTrue $allElementsTrue $firstN $lastN $maxN $minN.
#include <algorithm>
#include <set>

#include "mongo/db/pipeline/collation_keys.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/expression_memory.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

ExprPtr makeCustom(StringData name, const BSONElement& e, ExprVector children,
                   ExpressionCustom::Fn fn) {
    BSONObjBuilder b;
    b.appendAs(e, name);
    return std::make_unique<ExpressionCustom>(std::string(name), b.obj(), std::move(children),
                                              std::move(fn));
}

Value arrayElemAt(const Value& arr, const Value& idx, StringData op) {
    if (arr.nullish() || idx.nullish())
        return Value::null();
    uassert(28689,
            std::string(op) + "'s first argument must be an array, but is " + typeNameOf(arr),
            arr.isArray());
    uassert(
        28690,
        std::string(op) + "'s second argument must be a numeric value, but is " + typeNameOf(idx),
        idx.numeric());
    uassert(28691,
            std::string(op) +
                "'s second argument must be representable as a 32-bit "
                "integer: " +
                idx.toString(),
            idx.integral());
    auto elems = arr.getArray();
    long long i = idx.getLong();
    long long n = static_cast<long long>(elems.size());
    if (i < 0)
        i += n;
    if (i < 0 || i >= n)
        return Value();
    return elems[i].getOwned();
}

Value firstLast(const ValueArgs& a, bool last) {
    const Value& arr = a[0];
    StringData op = last ? "$last" : "$first";
    if (arr.nullish())
        return Value::null();
    uassert(28689, std::string(op) + "'s argument must be an array, but is " + typeNameOf(arr),
            arr.isArray());
    auto elems = arr.getArray();
    if (elems.empty())
        return Value();
    return (last ? elems.back() : elems.front()).getOwned();
}

Value sliceFn(const ValueArgs& a) {
    if (a[0].nullish())
        return Value::null();
    for (size_t i = 1; i < a.size(); ++i)
        if (a[i].nullish())
            return Value::null();
    uassert(28724, "First argument to $slice must be an array, but is of type: " + typeNameOf(a[0]),
            a[0].isArray());
    uassert(
        28725,
        "Second argument to $slice must be a numeric value, but is of type: " + typeNameOf(a[1]),
        a[1].numeric());
    uassert(
        28726,
        "Second argument to $slice can't be represented as a 32-bit integer: " + a[1].toString(),
        a[1].integral());
    auto elems = a[0].getArray();
    long long n = static_cast<long long>(elems.size());
    long long start = 0, count;
    if (a.size() == 2) {
        long long x = a[1].getLong();
        if (x >= 0) {
            count = x;
        } else {
            start = std::max(0LL, n + x);
            count = n - start;
        }
    } else {
        uassert(28727,
                "Third argument to $slice must be numeric, but is of type: " + typeNameOf(a[2]),
                a[2].numeric());
        uassert(
            28728,
            "Third argument to $slice can't be represented as a 32-bit integer: " + a[2].toString(),
            a[2].integral());
        uassert(28729, "Third argument to $slice must be positive: " + a[2].toString(),
                a[2].getLong() > 0);
        long long p = a[1].getLong();
        start = p >= 0 ? std::min(p, n) : std::max(0LL, n + p);
        count = a[2].getLong();
    }
    std::vector<Value> out;
    for (long long i = start; i < n && i < start + count; ++i)
        out.push_back(elems[i]);
    return Value(out);
}

Value concatArraysFn(const ValueArgs& a) {
    for (const auto& v : a) {
        if (v.nullish())
            return Value::null();
        uassert(28664, "$concatArrays only supports arrays, not " + typeNameOf(v), v.isArray());
    }
    BoundedArrayBuilder out("$concatArrays");
    for (const auto& v : a)
        v.forEachArrayElement([&](const Value& e) { out.append(e); });
    return out.done();
}

Value rangeFn(const ValueArgs& a) {
    uassert(34443,
            "$range requires a numeric starting value, found value of type: " + typeNameOf(a[0]),
            a[0].numeric());
    uassert(34444,
            "$range requires a starting value that can be represented as a 32-bit "
            "integer, found value: " +
                a[0].toString(),
            a[0].integral());
    uassert(34445,
            "$range requires a numeric ending value, found value of type: " + typeNameOf(a[1]),
            a[1].numeric());
    uassert(34446,
            "$range requires an ending value that can be represented as a 32-bit "
            "integer, found value: " +
                a[1].toString(),
            a[1].integral());
    long long step = 1;
    if (a.size() > 2) {
        uassert(34447,
                "$range requires a numeric step value, found value of type:" + typeNameOf(a[2]),
                a[2].numeric());
        uassert(34448,
                "$range requires a step value that can be represented as a 32-bit "
                "integer, found value: " +
                    a[2].toString(),
                a[2].integral());
        step = a[2].getLong();
        uassert(34449, "$range requires a non-zero step value", step != 0);
    }
    long long s = a[0].getLong(), e = a[1].getLong();
    // All three fit in 32 bits, so this arithmetic cannot overflow 64 bits. Each element is
    // counted as upstream counts a value (16 bytes) before anything is built.
    long long steps = (e - s) / step;
    long long length = steps >= 0 ? 1 + steps : 0;
    const long long limit = gInternalQueryMaxRangeBytes.load();
    long long memNeeded = 24 + length * 16;
    uassert(ErrorCodes::ExceededMemoryLimit,
            "$range would use too much memory (" + std::to_string(memNeeded) +
                " bytes) and cannot spill to disk. Memory limit: " + std::to_string(limit) +
                " bytes",
            memNeeded < limit);
    BoundedArrayBuilder out("$range", kBufBuilderMaxSize);
    for (long long i = s; step > 0 ? i < e : i > e; i += step)
        out.append(Value(static_cast<int>(i)));
    return out.done();
}

Value inFn(const ValueArgs& a, const StringComparator* strings) {
    uassert(40081, "$in requires an array as a second argument, found: " + typeNameOf(a[1]),
            a[1].isArray());
    for (const auto& e : a[1].getArray())
        if (Value::compare(e, a[0], strings) == 0)
            return Value(true);
    return Value(false);
}

Value indexOfArrayFn(const ValueArgs& a, const StringComparator* strings) {
    if (a[0].nullish())
        return Value::null();
    uassert(40090,
            "$indexOfArray requires an array as a first argument, found: " + typeNameOf(a[0]),
            a[0].isArray());
    auto elems = a[0].getArray();
    long long start = 0, end = static_cast<long long>(elems.size());
    if (a.size() > 2) {
        uassert(40096,
                "$indexOfArray requires an integral starting index, found a value of "
                "type: " +
                    typeNameOf(a[2]),
                a[2].integral());
        start = a[2].getLong();
        uassert(40097,
                "$indexOfArray requires a nonnegative starting index, found: " + a[2].toString(),
                start >= 0);
    }
    if (a.size() > 3) {
        uassert(40096,
                "$indexOfArray requires an integral ending index, found a value of "
                "type: " +
                    typeNameOf(a[3]),
                a[3].integral());
        uassert(40097,
                "$indexOfArray requires a nonnegative ending index, found: " + a[3].toString(),
                a[3].getLong() >= 0);
        end = std::min(end, a[3].getLong());
    }
    for (long long i = start; i < end; ++i)
        if (Value::compare(elems[i], a[1], strings) == 0)
            return Value(static_cast<int>(i));
    return Value(-1);
}

std::vector<Value> requireSetArg(const Value& v, StringData op, int code) {
    uassert(code,
            "All operands of " + std::string(op) +
                " must be arrays. One argument is of "
                "type: " +
                typeNameOf(v),
            v.isArray());
    return v.getArray();
}

Value setUnionFn(const ValueArgs& a, const StringComparator* strings) {
    std::set<Value, ValueLess> s(ValueLess{strings});
    for (const auto& v : a) {
        if (v.nullish())
            return Value::null();
        for (auto& e : requireSetArg(v, "$setUnion", 17043))
            s.insert(e);
    }
    return Value(std::vector<Value>(s.begin(), s.end()));
}

Value setIntersectionFn(const ValueArgs& a, const StringComparator* strings) {
    std::set<Value, ValueLess> cur(ValueLess{strings});
    bool first = true;
    for (const auto& v : a) {
        if (v.nullish())
            return Value::null();
        auto elems = requireSetArg(v, "$setIntersection", 17047);
        std::set<Value, ValueLess> s(elems.begin(), elems.end(), ValueLess{strings});
        if (first) {
            cur = std::move(s);
            first = false;
        } else {
            std::set<Value, ValueLess> next(ValueLess{strings});
            for (const auto& e : cur)
                if (s.count(e))
                    next.insert(e);
            cur = std::move(next);
        }
    }
    return Value(std::vector<Value>(cur.begin(), cur.end()));
}

Value setDifferenceFn(const ValueArgs& a, const StringComparator* strings) {
    if (a[0].nullish() || a[1].nullish())
        return Value::null();
    uassert(17048,
            "both operands of $setDifference must be arrays. First argument is of type: " +
                typeNameOf(a[0]),
            a[0].isArray());
    uassert(17049,
            "both operands of $setDifference must be arrays. Second argument is of type: " +
                typeNameOf(a[1]),
            a[1].isArray());
    auto r = a[1].getArray();
    std::set<Value, ValueLess> rs(r.begin(), r.end(), ValueLess{strings}), seen(ValueLess{strings});
    std::vector<Value> out;
    for (const auto& e : a[0].getArray())
        if (!rs.count(e) && seen.insert(e).second)
            out.push_back(e);
    return Value(out);
}

Value setEqualsFn(const ValueArgs& a, const StringComparator* strings) {
    std::set<Value, ValueLess> first(ValueLess{strings});
    for (size_t i = 0; i < a.size(); ++i) {
        auto elems = requireSetArg(a[i], "$setEquals", 17044);
        std::set<Value, ValueLess> s(elems.begin(), elems.end(), ValueLess{strings});
        if (i == 0)
            first = std::move(s);
        else if (s.size() != first.size() || !std::equal(s.begin(), s.end(), first.begin(),
                                                         [strings](const Value& x, const Value& y) {
                                                             return Value::compare(x, y, strings) ==
                                                                    0;
                                                         }))
            return Value(false);
    }
    return Value(true);
}

Value setIsSubsetFn(const ValueArgs& a, const StringComparator* strings) {
    uassert(17046,
            "both operands of $setIsSubset must be arrays. First argument is of type: " +
                typeNameOf(a[0]),
            a[0].isArray());
    uassert(17042,
            "both operands of $setIsSubset must be arrays. Second argument is of type: " +
                typeNameOf(a[1]),
            a[1].isArray());
    auto r = a[1].getArray();
    std::set<Value, ValueLess> rs(r.begin(), r.end(), ValueLess{strings});
    for (const auto& e : a[0].getArray())
        if (!rs.count(e))
            return Value(false);
    return Value(true);
}

Value elementsTrue(const ValueArgs& a, bool any) {
    uassert(any ? 5159200 : 17040,
            std::string(any ? "$anyElementTrue" : "$allElementsTrue") +
                "'s argument must be an array, but is " + typeNameOf(a[0]),
            a[0].isArray());
    for (const auto& e : a[0].getArray()) {
        bool t = e.coerceToBool();
        if (any && t)
            return Value(true);
        if (!any && !t)
            return Value(false);
    }
    return Value(!any);
}

Value arrayToObjectFn(const ValueArgs& a) {
    if (a[0].nullish())
        return Value::null();
    uassert(40386, "$arrayToObject requires an array input, found: " + typeNameOf(a[0]),
            a[0].isArray());
    std::vector<std::pair<std::string, Value>> fields;
    auto put = [&](std::string k, Value v) {
        uassert(4940400, "Key field cannot contain an embedded null byte",
                k.find('\0') == std::string::npos);
        for (auto& f : fields)
            if (f.first == k) {
                f.second = v;
                return;
            }
        fields.emplace_back(std::move(k), v);
    };
    auto elems = a[0].getArray();
    bool pairs = !elems.empty() && elems[0].isArray();
    for (const auto& e : elems) {
        if (pairs) {
            uassert(40396,
                    "$arrayToObject requires a consistent input format. Elements must all "
                    "be arrays or all be objects.",
                    e.isArray());
            auto kv = e.getArray();
            uassert(40397,
                    "$arrayToObject requires an array of size 2 arrays,found array of "
                    "size: " +
                        std::to_string(kv.size()),
                    kv.size() == 2);
            uassert(40395,
                    "$arrayToObject requires an array of key-value pairs, where the key "
                    "must be of type string. Found key type: " +
                        typeNameOf(kv[0]),
                    kv[0].isString());
            put(kv[0].getString(), kv[1]);
        } else {
            uassert(40398, "Unrecognised input type format for $arrayToObject: " + typeNameOf(e),
                    e.isObject());
            BSONObj o = e.getDocument();
            uassert(40392,
                    "$arrayToObject requires an object keys of 'k' and 'v'. Found "
                    "incorrect number of keys:" +
                        std::to_string(o.nFields()),
                    o.nFields() == 2 && o.hasField("k") && o.hasField("v"));
            uassert(40394,
                    "$arrayToObject requires an object with keys 'k' and 'v', where the "
                    "value of 'k' must be of type string. Found type: " +
                        typeNameOf(Value(o["k"])),
                    o["k"].type() == BSONType::kString);
            put(o["k"].str(), Value(o["v"]));
        }
    }
    BSONObjBuilder b;
    for (const auto& [k, v] : fields)
        v.addToBsonObj(&b, k);
    return Value(b.obj());
}

Value objectToArrayFn(const ValueArgs& a) {
    if (a[0].nullish())
        return Value::null();
    uassert(40390, "$objectToArray requires a document input, found: " + typeNameOf(a[0]),
            a[0].isObject());
    BSONObjBuilder b;
    {
        BSONArrayBuilder arr(b.subarrayStart(""));
        for (auto e : a[0].getDocument()) {
            BSONObjBuilder kv(arr.subobjStart());
            kv.append("k", e.fieldNameStringData());
            kv.appendAs(e, "v");
        }
    }
    return Value::copyOf(b.obj().firstElement());
}

ExprPtr parseZip(ExpressionContext* expCtx, const BSONElement& e, const VariablesParseState& vps) {
    uassert(34460, "$zip only supports an object as an argument, found " + typeNameOf(Value(e)),
            e.type() == BSONType::kObject);
    ExprVector owned;
    std::vector<const Expression*> inputs, defaults;
    bool longest = false;
    bool haveDefaults = false;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "inputs") {
            uassert(34461, "inputs must be an array of expressions, found " + typeNameOf(Value(f)),
                    f.type() == BSONType::kArray);
            for (auto x : f.Obj()) {
                owned.push_back(Expression::parseOperand(expCtx, x, vps));
                inputs.push_back(owned.back().get());
            }
        } else if (n == "defaults") {
            uassert(34462,
                    "defaults must be an array of expressions, found " + typeNameOf(Value(f)),
                    f.type() == BSONType::kArray);
            haveDefaults = true;
            for (auto x : f.Obj()) {
                owned.push_back(Expression::parseOperand(expCtx, x, vps));
                defaults.push_back(owned.back().get());
            }
        } else if (n == "useLongestLength") {
            uassert(34463, "useLongestLength must be a bool, found " + typeNameOf(Value(f)),
                    f.type() == BSONType::kBool);
            longest = f.boolean();
        } else {
            uasserted(34464, "$zip found an unknown argument: " + std::string(n));
        }
    }
    uassert(34465, "$zip requires at least one input array", !inputs.empty());
    uassert(34466, "cannot specify defaults unless useLongestLength is true",
            !haveDefaults || longest);
    uassert(34467, "defaults and inputs must have the same length",
            !haveDefaults || defaults.size() == inputs.size());
    return makeCustom("$zip", e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
        // The inputs are read through BSON iterators and each tuple goes straight into the
        // output, so memory is the inputs plus the (counted) output.
        std::vector<Value> holders;
        size_t minLen = SIZE_MAX, maxLen = 0;
        for (const auto* in : inputs) {
            Value v = in->evaluate(root, vars);
            if (v.nullish())
                return Value::null();
            uassert(34468, "$zip found a non-array expression in input: " + v.toString(),
                    v.isArray());
            holders.push_back(v.getOwned());
            size_t n = holders.back().getArrayLength();
            minLen = std::min(minLen, n);
            maxLen = std::max(maxLen, n);
        }
        std::vector<Value> defVals;
        for (const auto* d : defaults)
            defVals.push_back(d->evaluate(root, vars).getOwned());
        std::vector<BSONObj> arrays;
        std::vector<BSONObj::iterator> its;
        for (const auto& h : holders) {
            arrays.push_back(h.getDocument());
            its.push_back(arrays.back().begin());
        }
        size_t len = longest ? maxLen : minLen;
        BoundedArrayBuilder out("$zip");
        for (size_t i = 0; i < len; ++i) {
            vars->checkForInterruptEvery128();
            BSONObjBuilder tuple;
            {
                BSONArrayBuilder arr(tuple.subarrayStart(""));
                for (size_t j = 0; j < its.size(); ++j) {
                    if (its[j].more())
                        arr.append(its[j].next());
                    else if (defVals.empty() || defVals[j].missing())
                        arr.append(BSONNULL);
                    else
                        arr.append(defVals[j].elem());
                }
            }
            out.append(Value::adoptFirstElement(tuple.obj()));
        }
        return out.done();
    });
}

ExprPtr parseSortArray(ExpressionContext* expCtx, const BSONElement& e,
                       const VariablesParseState& vps) {
    uassert(2942500, "$sortArray requires an object as an argument, found: " + typeNameOf(Value(e)),
            e.type() == BSONType::kObject);
    ExprVector owned;
    const Expression* input = nullptr;
    BSONElement sortBy;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "input") {
            owned.push_back(Expression::parseOperand(expCtx, f, vps));
            input = owned.back().get();
        } else if (n == "sortBy") {
            sortBy = f;
        } else {
            uasserted(2942501, "$sortArray found an unknown argument: " + std::string(n));
        }
    }
    uassert(2942502, "$sortArray requires 'input' to be specified", input);
    uassert(2942503, "$sortArray requires 'sortBy' to be specified", !sortBy.eoo());
    int direction = 0;
    std::shared_ptr<SortPattern> pattern;
    if (sortBy.isNumber()) {
        direction = sortBy.numberInt();
        uassert(2942504, "$sortArray requires sortBy to be 1 or -1",
                direction == 1 || direction == -1);
    } else {
        uassert(2942505, "$sortArray requires sortBy to be an object or a number",
                sortBy.type() == BSONType::kObject);
        pattern = std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(sortBy.Obj())));
    }
    const ExpressionContext* ctx = expCtx;
    return makeCustom("$sortArray", e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
        const StringComparator* strings = ctx ? ctx->getCollator() : nullptr;
        Value v = input->evaluate(root, vars);
        if (v.nullish())
            return Value::null();
        uassert(
            2942505,
            "The input argument to $sortArray must be an array, but was of type: " + typeNameOf(v),
            v.isArray());
        auto elems = v.getArray();
        if (direction != 0) {
            std::stable_sort(elems.begin(), elems.end(), [&](const Value& a, const Value& b) {
                int c = Value::compare(a, b, strings);
                return direction > 0 ? c < 0 : c > 0;
            });
        } else {
            std::stable_sort(elems.begin(), elems.end(), [&](const Value& a, const Value& b) {
                BSONObj da = a.isObject() ? a.getDocument() : BSONObj();
                BSONObj db = b.isObject() ? b.getDocument() : BSONObj();
                return compareCollated(*pattern, da, db, strings) < 0;
            });
        }
        return Value(elems);
    });
}

/** $firstN/$lastN/$minN/$maxN expressions: {n, input}. */
void registerNExpr(StringData name) {
    std::string op(name);
    Expression::registerParser(name, [op](ExpressionContext* expCtx, const BSONElement& e,
                                          const VariablesParseState& vps) {
        uassert(5787801, "specification must be an object; found " + typeNameOf(Value(e)),
                e.type() == BSONType::kObject);
        ExprVector owned;
        const Expression* n = nullptr;
        const Expression* input = nullptr;
        for (auto f : e.Obj()) {
            StringData fn = f.fieldNameStringData();
            owned.push_back(Expression::parseOperand(expCtx, f, vps));
            if (fn == "n")
                n = owned.back().get();
            else if (fn == "input")
                input = owned.back().get();
            else
                uasserted(5787901, "Unknown argument for 'n' operator: " + std::string(fn));
        }
        uassert(5787906, "Missing value for 'n'", n);
        uassert(5787907, "Missing value for 'input'", input);
        const ExpressionContext* ctx = expCtx;
        return makeCustom(op, e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
            Value nv = n->evaluate(root, vars);
            uassert(5787902, "Value for 'n' must be of integral type, but found " + nv.toString(),
                    nv.integral64Bit());
            long long count = nv.getLong();
            uassert(5787908, "'n' must be greater than 0, found " + nv.toString(), count > 0);
            Value in = input->evaluate(root, vars);
            if (in.nullish())
                return Value::null();
            uassert(5788200, "Input must be an array, found " + typeNameOf(in), in.isArray());
            auto elems = in.getArray();
            std::vector<Value> out;
            if (op == "$firstN") {
                for (size_t i = 0; i < elems.size() && static_cast<long long>(i) < count; ++i)
                    out.push_back(elems[i]);
            } else if (op == "$lastN") {
                size_t start = elems.size() > static_cast<size_t>(count) ? elems.size() - count : 0;
                for (size_t i = start; i < elems.size(); ++i)
                    out.push_back(elems[i]);
            } else {
                std::vector<Value> vals;
                for (auto& x : elems)
                    if (!x.nullish())
                        vals.push_back(x);
                bool isMax = op == "$maxN";
                std::stable_sort(vals.begin(), vals.end(), [&](const Value& a, const Value& b) {
                    int c = Value::compare(a, b, ctx ? ctx->getCollator() : nullptr);
                    return isMax ? c > 0 : c < 0;
                });
                for (size_t i = 0; i < vals.size() && static_cast<long long>(i) < count; ++i)
                    out.push_back(vals[i]);
            }
            return Value(out);
        });
    });
}

const bool kRegistered = [] {
    registerNaryExpression("$arrayElemAt", 2, 2, [](const ValueArgs& a) {
        return arrayElemAt(a[0], a[1], "$arrayElemAt");
    });
    registerNaryExpression("$first", 1, 1, [](const ValueArgs& a) { return firstLast(a, false); });
    registerNaryExpression("$last", 1, 1, [](const ValueArgs& a) { return firstLast(a, true); });
    registerNaryExpression("$size", 1, 1, [](const ValueArgs& a) {
        uassert(17124,
                "The argument to $size must be an array. Type of argument: " + typeNameOf(a[0]),
                a[0].isArray());
        return Value(static_cast<int>(a[0].getArrayLength()));
    });
    registerNaryExpression("$isArray", 1, 1,
                           [](const ValueArgs& a) { return Value(a[0].isArray()); });
    registerNaryExpression("$slice", 2, 3, sliceFn);
    registerCollatedNaryExpression("$in", 2, 2, inFn);
    registerCollatedNaryExpression("$indexOfArray", 2, 4, indexOfArrayFn);
    registerNaryExpression("$concatArrays", 0, -1, concatArraysFn);
    registerNaryExpression("$range", 2, 3, rangeFn);
    registerNaryExpression("$reverseArray", 1, 1, [](const ValueArgs& a) {
        if (a[0].nullish())
            return Value::null();
        uassert(
            34435,
            "The argument to $reverseArray must be an array, but was of type: " + typeNameOf(a[0]),
            a[0].isArray());
        auto elems = a[0].getArray();
        std::reverse(elems.begin(), elems.end());
        return Value(elems);
    });
    registerCollatedNaryExpression("$setUnion", 0, -1, setUnionFn);
    registerCollatedNaryExpression("$setIntersection", 0, -1, setIntersectionFn);
    registerCollatedNaryExpression("$setDifference", 2, 2, setDifferenceFn);
    registerCollatedNaryExpression("$setEquals", 2, -1, setEqualsFn);
    registerCollatedNaryExpression("$setIsSubset", 2, 2, setIsSubsetFn);
    registerNaryExpression("$anyElementTrue", 1, 1,
                           [](const ValueArgs& a) { return elementsTrue(a, true); });
    registerNaryExpression("$allElementsTrue", 1, 1,
                           [](const ValueArgs& a) { return elementsTrue(a, false); });
    registerNaryExpression("$arrayToObject", 1, 1, arrayToObjectFn);
    registerNaryExpression("$objectToArray", 1, 1, objectToArrayFn);
    Expression::registerParser("$zip", parseZip);
    Expression::registerParser("$sortArray", parseSortArray);
    for (const char* n : {"$firstN", "$lastN", "$minN", "$maxN"})
        registerNExpr(n);
    return true;
}();

}  // namespace
}  // namespace mongo
