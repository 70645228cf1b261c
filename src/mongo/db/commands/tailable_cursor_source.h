// TailableCappedSource: the cursor source of a tailable find on a capped
// collection (the oplog above all). It remembers the last RecordId returned and,
// when it reaches the end, releases its storage cursor, so a later getMore (on a
// fresh snapshot) continues with the records inserted since. awaitData waits
// use repl::LocalOplog's insert notifications (see awaitTailableData()).
#pragma once

#include <memory>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/cursor_manager.h"
#include "mongo/db/exec/plan_stage.h"
#include "mongo/db/storage/record_id.h"
#include "mongo/db/storage/record_store.h"

namespace mongo {

class Collection;
class MatchExpression;

class TailableCappedSource : public CursorSource {
public:
    /** `skip`: matching records dropped first; `limit`: the most returned (0: no limit). */
    TailableCappedSource(std::shared_ptr<Collection> coll, std::shared_ptr<MatchExpression> filter,
                         ProjectionFn projection, long long skip = 0, long long limit = 0)
        : _coll(std::move(coll)),
          _filter(std::move(filter)),
          _projection(std::move(projection)),
          _skip(skip),
          _limit(limit) {}

    bool next(OperationContext* opCtx, BSONObj* out) override;
    /**
     * The limit is used up, or the scan reached the end without a record to resume after
     * (the collection was empty): a tailable cursor there is dead, as upstream's.
     */
    bool finished() const override {
        return (_limit > 0 && _returned >= _limit) || (_atEnd && _last.isNull());
    }
    /** Releases the storage cursor (before the snapshot is abandoned). */
    void detach() {
        _cursor.reset();
    }

private:
    std::shared_ptr<Collection> _coll;
    std::shared_ptr<MatchExpression> _filter;
    ProjectionFn _projection;
    std::unique_ptr<RecordCursor> _cursor;
    RecordId _last;
    long long _skip;
    long long _limit;
    long long _returned = 0;
    bool _atEnd = false;  // the last next() found no more records
};

/**
 * For a getMore on a tailable cursor: starts a fresh snapshot, fills the batch,
 * and for awaitData cursors with nothing new waits (until the operation's
 * maxTimeMS, default 1 second) for inserts and tries again. Returns like fillBatch.
 */
bool fillTailableBatch(OperationContext* opCtx, ClientCursor* cursor, long long batchSize,
                       BSONArrayBuilder* batch);

}  // namespace mongo
