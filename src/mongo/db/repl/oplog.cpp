#include "mongo/db/repl/oplog.h"

#include <sys/statvfs.h>

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace repl {

namespace {
constexpr long long kMB = 1024 * 1024;
constexpr long long kMinOplogBytes = 990 * kMB;
constexpr long long kMaxOplogBytes = 50LL * 1024 * kMB;
// Entries removed per write at most when the oplog is over its size.
constexpr int kMaxTruncatePerWrite = 16;
}  // namespace

const NamespaceString& oplogNss() {
    static const NamespaceString nss("local", "oplog.rs");
    return nss;
}

long long defaultOplogSizeBytes(const std::string& dbpath) {
    struct statvfs st;
    long long fivePercent = 0;
    if (::statvfs(dbpath.c_str(), &st) == 0)
        fivePercent = static_cast<long long>(st.f_bavail) * st.f_frsize / 20;
    return std::clamp(fivePercent, kMinOplogBytes, kMaxOplogBytes);
}

BSONObj makeOplogEntry(const OplogEntryParams& p, const OpTime& opTime, Date_t wall) {
    BSONObjBuilder b;
    const bool retryable = !p.lsid.isEmpty();
    if (retryable) {
        b.append("lsid", p.lsid);
        b.append("txnNumber", p.txnNumber);
    }
    b.append("op", StringData(&p.opType, 1));
    b.append("ns", p.ns);
    if (!p.uuid.empty())
        b.appendBinData("ui", static_cast<int>(p.uuid.size()), newUUID, p.uuid.data());
    b.append("o", p.o);
    if (!p.o2.isEmpty())
        b.append("o2", p.o2);
    if (retryable) {
        if (!p.needsRetryImage.empty())
            b.append("needsRetryImage", p.needsRetryImage);
        if (p.stmtIds.size() == 1) {
            b.append("stmtId", p.stmtIds[0]);
        } else if (!p.stmtIds.empty()) {
            BSONArrayBuilder ids(b.subarrayStart("stmtId"));
            for (int id : p.stmtIds)
                ids.append(id);
        }
    }
    b.append("ts", opTime.ts);
    b.append("t", opTime.term);
    b.append("v", 2LL);
    b.append("wall", wall);
    if (retryable)
        b.append("prevOpTime", p.prevOpTime.toBSON());
    return b.obj();
}

LocalOplog* LocalOplog::get() {
    static LocalOplog instance;
    return &instance;
}

Status LocalOplog::createOrOpen(OperationContext* opCtx) {
    CollectionCatalog* catalog = opCtx->getServiceContext()->catalog;
    auto coll = catalog->lookup(oplogNss());
    if (!coll) {
        BSONObj options =
            BSON("capped" << true << "size" << _maxSizeBytes.load() << "autoIndexId" << false);
        auto sw = catalog->createCollection(opCtx, oplogNss(), options);
        if (!sw.isOK() && sw.getStatus().code() != ErrorCodes::NamespaceExists)
            return sw.getStatus();
        coll = catalog->lookup(oplogNss());
        if (!coll)
            return Status(ErrorCodes::InternalError, "oplog vanished while being created");
        LOGV2_OPTIONS(21754, logv2::Component::kReplication, "Creating the oplog",
                      BSON("namespace" << oplogNss().ns() << "sizeBytes" << _maxSizeBytes.load()));
    }
    // Seed the clock and the last applied optime from the newest entry.
    OpTime last;
    Date_t lastWall;
    {
        auto cursor = coll->recordStore()->getCursor(opCtx->recoveryUnit(), false);
        if (auto rec = cursor->next()) {
            last.ts = rec->data["ts"].timestamp();
            last.term = rec->data["t"].numberLong();
            lastWall = rec->data["wall"].date();
        }
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    std::lock_guard<std::mutex> lk(_mutex);
    _coll = coll;
    if (last.ts > _lastTs)
        _lastTs = last.ts;
    if (last > _lastApplied) {
        _lastApplied = last;
        _lastAppliedWall = lastWall;
    }
    return Status::OK();
}

bool LocalOplog::isOpen() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return static_cast<bool>(_coll);
}

std::shared_ptr<Collection> LocalOplog::collection() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _coll;
}

Timestamp LocalOplog::_allocateTimestamp() {
    auto secs = static_cast<std::uint32_t>(Date_t::now().toMillisSinceEpoch() / 1000);
    if (secs > _lastTs.getSecs())
        _lastTs = Timestamp(secs, 1);
    else
        _lastTs = Timestamp(_lastTs.getSecs(), _lastTs.getInc() + 1);
    return _lastTs;
}

OpTime LocalOplog::logOp(OperationContext* opCtx, const OplogEntryParams& params, Date_t* wallOut) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    invariant(ru->inUnitOfWork());
    Date_t wall = Date_t::now();
    if (wallOut)
        *wallOut = wall;
    OpTime opTime;
    std::shared_ptr<Collection> coll;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        invariant(_coll);
        coll = _coll;
        opTime.ts = _allocateTimestamp();
        opTime.term = _term.load();
        BSONObj entry = makeOplogEntry(params, opTime, wall);
        uassertStatusOK(coll->recordStore()->insertRecordWithId(
            ru, RecordId(static_cast<std::int64_t>(opTime.ts.asULL())), entry.objdata(),
            entry.objsize()));
    }
    ru->onCommit([this, opTime, wall] { _advanceLastApplied(opTime, wall); });
    _truncateIfNeeded(opCtx, coll.get());
    return opTime;
}

void LocalOplog::_truncateIfNeeded(OperationContext* opCtx, Collection* coll) {
    long long maxSize = coll->options()["size"].numberLong();
    RecordStore* rs = coll->recordStore();
    RecoveryUnit* ru = opCtx->recoveryUnit();
    long long size = rs->dataSize(ru);
    if (maxSize <= 0 || size <= maxSize)
        return;
    auto cursor = rs->getCursor(ru, true);
    for (int i = 0; i < kMaxTruncatePerWrite && size > maxSize; ++i) {
        auto rec = cursor->next();
        if (!rec)
            break;
        size -= rec->data.objsize();
        rs->deleteRecord(ru, rec->id);
    }
}

void LocalOplog::_advanceLastApplied(const OpTime& t, Date_t wall) {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (t > _lastApplied) {
            _lastApplied = t;
            _lastAppliedWall = wall;
        }
        ++_insertGeneration;
    }
    _inserted.notify_all();
}

OpTime LocalOplog::lastAppliedOpTime() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _lastApplied;
}

Date_t LocalOplog::lastAppliedWallTime() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _lastAppliedWall;
}

unsigned long long LocalOplog::insertGeneration() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _insertGeneration;
}

void LocalOplog::waitForInsertAfter(unsigned long long generation, Date_t deadline) {
    std::unique_lock<std::mutex> lk(_mutex);
    while (_insertGeneration == generation) {
        auto now = Date_t::now();
        if (now >= deadline)
            return;
        auto ms = deadline.toMillisSinceEpoch() - now.toMillisSinceEpoch();
        _inserted.wait_for(lk, std::chrono::milliseconds(ms));
    }
}

void LocalOplog::notifyInserted() {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        ++_insertGeneration;
    }
    _inserted.notify_all();
}

}  // namespace repl
}  // namespace mongo
