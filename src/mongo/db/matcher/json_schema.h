// $jsonSchema: a MatchExpression that validates a whole document against a JSON
// Schema (draft 4 subset with MongoDB's bsonType). Supported keywords: bsonType,
// type, properties, required, additionalProperties, minProperties, maxProperties,
// minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength,
// pattern, enum, items, minItems, maxItems, uniqueItems, allOf, anyOf, oneOf, not,
// title, description. Keywords that do not apply to a value's type pass.
#pragma once

#include <memory>

#include "mongo/base/status.h"
#include "mongo/db/matcher/expression.h"

namespace mongo {

/**
 * Parses the argument of $jsonSchema. FailedToParse (9) for an unknown keyword or
 * an unsupported one ("integer" type, $ref), TypeMismatch (14) for a keyword of the
 * wrong type, BadValue for an unknown bsonType alias.
 */
StatusWith<std::unique_ptr<MatchExpression>> parseJsonSchema(const BSONElement& schema);

}  // namespace mongo
