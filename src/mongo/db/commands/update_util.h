// The update path shared by the update and findAndModify commands: applying an
// UpdateDriver (pipeline/update_pipeline.h parses it) to the documents a query selects (one
// or all), and upserts.
#pragma once

#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/commands/find_helpers.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class Collection;
class FindAndModifyCommandRequest;
class OperationContext;
class UpdateDriver;

/**
 * findAndModify's option rules, for the command and its explain: an update or remove=true, not
 * both, and neither upsert nor new with remove (FailedToParse).
 */
void checkFindAndModifyOptions(const FindAndModifyCommandRequest& cmd);

struct UpdateOutcome {
    long long matched = 0;
    long long modified = 0;
    std::optional<BSONObj> upsertedId;  // {_id: ...} wrapped
    std::optional<BSONObj> preImage;    // of the first document (findAndModify)
    std::optional<BSONObj> postImage;
    std::optional<double> textScore;  // of the first document, under a $text query
};

/**
 * Applies `driver` to the documents matching `params` (all when `multi`, else the
 * first in `params`' order), inserting a new document when none matched and
 * `upsert`. Runs in one unit of work; write conflicts retry the whole statement.
 * Errors are thrown (ImmutableField 66, DuplicateKey 11000, ...).
 */
UpdateOutcome performUpdate(OperationContext* opCtx, const NamespaceString& nss,
                            const FindPlanParams& params, const UpdateDriver& driver, bool multi,
                            bool upsert);

/**
 * Deletes the first document matching `params`; returns it (or nothing), and its text score in
 * `*textScore` (when given) under a $text query.
 */
std::optional<BSONObj> performDeleteOne(OperationContext* opCtx, const NamespaceString& nss,
                                        const FindPlanParams& params,
                                        std::optional<double>* textScore = nullptr);

}  // namespace mongo
