// Which top-level measurement fields the rest of a pipeline needs, found from the
// serialized specs of the stages that follow $_internalUnpackBucket. It lets the
// unpack stage decompress only those columns (its `include` list).
//
// Understood stages: $match, $sort, $_internalBoundedSort, $limit, $skip, $addFields/$set (pass
// through, adding what they read), $group, $count, $project (inclusion), $replaceRoot,
// $replaceWith, $sortByCount, $bucket (replace the document: analysis ends).
// Anything else, or any "$$" variable reference, means "every field".
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

/** The needed fields, or nullopt when the whole measurement may be needed. */
std::optional<std::set<std::string>> neededTopLevelFields(const std::vector<BSONObj>& stages);

/** Top-level fields a match filter reads (nullopt when it reads whole documents). */
std::optional<std::set<std::string>> matchFilterFields(const BSONObj& filter);

/**
 * Whether the operator `op` ({$getField: ...} member) reads the current document without a
 * "$path" string saying so: $getField without `input` reads $$CURRENT. Serialized-expression
 * walkers must treat it as reading every field.
 */
bool readsCurrentDocumentImplicitly(const BSONElement& op);

}  // namespace mongo
