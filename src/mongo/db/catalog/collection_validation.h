// Collection validation (the `validate` command's checks): every record is well-formed BSON
// and passes the collection's validator, every index holds exactly the keys its documents
// generate (no missing, no extra entries), and the fast count agrees with the records.
// Callers add kind-specific record checks (time-series buckets) through ValidateOptions.
#pragma once

#include <functional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

class Collection;
class OperationContext;

struct ValidateOptions {
    /** {full: true}: the same checks here (WiredTiger verify is not run); kept for the reply. */
    bool full = false;
    /** Records must also hold valid UTF-8 strings (checkBSONConformance). */
    bool checkBSONConformance = false;
    /** A fast count that disagrees with the records is an error (else only repaired stats). */
    bool enforceFastCount = false;
    /**
     * Extra check of each well-formed record that passed the validator: an error makes it
     * non-compliant (nNonCompliantDocuments) and adds `recordCheckWarning` once to warnings.
     */
    std::function<Status(const BSONObj& record)> recordCheck;
    std::string recordCheckWarning;
};

/** Warnings and errors text as upstream reports them. */
constexpr StringData kBSONNonConformantWarning =
    "Detected one or more documents in this collection not conformant to BSON specifications. "
    "For more info, see logs with log id 6825900";
constexpr StringData kSchemaValidationFailedWarning =
    "Detected one or more documents not compliant with the collection's schema. Check logs for "
    "log id 5363500.";
constexpr StringData kInvalidDocumentsError = "Detected one or more invalid documents. See logs.";

/**
 * Validates `coll` and appends nInvalidDocuments, nNonCompliantDocuments, nrecords, nIndexes,
 * keysPerIndex, indexDetails, valid, repaired, warnings, errors, extraIndexEntries,
 * missingIndexEntries, corruptRecords to `out`; returns `valid`. Each problem is also logged.
 * REQUIRES: the caller holds coll.lock() shared (no index change or drop meanwhile). Records
 * and index entries are read in the operation's one storage snapshot, so concurrent writes
 * do not show as inconsistencies. Throws only interruption (checked every record and entry).
 * Cost: reads every record and index entry; memory O(total index keys).
 */
bool validateCollection(OperationContext* opCtx, const Collection& coll,
                        const ValidateOptions& options, BSONObjBuilder* out);

}  // namespace mongo
