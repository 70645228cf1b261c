// Pure rules the planner uses to decide whether an index may answer a query:
// does the query filter imply a partial index's filter, does it guarantee that a
// sparse index holds every matching document, and can an index scan produce the
// requested sort order. They look only at BSON (filter, key pattern, sort spec),
// so they are tested without a server (unittests/mongo/db/exec/).
//
// The rules are conservative: "false"/"no" means "not proven", and the planner then
// simply does not use the index for that purpose.
#pragma once

#include <set>
#include <string>

#include "mongo/base/string_data.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {
class CollatorInterface;
}

namespace mongo::index_selection {

/**
 * Whether a comparison with `value` may bound an index with `indexCollator` for a query
 * with `queryCollator` (null: simple). Values that hold no strings compare the same under
 * every collation, so they always may; a String, Symbol, object or array (the contents
 * are not inspected, as upstream) only when the two collations match.
 */
bool valueUsableForBounds(const BSONElement& value, const CollatorInterface* indexCollator,
                          const CollatorInterface* queryCollator);

/** Whether an index with `indexCollator` may give the order of a query sort (same collation). */
bool collationAllowsSort(const CollatorInterface* indexCollator,
                         const CollatorInterface* queryCollator);

/**
 * True when every document matching `filter` also matches `partialFilter` (so a partial
 * index with that filter holds all results). Rules: each top-level conjunct of
 * `partialFilter` (fields and `$and` members) must be implied by one conjunct of `filter`
 * (its top level and nested `$and`s): the identical predicate; an equality or range whose
 * value lies inside the partial filter's range (same canonical type); `$exists: true` by
 * any equality/range on a non-null value of the same path. Anything else is not implied.
 * Cost: O(|filter| * |partialFilter|).
 */
bool filterImpliesPartialFilter(const BSONObj& filter, const BSONObj& partialFilter);

/**
 * True when every document matching `filter` has a field at `path` (so a sparse index on
 * `path` holds it): `filter` has, at its top level or in an `$and`, `{$exists: true}`,
 * `$type`, or an equality/range/`$in` on `path` whose values are not null, undefined,
 * MinKey or MaxKey.
 */
bool filterRequiresPath(const BSONObj& filter, StringData path);

/**
 * The direction (1 forward, -1 backward) in which scanning an index with `keyPattern`
 * returns documents in `sort` order, or 0 when no direction does. `pointFields` are the
 * index fields bound to a single value by the scan's bounds (equalities of the leading
 * key fields): they are constant over the scan, so a sort key on them is ignored and
 * they may be skipped in the key pattern. Sort keys must otherwise follow the key
 * pattern in order, all with the key's direction or all with the opposite one.
 * `$natural` and `{$meta: ...}` sort keys, and non-numeric key patterns ("hashed",
 * "text", ...) are never provided.
 */
int providedSortDirection(const BSONObj& keyPattern, const std::set<std::string>& pointFields,
                          const BSONObj& sort);

/**
 * The literal prefix every string matching the regex `pattern` with `flags` starts with, for
 * index bounds: `["<prefix>", "<prefix + 1>")`. Empty when there is none to use: the pattern is
 * not anchored by `^` (or `\A`), flag `i` is given, `m` with `^` (it also matches after a
 * newline), or an alternation `|` appears. The prefix stops at the first metacharacter
 * (`.`, `[`, `(`, `$`, `+`, ...), and a character made optional by `?`, `*` or `{` is
 * dropped; `\Q...\E` quotes literally, a backslash before a punctuation character escapes
 * it, and one before a letter or digit (a class such as `\d`) ends the prefix. Flag `x`
 * ignores unescaped whitespace and ends the prefix at a `#` comment.
 */
std::string regexPrefix(StringData pattern, StringData flags);

/**
 * The smallest string greater than every string starting with `prefix`: the prefix with its
 * last byte below 0xFF incremented and what follows dropped; empty when there is none (the
 * bound is then the end of strings).
 */
std::string regexPrefixUpperBound(const std::string& prefix);

}  // namespace mongo::index_selection
