// Applying oplog entries to this node's data: the engine of the applyOps command
// and of the replay test (one server's oplog applied to another must give equal
// dbHash). CRUD entries (i, u, d) are applied here; command entries (c) are
// handed to a caller-supplied runner (the command layer owns the DDL commands).
//
// Idempotency follows upstream's applyOps: an insert of an existing _id replaces
// the document, a delete of a missing document succeeds.
#pragma once

#include <functional>
#include <optional>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/storage/record_id.h"

namespace mongo {

class Collection;
class OperationContext;

namespace repl {

struct FoundDocument {
    RecordId id;
    BSONObj doc;
};

/**
 * The document of `coll` whose _id equals `idElem` (through the _id index, else a scan),
 * read in the caller's snapshot. REQUIRES: the caller holds the collection.
 */
std::optional<FoundDocument> findDocumentById(OperationContext* opCtx, Collection* coll,
                                              BSONElement idElem);

struct ApplyOpsOptions {
    /** A replacement update of a missing document inserts it (upstream default: true). */
    bool alwaysUpsert = true;
    /** Runs a command entry's `o` against database `db`; throws on failure. */
    std::function<void(OperationContext*, StringData db, const BSONObj& cmd)> runCommand;
};

/**
 * Applies one oplog entry. Errors: FailedToParse 9 for a malformed entry (missing
 * op/ns/o, o2 without _id for an update), BadValue 2 for an unknown op type,
 * UpdateOperationFailed 218 for a delta update of a missing document, any error
 * of the diff applier or of the storage layer. Each CRUD entry is applied in its
 * own unit of work (write conflicts retried).
 */
Status applyOplogEntry(OperationContext* opCtx, const BSONObj& entry,
                       const ApplyOpsOptions& options);

}  // namespace repl
}  // namespace mongo
