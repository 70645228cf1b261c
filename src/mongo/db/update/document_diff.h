// DocDiff: the `$v: 2` delta format of update oplog entries (spec
// bsoncolumn-and-docdiff.md Part B). computeDiff() produces a document diff that
// turns `pre` into `post`; applyDiff() applies one (sections d, u, i, b and
// s<field>, array diffs with a/l/u<i>/s<i>).
#pragma once

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace doc_diff {

/**
 * A document diff with applyDiff(pre, diff) == post (byte for byte). Empty ({})
 * when the documents are identical. A changed sub-document or array is written as
 * a nested diff only when that is smaller than its new value. Cost: O(|pre|+|post|).
 */
BSONObj computeDiff(const BSONObj& pre, const BSONObj& post);

/**
 * Applies a document diff. Errors: FailedToParse (9) for a malformed diff (bad
 * section name, order or type), 4728000 for a duplicate field name, BadValue for a
 * `b` entry on a missing or non-BinData field or with an offset past its end.
 */
StatusWith<BSONObj> applyDiff(const BSONObj& pre, const BSONObj& diff);

/** {$v: 2, diff: <diff>}: the `o` of an update oplog entry. */
BSONObj makeUpdateOplogObject(const BSONObj& diff);

}  // namespace doc_diff
}  // namespace mongo
