// {$_testApiVersion: {unstable: true} | {deprecated: true}}: a test expression (it exists only
// with enableTestCommands) that stands for an expression outside API Version 1 (unstable:
// refused under apiStrict, 323) or deprecated in it (refused under apiDeprecationErrors, 324).
// It evaluates to 1.
#include "mongo/db/api_parameters.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

ExprPtr parseTestApiVersion(ExpressionContext* expCtx, const BSONElement& e,
                            const VariablesParseState&) {
    uassert(ErrorCodes::InvalidPipelineOperator, "Unrecognized expression '$_testApiVersion'",
            gEnableTestCommands.load());
    uassert(5161700, "$_testApiVersion only supports an object as its argument",
            e.type() == BSONType::kObject);
    bool unstable = false, deprecated = false;
    for (BSONElement f : e.embeddedObject()) {
        StringData name = f.fieldNameStringData();
        uassert(5161701, "Unrecognized option to $_testApiVersion: " + std::string(name),
                name == "unstable" || name == "deprecated");
        uassert(5161702, "$_testApiVersion's options must be booleans",
                f.type() == BSONType::kBool);
        (name == "unstable" ? unstable : deprecated) = f.boolean();
    }
    const OperationContext* opCtx = expCtx->opCtx;
    if (unstable)
        uassertAllowedWithAPIStrict(opCtx, "$_testApiVersion with unstable: true");
    uassert(ErrorCodes::APIDeprecationError,
            "$_testApiVersion with deprecated: true is deprecated in API Version 1",
            !deprecated || !opCtx || !opCtx->apiParameters().wantsDeprecationErrors());
    return std::make_unique<ExpressionConstant>(Value(1));
}

const bool kRegistered = [] {
    Expression::registerParser("$_testApiVersion", parseTestApiVersion);
    return true;
}();

}  // namespace
}  // namespace mongo
