// Aggregation expressions: a parsed tree evaluated against one document.
//
//   auto expr = Expression::parseOperand(expCtx, spec.firstElement(), expCtx->makeParseState());
//   Value v = expr->evaluate(doc, &expCtx->variables);
//
// Operators register a parser by name (REGISTER_EXPRESSION). Parse errors and
// evaluation errors throw (uassert) with upstream's codes: 168 unknown operator,
// 15983 operator object with more than one field, 16020/28667 wrong arity,
// 15998/16410/16411/16872 bad field paths, 17276 undefined variable.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/pipeline/value.h"

namespace mongo {

class Expression;
using ExprPtr = std::unique_ptr<Expression>;
using ExprVector = std::vector<ExprPtr>;

class Expression {
public:
    virtual ~Expression() = default;

    /** The value for `root` (the current document). Throws on type errors. */
    virtual Value evaluate(const BSONObj& root, Variables* vars) const = 0;
    /** Appends a re-parseable form of the expression under `name` (for explain). */
    virtual void serialize(BSONObjBuilder* b, StringData name) const = 0;
    /** True for a constant (the value does not depend on the document). */
    virtual bool isConstant() const {
        return false;
    }
    /** Adds the top-level field names this expression reads ("" when it reads $$ROOT). */
    virtual void addDependencies(std::vector<std::string>* fields) const {}

    /** Parses any operand: "$path", "$$var", {$op: ...}, {a: <expr>}, [..], or a literal. */
    static ExprPtr parseOperand(ExpressionContext* expCtx, const BSONElement& e,
                                const VariablesParseState& vps);
    /**
     * Parses `e` and evaluates it once, at parse time, when it reads nothing of the document
     * (no field, no $$ROOT/$$CURRENT): operators over constants and `let` variables. nullopt
     * when it reads the document; its evaluation errors are thrown. (A variable bound only
     * while documents flow, such as $$this, evaluates as missing here.)
     */
    static std::optional<Value> evaluateConstantOperand(ExpressionContext* expCtx,
                                                        const BSONElement& e,
                                                        const VariablesParseState& vps);
    /**
     * parseOperand() for the value of a computed projection field ($project, find): an unknown
     * operator naming the whole value ({a: {$nope: 1}}) is upstream's projection error 31325
     * (inside an expression it stays 168).
     */
    static ExprPtr parseProjectedOperand(ExpressionContext* expCtx, const BSONElement& e,
                                         const VariablesParseState& vps);
    /** Parses an object: an operator ({$op: args}) or an object literal of expressions. */
    static ExprPtr parseObject(ExpressionContext* expCtx, const BSONObj& obj,
                               const VariablesParseState& vps);
    /** Parses the arguments of an operator: an array, or one operand. */
    static ExprVector parseArguments(ExpressionContext* expCtx, const BSONElement& e,
                                     const VariablesParseState& vps);

    using Parser =
        std::function<ExprPtr(ExpressionContext*, const BSONElement&, const VariablesParseState&)>;
    static void registerParser(StringData name, Parser parser);
    static bool isRegistered(StringData name);
};

/** A literal. */
class ExpressionConstant final : public Expression {
public:
    explicit ExpressionConstant(Value v) : _value(v.getOwned()) {}
    Value evaluate(const BSONObj&, Variables*) const override {
        return _value;
    }
    void serialize(BSONObjBuilder* b, StringData name) const override;
    bool isConstant() const override {
        return true;
    }
    const Value& getValue() const {
        return _value;
    }

private:
    Value _value;
};

/** "$a.b" or "$$var.a.b". Arrays along the path are mapped over (no numeric indexing). */
class ExpressionFieldPath final : public Expression {
public:
    /** `path` is without the leading "$" (e.g. "a.b", or "$var.x" for "$$var.x"). */
    static std::unique_ptr<ExpressionFieldPath> parse(StringData raw,
                                                      const VariablesParseState& vps);
    ExpressionFieldPath(VariableId var, std::vector<std::string> parts, std::string raw)
        : _var(var), _parts(std::move(parts)), _raw(std::move(raw)) {}
    Value evaluate(const BSONObj& root, Variables* vars) const override;
    void serialize(BSONObjBuilder* b, StringData name) const override;
    void addDependencies(std::vector<std::string>* fields) const override;

    VariableId variable() const {
        return _var;
    }
    const std::vector<std::string>& parts() const {
        return _parts;
    }

private:
    VariableId _var;
    std::vector<std::string> _parts;
    std::string _raw;
};

/** {a: <expr>, b: {c: <expr>}}: builds a document; missing values are left out. */
class ExpressionObject final : public Expression {
public:
    ExpressionObject(std::vector<std::pair<std::string, ExprPtr>> fields)
        : _fields(std::move(fields)) {}
    Value evaluate(const BSONObj& root, Variables* vars) const override;
    void serialize(BSONObjBuilder* b, StringData name) const override;
    void addDependencies(std::vector<std::string>* fields) const override;
    /** Builds the fields into `b` (used by $replaceRoot and $group keys). */
    void buildInto(const BSONObj& root, Variables* vars, BSONObjBuilder* b) const;

private:
    std::vector<std::pair<std::string, ExprPtr>> _fields;
};

/** [<expr>, ...]: missing elements become null. */
class ExpressionArray final : public Expression {
public:
    explicit ExpressionArray(ExprVector elems) : _elems(std::move(elems)) {}
    Value evaluate(const BSONObj& root, Variables* vars) const override;
    void serialize(BSONObjBuilder* b, StringData name) const override;
    void addDependencies(std::vector<std::string>* fields) const override;

private:
    ExprVector _elems;
};

/** Values of evaluated operator arguments (small-buffer, no allocation for <= 4). */
using ValueArgs = absl::InlinedVector<Value, 4>;

/**
 * An operator whose arguments are all evaluated first and then combined by `fn`:
 * most arithmetic, comparison, string, array and type operators.
 */
class ExpressionNary final : public Expression {
public:
    using Fn = std::function<Value(const ValueArgs&)>;
    ExpressionNary(std::string name, ExprVector args, Fn fn)
        : _name(std::move(name)), _args(std::move(args)), _fn(std::move(fn)) {}
    Value evaluate(const BSONObj& root, Variables* vars) const override;
    void serialize(BSONObjBuilder* b, StringData name) const override;
    void addDependencies(std::vector<std::string>* fields) const override;

private:
    std::string _name;
    ExprVector _args;
    Fn _fn;
};

/** An operator evaluated by a custom function over the unevaluated argument trees. */
class ExpressionCustom final : public Expression {
public:
    using Fn = std::function<Value(const BSONObj& root, Variables* vars)>;
    ExpressionCustom(std::string name, BSONObj spec, ExprVector children, Fn fn)
        : _name(std::move(name)),
          _spec(spec.getOwned()),
          _children(std::move(children)),
          _fn(std::move(fn)) {}
    Value evaluate(const BSONObj& root, Variables* vars) const override {
        return _fn(root, vars);
    }
    void serialize(BSONObjBuilder* b, StringData name) const override;
    void addDependencies(std::vector<std::string>* fields) const override;
    /**
     * The children are the operator's arguments, in order ($and, $or): serialize prints
     * {name: [<each child serialized>]}, as for an eager operator, not the spec as given.
     */
    void setChildrenAreArguments() {
        _childrenAreArguments = true;
    }

private:
    std::string _name;
    BSONObj _spec;
    ExprVector _children;  // kept for dependency analysis
    Fn _fn;
    bool _childrenAreArguments = false;
};

/**
 * Registers an operator whose arguments are evaluated eagerly. `minArgs`/`maxArgs`
 * bound the arity (maxArgs < 0: unbounded).
 */
void registerNaryExpression(StringData name, int minArgs, int maxArgs, ExpressionNary::Fn fn);

/**
 * Like registerNaryExpression, for operators that compare values ($eq, $in, set
 * operators...): `fn` also gets the collation in force, read at each evaluation from
 * the ExpressionContext the expression was parsed with (null: simple).
 */
using CollatedNaryFn = std::function<Value(const ValueArgs&, const StringComparator*)>;
void registerCollatedNaryExpression(StringData name, int minArgs, int maxArgs, CollatedNaryFn fn);

/** Throws the upstream arity error for `name`. */
void checkArity(StringData name, size_t n, int minArgs, int maxArgs);

/**
 * While alive, $expr inside match expressions parsed on this thread binds to
 * `expCtx` (its variables, e.g. $lookup's `let`) instead of a fresh context.
 */
class ExprParseContextGuard {
public:
    explicit ExprParseContextGuard(std::shared_ptr<ExpressionContext> expCtx);
    ~ExprParseContextGuard();
    ExprParseContextGuard(const ExprParseContextGuard&) = delete;
    ExprParseContextGuard& operator=(const ExprParseContextGuard&) = delete;

private:
    std::shared_ptr<ExpressionContext> _prev;
};

/** Installs the matcher's $expr hook (idempotent; also done at start-up). */
void ensureExprMatchParserInstalled();

/**
 * Whether `spec` (a projection, sort or stage specification) names {$meta: "textScore"} at any
 * depth: whether what reads it needs the text scores of a $text query.
 */
bool mentionsTextScore(const BSONObj& spec);

}  // namespace mongo
