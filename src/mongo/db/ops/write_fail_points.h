// Upstream's "hang" fail points of the write commands (test-only, enableTestCommands): while
// one is on, the operation waits at its place, shown by currentOp with failpointMsg.
#pragma once

#include "mongo/util/fail_point.h"

namespace mongo {

class OperationContext;

/** The update command, after its statements ran. */
extern FailPoint hangAfterBatchUpdate;
/** A delete statement, once it ran (or failed), before it finishes; then before it is popped. */
extern FailPoint hangBeforeChildRemoveOpFinishes;
extern FailPoint hangBeforeChildRemoveOpIsPopped;

/**
 * Waits while `fp` is on (failpointMsg: its name), checking for interrupt every 10 ms; returns
 * at once when it is off. Throws the interrupt (Interrupted 11601, MaxTimeMSExpired 50...).
 */
void pauseWhileFailPointSet(OperationContext* opCtx, FailPoint& fp);

/**
 * Runs one delete statement `body`, then waits at hangBeforeChildRemoveOpFinishes and
 * hangBeforeChildRemoveOpIsPopped when they are on, also when `body` throws (rethrown after).
 */
template <typename Body>
void runChildRemoveOp(OperationContext* opCtx, Body&& body) {
    auto finish = [opCtx] {
        pauseWhileFailPointSet(opCtx, hangBeforeChildRemoveOpFinishes);
        pauseWhileFailPointSet(opCtx, hangBeforeChildRemoveOpIsPopped);
    };
    try {
        body();
    } catch (...) {
        finish();
        throw;
    }
    finish();
}

}  // namespace mongo
