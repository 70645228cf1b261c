// Turning the query arguments shared by find, count, distinct, delete, update and
// findAndModify (filter, sort, projection, hint) into planner parameters, with
// the parse errors of each part.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/query/projection.h"

namespace mongo {

class OperationContext;

using HintArg = std::optional<std::variant<std::string, BSONObj>>;

/** What the aggregation expressions of a projection see: the operation, namespace, `let`. */
struct FindExpressionContext {
    OperationContext* opCtx = nullptr;
    NamespaceString nss;
    BSONObj letVars;  // the command's `let`: name -> expression, evaluated once
};

/**
 * Throws the parse error (BadValue 2 and friends) of a bad filter, sort or projection.
 * Computed projection fields are aggregation expressions evaluated in `exprCtx`.
 */
FindPlanParams makeFindParams(const BSONObj& filter, const BSONObj& sort,
                              const BSONObj& projection, const HintArg& hint,
                              const FindExpressionContext& exprCtx = {});

/**
 * Parses a find projection whose computed fields ({x: {$add: ["$a", 1]}}, "$$ROOT",
 * `let` variables, $$NOW) use the aggregation expression engine. Throws the parse
 * errors of Projection::parse, the expression errors (InvalidPipelineOperator 168,
 * 17276 undefined variable...) and those of the `let` variables.
 */
Projection parseFindProjection(const BSONObj& spec, const FindExpressionContext& exprCtx);

}  // namespace mongo
