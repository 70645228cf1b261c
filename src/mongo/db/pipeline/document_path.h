// Helpers for reading and replacing a dotted path in a document without array
// traversal (the semantics of $unwind's path and of $setWindowFields/$densify
// output fields).
#pragma once

#include <string>
#include <vector>

#include "mongo/db/pipeline/value.h"

namespace mongo {

/** Splits "a.b.c". Throws 15998/16410 for empty or '$'-prefixed components. */
std::vector<std::string> splitFieldPath(StringData dotted);

/** The value at `parts` (objects only; arrays are not entered); missing if absent. */
Value getNestedField(const BSONObj& doc, const std::vector<std::string>& parts);

/**
 * A copy of `doc` with the value at `parts` replaced by `v` (missing: removed).
 * Intermediate non-objects are replaced by objects; new fields go at the end.
 */
BSONObj setNestedField(const BSONObj& doc, const std::vector<std::string>& parts, const Value& v,
                       size_t depth = 0);

}  // namespace mongo
