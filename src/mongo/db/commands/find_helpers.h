// Turning the query arguments shared by find, count, distinct, delete, update and
// findAndModify (filter, sort, projection, hint) into planner parameters, with
// the parse errors of each part.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/exec/planner.h"

namespace mongo {

using HintArg = std::optional<std::variant<std::string, BSONObj>>;

/** Throws the parse error (BadValue 2 and friends) of a bad filter, sort or projection. */
FindPlanParams makeFindParams(const BSONObj& filter, const BSONObj& sort,
                              const BSONObj& projection, const HintArg& hint);

}  // namespace mongo
