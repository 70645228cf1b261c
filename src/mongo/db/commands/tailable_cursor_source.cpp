#include "mongo/db/commands/tailable_cursor_source.h"

#include <algorithm>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/cursor_response.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/storage/recovery_unit.h"

namespace mongo {

bool TailableCappedSource::next(OperationContext* opCtx, BSONObj* out) {
    if (_coll->isDropped() || finished())
        return false;
    if (!_cursor) {
        _cursor = _coll->recordStore()->getCursor(opCtx->recoveryUnit(), true);
        if (!_last.isNull())
            _cursor->seekExact(_last);  // next() continues after _last either way
    }
    _atEnd = false;
    while (auto rec = _cursor->next()) {
        _last = rec->id;
        if (_filter && !_filter->matchesBSON(rec->data))
            continue;
        if (_skip > 0) {
            --_skip;
            continue;
        }
        ++_returned;
        *out = _projection ? _projection(WorkingMember{rec->id, rec->data}) : std::move(rec->data);
        return true;
    }
    _cursor.reset();
    _atEnd = true;
    return false;
}

bool fillTailableBatch(OperationContext* opCtx, ClientCursor* cursor, long long batchSize,
                       BSONArrayBuilder* batch) {
    auto* source = dynamic_cast<TailableCappedSource*>(cursor->source.get());
    auto refresh = [&] {
        if (source)
            source->detach();
        opCtx->recoveryUnit()->abandonSnapshot();
    };
    refresh();
    long long before = cursor->nReturned;
    bool exhausted = fillBatch(opCtx, cursor, batchSize, batch);
    if (exhausted || !cursor->awaitData || cursor->nReturned > before)
        return exhausted;
    long long waitMs = opCtx->hasDeadline() ? opCtx->remainingMillis() : 1000;
    Date_t deadline = Date_t::now() + std::chrono::milliseconds(waitMs);
    auto* oplog = repl::LocalOplog::get();
    while (cursor->nReturned == before && Date_t::now() < deadline) {
        opCtx->checkForKill();  // killOp, hang-up, shutdown; the deadline just ends the wait
        unsigned long long gen = oplog->insertGeneration();
        // Standalone capped collections are not notified: re-check every 100 ms.
        oplog->waitForInsertAfter(
            gen, std::min(deadline, Date_t::now() + std::chrono::milliseconds(100)));
        refresh();
        exhausted = fillBatch(opCtx, cursor, batchSize, batch);
        if (exhausted)
            break;
    }
    return exhausted;
}

}  // namespace mongo
