// Builds collators from the `collation` documents users pass to commands and that
// catalogs store (ICU underneath; see collator_icu.cpp and README.md).
#pragma once

#include <memory>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/query/collation/collator_interface.h"

namespace mongo {

/**
 * Parses and validates a collation document. Returns null for the simple
 * collation ({locale: "simple"}). Errors carry upstream's codes and messages
 * (unknown field or wrong type: FailedToParse / TypeMismatch; bad values and
 * unsupported locales: BadValue).
 */
StatusWith<std::unique_ptr<CollatorInterface>> makeCollator(const BSONObj& spec);

/**
 * The collator of an element that holds a collation document (a command's
 * `collation` field, an index spec's, a collection option's). Fails when the
 * element is not an object (TypeMismatch, as upstream's parsers do).
 */
StatusWith<std::unique_ptr<CollatorInterface>> makeCollatorFromElement(const BSONElement& e);

}  // namespace mongo
