// insert and delete. (update lives in update_cmd.cpp.)
#include "mongo/db/commands/write_commands.h"

#include <cstring>
#include <optional>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/coll_mod.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/find_helpers.h"
#include "mongo/db/db_raii.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/ops/write_fail_points.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/repl/operation_session_info.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/db/timeseries/timeseries_insert.h"
#include "mongo/db/timeseries/timeseries_write_ops.h"
#include "mongo/idl/write_ops_gen.h"
#include "mongo/transport/client.h"

namespace mongo {

StatusWith<BSONObj> fixDocumentForInsert(const BSONObj& doc) {
    if (doc.objsize() > BSONObjMaxUserSize)
        return Status(
            ErrorCodes::BSONObjectTooLarge,
            "object to insert too large. size in bytes: " + std::to_string(doc.objsize()) +
                ", max size: " + std::to_string(BSONObjMaxUserSize));
    BSONElement id = doc["_id"];
    if (!id.eoo()) {
        if (id.type() == BSONType::kArray)
            return Status(ErrorCodes::InvalidIdField, "The '_id' value cannot be of type array");
        if (id.type() == BSONType::kRegEx)
            return Status(ErrorCodes::InvalidIdField, "can't use a regex for _id");
        if (id.type() == BSONType::kUndefined)
            return Status(ErrorCodes::InvalidIdField, "can't use a undefined for _id");
        if (id.type() == BSONType::kObject) {
            for (auto sub : id.embeddedObject()) {
                if (!sub.fieldNameStringData().empty() && sub.fieldNameStringData()[0] == '$')
                    return Status(ErrorCodes::DollarPrefixedFieldName,
                                  "_id fields may not contain '$'-prefixed fields: " +
                                      std::string(sub.fieldNameStringData()) +
                                      " is not valid for storage.");
            }
        }
        if (doc.firstElementFieldNameStringData() == "_id")
            return doc;
    }
    BSONObjBuilder b(doc.objsize() + 32);
    if (id.eoo())
        b.append("_id", OID::gen());
    else
        b.append(id);
    for (auto e : doc) {
        if (e.fieldNameStringData() != "_id")
            b.append(e);
    }
    BSONObj out = b.obj();
    if (out.objsize() > BSONObjMaxUserSize + 32)
        return Status(ErrorCodes::BSONObjectTooLarge, "object to insert too large");
    return out;
}

RetryableWrite::RetryableWrite(OperationContext* opCtx, const CommandRequest& req, size_t numOps) {
    auto osi = repl::parseOperationSessionInfo(req.commandName(), req.body);
    if (!osi.isRetryableWrite())
        return;
    BSONElement ids = req.body["stmtIds"];
    if (ids.type() == BSONType::kArray) {
        for (auto e : ids.embeddedObject()) {
            uassert(ErrorCodes::TypeMismatch, "stmtIds must be an array of integers",
                    e.type() == BSONType::kNumberInt);
            _stmtIds.push_back(e.numberInt());
        }
        uassert(ErrorCodes::InvalidLength,
                "Number of statement ids must match the number of batch entries. Got " +
                    std::to_string(_stmtIds.size()) + " statement ids but " +
                    std::to_string(numOps) + " operations.",
                _stmtIds.size() == numOps);
    } else if (!ids.eoo()) {
        uasserted(ErrorCodes::TypeMismatch, "stmtIds must be an array");
    }
    if (BSONElement id = req.body["stmtId"]; id.isNumber())
        _firstStmtId = static_cast<int>(id.numberLong());
    _session.emplace(repl::TransactionTable::get()->checkOut(opCtx, osi.lsid, *osi.txnNumber));
}

void checkRetriedEntryKind(const BSONObj& entry, StringData what, int code,
                           std::initializer_list<StringData> allowedOps) {
    StringData op =
        entry["op"].type() == BSONType::kString ? entry["op"].valueStringData() : StringData();
    for (StringData allowed : allowedOps) {
        if (op == allowed)
            return;
    }
    uasserted(code,
              std::string(what) +
                  " retry request is not compatible with previous write in the transaction of "
                  "type: " +
                  std::string(op) + ", oplog: " + entry.toString());
}

int RetryableWrite::stmtId(size_t opIndex) const {
    if (!_stmtIds.empty())
        return _stmtIds[opIndex];
    return _firstStmtId.value_or(0) + static_cast<int>(opIndex);
}

std::optional<BSONObj> RetryableWrite::executed(OperationContext* opCtx, size_t opIndex) const {
    if (!_session)
        return std::nullopt;
    return _session->checkStatementExecuted(opCtx, stmtId(opIndex));
}

repl::RetryableWriteScope::Owner RetryableWrite::owner(const std::vector<size_t>& opIndexes) const {
    repl::RetryableWriteScope::Owner o{_session->session(), _session->txnNumber(), {}};
    for (size_t i : opIndexes)
        o.stmtIds.push_back(stmtId(i));
    return o;
}

void RetryableWrite::openScope(std::optional<repl::RetryableWriteScope>& scope,
                               size_t opIndex) const {
    if (_session)
        scope.emplace(std::vector<repl::RetryableWriteScope::Owner>{owner({opIndex})});
}

RetryableTimeseriesStatements::RetryableTimeseriesStatements(const RetryableWrite& retryable,
                                                             StringData kind, int mismatchCode,
                                                             const NamespaceString& bucketsNss,
                                                             std::string bucketsUuid)
    : _retryable(retryable),
      _kind(kind),
      _mismatchCode(mismatchCode),
      _ns(bucketsNss.ns()),
      _uuid(std::move(bucketsUuid)) {
    invariant(_retryable.active());
}

std::optional<BSONObj> RetryableTimeseriesStatements::recorded(OperationContext* opCtx,
                                                               size_t index) {
    auto entry = _retryable.executed(opCtx, index);
    if (!entry)
        return std::nullopt;
    BSONElement o2 = (*entry)["o2"];
    bool sameKind = (*entry)["op"].type() == BSONType::kString &&
                    (*entry)["op"].valueStringData() == "n" && o2.type() == BSONType::kObject &&
                    o2.Obj()["timeseriesStatement"].type() == BSONType::kString &&
                    o2.Obj()["timeseriesStatement"].valueStringData() == _kind &&
                    o2.Obj()["outcome"].type() == BSONType::kObject;
    if (!sameKind)
        checkRetriedEntryKind(*entry, _kind, _mismatchCode, {});  // throws
    return o2.Obj()["outcome"].Obj().getOwned();
}

void RetryableTimeseriesStatements::record(OperationContext* opCtx, size_t index,
                                           const BSONObj& outcome) {
    repl::RetryableWriteScope scope({_retryable.owner({index})});
    repl::OplogEntryParams p;
    p.opType = 'n';
    p.ns = _ns;
    p.uuid = _uuid;
    p.o = BSON("msg" << ("retryable time-series " + _kind));
    p.o2 = BSON("timeseriesStatement" << _kind << "outcome" << outcome);
    scope.logStamped(opCtx, std::move(p), nullptr, nullptr);
}

void insertDocumentsInOneUnit(OperationContext* opCtx, Collection* coll,
                              const std::vector<BSONObj>& docs,
                              const repl::RetryableWriteScope::Owner* retryable) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    std::optional<repl::RetryableWriteScope> scope;
    if (retryable)
        scope.emplace(std::vector<repl::RetryableWriteScope::Owner>{*retryable});
    writeConflictRetry(ru, "insert", [&] {
        WriteUnitOfWork wuow(ru);
        for (const auto& d : docs)
            coll->insertDocument(opCtx, d);
        wuow.commit();
    });
    ru->abandonSnapshot();
}

namespace {

constexpr size_t kInsertGroupSize = 256;

void checkWritableNamespace(const NamespaceString& nss) {
    uassert(ErrorCodes::InvalidNamespace, "cannot write to '" + nss.ns() + "'",
            (nss.isNormalCollection() || nss.isTimeseriesBucketsCollection()) &&
                !(nss.db() == "local" && nss.coll() == "oplog.rs"));
}

/** Insert into a time-series view: the bucket catalog write path (timeseries_insert.h). */
void runTimeseriesInsert(OperationContext* opCtx, timeseries::TimeseriesCollection ts,
                         const std::vector<BSONObj>& docs, bool ordered,
                         const RetryableWrite& retryable, BSONObjBuilder& result) {
    AutoGetCollection buckets(opCtx, ts.bucketsNss, AutoGetCollection::Mode::kWrite);
    timeseries::attachBuckets(&ts, buckets.getCollection());
    opCtx->getServiceContext()->opCounters.insert.fetch_add(static_cast<long long>(docs.size()));
    std::optional<timeseries::RetryableInsertStatements> stmts;
    if (retryable.active()) {
        // Upstream makes retryable time-series inserts exactly-once the same way: each
        // bucket write's oplog entry lists the statements of its measurements.
        stmts.emplace(timeseries::RetryableInsertStatements{
            retryable.session()->session(), retryable.session()->txnNumber(), {}, {}});
        for (size_t i = 0; i < docs.size(); ++i) {
            stmts->stmtIds.push_back(retryable.stmtId(i));
            auto entry = retryable.executed(opCtx, i);
            if (entry)
                checkRetriedEntryKind(*entry, "insert", 40636, {"i", "u", "n"});
            stmts->alreadyExecuted.push_back(entry.has_value());
        }
    }
    // The connection: concurrent connections' first measurements may share a series' first
    // bucket (bucket_catalog::CollectionInfo::writerId).
    const int64_t writer = opCtx->getClient() ? opCtx->getClient()->connectionId() : 0;
    auto res = timeseries::performTimeseriesInserts(opCtx, ts, docs, ordered,
                                                    stmts ? &*stmts : nullptr, writer);
    result.appendNumber("n", res.n);
    appendWriteErrors(res.errors, result);
}

/** Delete on a time-series view: measurement deletes (timeseries_write_ops.h). */
void runTimeseriesDelete(OperationContext* opCtx, timeseries::TimeseriesCollection ts,
                         const RetryableWrite& retryable, const DeleteCommandRequest& cmd,
                         BSONObjBuilder& result) {
    AutoGetCollection buckets(opCtx, ts.bucketsNss, AutoGetCollection::Mode::kWrite);
    timeseries::attachBuckets(&ts, buckets.getCollection());
    std::optional<RetryableTimeseriesStatements> log;
    if (retryable.active())
        log.emplace(retryable, "delete", 40637, ts.bucketsNss,
                    ts.buckets ? ts.buckets->uuid() : std::string());
    auto res = timeseries::performTimeseriesDeletes(opCtx, ts, cmd.getDeletes(), cmd.getOrdered(),
                                                    log ? &*log : nullptr);
    result.appendNumber("n", res.n);
    appendWriteErrors(res.errors, result);
}

class InsertCmd : public Command {
public:
    InsertCmd() : Command("insert") {}
    ReadWriteType getReadWriteType() const override {
        return ReadWriteType::kWrite;
    }
    bool isWriteCommand() const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = InsertCommandRequest::parse(req.bodyWithSequences());
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        checkWritableNamespace(nss);
        const auto& docs = cmd.getDocuments();
        uassert(ErrorCodes::InvalidLength,
                "Write batch sizes must be between 1 and 100000. Got " +
                    std::to_string(docs.size()) + " operations.",
                !docs.empty() && docs.size() <= 100000);
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        RetryableWrite retryable(opCtx, req, docs.size());
        if (auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss)) {
            runTimeseriesInsert(opCtx, std::move(*ts), docs, cmd.getOrdered(), retryable, result);
            return;
        }
        uassert(ErrorCodes::CommandNotSupportedOnView,
                "Namespace " + nss.ns() + " is a view, not a collection", !isView(opCtx, nss));
        bool ordered = cmd.getOrdered();
        auto& counters = opCtx->getServiceContext()->opCounters;

        std::vector<WriteError> errors;
        long long n = 0;
        AutoGetCollection coll(opCtx, nss, AutoGetCollection::Mode::kWriteCreate);

        size_t i = 0;
        while (i < docs.size()) {
            // Group valid documents; a failing group is retried one document at a time.
            std::vector<BSONObj> group;
            std::vector<int> groupIdx;
            while (i < docs.size() && group.size() < kInsertGroupSize) {
                if (auto entry = retryable.executed(opCtx, i)) {
                    // A retry of a statement that already ran: counted, not applied again.
                    checkRetriedEntryKind(*entry, "insert", 40636, {"i"});
                    ++n;
                    ++i;
                    continue;
                }
                auto fixed = fixDocumentForInsert(docs[i]);
                // Direct bucket inserts: the buckets validator (121, raised by the insert itself)
                // comes before the mixed-schema check (408), as upstream.
                if (fixed.isOK() && nss.isTimeseriesBucketsCollection() && coll &&
                    coll->passesValidation(opCtx, fixed.getValue())) {
                    Status schema = timeseries::checkDirectBucketInsert(*coll.getCollection(),
                                                                        fixed.getValue());
                    if (!schema.isOK())
                        fixed = schema;
                }
                if (!fixed.isOK()) {
                    if (!group.empty())
                        break;
                    counters.insert.fetch_add(1);
                    errors.push_back(WriteError{static_cast<int>(i), fixed.getStatus(), nullptr});
                    ++i;
                    if (ordered)
                        goto done;
                    continue;
                }
                group.push_back(std::move(fixed.getValue()));
                groupIdx.push_back(static_cast<int>(i));
                ++i;
            }
            if (group.empty())
                continue;
            counters.insert.fetch_add(static_cast<long long>(group.size()));
            opCtx->checkForInterrupt();
            std::optional<repl::RetryableWriteScope::Owner> owner;
            if (retryable.active())
                owner = retryable.owner(std::vector<size_t>(groupIdx.begin(), groupIdx.end()));
            try {
                insertDocumentsInOneUnit(opCtx, coll.getCollection().get(), group,
                                         owner ? &*owner : nullptr);
                n += static_cast<long long>(group.size());
                continue;
            } catch (const DBException&) {
                opCtx->recoveryUnit()->abandonSnapshot();
            }
            for (size_t g = 0; g < group.size(); ++g) {
                bool ok = runStatement(groupIdx[g], &errors, [&] {
                    std::optional<repl::RetryableWriteScope::Owner> one;
                    if (retryable.active())
                        one = retryable.owner({static_cast<size_t>(groupIdx[g])});
                    insertDocumentsInOneUnit(opCtx, coll.getCollection().get(), {group[g]},
                                             one ? &*one : nullptr);
                });
                if (ok) {
                    ++n;
                } else if (ordered) {
                    goto done;
                }
            }
        }
    done:
        result.appendNumber("n", n);
        appendWriteErrors(errors, result);
    }
};
MONGO_REGISTER_COMMAND(InsertCmd)

class DeleteCmd : public Command {
public:
    DeleteCmd() : Command("delete") {}
    ReadWriteType getReadWriteType() const override {
        return ReadWriteType::kWrite;
    }
    bool isWriteCommand() const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = DeleteCommandRequest::parse(req.bodyWithSequences());
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        checkWritableNamespace(nss);
        const auto& deletes = cmd.getDeletes();
        uassert(ErrorCodes::InvalidLength,
                "Write batch sizes must be between 1 and 100000. Got " +
                    std::to_string(deletes.size()) + " operations.",
                !deletes.empty() && deletes.size() <= 100000);
        RetryableWrite retryable(opCtx, req, deletes.size());
        LetVariablesScope letScope(opCtx, nss, cmd.getLet().value_or(BSONObj()));
        if (auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss)) {
            runTimeseriesDelete(opCtx, std::move(*ts), retryable, cmd, result);
            return;
        }
        uassert(ErrorCodes::CommandNotSupportedOnView,
                "Namespace " + nss.ns() + " is a view, not a collection", !isView(opCtx, nss));
        std::vector<WriteError> errors;
        long long n = 0;
        AutoGetCollection coll(opCtx, nss, AutoGetCollection::Mode::kWrite);
        // False for a retried statement that already ran (counted, not applied again).
        auto mustRun = [&](size_t i) {
            opCtx->getServiceContext()->opCounters.deleted.fetch_add(1);
            auto entry = retryable.executed(opCtx, i);
            if (!entry)
                return true;
            checkRetriedEntryKind(*entry, "delete", 40637, {"d"});
            ++n;
            return false;
        };
        runStatements(deletes.size(), cmd.getOrdered(), &errors, mustRun, [&](size_t i) {
            runChildRemoveOp(
                opCtx, [&] { runDeleteStatement(opCtx, coll, nss, retryable, deletes[i], i, &n); });
        });
        result.appendNumber("n", n);
        appendWriteErrors(errors, result);
    }

private:
    /** One delete statement on a collection (`coll` may be empty: nothing to delete). */
    static void runDeleteStatement(OperationContext* opCtx, AutoGetCollection& coll,
                                   const NamespaceString& nss, const RetryableWrite& retryable,
                                   const DeleteOpEntry& stmt, size_t i, long long* n) {
        uassert(ErrorCodes::FailedToParse,
                "The limit field in delete objects must be 0 or 1. Got " +
                    std::to_string(stmt.getLimit()),
                stmt.getLimit() == 0 || stmt.getLimit() == 1);
        uassert(ErrorCodes::InvalidOptions, "Cannot use (or request) retryable writes with limit=0",
                !retryable.active() || stmt.getLimit() == 1);
        auto collator = resolveCollator(opCtx, nss, stmt.getCollation());
        FindPlanParams params = makeFindParams(stmt.getQ(), BSONObj(), BSONObj(), stmt.getHint(),
                                               FindExpressionContext{opCtx, nss, {}, collator});
        if (!coll)
            return;
        params.limit = stmt.getLimit();
        std::optional<repl::RetryableWriteScope> scope;
        retryable.openScope(scope, i);
        *n += deleteMatching(opCtx, coll.getCollection(), params);
    }

    static long long deleteMatching(OperationContext* opCtx, std::shared_ptr<Collection> coll,
                                    const FindPlanParams& params) {
        RecoveryUnit* ru = opCtx->recoveryUnit();
        long long deleted = 0;
        writeConflictRetry(ru, "delete", [&] {
            deleted = 0;
            WriteUnitOfWork wuow(ru);
            auto exec = buildFindPlan(opCtx, coll, params);
            opCtx->setPlanSummary(exec->planSummary());
            std::vector<std::pair<RecordId, BSONObj>> victims;
            BSONObj doc;
            RecordId id;
            while (exec->getNext(opCtx, &doc, &id))
                victims.emplace_back(id, doc.getOwned());
            exec.reset();
            for (const auto& [vid, vdoc] : victims) {
                coll->deleteDocument(opCtx, vid, vdoc);
                ++deleted;
            }
            wuow.commit();
        });
        ru->abandonSnapshot();
        return deleted;
    }
};
MONGO_REGISTER_COMMAND(DeleteCmd)

}  // namespace
}  // namespace mongo
