// Pipeline-style updates: the `u: [{$set: ...}, {$unset: ...}]` of update, findAndModify and
// time-series measurement updates, parsed here (the update layer cannot reach the pipeline
// layer) into an UpdateDriver that runs the stages over each document it updates.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/update/update_driver.h"
#include "mongo/idl/write_ops_gen.h"

namespace mongo {

class CollatorInterface;
class OperationContext;

/** What the stages of an update pipeline see besides the document. */
struct UpdatePipelineContext {
    OperationContext* opCtx = nullptr;
    NamespaceString nss;
    /** The command's `let`: name -> expression, evaluated once. */
    BSONObj letVars;
    /** The statement's `c`: name -> constant value (never evaluated). */
    std::optional<BSONObj> constants;
    /** The collation in force (null: simple); copied. */
    const CollatorInterface* collator = nullptr;
};

/**
 * The driver of one statement's `u`. Documents go to UpdateDriver::parse (and `constants`
 * must be absent: 51198); arrays are pipelines of $addFields/$set, $project/$unset and
 * $replaceRoot/$replaceWith, whose variables are $$NOW, `let` and `c`. Errors: InvalidOptions
 * 72 (another stage), FailedToParse 9 (arrayFilters with a pipeline), the stage and variable
 * parse errors (40324, 17276, 16866...), and those of UpdateDriver::parse.
 */
UpdateDriver parseUpdateStatement(const std::variant<BSONObj, std::vector<BSONObj>>& u,
                                  const std::vector<BSONObj>& arrayFilters,
                                  const UpdatePipelineContext& ctx);

/**
 * parseUpdateStatement() for one statement of an update command, with its `c` as the
 * constants. `upsertSupplied: true` needs `upsert: true` and an object `c.new`
 * (FailedToParse 9 otherwise); an upsert then inserts `c.new`.
 */
UpdateDriver parseUpdateOpEntry(const UpdateOpEntry& stmt, UpdatePipelineContext ctx);

}  // namespace mongo
