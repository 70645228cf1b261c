// Helpers shared by the commands that return cursors (find, aggregate, getMore,
// listCollections, listIndexes): batching rules and the reply shape
// {cursor: {firstBatch|nextBatch: [...], id, ns}}.
#pragma once

#include <memory>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/cursor_manager.h"
#include "mongo/db/exec/plan_stage.h"

namespace mongo {

class OperationContext;

/** A cursor source over a PlanExecutor. */
class ExecutorCursorSource : public CursorSource {
public:
    explicit ExecutorCursorSource(std::unique_ptr<PlanExecutor> exec) : _exec(std::move(exec)) {}
    bool next(OperationContext* opCtx, BSONObj* out) override {
        return _exec->getNext(opCtx, out, &_lastId);
    }
    std::optional<RecordId> lastRecordId() const override {
        return _lastId.isNull() ? std::nullopt : std::optional<RecordId>(_lastId);
    }
    PlanExecutor* executor() const {
        return _exec.get();
    }

private:
    std::unique_ptr<PlanExecutor> _exec;
    RecordId _lastId;
};

/** A cursor source over documents computed up front (listCollections, listIndexes...). */
class VectorCursorSource : public CursorSource {
public:
    explicit VectorCursorSource(std::vector<BSONObj> docs) : _docs(std::move(docs)) {}
    bool next(OperationContext*, BSONObj* out) override {
        if (_pos >= _docs.size())
            return false;
        *out = _docs[_pos++];
        return true;
    }

private:
    std::vector<BSONObj> _docs;
    size_t _pos = 0;
};

/**
 * Appends up to `batchSize` documents (all when <= 0; at most ~16 MB) from `cursor`
 * to `batch`. Returns true when the cursor is exhausted (a non-tailable cursor looks
 * one document ahead so that it reports exhaustion as early as upstream does).
 */
bool fillBatch(OperationContext* opCtx, ClientCursor* cursor, long long batchSize,
               BSONArrayBuilder* batch);

/**
 * Fills one batch from `cursor` (at most `batchSize` documents when > 0, none for a
 * first batch of size 0, all when < 0; and about 16 MB), then either registers the cursor (if more
 * may come and !singleBatch) or destroys it, and appends {cursor: {<batchField>, id, ns}} to
 * `result`. `opCtx`'s RecoveryUnit moves into a registered cursor.
 */
void runBatchAndReply(OperationContext* opCtx, std::unique_ptr<ClientCursor> cursor,
                      long long batchSize, bool singleBatch, bool firstBatch,
                      BSONObjBuilder& result);

/**
 * Appends record id `id` as `name`: a NumberLong, or for a clustered collection BinData of 8
 * bytes (big-endian), the shapes of upstream's record ids (showRecordId, resume tokens).
 */
void appendRecordId(BSONObjBuilder* b, StringData name, const RecordId& id, bool clustered);

/** The record id appendRecordId() encoded as `e`; nullopt when `e` has another shape. */
std::optional<RecordId> decodeRecordId(const BSONElement& e, bool clustered);

/** Appends postBatchResumeToken to a cursor reply when `cursor` requested resume tokens. */
void appendPostBatchResumeToken(const ClientCursor& cursor, BSONObjBuilder* cursorObj);

/** Appends {cursor: {firstBatch: docs, id: 0, ns}}. */
void appendSingleBatchCursor(const NamespaceString& nss, const std::vector<BSONObj>& docs,
                             BSONObjBuilder& result);

}  // namespace mongo
