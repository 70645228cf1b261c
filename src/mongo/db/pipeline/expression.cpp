#include "mongo/db/pipeline/expression.h"

#include <map>

#include "mongo/db/matcher/path.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/expression_memory.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

std::map<std::string, Expression::Parser, std::less<>>& parserRegistry() {
    static std::map<std::string, Expression::Parser, std::less<>> registry;
    return registry;
}

void addDepsOf(const ExprVector& v, std::vector<std::string>* fields) {
    for (const auto& e : v)
        if (e)
            e->addDependencies(fields);
}

/** Walks `parts[i..]` from `cur` with aggregation's array semantics. */
Value walkElement(const BSONElement& cur, const std::vector<std::string>& parts, size_t i) {
    if (i == parts.size())
        return Value(cur);
    switch (cur.type()) {
        case BSONType::kObject: {
            BSONElement sub = cur.Obj().getField(parts[i]);
            if (sub.eoo())
                return Value();
            return walkElement(sub, parts, i + 1);
        }
        case BSONType::kArray: {
            std::vector<Value> out;
            for (auto e : cur.Obj()) {
                Value r = walkElement(e, parts, i);
                if (!r.missing())
                    out.push_back(std::move(r));
            }
            return Value(out);
        }
        default:
            return Value();
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Variables

void validateVariableName(StringData name) {
    uassert(16866, "empty variable names are not allowed", !name.empty());
    unsigned char c0 = static_cast<unsigned char>(name[0]);
    uassert(16867,
            "'" + std::string(name) + "' starts with an invalid character for a user variable name",
            (c0 >= 'a' && c0 <= 'z') || c0 >= 0x80);
    for (unsigned char c : name) {
        uassert(16868,
                "'" + std::string(name) + "' contains an invalid character for a variable name: '" +
                    std::string(1, static_cast<char>(c)) + "'",
                (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c >= 0x80);
    }
}

VariableId VariablesParseState::defineVariable(StringData name) {
    VariableId id = (*_nextId)++;
    _scope[std::string(name)] = id;
    return id;
}

VariableId VariablesParseState::getVariable(StringData name) const {
    auto it = _scope.find(name);
    if (it != _scope.end())
        return it->second;
    if (name == "ROOT")
        return Variables::kRootId;
    if (name == "CURRENT")
        return Variables::kCurrentId;
    if (name == "REMOVE")
        return Variables::kRemoveId;
    if (name == "NOW")
        return Variables::kNowId;
    if (name == "CLUSTER_TIME")
        return Variables::kClusterTimeId;
    if (name == "IS_MR")
        return Variables::kIsMapReduceId;
    if (name == "JS_SCOPE")
        return Variables::kJsScopeId;
    if (name == "KEEP")
        return Variables::kKeepId;
    if (name == "PRUNE")
        return Variables::kPruneId;
    if (name == "DESCEND")
        return Variables::kDescendId;
    uasserted(17276, "Use of undefined variable: " + std::string(name));
}

// ---------------------------------------------------------------------------------------
// Parsing

void Expression::registerParser(StringData name, Parser parser) {
    parserRegistry()[std::string(name)] = std::move(parser);
}

bool Expression::isRegistered(StringData name) {
    auto& r = parserRegistry();
    return r.find(name) != r.end();
}

std::optional<Value> Expression::evaluateConstantOperand(ExpressionContext* expCtx,
                                                         const BSONElement& e,
                                                         const VariablesParseState& vps) {
    auto expr = parseOperand(expCtx, e, vps);
    std::vector<std::string> reads;
    expr->addDependencies(&reads);
    if (!reads.empty())
        return std::nullopt;
    return expr->evaluate(BSONObj(), &expCtx->variables).getOwned();
}

ExprPtr Expression::parseOperand(ExpressionContext* expCtx, const BSONElement& e,
                                 const VariablesParseState& vps) {
    switch (e.type()) {
        case BSONType::kString: {
            StringData s = e.valueStringData();
            if (!s.empty() && s[0] == '$')
                return ExpressionFieldPath::parse(s.substr(1), vps);
            return std::make_unique<ExpressionConstant>(Value(e));
        }
        case BSONType::kObject:
            return parseObject(expCtx, e.Obj(), vps);
        case BSONType::kArray: {
            ExprVector elems;
            for (auto sub : e.Obj())
                elems.push_back(parseOperand(expCtx, sub, vps));
            return std::make_unique<ExpressionArray>(std::move(elems));
        }
        default:
            return std::make_unique<ExpressionConstant>(Value(e));
    }
}

ExprPtr Expression::parseProjectedOperand(ExpressionContext* expCtx, const BSONElement& e,
                                          const VariablesParseState& vps) {
    if (e.type() == BSONType::kObject && e.Obj().nFields() == 1) {
        StringData op = e.Obj().firstElementFieldNameStringData();
        uassert(31325, "Unknown expression " + std::string(op),
                !op.starts_with("$") || isRegistered(op));
    }
    return parseOperand(expCtx, e, vps);
}

ExprPtr Expression::parseObject(ExpressionContext* expCtx, const BSONObj& obj,
                                const VariablesParseState& vps) {
    if (!obj.isEmpty() && obj.firstElementFieldNameStringData().starts_with("$")) {
        uassert(15983,
                "an expression specification must contain exactly one field, the name of the "
                "expression. Found " +
                    std::to_string(obj.nFields()) + " fields in " + obj.toString(),
                obj.nFields() == 1);
        BSONElement op = obj.firstElement();
        auto& r = parserRegistry();
        auto it = r.find(op.fieldNameStringData());
        uassert(168 /* InvalidPipelineOperator */,
                "Unrecognized expression '" + std::string(op.fieldNameStringData()) + "'",
                it != r.end());
        return it->second(expCtx, op, vps);
    }
    std::vector<std::pair<std::string, ExprPtr>> fields;
    for (auto e : obj) {
        StringData name = e.fieldNameStringData();
        uassert(16412,
                "FieldPath field names may not contain '.'. Consider using $getField or "
                "$setField.",
                name.find('.') == StringData::npos);
        uassert(16410,
                "FieldPath field names may not start with '$'. Consider using $getField or "
                "$setField.",
                !name.starts_with("$") || isDBRefFieldName(name));
        uassert(15998, "FieldPath field names may not be empty strings.", !name.empty());
        for (const auto& f : fields)
            uassert(16406, "duplicate field name specified in object literal: " + std::string(name),
                    f.first != name);
        fields.emplace_back(std::string(name), parseOperand(expCtx, e, vps));
    }
    return std::make_unique<ExpressionObject>(std::move(fields));
}

ExprVector Expression::parseArguments(ExpressionContext* expCtx, const BSONElement& e,
                                      const VariablesParseState& vps) {
    ExprVector out;
    if (e.type() == BSONType::kArray) {
        for (auto sub : e.Obj())
            out.push_back(parseOperand(expCtx, sub, vps));
    } else {
        out.push_back(parseOperand(expCtx, e, vps));
    }
    return out;
}

void checkArity(StringData name, size_t n, int minArgs, int maxArgs) {
    if (minArgs == maxArgs) {
        uassert(16020,
                "Expression " + std::string(name) + " takes exactly " + std::to_string(minArgs) +
                    " arguments. " + std::to_string(n) + " were passed in.",
                n == static_cast<size_t>(minArgs));
        return;
    }
    if (maxArgs < 0) {
        uassert(16020,
                "Expression " + std::string(name) + " takes at least " + std::to_string(minArgs) +
                    " arguments, and at most " + "inf" + ", but " + std::to_string(n) +
                    " were passed in.",
                n >= static_cast<size_t>(minArgs));
        return;
    }
    uassert(28667,
            "Expression " + std::string(name) + " takes at least " + std::to_string(minArgs) +
                " arguments, and at most " + std::to_string(maxArgs) + ", but " +
                std::to_string(n) + " were passed in.",
            n >= static_cast<size_t>(minArgs) && n <= static_cast<size_t>(maxArgs));
}

void registerNaryExpression(StringData name, int minArgs, int maxArgs, ExpressionNary::Fn fn) {
    std::string n(name);
    Expression::registerParser(
        name,
        [n, minArgs, maxArgs, fn](ExpressionContext* expCtx, const BSONElement& e,
                                  const VariablesParseState& vps) -> ExprPtr {
            ExprVector args = Expression::parseArguments(expCtx, e, vps);
            checkArity(n, args.size(), minArgs, maxArgs);
            return std::make_unique<ExpressionNary>(n, std::move(args), fn);
        });
}

void registerCollatedNaryExpression(StringData name, int minArgs, int maxArgs, CollatedNaryFn fn) {
    std::string n(name);
    Expression::registerParser(
        name,
        [n, minArgs, maxArgs, fn](ExpressionContext* expCtx, const BSONElement& e,
                                  const VariablesParseState& vps) -> ExprPtr {
            ExprVector args = Expression::parseArguments(expCtx, e, vps);
            checkArity(n, args.size(), minArgs, maxArgs);
            // The context outlives the expressions parsed with it (stages and $expr hold it).
            const ExpressionContext* ctx = expCtx;
            return std::make_unique<ExpressionNary>(
                n, std::move(args), [fn, ctx](const ValueArgs& a) {
                    return fn(a, ctx ? ctx->getCollator() : nullptr);
                });
        });
}

std::string typeNameOf(const Value& v) {
    return std::string(typeName(v.getType()));
}

// ---------------------------------------------------------------------------------------
// Constant, field path, object, array, n-ary, custom

void ExpressionConstant::serialize(BSONObjBuilder* b, StringData name) const {
    BSONObjBuilder sub(b->subobjStart(name));
    if (_value.missing())
        sub.append("$literal", BSONUndefined);
    else
        _value.addToBsonObj(&sub, "$const");
}

std::unique_ptr<ExpressionFieldPath> ExpressionFieldPath::parse(StringData raw,
                                                                const VariablesParseState& vps) {
    // `raw` is without the first '$'.
    VariableId var = Variables::kCurrentId;
    StringData rest = raw;
    if (raw.starts_with("$")) {
        StringData body = raw.substr(1);
        size_t dot = body.find('.');
        StringData varName = body.substr(0, dot);
        uassert(16869, "empty variable names are not allowed", !varName.empty());
        var = vps.getVariable(varName);
        rest = dot == StringData::npos ? StringData() : body.substr(dot + 1);
        if (dot == StringData::npos)
            return std::make_unique<ExpressionFieldPath>(var, std::vector<std::string>{},
                                                         "$" + std::string(raw));
    } else {
        uassert(16872, "'$' by itself is not a valid FieldPath", !raw.empty());
    }
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        size_t dot = rest.find('.', start);
        StringData part =
            rest.substr(start, dot == StringData::npos ? StringData::npos : dot - start);
        uassert(15998, "FieldPath field names may not be empty strings.", !part.empty());
        uassert(16410,
                "FieldPath field names may not start with '$'. Consider using $getField or "
                "$setField.",
                !part.starts_with("$") || isDBRefFieldName(part));
        uassert(16411, "FieldPath field names may not contain '\\0'.",
                part.find('\0') == StringData::npos);
        parts.emplace_back(part);
        if (dot == StringData::npos)
            break;
        start = dot + 1;
    }
    return std::make_unique<ExpressionFieldPath>(var, std::move(parts), "$" + std::string(raw));
}

Value ExpressionFieldPath::evaluate(const BSONObj& root, Variables* vars) const {
    if (_var == Variables::kRootId || _var == Variables::kCurrentId) {
        if (_parts.empty())
            return Value(root);
        BSONElement first = vars && vars->fieldCache.covers(root) ? vars->fieldCache.get(_parts[0])
                                                                  : root.getField(_parts[0]);
        if (first.eoo())
            return Value();
        if (_parts.size() == 1)
            return Value(first);
        return walkElement(first, _parts, 1);
    }
    Value base;
    switch (_var) {
        case Variables::kRemoveId:
            return Value();
        case Variables::kNowId:
            base = Value(vars->now);
            break;
        case Variables::kIsMapReduceId:
        case Variables::kJsScopeId:
            uasserted(51144,
                      "Builtin variable '" + _raw.substr(0, _raw.find('.')) + "' is not available");
        case Variables::kKeepId:
            base = Value(StringData("keep"));
            break;
        case Variables::kPruneId:
            base = Value(StringData("prune"));
            break;
        case Variables::kDescendId:
            base = Value(StringData("descend"));
            break;
        case Variables::kClusterTimeId:
            base = Value(
                Timestamp(static_cast<std::uint32_t>(vars->now.toMillisSinceEpoch() / 1000), 1));
            break;
        default:
            base = vars->getValue(_var);
    }
    if (_parts.empty())
        return base;
    Value r = walkElement(base.elem(), _parts, 0);
    // The result may point into `base`'s buffer, which dies here.
    return r.getOwned();
}

void ExpressionFieldPath::serialize(BSONObjBuilder* b, StringData name) const {
    b->append(name, _raw);
}

void ExpressionFieldPath::addDependencies(std::vector<std::string>* fields) const {
    if (_var == Variables::kRootId || _var == Variables::kCurrentId)
        fields->push_back(_parts.empty() ? std::string() : _parts[0]);
}

void ExpressionObject::buildInto(const BSONObj& root, Variables* vars, BSONObjBuilder* b) const {
    for (const auto& [name, expr] : _fields) {
        Value v = expr->evaluate(root, vars);
        uassertNestingFits(v);
        v.addToBsonObj(b, name);
    }
}

Value ExpressionObject::evaluate(const BSONObj& root, Variables* vars) const {
    BSONObjBuilder b;
    buildInto(root, vars, &b);
    return Value(b.obj());
}

void ExpressionObject::serialize(BSONObjBuilder* b, StringData name) const {
    BSONObjBuilder sub(b->subobjStart(name));
    for (const auto& [n, expr] : _fields)
        expr->serialize(&sub, n);
}

void ExpressionObject::addDependencies(std::vector<std::string>* fields) const {
    for (const auto& f : _fields)
        f.second->addDependencies(fields);
}

Value ExpressionArray::evaluate(const BSONObj& root, Variables* vars) const {
    BSONObjBuilder b;
    {
        BSONArrayBuilder arr(b.subarrayStart(""));
        for (const auto& e : _elems) {
            Value v = e->evaluate(root, vars);
            uassertNestingFits(v);
            if (v.missing())
                arr.append(BSONNULL);
            else
                arr.append(v.elem());
        }
    }
    BSONObj holder = b.obj();
    return Value::copyOf(holder.firstElement());
}

void ExpressionArray::serialize(BSONObjBuilder* b, StringData name) const {
    BSONArrayBuilder arr(b->subarrayStart(name));
    for (size_t i = 0; i < _elems.size(); ++i) {
        BSONObjBuilder tmp;
        _elems[i]->serialize(&tmp, "x");
        arr.append(tmp.obj().firstElement());
    }
}

void ExpressionArray::addDependencies(std::vector<std::string>* fields) const {
    addDepsOf(_elems, fields);
}

Value ExpressionNary::evaluate(const BSONObj& root, Variables* vars) const {
    ValueArgs vals;
    vals.reserve(_args.size());
    for (const auto& a : _args)
        vals.push_back(a->evaluate(root, vars));
    return _fn(vals);
}

namespace {
/** Appends {op: [<each argument serialized>]} under `name`. */
void serializeOperator(BSONObjBuilder* b, StringData name, StringData op, const ExprVector& args) {
    BSONObjBuilder sub(b->subobjStart(name));
    BSONArrayBuilder arr(sub.subarrayStart(op));
    for (const auto& a : args) {
        BSONObjBuilder tmp;
        a->serialize(&tmp, "x");
        arr.append(tmp.obj().firstElement());
    }
}
}  // namespace

void ExpressionNary::serialize(BSONObjBuilder* b, StringData name) const {
    serializeOperator(b, name, _name, _args);
}

void ExpressionNary::addDependencies(std::vector<std::string>* fields) const {
    addDepsOf(_args, fields);
}

void ExpressionCustom::serialize(BSONObjBuilder* b, StringData name) const {
    if (_childrenAreArguments)
        serializeOperator(b, name, _name, _children);
    else
        b->append(name, _spec);
}

void ExpressionCustom::addDependencies(std::vector<std::string>* fields) const {
    if (_children.empty())
        fields->push_back("");  // unknown: assume the whole document
    addDepsOf(_children, fields);
}

}  // namespace mongo
