// $currentOp: the first stage of an {aggregate: 1} on admin; returns one document per
// operation (and, on request, per idle connection or idle cursor) of this mongod. The
// operations are known to the db layer above, which installs the reporter at start-up
// (setCurrentOpReporter); this layer only parses the options and calls it.
#pragma once

#include <functional>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class OperationContext;

/** The options of {$currentOp: {...}} (upstream names and defaults). */
struct CurrentOpOptions {
    bool allUsers = false;
    bool idleConnections = false;
    bool idleCursors = false;
    bool idleSessions = true;
    bool localOps = false;
    bool truncateOps = false;  // commands over 1000 bytes become {$truncated: "..."}
    bool backtrace = false;
    bool targetAllNodes = false;
};

/** Produces the $currentOp documents as seen by `opCtx`'s operation. */
using CurrentOpReporter =
    std::function<std::vector<BSONObj>(OperationContext* opCtx, const CurrentOpOptions&)>;

/** Installs the reporter (the db layer does it once, at static-initialisation time). */
void setCurrentOpReporter(CurrentOpReporter reporter);

}  // namespace mongo
