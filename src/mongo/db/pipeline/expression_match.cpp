// $expr in match expressions: installs the matcher's $expr hook so that find
// filters and $match stages can use aggregation expressions.
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class ExprMatchExpression final : public MatchExpression {
public:
    ExprMatchExpression(std::shared_ptr<ExpressionContext> expCtx, ExprPtr expr)
        : MatchExpression(MatchType::kInternalExpr),
          _expCtx(std::move(expCtx)),
          _expr(std::move(expr)) {}

    bool matches(const BSONObj& doc, MatchDetails*) const override {
        Variables vars = _expCtx->variables;  // per call: matching may run on several threads
        return _expr->evaluate(doc, &vars).coerceToBool();
    }
    /** The parsed expression, as upstream prints it: constants as {$const: ...}. */
    void serialize(BSONObjBuilder* out) const override {
        _expr->serialize(out, "$expr");
    }
    /** The aggregation expression compares with the collation too (e.g. a find's). */
    void setCollator(const CollatorInterface* collator) override {
        MatchExpression::setCollator(collator);
        if (!CollatorInterface::collatorsMatch(_expCtx->getCollator(), collator))
            _expCtx->setCollator(CollatorInterface::cloneCollator(collator));
    }

private:
    std::shared_ptr<ExpressionContext> _expCtx;
    ExprPtr _expr;
};

thread_local std::shared_ptr<ExpressionContext> tlsExpCtx;

StatusWith<std::unique_ptr<MatchExpression>> parseExpr(const BSONElement& e) {
    try {
        auto expCtx =
            tlsExpCtx ? tlsExpCtx : std::make_shared<ExpressionContext>(nullptr, NamespaceString());
        auto expr = Expression::parseOperand(expCtx.get(), e, expCtx->makeParseState());
        // A truthy constant ({$expr: true}, {$expr: "foo"}) matches everything: upstream
        // optimises it away, and explain shows no filter for it.
        if (auto* c = dynamic_cast<const ExpressionConstant*>(expr.get());
            c && c->getValue().coerceToBool())
            return std::unique_ptr<MatchExpression>(
                std::make_unique<ConstantMatchExpression>(true));
        return std::unique_ptr<MatchExpression>(
            std::make_unique<ExprMatchExpression>(expCtx, std::move(expr)));
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
}

const bool kInstalled = [] {
    setExprMatchParser(parseExpr);
    return true;
}();

}  // namespace

ExprParseContextGuard::ExprParseContextGuard(std::shared_ptr<ExpressionContext> expCtx)
    : _prev(std::move(tlsExpCtx)) {
    tlsExpCtx = std::move(expCtx);
}

ExprParseContextGuard::~ExprParseContextGuard() {
    tlsExpCtx = std::move(_prev);
}

void ensureExprMatchParserInstalled() {
    static const bool once = [] {
        setExprMatchParser(parseExpr);
        return true;
    }();
    (void)once;
    (void)kInstalled;
}

}  // namespace mongo
