#include "mongo/db/matcher/expression_parser.h"

#include <cmath>
#include <map>
#include <mutex>

#include <absl/cleanup/cleanup.h>

#include "mongo/db/matcher/expression_bits.h"
#include "mongo/db/matcher/expression_geo.h"
#include "mongo/db/matcher/expression_leaf.h"
#include "mongo/db/matcher/expression_text.h"
#include "mongo/db/matcher/json_schema.h"

namespace mongo {

namespace {

using MT = MatchExpression::MatchType;
using Result = StatusWith<std::unique_ptr<MatchExpression>>;

constexpr int kMaxDepth = 100;

std::mutex gExprMutex;
ExprMatchParser gExprParser;

/** Registered top-level operators; written only by static initialisers (single-threaded). */
std::map<std::string, ExprMatchParser, std::less<>>& topLevelOperators() {
    static std::map<std::string, ExprMatchParser, std::less<>> operators;
    return operators;
}

struct TypeAlias {
    StringData name;
    BSONType type;
};
constexpr TypeAlias kTypeAliases[] = {
    {"double", BSONType::kNumberDouble},
    {"string", BSONType::kString},
    {"object", BSONType::kObject},
    {"array", BSONType::kArray},
    {"binData", BSONType::kBinData},
    {"undefined", BSONType::kUndefined},
    {"objectId", BSONType::kOid},
    {"bool", BSONType::kBool},
    {"date", BSONType::kDate},
    {"null", BSONType::kNull},
    {"regex", BSONType::kRegEx},
    {"dbPointer", BSONType::kDBRef},
    {"javascript", BSONType::kCode},
    {"symbol", BSONType::kSymbol},
    {"javascriptWithScope", BSONType::kCodeWScope},
    {"int", BSONType::kNumberInt},
    {"timestamp", BSONType::kTimestamp},
    {"long", BSONType::kNumberLong},
    {"decimal", BSONType::kNumberDecimal},
    {"minKey", BSONType::kMinKey},
    {"maxKey", BSONType::kMaxKey},
};

Status badValue(std::string msg) {
    return Status(ErrorCodes::BadValue, std::move(msg));
}

bool isTopLevelOnlyOperator(StringData name) {
    return name == "$and" || name == "$or" || name == "$nor" || name == "$where" ||
           name == "$expr" || name == "$jsonSchema" || name == "$text" || name == "$comment" ||
           name == "$alwaysTrue" || name == "$alwaysFalse" || name == "$sampleRate" ||
           topLevelOperators().count(name) > 0;
}

bool isDBRefField(StringData name) {
    return name == "$ref" || name == "$id" || name == "$db";
}

/** An object whose first field is an operator ({$gt: 1}), as opposed to a literal. */
bool isExpressionDocument(const BSONElement& e) {
    if (e.type() != BSONType::kObject)
        return false;
    BSONObj o = e.Obj();
    if (o.isEmpty())
        return false;
    StringData first = o.firstElementFieldNameStringData();
    return !first.empty() && first[0] == '$' && !isDBRefField(first);
}

class Parser {
public:
    Result parseTopLevel(const BSONObj& obj, int depth);
    Result parseOperators(const BSONObj& ops) {
        return parseOperatorObject("", ops, 0);
    }

private:
    Result parsePathElement(StringData path, const BSONElement& e, int depth);
    Result parseOperatorObject(StringData path, const BSONObj& ops, int depth);
    Result parseOperator(StringData path, const BSONElement& op, int depth);
    Result parseTree(MT type, const BSONElement& e, int depth);
    Result parseComparison(MT type, StringData path, const BSONElement& e);
    Result parseRegexPair(StringData path, const BSONObj& ops);
    Result parseIn(StringData path, const BSONElement& e, bool negate);
    Result parseType(StringData path, const BSONElement& e);
    Result parseSize(StringData path, const BSONElement& e);
    Result parseMod(StringData path, const BSONElement& e);
    Result parseAll(StringData path, const BSONElement& e, int depth);
    Result parseElemMatch(StringData path, const BSONElement& e, int depth);
    Result parseNot(StringData path, const BSONElement& e, int depth);
    Result parseGeo(StringData path, const BSONElement& e);

    int _inElemMatch = 0;  // > 0 while parsing the object of an $elemMatch
    int _inNor = 0;        // > 0 while parsing the branches of a $nor ($text is refused there)
};

Result Parser::parseGeo(StringData path, const BSONElement& e) {
    StringData name = e.fieldNameStringData();
    if (e.type() != BSONType::kObject)
        return badValue(std::string(name) + " must be an object: " + e.toString());
    auto sw = GeoQueryRegion::parse(
        name == "$geoIntersects" ? GeoQueryRegion::Op::kIntersects : GeoQueryRegion::Op::kWithin,
        e.Obj());
    if (!sw.isOK())
        return sw.getStatus();
    return std::unique_ptr<MatchExpression>(
        std::make_unique<GeoMatchExpression>(path, std::string(name), sw.getValue()));
}

Result Parser::parseTopLevel(const BSONObj& obj, int depth) {
    if (depth > kMaxDepth)
        return badValue("exceeded maximum query tree depth of 100 at " + obj.toString());
    auto root = std::make_unique<ListOfMatchExpression>(MT::kAnd);
    for (BSONElement e : obj) {
        StringData name = e.fieldNameStringData();
        Result r = Status(ErrorCodes::InternalError, "unreachable");
        if (!name.empty() && name[0] == '$' && !isDBRefField(name)) {
            if (name == "$and")
                r = parseTree(MT::kAnd, e, depth);
            else if (name == "$or")
                r = parseTree(MT::kOr, e, depth);
            else if (name == "$nor")
                r = parseTree(MT::kNor, e, depth);
            else if (name == "$comment")
                continue;
            else if (name == "$alwaysTrue" || name == "$alwaysFalse") {
                if (!e.isNumber() || e.numberDouble() != 1)
                    return Status(ErrorCodes::FailedToParse,
                                  std::string(name) + " must be an integer value of 1");
                r = std::unique_ptr<MatchExpression>(
                    std::make_unique<ConstantMatchExpression>(name == "$alwaysTrue"));
            } else if (name == "$sampleRate") {
                // As upstream: {$expr: {$lt: [{$rand: {}}, {$const: <rate>}]}}.
                if (!e.isNumber())
                    return badValue("argument to $sampleRate must be a numeric type");
                const double rate = e.numberDouble();
                if (!(rate >= 0 && rate <= 1))
                    return badValue("numeric argument to $sampleRate must be in [0, 1]");
                ExprMatchParser hook;
                {
                    std::lock_guard<std::mutex> lk(gExprMutex);
                    hook = gExprParser;
                }
                if (!hook)
                    return badValue("$sampleRate is not supported yet");
                BSONObj expr =
                    BSON("$expr" << BSON("$lt" << BSON_ARRAY(BSON("$rand" << BSONObj())
                                                             << BSON("$const" << rate))));
                r = hook(expr.firstElement());
            } else if (name == "$expr" && _inElemMatch > 0) {
                return badValue("$expr can only be applied to the top-level document");
            } else if (name == "$expr") {
                ExprMatchParser hook;
                {
                    std::lock_guard<std::mutex> lk(gExprMutex);
                    hook = gExprParser;
                }
                if (!hook)
                    return badValue("$expr is not supported yet");
                r = hook(e);
            } else if (name == "$jsonSchema") {
                r = parseJsonSchema(e);
            } else if (name == "$where")
                return badValue("$where is not allowed in this context");
            else if (auto op = topLevelOperators().find(name); op != topLevelOperators().end()) {
                // Registered operators read the whole document ($_internalBucketGeoWithin).
                if (_inElemMatch > 0)
                    return Status(
                        ErrorCodes::QueryFeatureNotAllowed,
                        std::string(name) + " can only be applied to the top-level document");
                r = op->second(e);
            } else if (name == "$text") {
                if (_inElemMatch > 0)
                    return badValue("$text can only be applied to the top-level document");
                if (_inNor > 0)
                    return badValue("$text cannot be contained within a $nor");
                auto text = TextMatchExpression::parse(e);
                if (!text.isOK())
                    return text.getStatus();
                r = std::unique_ptr<MatchExpression>(std::move(text.getValue()));
            } else
                return badValue("unknown top level operator: " + std::string(name));
        } else {
            r = parsePathElement(name, e, depth);
        }
        if (!r.isOK())
            return r.getStatus();
        root->add(std::move(r.getValue()));
    }
    return std::unique_ptr<MatchExpression>(std::move(root));
}

Result Parser::parseTree(MT type, const BSONElement& e, int depth) {
    if (e.type() != BSONType::kArray)
        return badValue(std::string(e.fieldNameStringData()) + " must be an array");
    BSONObj arr = e.Obj();
    if (arr.isEmpty())
        return badValue("$and/$or/$nor must be a nonempty array");
    auto list = std::make_unique<ListOfMatchExpression>(type);
    const int norLevel = type == MT::kNor ? 1 : 0;
    _inNor += norLevel;
    absl::Cleanup leaveNor = [&] { _inNor -= norLevel; };
    for (BSONElement sub : arr) {
        if (sub.type() != BSONType::kObject)
            return badValue("$or/$and/$nor entries need to be full objects");
        Result r = parseTopLevel(sub.Obj(), depth + 1);
        if (!r.isOK())
            return r;
        list->add(std::move(r.getValue()));
    }
    return std::unique_ptr<MatchExpression>(std::move(list));
}

Result Parser::parsePathElement(StringData path, const BSONElement& e, int depth) {
    if (isExpressionDocument(e))
        return parseOperatorObject(path, e.Obj(), depth);
    if (e.type() == BSONType::kRegEx) {
        auto re = RegexMatcher::compile(e.regex(), e.regexFlags());
        if (!re.isOK())
            return re.getStatus();
        return std::unique_ptr<MatchExpression>(
            std::make_unique<RegexMatchExpression>(path, re.getValue()));
    }
    return parseComparison(MT::kEq, path, e);
}

Result Parser::parseOperatorObject(StringData path, const BSONObj& ops, int depth) {
    if (depth > kMaxDepth)
        return badValue("exceeded maximum query tree depth of 100");
    auto list = std::make_unique<ListOfMatchExpression>(MT::kAnd);
    bool regexDone = false;
    for (BSONElement op : ops) {
        StringData name = op.fieldNameStringData();
        if (name == "$regex" || name == "$options") {
            if (regexDone)
                continue;
            regexDone = true;
            Result r = parseRegexPair(path, ops);
            if (!r.isOK())
                return r;
            list->add(std::move(r.getValue()));
            continue;
        }
        Result r = parseOperator(path, op, depth);
        if (!r.isOK())
            return r;
        list->add(std::move(r.getValue()));
    }
    if (list->numChildren() == 1)
        return list->releaseChild(0);
    return std::unique_ptr<MatchExpression>(std::move(list));
}

Result Parser::parseOperator(StringData path, const BSONElement& op, int depth) {
    StringData name = op.fieldNameStringData();
    if (name == "$eq")
        return parseComparison(MT::kEq, path, op);
    if (name == "$lt")
        return parseComparison(MT::kLt, path, op);
    if (name == "$lte")
        return parseComparison(MT::kLte, path, op);
    if (name == "$gt")
        return parseComparison(MT::kGt, path, op);
    if (name == "$gte")
        return parseComparison(MT::kGte, path, op);
    if (name == "$ne") {
        if (op.type() == BSONType::kRegEx)
            return Status(ErrorCodes::BadValue, "Can't have regex as arg to $ne.");
        Result r = parseComparison(MT::kEq, path, op);
        if (!r.isOK())
            return r;
        return std::unique_ptr<MatchExpression>(
            std::make_unique<NotMatchExpression>(std::move(r.getValue())));
    }
    if (name == "$in" || name == "$nin")
        return parseIn(path, op, name == "$nin");
    if (name == "$exists") {
        std::unique_ptr<MatchExpression> ex = std::make_unique<ExistsMatchExpression>(path);
        if (op.trueValue())
            return ex;
        return std::unique_ptr<MatchExpression>(
            std::make_unique<NotMatchExpression>(std::move(ex)));
    }
    if (name == "$type")
        return parseType(path, op);
    if (name == "$size")
        return parseSize(path, op);
    if (name == "$mod")
        return parseMod(path, op);
    if (isBitTestOperator(name))
        return parseBitTest(path, op);
    if (name == "$all")
        return parseAll(path, op, depth);
    if (name == "$elemMatch")
        return parseElemMatch(path, op, depth);
    if (name == "$not")
        return parseNot(path, op, depth);
    if (name == "$geoWithin" || name == "$within" || name == "$geoIntersects")
        return parseGeo(path, op);
    if (auto t = InternalExprComparisonMatchExpression::typeFor(name))
        return InternalExprComparisonMatchExpression::make(*t, path, op);
    if (isNearOperator(name))
        return Status(ErrorCodes::NoQueryExecutionPlans,
                      "error processing query: planner returned error :: caused by :: unable "
                      "to find index for $geoNear query");
    return badValue("unknown operator: " + std::string(name));
}

Result Parser::parseComparison(MT type, StringData path, const BSONElement& e) {
    if (e.type() == BSONType::kUndefined)
        return badValue("cannot compare to undefined");
    if (type != MT::kEq && e.type() == BSONType::kRegEx)
        return badValue("Can't have RegEx as arg to predicate over field '" + std::string(path) +
                        "'.");
    return std::unique_ptr<MatchExpression>(
        std::make_unique<ComparisonMatchExpression>(type, path, e));
}

Result Parser::parseRegexPair(StringData path, const BSONObj& ops) {
    BSONElement re = ops["$regex"];
    BSONElement opt = ops["$options"];
    if (re.eoo())
        return badValue("$options needs a $regex");
    std::string pattern, flags;
    if (re.type() == BSONType::kString) {
        pattern = re.str();
    } else if (re.type() == BSONType::kRegEx) {
        pattern = re.regex();
        flags = re.regexFlags();
    } else {
        return badValue("$regex has to be a string");
    }
    if (!opt.eoo()) {
        if (opt.type() != BSONType::kString)
            return badValue("$options has to be a string");
        if (!flags.empty() && !opt.valueStringData().empty()) {
            // Upstream's code says which came first: $options before $regex 51074, after 51075.
            bool optionsFirst = false;
            for (auto e : ops) {
                if (e.fieldNameStringData() == "$options" || e.fieldNameStringData() == "$regex") {
                    optionsFirst = e.fieldNameStringData() == "$options";
                    break;
                }
            }
            return Status(ErrorCodes::Error(optionsFirst ? 51074 : 51075),
                          "options set in both $regex and $options");
        }
        if (flags.empty())
            flags = opt.str();
    }
    auto compiled = RegexMatcher::compile(pattern, flags);
    if (!compiled.isOK())
        return compiled.getStatus();
    return std::unique_ptr<MatchExpression>(
        std::make_unique<RegexMatchExpression>(path, compiled.getValue()));
}

Result Parser::parseIn(StringData path, const BSONElement& e, bool negate) {
    if (e.type() != BSONType::kArray)
        return badValue(negate ? "$nin needs an array" : "$in needs an array");
    std::vector<std::shared_ptr<RegexMatcher>> regexes;
    for (BSONElement v : e.Obj()) {
        if (v.type() == BSONType::kUndefined)
            return badValue("InMatchExpression equality cannot be undefined");
        if (isExpressionDocument(v))
            return badValue("cannot nest $ under $in");
        if (v.type() == BSONType::kRegEx) {
            auto re = RegexMatcher::compile(v.regex(), v.regexFlags());
            if (!re.isOK())
                return re.getStatus();
            regexes.push_back(re.getValue());
        }
    }
    std::unique_ptr<MatchExpression> in =
        std::make_unique<InMatchExpression>(path, e, std::move(regexes));
    if (!negate)
        return in;
    return std::unique_ptr<MatchExpression>(std::make_unique<NotMatchExpression>(std::move(in)));
}

Status parseOneType(const BSONElement& t, std::vector<BSONType>* types, bool* allNumbers) {
    if (t.isNumber()) {
        double d = t.numberDouble();
        // Range-checked as a double first: casting one outside int's range is undefined.
        if (!(d == std::floor(d) && d >= -1 && d <= 127))  // also rejects NaN
            return badValue("Invalid numerical type code: " + t.toString(false));
        int code = static_cast<int>(d);
        if (!(code == -1 || code == 127 || (code >= 1 && code <= 19)))
            return badValue("Invalid numerical type code: " + t.toString(false));
        types->push_back(static_cast<BSONType>(code));
        return Status::OK();
    }
    if (t.type() == BSONType::kString) {
        if (t.valueStringData() == "number") {
            *allNumbers = true;
            return Status::OK();
        }
        BSONType bt;
        if (!typeFromAlias(t.valueStringData(), &bt))
            return badValue("Unknown type name alias: " + t.str());
        types->push_back(bt);
        return Status::OK();
    }
    return Status(ErrorCodes::TypeMismatch, "type must be represented as a number or a string");
}

Result Parser::parseType(StringData path, const BSONElement& e) {
    std::vector<BSONType> types;
    bool allNumbers = false;
    if (e.type() == BSONType::kArray) {
        for (BSONElement t : e.Obj()) {
            Status s = parseOneType(t, &types, &allNumbers);
            if (!s.isOK())
                return s;
        }
    } else {
        Status s = parseOneType(e, &types, &allNumbers);
        if (!s.isOK())
            return s;
    }
    return std::unique_ptr<MatchExpression>(
        std::make_unique<TypeMatchExpression>(path, std::move(types), allNumbers));
}

Result Parser::parseSize(StringData path, const BSONElement& e) {
    if (!e.isNumber())
        return badValue("$size needs a number");
    double d = e.numberDouble();
    if (std::isnan(d) || d != std::floor(d))
        return badValue("$size must be a whole number");
    if (d < 0)
        return badValue("$size may not be negative");
    return std::unique_ptr<MatchExpression>(
        std::make_unique<SizeMatchExpression>(path, e.numberLong()));
}

Result Parser::parseMod(StringData path, const BSONElement& e) {
    if (e.type() != BSONType::kArray)
        return badValue("malformed mod, needs to be an array");
    std::vector<BSONElement> v = e.Array();
    if (v.size() < 2)
        return badValue("malformed mod, not enough elements");
    if (v.size() > 2)
        return badValue("malformed mod, too many elements");
    if (!v[0].isNumber())
        return badValue("malformed mod, divisor not a number");
    if (!v[1].isNumber())
        return badValue("malformed mod, remainder not a number");
    for (int i = 0; i < 2; ++i) {
        double d = v[i].numberDouble();
        if (std::isnan(d) || std::isinf(d) || d >= 9223372036854775808.0 ||
            d < -9223372036854775808.0)
            return badValue(i == 0 ? "malformed mod, divisor value is invalid"
                                   : "malformed mod, remainder value is invalid");
    }
    long long divisor = v[0].numberLong();
    if (divisor == 0)
        return badValue("divisor cannot be 0");
    return std::unique_ptr<MatchExpression>(
        std::make_unique<ModMatchExpression>(path, divisor, v[1].numberLong()));
}

Result Parser::parseAll(StringData path, const BSONElement& e, int depth) {
    if (e.type() != BSONType::kArray)
        return badValue("$all needs an array");
    BSONObj arr = e.Obj();
    if (arr.isEmpty())
        return std::unique_ptr<MatchExpression>(std::make_unique<ConstantMatchExpression>(false));
    auto list = std::make_unique<ListOfMatchExpression>(MT::kAnd);
    BSONElement first = arr.firstElement();
    bool elemMatchForm = first.type() == BSONType::kObject && !first.Obj().isEmpty() &&
                         first.Obj().firstElementFieldNameStringData() == "$elemMatch";
    for (BSONElement v : arr) {
        bool isEM = v.type() == BSONType::kObject && !v.Obj().isEmpty() &&
                    v.Obj().firstElementFieldNameStringData() == "$elemMatch";
        if (elemMatchForm != isEM)
            return badValue("$all/$elemMatch has to be consistent");
        Result r = Status(ErrorCodes::InternalError, "");
        if (isEM)
            r = parseElemMatch(path, v.Obj().firstElement(), depth);
        else if (isExpressionDocument(v))
            return badValue("no $ expressions in $all");
        else if (v.type() == BSONType::kRegEx)
            r = parsePathElement(path, v, depth);
        else
            r = parseComparison(MT::kEq, path, v);
        if (!r.isOK())
            return r;
        list->add(std::move(r.getValue()));
    }
    return std::unique_ptr<MatchExpression>(std::move(list));
}

Result Parser::parseElemMatch(StringData path, const BSONElement& e, int depth) {
    if (e.type() != BSONType::kObject)
        return badValue("$elemMatch needs an Object");
    BSONObj spec = e.Obj();
    StringData first = spec.isEmpty() ? StringData() : spec.firstElementFieldNameStringData();
    bool valueForm =
        !first.empty() && first[0] == '$' && !isTopLevelOnlyOperator(first) && !isDBRefField(first);
    if (valueForm) {
        Result r = parseOperatorObject("", spec, depth + 1);
        if (!r.isOK())
            return r;
        return std::unique_ptr<MatchExpression>(
            std::make_unique<ElemMatchValueMatchExpression>(path, std::move(r.getValue()), spec));
    }
    ++_inElemMatch;
    Result r = parseTopLevel(spec, depth + 1);
    --_inElemMatch;
    if (!r.isOK())
        return r;
    return std::unique_ptr<MatchExpression>(
        std::make_unique<ElemMatchObjectMatchExpression>(path, std::move(r.getValue()), spec));
}

Result Parser::parseNot(StringData path, const BSONElement& e, int depth) {
    Result r = Status(ErrorCodes::InternalError, "");
    if (e.type() == BSONType::kRegEx) {
        r = parsePathElement(path, e, depth);
    } else if (e.type() == BSONType::kObject) {
        BSONObj o = e.Obj();
        if (o.isEmpty())
            return badValue("$not cannot be empty");
        r = parseOperatorObject(path, o, depth + 1);
    } else {
        return badValue("$not needs a regex or a document");
    }
    if (!r.isOK())
        return r;
    return std::unique_ptr<MatchExpression>(
        std::make_unique<NotMatchExpression>(std::move(r.getValue())));
}

}  // namespace

StatusWith<std::unique_ptr<MatchExpression>> parseMatchExpression(const BSONObj& filter) {
    Parser p;
    auto r = p.parseTopLevel(filter, 0);
    if (r.isOK()) {
        int texts = 0;
        findTextExpression(r.getValue().get(), &texts);
        if (texts > 1)
            return Status(ErrorCodes::BadValue, "Too many text expressions");
    }
    return r;
}

StatusWith<std::unique_ptr<MatchExpression>> parseValueMatchExpression(const BSONObj& operators) {
    Parser p;
    return p.parseOperators(operators);
}

void setExprMatchParser(ExprMatchParser parser) {
    std::lock_guard<std::mutex> lk(gExprMutex);
    gExprParser = std::move(parser);
}

void registerTopLevelMatchOperator(StringData name, ExprMatchParser parser) {
    topLevelOperators()[std::string(name)] = std::move(parser);
}

ExprMatchParser getExprMatchParser() {
    std::lock_guard<std::mutex> lk(gExprMutex);
    return gExprParser;
}

bool typeFromAlias(StringData alias, BSONType* out) {
    for (const auto& a : kTypeAliases) {
        if (a.name == alias) {
            *out = a.type;
            return true;
        }
    }
    return false;
}

bool isNearOperator(StringData name) {
    return name == "$near" || name == "$nearSphere" || name == "$geoNear";
}

namespace {
/** Whether the operators of one field ({$near: ..., $not: {...}, $elemMatch: {...}}) hold one. */
bool operatorsHoldNear(const BSONObj& ops) {
    for (BSONElement op : ops) {
        StringData name = op.fieldNameStringData();
        if (isNearOperator(name))
            return true;
        if ((name == "$not" || name == "$elemMatch") && op.type() == BSONType::kObject &&
            (operatorsHoldNear(op.Obj()) || containsNearPredicate(op.Obj())))
            return true;
    }
    return false;
}
}  // namespace

bool containsNearPredicate(const BSONObj& filter) {
    // Operator positions only: a literal value ({a: {$eq: {$near: 1}}}) holds none.
    for (BSONElement e : filter) {
        StringData name = e.fieldNameStringData();
        if (name == "$and" || name == "$or" || name == "$nor") {
            if (e.type() == BSONType::kArray)
                for (BSONElement sub : e.Obj())
                    if (sub.type() == BSONType::kObject && containsNearPredicate(sub.Obj()))
                        return true;
        } else if (!name.starts_with("$") && e.type() == BSONType::kObject &&
                   e.Obj().firstElementFieldNameStringData().starts_with("$") &&
                   operatorsHoldNear(e.Obj())) {
            return true;
        }
    }
    return false;
}

Status checkNoNearPredicate(const BSONObj& filter) {
    if (!containsNearPredicate(filter))
        return Status::OK();
    return Status(ErrorCodes::Error(5626500),
                  "$geoNear, $near, and $nearSphere are not allowed in this context, as these "
                  "operators require sorting geospatial data. If you do not need sort, consider "
                  "using $geoWithin instead.");
}

}  // namespace mongo
