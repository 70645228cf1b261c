#include "mongo/db/ops/write_fail_points.h"

#include <chrono>
#include <thread>

#include "mongo/db/operation_context.h"

namespace mongo {

MONGO_FAIL_POINT_DEFINE(hangAfterBatchUpdate)
MONGO_FAIL_POINT_DEFINE(hangBeforeChildRemoveOpFinishes)
MONGO_FAIL_POINT_DEFINE(hangBeforeChildRemoveOpIsPopped)

void pauseWhileFailPointSet(OperationContext* opCtx, FailPoint& fp) {
    if (!fp.maybeActive() || !fp.evaluate())
        return;
    opCtx->setFailPointMsg(fp.name());
    struct Clear {
        OperationContext* opCtx;
        ~Clear() {
            opCtx->setFailPointMsg("");
        }
    } clear{opCtx};
    while (fp.maybeActive() && fp.evaluate()) {
        opCtx->checkForInterrupt();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

}  // namespace mongo
