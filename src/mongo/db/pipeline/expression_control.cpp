// Control-flow and variable-binding operators: $literal $cond $ifNull $switch $let
// $map $filter $reduce.
#include <memory>

#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/expression_memory.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

using Children = std::shared_ptr<ExprVector>;

ExprPtr makeCustom(StringData name, const BSONElement& e, ExprVector children,
                   ExpressionCustom::Fn fn) {
    BSONObjBuilder b;
    b.appendAs(e, name);
    return std::make_unique<ExpressionCustom>(std::string(name), b.obj(), std::move(children),
                                              std::move(fn));
}

ExprPtr parseLiteral(ExpressionContext*, const BSONElement& e, const VariablesParseState&) {
    return std::make_unique<ExpressionConstant>(Value(e));
}

ExprPtr parseCond(ExpressionContext* expCtx, const BSONElement& e, const VariablesParseState& vps) {
    ExprVector args;
    if (e.type() == BSONType::kObject) {
        BSONElement ifE, thenE, elseE;
        for (auto f : e.Obj()) {
            StringData n = f.fieldNameStringData();
            if (n == "if")
                ifE = f;
            else if (n == "then")
                thenE = f;
            else if (n == "else")
                elseE = f;
            else
                uasserted(17083, "Unrecognized parameter to $cond: " + std::string(n));
        }
        uassert(17080, "Missing 'if' parameter to $cond", !ifE.eoo());
        uassert(17081, "Missing 'then' parameter to $cond", !thenE.eoo());
        uassert(17082, "Missing 'else' parameter to $cond", !elseE.eoo());
        args.push_back(Expression::parseOperand(expCtx, ifE, vps));
        args.push_back(Expression::parseOperand(expCtx, thenE, vps));
        args.push_back(Expression::parseOperand(expCtx, elseE, vps));
    } else {
        args = Expression::parseArguments(expCtx, e, vps);
        checkArity("$cond", args.size(), 3, 3);
    }
    const Expression* c = args[0].get();
    const Expression* t = args[1].get();
    const Expression* f = args[2].get();
    return makeCustom("$cond", e, std::move(args), [c, t, f](const BSONObj& root, Variables* vars) {
        return c->evaluate(root, vars).coerceToBool() ? t->evaluate(root, vars)
                                                      : f->evaluate(root, vars);
    });
}

ExprPtr parseIfNull(ExpressionContext* expCtx, const BSONElement& e,
                    const VariablesParseState& vps) {
    ExprVector args = Expression::parseArguments(expCtx, e, vps);
    uassert(1257300, "$ifNull needs at least two arguments, had: " + std::to_string(args.size()),
            args.size() >= 2);
    std::vector<const Expression*> raw;
    for (auto& a : args)
        raw.push_back(a.get());
    return makeCustom("$ifNull", e, std::move(args), [raw](const BSONObj& root, Variables* vars) {
        for (size_t i = 0; i + 1 < raw.size(); ++i) {
            Value v = raw[i]->evaluate(root, vars);
            if (!v.nullish())
                return v;
        }
        return raw.back()->evaluate(root, vars);
    });
}

ExprPtr parseSwitch(ExpressionContext* expCtx, const BSONElement& e,
                    const VariablesParseState& vps) {
    uassert(40060, "$switch requires an object as an argument, found: " + typeNameOf(Value(e)),
            e.type() == BSONType::kObject);
    ExprVector children;
    std::vector<std::pair<const Expression*, const Expression*>> branches;
    const Expression* def = nullptr;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "branches") {
            uassert(40061,
                    "$switch expected an array for 'branches', found: " + typeNameOf(Value(f)),
                    f.type() == BSONType::kArray);
            for (auto br : f.Obj()) {
                uassert(
                    40062,
                    "$switch expected each branch to be an object, found: " + typeNameOf(Value(br)),
                    br.type() == BSONType::kObject);
                const Expression* c = nullptr;
                const Expression* t = nullptr;
                for (auto part : br.Obj()) {
                    StringData pn = part.fieldNameStringData();
                    if (pn == "case") {
                        children.push_back(Expression::parseOperand(expCtx, part, vps));
                        c = children.back().get();
                    } else if (pn == "then") {
                        children.push_back(Expression::parseOperand(expCtx, part, vps));
                        t = children.back().get();
                    } else {
                        uasserted(40063, "$switch found an unknown argument to a branch: " +
                                             std::string(pn));
                    }
                }
                uassert(40064, "$switch requires each branch have a 'case' expression", c);
                uassert(40065, "$switch requires each branch have a 'then' expression.", t);
                branches.emplace_back(c, t);
            }
        } else if (n == "default") {
            children.push_back(Expression::parseOperand(expCtx, f, vps));
            def = children.back().get();
        } else {
            uasserted(40067, "$switch found an unknown argument: " + std::string(n));
        }
    }
    uassert(40068, "$switch requires at least one branch.", !branches.empty());
    return makeCustom("$switch", e, std::move(children),
                      [branches, def](const BSONObj& root, Variables* vars) {
                          for (const auto& [c, t] : branches)
                              if (c->evaluate(root, vars).coerceToBool())
                                  return t->evaluate(root, vars);
                          uassert(40066,
                                  "$switch could not find a matching branch for an input, and no "
                                  "default was specified.",
                                  def);
                          return def->evaluate(root, vars);
                      });
}

ExprPtr parseLet(ExpressionContext* expCtx, const BSONElement& e, const VariablesParseState& vps) {
    uassert(16874, "$let only supports an object as its argument", e.type() == BSONType::kObject);
    BSONElement varsE, inE;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "vars")
            varsE = f;
        else if (n == "in")
            inE = f;
        else
            uasserted(16875, "Unrecognized parameter to $let: " + std::string(n));
    }
    uassert(16876, "Missing 'vars' parameter to $let", !varsE.eoo());
    uassert(16877, "Missing 'in' parameter to $let", !inE.eoo());
    uassert(10065, "invalid parameter: expected an object (vars)",
            varsE.type() == BSONType::kObject);
    ExprVector children;
    std::vector<std::pair<VariableId, const Expression*>> bindings;
    VariablesParseState inner = vps;
    for (auto v : varsE.Obj()) {
        validateVariableName(v.fieldNameStringData());
        children.push_back(Expression::parseOperand(expCtx, v, vps));
        bindings.emplace_back(inner.defineVariable(v.fieldNameStringData()), children.back().get());
    }
    children.push_back(Expression::parseOperand(expCtx, inE, inner));
    const Expression* in = children.back().get();
    return makeCustom("$let", e, std::move(children),
                      [bindings, in](const BSONObj& root, Variables* vars) {
                          for (const auto& [id, expr] : bindings)
                              vars->setValue(id, expr->evaluate(root, vars).getOwned());
                          return in->evaluate(root, vars);
                      });
}

/** Shared parsing of {input, as, <body fields>} for $map and $filter. */
struct IterParse {
    const Expression* input = nullptr;
    VariableId var = 0;
    const Expression* body = nullptr;   // "in" or "cond"
    const Expression* limit = nullptr;  // $filter only
};

ExprPtr parseMapOrFilter(ExpressionContext* expCtx, const BSONElement& e,
                         const VariablesParseState& vps, bool isMap) {
    StringData op = isMap ? "$map" : "$filter";
    StringData bodyName = isMap ? "in" : "cond";
    uassert(isMap ? 16878 : 28646, std::string(op) + " only supports an object as its argument",
            e.type() == BSONType::kObject);
    BSONElement inputE, asE, bodyE, limitE;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "input")
            inputE = f;
        else if (n == "as")
            asE = f;
        else if (n == bodyName)
            bodyE = f;
        else if (!isMap && n == "limit")
            limitE = f;
        else
            uasserted(isMap ? 16879 : 28647,
                      "Unrecognized parameter to " + std::string(op) + ": " + std::string(n));
    }
    uassert(isMap ? 16880 : 28648, "Missing 'input' parameter to " + std::string(op),
            !inputE.eoo());
    uassert(isMap ? 16882 : 28650,
            "Missing '" + std::string(bodyName) + "' parameter to " + std::string(op),
            !bodyE.eoo());
    std::string varName = asE.eoo() ? "this" : asE.str();
    validateVariableName(varName);
    ExprVector children;
    IterParse p;
    children.push_back(Expression::parseOperand(expCtx, inputE, vps));
    p.input = children.back().get();
    VariablesParseState inner = vps;
    p.var = inner.defineVariable(varName);
    children.push_back(Expression::parseOperand(expCtx, bodyE, inner));
    p.body = children.back().get();
    if (!limitE.eoo()) {
        children.push_back(Expression::parseOperand(expCtx, limitE, vps));
        p.limit = children.back().get();
    }
    return makeCustom(op, e, std::move(children), [p, isMap](const BSONObj& root, Variables* vars) {
        Value input = p.input->evaluate(root, vars);
        if (input.nullish())
            return Value::null();
        uassert(isMap ? 16883 : 28651,
                std::string("input to ") + (isMap ? "$map" : "$filter") + " must be an array not " +
                    typeNameOf(input),
                input.isArray());
        long long limit = -1;
        if (p.limit) {
            Value l = p.limit->evaluate(root, vars);
            if (!l.nullish()) {
                uassert(327391, "$filter: limit must be represented as a 32-bit integral value",
                        l.integral());
                limit = l.getLong();
                uassert(327392, "$filter: limit must be greater than 0", limit > 0);
            }
        }
        BoundedArrayBuilder out(
            isMap ? "$map" : "$filter",
            static_cast<size_t>(gInternalQueryMaxMapReduceExpressionBytes.load()));
        input.forEachArrayElement([&](const Value& elem) {
            if (limit >= 0 && static_cast<long long>(out.count()) >= limit)
                return;
            vars->checkForInterruptEvery128();
            vars->setValue(p.var, elem);
            if (isMap)
                out.append(p.body->evaluate(root, vars), /*missingAsNull=*/true);
            else if (p.body->evaluate(root, vars).coerceToBool())
                out.append(elem);
        });
        return out.done();
    });
}

ExprPtr parseReduce(ExpressionContext* expCtx, const BSONElement& e,
                    const VariablesParseState& vps) {
    uassert(40075, "$reduce requires an object as an argument", e.type() == BSONType::kObject);
    BSONElement inputE, initE, inE;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "input")
            inputE = f;
        else if (n == "initialValue")
            initE = f;
        else if (n == "in")
            inE = f;
        else
            uasserted(40076, "$reduce found an unknown argument: " + std::string(n));
    }
    uassert(40077, "$reduce requires 'input' to be specified", !inputE.eoo());
    uassert(40078, "$reduce requires 'initialValue' to be specified", !initE.eoo());
    uassert(40079, "$reduce requires 'in' to be specified", !inE.eoo());
    ExprVector children;
    children.push_back(Expression::parseOperand(expCtx, inputE, vps));
    const Expression* input = children.back().get();
    children.push_back(Expression::parseOperand(expCtx, initE, vps));
    const Expression* init = children.back().get();
    VariablesParseState inner = vps;
    VariableId thisId = inner.defineVariable("this");
    VariableId valueId = inner.defineVariable("value");
    children.push_back(Expression::parseOperand(expCtx, inE, inner));
    const Expression* in = children.back().get();
    return makeCustom("$reduce", e, std::move(children), [=](const BSONObj& root, Variables* vars) {
        Value arr = input->evaluate(root, vars);
        if (arr.nullish())
            return Value::null();
        uassert(40080, "$reduce requires that 'input' be an array, found: " + typeNameOf(arr),
                arr.isArray());
        const size_t limit = static_cast<size_t>(gInternalQueryMaxMapReduceExpressionBytes.load());
        Value acc = init->evaluate(root, vars).getOwned();
        arr.forEachArrayElement([&](const Value& elem) {
            vars->checkForInterruptEvery128();
            vars->setValue(thisId, elem);
            vars->setValue(valueId, acc);
            acc = in->evaluate(root, vars).getOwned();
            uassertExpressionMemory("$reduce", acc.byteSize(), limit);
        });
        return acc;
    });
}

const bool kRegistered = [] {
    Expression::registerParser("$literal", parseLiteral);
    Expression::registerParser("$const", parseLiteral);
    Expression::registerParser("$cond", parseCond);
    Expression::registerParser("$ifNull", parseIfNull);
    Expression::registerParser("$switch", parseSwitch);
    Expression::registerParser("$let", parseLet);
    Expression::registerParser(
        "$map", [](ExpressionContext* c, const BSONElement& e, const VariablesParseState& v) {
            return parseMapOrFilter(c, e, v, true);
        });
    Expression::registerParser(
        "$filter", [](ExpressionContext* c, const BSONElement& e, const VariablesParseState& v) {
            return parseMapOrFilter(c, e, v, false);
        });
    Expression::registerParser("$reduce", parseReduce);
    // {$expr: <expression>} in an aggregation expression is that expression (upstream accepts
    // it, e.g. in a $group _id).
    Expression::registerParser(
        "$expr", [](ExpressionContext* c, const BSONElement& e, const VariablesParseState& v) {
            return Expression::parseOperand(c, e, v);
        });
    return true;
}();

}  // namespace
}  // namespace mongo
