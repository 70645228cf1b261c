#include "mongo/db/repl/retryable_write_scope.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/transaction_table.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/fail_point.h"

namespace mongo {

// Upstream's test fail point for retryable writes: data {closeConnection: bool (default
// true), failBeforeCommitExceptionCode: int}. Evaluated once per logged retryable write,
// inside its unit of work: the connection is closed after the write commits, without a
// reply, or the write fails with the given code and is rolled back.
MONGO_FAIL_POINT_DEFINE(onPrimaryTransactionalWrite)

namespace repl {

namespace {
thread_local RetryableWriteScope* tlScope = nullptr;

void evaluateOnPrimaryTransactionalWrite() {
    auto data = onPrimaryTransactionalWrite.evaluate();
    if (!data)
        return;
    BSONObj d =
        data->empty() ? BSONObj() : BSONObj::copyFrom(data->data(), static_cast<int>(data->size()));
    BSONElement close = d["closeConnection"];
    if (close.eoo() || close.trueValue()) {
        LOGV2(20431, "Closing the connection after a retryable write (onPrimaryTransactionalWrite)",
              BSONObj());
        requestConnectionClose();
    }
    BSONElement code = d["failBeforeCommitExceptionCode"];
    if (code.isNumber())
        uasserted(static_cast<int>(code.numberLong()),
                  "Failing write for test due to failpoint onPrimaryTransactionalWrite");
}

}  // namespace

RetryableWriteScope::RetryableWriteScope(std::vector<Owner> owners, Mode mode)
    : _owners(std::move(owners)), _mode(mode) {
    invariant(!tlScope);
    tlScope = this;
}

RetryableWriteScope::~RetryableWriteScope() {
    tlScope = nullptr;
}

RetryableWriteScope* RetryableWriteScope::current() {
    return tlScope;
}

OpTime RetryableWriteScope::logStamped(OperationContext* opCtx, OplogEntryParams params,
                                       const BSONObj* preImage, const BSONObj* postImage) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    auto* table = TransactionTable::get();
    Progress& p = *_progress;
    if (_owners.empty() || (_mode == Mode::kAllOnFirstEntry && p.allLogged))
        return LocalOplog::get()->logOp(opCtx, params);

    const bool firstInUnit = p.next == 0;
    if (firstInUnit) {
        // A unit of work that rolls back is retried from the same position.
        auto reset = [progress = _progress] { *progress = Progress(); };
        ru->onCommitOrRollback(reset, reset);
    }

    Owner& first = _owners.front();
    if (_mode == Mode::kOnePerEntry) {
        size_t i = std::min(p.next, first.stmtIds.size() - 1);
        params.stmtIds = {first.stmtIds[i]};
    } else {
        params.stmtIds = first.stmtIds;
    }
    params.lsid = first.session->lsid();
    params.txnNumber = first.txnNumber;
    params.prevOpTime = first.session->chainHead(first.txnNumber);
    const BSONObj* image = nullptr;
    if (_image == Image::kPreImage && preImage) {
        params.needsRetryImage = "preImage";
        image = preImage;
    } else if (_image == Image::kPostImage && postImage) {
        params.needsRetryImage = "postImage";
        image = postImage;
    }

    Date_t wall;
    OpTime opTime = LocalOplog::get()->logOp(opCtx, params, &wall);
    table->recordWrite(opCtx, first.session, first.txnNumber, params.stmtIds, opTime, wall);
    if (image)
        table->writeImage(opCtx, first.session, first.txnNumber, opTime.ts, params.needsRetryImage,
                          *image);
    ++p.next;

    if (_mode == Mode::kAllOnFirstEntry) {
        p.allLogged = true;
        for (size_t k = 1; k < _owners.size(); ++k) {
            const Owner& o = _owners[k];
            OplogEntryParams noop;
            noop.opType = 'n';
            noop.ns = params.ns;
            noop.uuid = params.uuid;
            noop.o = BSON("msg"
                          << "retryable write in a shared time-series bucket write");
            noop.o2 = BSON("ts" << opTime.ts);
            noop.lsid = o.session->lsid();
            noop.txnNumber = o.txnNumber;
            noop.stmtIds = o.stmtIds;
            noop.prevOpTime = o.session->chainHead(o.txnNumber);
            Date_t w;
            OpTime t = LocalOplog::get()->logOp(opCtx, noop, &w);
            table->recordWrite(opCtx, o.session, o.txnNumber, o.stmtIds, t, w);
        }
    }
    // Once per storage transaction, as upstream (an insert batch triggers it once).
    if (firstInUnit)
        evaluateOnPrimaryTransactionalWrite();
    return opTime;
}

}  // namespace repl
}  // namespace mongo
