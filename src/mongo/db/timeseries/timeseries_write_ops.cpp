#include "mongo/db/timeseries/timeseries_write_ops.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/ops/write_fail_points.h"
#include "mongo/db/pipeline/update_pipeline.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/timeseries_modify.h"
#include "mongo/db/update/update_driver.h"
#include "mongo/util/assert_util.h"

namespace mongo::timeseries {
namespace {

/** The pipeline context of a statement on `ts`: its collation, else the collection's. */
UpdatePipelineContext pipelineContext(OperationContext* opCtx, const TimeseriesCollection& ts,
                                      const std::optional<BSONObj>& letVars,
                                      const CollatorInterface* collator) {
    return {opCtx, ts.viewNss, letVars.value_or(BSONObj()), std::nullopt, collator};
}

BSONObj updateOutcome(const TimeseriesUpdateOutcome& o) {
    BSONObjBuilder b;
    b.append("n", o.stats.nMeasurementsMatched + (o.upsertedId ? 1 : 0));
    b.append("nModified", o.stats.nMeasurementsUpdated);
    if (o.upsertedId)
        b.append("upserted", *o.upsertedId);
    return b.obj();
}

/** Adds a recorded update outcome of statement `index` to `result`. */
void addUpdateOutcome(const BSONObj& rec, int index, TimeseriesWriteResult& result) {
    result.n += rec["n"].numberLong();
    result.nModified += rec["nModified"].numberLong();
    if (rec["upserted"].type() == BSONType::kObject)
        result.upserted.emplace_back(index, rec["upserted"].Obj().getOwned());
}

BSONObj findAndModifyOutcome(const TimeseriesFindAndModifyResult& r) {
    BSONObjBuilder b;
    b.append("n", r.n);
    b.append("updatedExisting", r.updatedExisting);
    if (r.upsertedId)
        b.append("upserted", *r.upsertedId);
    if (r.value)
        b.append("value", *r.value);
    return b.obj();
}

TimeseriesFindAndModifyResult findAndModifyFromOutcome(const BSONObj& rec) {
    TimeseriesFindAndModifyResult r;
    r.n = rec["n"].numberLong();
    r.updatedExisting = rec["updatedExisting"].trueValue();
    if (rec["upserted"].type() == BSONType::kObject)
        r.upsertedId = rec["upserted"].Obj().getOwned();
    if (rec["value"].type() == BSONType::kObject)
        r.value = rec["value"].Obj().getOwned();
    return r;
}

}  // namespace

BSONObj hintToBSON(const std::optional<std::variant<std::string, BSONObj>>& hint) {
    if (!hint)
        return BSONObj();
    if (const std::string* name = std::get_if<std::string>(&*hint))
        return BSON("$hint" << *name);
    return std::get<BSONObj>(*hint).getOwned();
}

TimeseriesWriteResult performTimeseriesDeletes(OperationContext* opCtx,
                                               const TimeseriesCollection& ts,
                                               const std::vector<DeleteOpEntry>& deletes,
                                               bool ordered, TimeseriesStatementLog* log) {
    TimeseriesWriteResult result;
    auto mustRun = [&](size_t) {
        opCtx->getServiceContext()->opCounters.deleted.fetch_add(1);
        opCtx->checkForInterrupt();
        return true;
    };
    runStatements(deletes.size(), ordered, &result.errors, mustRun, [&](size_t i) {
        const auto& stmt = deletes[i];
        if (log)
            if (auto rec = log->recorded(opCtx, i)) {
                result.n += (*rec)["n"].numberLong();  // ran before: not again
                return;
            }
        uassert(ErrorCodes::FailedToParse,
                "The limit field in delete objects must be 0 or 1. Got " +
                    std::to_string(stmt.getLimit()),
                stmt.getLimit() == 0 || stmt.getLimit() == 1);
        uassert(ErrorCodes::InvalidOptions, "Cannot use (or request) retryable writes with limit=0",
                !log || stmt.getLimit() == 1);
        TimeseriesDeleteOp op;
        if (log)
            op.inUnitOfWork = [&](const TimeseriesModifyStats& stats,
                                  const std::optional<BSONObj>&) {
                log->record(opCtx, i, BSON("n" << stats.nMeasurementsDeleted));
            };
        op.query = stmt.getQ();
        op.hint = hintToBSON(stmt.getHint());
        op.multi = stmt.getLimit() == 0;
        if (stmt.getCollation())
            op.collation = stmt.getCollation()->getOwned();
        runChildRemoveOp(opCtx, [&] {
            result.n += deleteTimeseriesMeasurements(opCtx, ts, op).nMeasurementsDeleted;
        });
    });
    return result;
}

TimeseriesWriteResult performTimeseriesUpdates(OperationContext* opCtx,
                                               const TimeseriesCollection& ts,
                                               const UpdateCommandRequest& cmd,
                                               TimeseriesStatementLog* log) {
    const std::vector<UpdateOpEntry>& updates = cmd.getUpdates();
    const bool ordered = cmd.getOrdered();
    TimeseriesWriteResult result;
    auto mustRun = [&](size_t) {
        opCtx->getServiceContext()->opCounters.update.fetch_add(1);
        opCtx->checkForInterrupt();
        return true;
    };
    runStatements(updates.size(), ordered, &result.errors, mustRun, [&](size_t i) {
        const auto& stmt = updates[i];
        if (log)
            if (auto rec = log->recorded(opCtx, i)) {
                addUpdateOutcome(*rec, static_cast<int>(i), result);  // ran before
                return;
            }
        uassert(ErrorCodes::InvalidOptions,
                "Cannot use (or request) retryable writes with multi=true",
                !log || !stmt.getMulti());
        uassert(ErrorCodes::InvalidOptions,
                "Cannot perform an update with a sort on a time-series collection",
                !stmt.getSort() || stmt.getSort()->isEmpty());
        auto collator = resolveStatementCollation(ts, stmt.getCollation()).collator;
        UpdateDriver driver =
            parseUpdateOpEntry(stmt, pipelineContext(opCtx, ts, cmd.getLet(), collator.get()));
        TimeseriesUpdateOp op;
        op.query = stmt.getQ();
        op.driver = &driver;
        op.hint = hintToBSON(stmt.getHint());
        op.multi = stmt.getMulti();
        op.upsert = stmt.getUpsert();
        if (stmt.getCollation())
            op.collation = stmt.getCollation()->getOwned();
        if (log)
            op.inUnitOfWork = [&](const TimeseriesUpdateOutcome& o) {
                log->record(opCtx, i, updateOutcome(o));
            };
        TimeseriesUpdateOutcome o = updateTimeseriesMeasurements(opCtx, ts, op);
        result.n += o.stats.nMeasurementsMatched;
        result.nModified += o.stats.nMeasurementsUpdated;
        if (o.upsertedId) {
            ++result.n;
            result.upserted.emplace_back(static_cast<int>(i), *o.upsertedId);
        }
    });
    return result;
}

TimeseriesFindAndModifyResult performTimeseriesFindAndModify(OperationContext* opCtx,
                                                             const TimeseriesCollection& ts,
                                                             const FindAndModifyCommandRequest& cmd,
                                                             TimeseriesStatementLog* log) {
    uassert(ErrorCodes::InvalidOptions,
            "Cannot perform a findAndModify with a sort on a time-series collection",
            !cmd.getSort() || cmd.getSort()->isEmpty());
    if (log)
        if (auto rec = log->recorded(opCtx, 0))
            return findAndModifyFromOutcome(*rec);  // ran before: not again
    TimeseriesFindAndModifyResult result;
    if (cmd.getRemove().value_or(false)) {
        opCtx->getServiceContext()->opCounters.deleted.fetch_add(1);
        TimeseriesDeleteOp op;
        op.query = cmd.getQuery();
        op.hint = hintToBSON(cmd.getHint());
        op.multi = false;
        if (cmd.getCollation())
            op.collation = cmd.getCollation()->getOwned();
        if (log)
            op.inUnitOfWork = [&](const TimeseriesModifyStats& stats,
                                  const std::optional<BSONObj>& deleted) {
                TimeseriesFindAndModifyResult r;
                r.n = stats.nMeasurementsDeleted;
                r.value = deleted;
                log->record(opCtx, 0, findAndModifyOutcome(r));
            };
        std::optional<BSONObj> deleted;
        result.n = deleteTimeseriesMeasurements(opCtx, ts, op, ModifyMode::kWrite, &deleted)
                       .nMeasurementsDeleted;
        result.value = deleted;
        return result;
    }
    opCtx->getServiceContext()->opCounters.update.fetch_add(1);
    auto collator = resolveStatementCollation(ts, cmd.getCollation()).collator;
    UpdateDriver driver = parseUpdateStatement(
        *cmd.getUpdate(), cmd.getArrayFilters().value_or(std::vector<BSONObj>()),
        pipelineContext(opCtx, ts, cmd.getLet(), collator.get()));
    const bool returnNew = cmd.getNew().value_or(false);
    auto toResult = [returnNew](const TimeseriesUpdateOutcome& o) {
        TimeseriesFindAndModifyResult r;
        r.updatedExisting = o.stats.nMeasurementsMatched > 0;
        r.n = o.upsertedId ? 1 : o.stats.nMeasurementsMatched;
        r.upsertedId = o.upsertedId;
        r.value = returnNew ? o.postImage : o.preImage;
        return r;
    };
    TimeseriesUpdateOp op;
    op.query = cmd.getQuery();
    op.driver = &driver;
    op.hint = hintToBSON(cmd.getHint());
    op.multi = false;
    op.upsert = cmd.getUpsert().value_or(false);
    if (cmd.getCollation())
        op.collation = cmd.getCollation()->getOwned();
    if (log)
        op.inUnitOfWork = [&](const TimeseriesUpdateOutcome& o) {
            log->record(opCtx, 0, findAndModifyOutcome(toResult(o)));
        };
    return toResult(updateTimeseriesMeasurements(opCtx, ts, op));
}

}  // namespace mongo::timeseries
