#include "mongo/db/commands/cursor_response.h"

#include <sstream>

#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {
constexpr int kMaxBatchBytes = BSONObjMaxUserSize;

/** A result document must fit a reply: BSONObjectTooLarge 10334 in upstream's words. */
void uassertResultFits(const BSONObj& doc) {
    if (doc.objsize() <= BSONObjMaxInternalSize) [[likely]]
        return;
    std::ostringstream hex;
    hex << std::hex << doc.objsize();
    BSONElement first = doc.firstElement();
    std::string firstStr = first.eoo() ? "" : first.toString(true);
    if (firstStr.size() > 100)
        firstStr = firstStr.substr(0, 100) + "...";
    uasserted(ErrorCodes::BSONObjectTooLarge,
              "BSONObj size: " + std::to_string(doc.objsize()) + " (0x" + hex.str() +
                  ") is invalid. Size must be between 0 and " +
                  std::to_string(BSONObjMaxInternalSize) + "(16MB) First element: " + firstStr);
}
}  // namespace

bool fillBatch(OperationContext* opCtx, ClientCursor* cursor, long long batchSize,
               BSONArrayBuilder* batch) {
    long long n = 0;
    int bytes = 0;
    bool exhausted = false;
    while (batchSize <= 0 || n < batchSize) {
        BSONObj doc;
        std::optional<RecordId> id;
        if (cursor->stash) {
            doc = std::move(*cursor->stash);
            id = cursor->stashRecordId;
            cursor->stash.reset();
            cursor->stashRecordId.reset();
        } else if (!cursor->source->next(opCtx, &doc)) {
            exhausted = true;
            break;
        } else {
            id = cursor->source->lastRecordId();
        }
        uassertResultFits(doc);
        if (n > 0 && bytes + doc.objsize() > kMaxBatchBytes) {
            cursor->stash = doc.getOwned();
            cursor->stashRecordId = id;
            break;
        }
        if (cursor->showRecordId && id) {
            BSONObjBuilder withId;
            withId.appendElements(doc);
            appendRecordId(&withId, "$recordId", *id, cursor->clusteredRecordIds);
            doc = withId.obj();
        }
        bytes += doc.objsize();
        batch->append(doc);
        if (id)
            cursor->lastReturnedRecordId = id;
        ++n;
    }
    if (!exhausted && !cursor->tailable && !cursor->stash) {
        BSONObj doc;
        if (cursor->source->next(opCtx, &doc)) {
            cursor->stash = doc.getOwned();
            cursor->stashRecordId = cursor->source->lastRecordId();
        } else {
            exhausted = true;
        }
    }
    cursor->nReturned += n;
    ++cursor->nBatchesReturned;
    return exhausted && (!cursor->tailable || cursor->source->finished());
}

void runBatchAndReply(OperationContext* opCtx, std::unique_ptr<ClientCursor> cursor,
                      long long batchSize, bool singleBatch, bool firstBatch,
                      BSONObjBuilder& result) {
    BSONObjBuilder cursorObj(result.subobjStart("cursor"));
    BSONArrayBuilder batch(cursorObj.subarrayStart(firstBatch ? "firstBatch" : "nextBatch"));
    // batchSize 0 on the first batch opens the cursor without reading anything.
    bool exhausted =
        (firstBatch && batchSize == 0) ? false : fillBatch(opCtx, cursor.get(), batchSize, &batch);
    batch.done();
    appendPostBatchResumeToken(*cursor, &cursorObj);
    long long id = 0;
    NamespaceString nss = cursor->nss;
    if (cursor->planSummary.empty())
        cursor->planSummary = opCtx->planSummary();
    if (!exhausted && !singleBatch) {
        auto* engine = opCtx->getServiceContext()->storageEngine;
        cursor->ru = opCtx->swapRecoveryUnit(engine ? engine->newRecoveryUnit() : nullptr);
        cursor->apiParameters = opCtx->apiParameters();
        id = opCtx->getServiceContext()->cursorManager->registerCursor(std::move(cursor));
    } else {
        cursor.reset();
    }
    cursorObj.append("id", id);
    cursorObj.append("ns", nss.ns());
}

void appendRecordId(BSONObjBuilder* b, StringData name, const RecordId& id, bool clustered) {
    if (!clustered) {
        b->append(name, static_cast<long long>(id.getLong()));
        return;
    }
    // A clustered collection's record ids are binary keys upstream: ours, 8 bytes big-endian,
    // in that shape (decodeRecordId reads them back).
    unsigned char bytes[8];
    const auto v = static_cast<unsigned long long>(id.getLong());
    for (int i = 0; i < 8; ++i)
        bytes[i] = static_cast<unsigned char>(v >> (8 * (7 - i)));
    b->appendBinData(name, 8, BinDataGeneral, bytes);
}

std::optional<RecordId> decodeRecordId(const BSONElement& e, bool clustered) {
    if (!clustered)
        return e.type() == BSONType::kNumberLong ? std::optional(RecordId(e.numberLong()))
                                                 : std::nullopt;
    int len = 0;
    const char* data = e.type() == BSONType::kBinData ? e.binData(len) : nullptr;
    if (!data || len != 8)
        return std::nullopt;
    unsigned long long v = 0;
    for (int i = 0; i < 8; ++i)
        v = (v << 8) | static_cast<unsigned char>(data[i]);
    return RecordId(static_cast<std::int64_t>(v));
}

void appendPostBatchResumeToken(const ClientCursor& cursor, BSONObjBuilder* cursorObj) {
    if (!cursor.requestResumeToken)
        return;
    BSONObjBuilder token(cursorObj->subobjStart("postBatchResumeToken"));
    if (!cursor.lastReturnedRecordId)
        token.appendNull("$recordId");
    else
        appendRecordId(&token, "$recordId", *cursor.lastReturnedRecordId,
                       cursor.clusteredRecordIds);
}

void appendSingleBatchCursor(const NamespaceString& nss, const std::vector<BSONObj>& docs,
                             BSONObjBuilder& result) {
    BSONObjBuilder cursorObj(result.subobjStart("cursor"));
    BSONArrayBuilder batch(cursorObj.subarrayStart("firstBatch"));
    for (const auto& d : docs)
        batch.append(d);
    batch.done();
    cursorObj.append("id", 0LL);
    cursorObj.append("ns", nss.ns());
}

}  // namespace mongo
