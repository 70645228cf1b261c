// update and findAndModify.
#include "absl/cleanup/cleanup.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/coll_mod.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/update_util.h"
#include "mongo/db/commands/write_commands.h"
#include "mongo/db/db_raii.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/ops/write_fail_points.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/pipeline/update_pipeline.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/query/projection.h"
#include "mongo/db/repl/transaction_table.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/timeseries_write_ops.h"
#include "mongo/db/update/update_driver.h"
#include "mongo/idl/write_ops_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** Update on a time-series view: measurement updates (timeseries_write_ops.h). */
void runTimeseriesUpdate(OperationContext* opCtx, timeseries::TimeseriesCollection ts,
                         const RetryableWrite& retryable, const UpdateCommandRequest& cmd,
                         BSONObjBuilder& result) {
    AutoGetCollection buckets(opCtx, ts.bucketsNss, AutoGetCollection::Mode::kWrite);
    timeseries::attachBuckets(&ts, buckets.getCollection());
    std::optional<RetryableTimeseriesStatements> log;
    if (retryable.active())
        log.emplace(retryable, "update", 40638, ts.bucketsNss,
                    ts.buckets ? ts.buckets->uuid() : std::string());
    auto res = timeseries::performTimeseriesUpdates(opCtx, ts, cmd, log ? &*log : nullptr);
    pauseWhileFailPointSet(opCtx, hangAfterBatchUpdate);
    result.appendNumber("n", res.n);
    result.appendNumber("nModified", res.nModified);
    if (!res.upserted.empty()) {
        BSONArrayBuilder arr(result.subarrayStart("upserted"));
        for (const auto& [index, id] : res.upserted) {
            BSONObjBuilder u(arr.subobjStart());
            u.append("index", index);
            u.appendAs(id.firstElement(), "_id");
        }
    }
    appendWriteErrors(res.errors, result);
}

class UpdateCmd : public Command {
public:
    UpdateCmd() : Command("update") {}
    ReadWriteType getReadWriteType() const override {
        return ReadWriteType::kWrite;
    }
    bool isWriteCommand() const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = UpdateCommandRequest::parse(req.bodyWithSequences());
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        uassert(ErrorCodes::InvalidNamespace, "cannot write to '" + nss.ns() + "'",
                nss.isNormalCollection() || nss.isTimeseriesBucketsCollection());
        const auto& updates = cmd.getUpdates();
        uassert(ErrorCodes::InvalidLength,
                "Write batch sizes must be between 1 and 100000. Got " +
                    std::to_string(updates.size()) + " operations.",
                !updates.empty() && updates.size() <= 100000);
        RetryableWrite retryable(opCtx, req, updates.size());
        LetVariablesScope letScope(opCtx, nss, cmd.getLet().value_or(BSONObj()));
        if (auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss)) {
            runTimeseriesUpdate(opCtx, std::move(*ts), retryable, cmd, result);
            return;
        }
        uassert(ErrorCodes::CommandNotSupportedOnView,
                "Namespace " + nss.ns() + " is a view, not a collection", !isView(opCtx, nss));
        std::vector<WriteError> errors;
        long long n = 0, nModified = 0;
        BSONArrayBuilder upserted;
        bool anyUpsert = false;
        // False for a retried statement that already ran.
        auto mustRun = [&](size_t i) {
            opCtx->getServiceContext()->opCounters.update.fetch_add(1);
            auto entry = retryable.executed(opCtx, i);
            if (!entry)
                return true;
            // Already ran: its result comes from its oplog entry (an upsert is an 'i').
            checkRetriedEntryKind(*entry, "update", 40638, {"u", "i"});
            ++n;
            if ((*entry)["op"].valueStringData() == "u") {
                ++nModified;
            } else {
                anyUpsert = true;
                BSONObjBuilder u;
                u.append("index", static_cast<int>(i));
                u.appendAs((*entry)["o"].embeddedObject()["_id"], "_id");
                upserted.append(u.obj());
            }
            return false;
        };
        runStatements(updates.size(), cmd.getOrdered(), &errors, mustRun, [&](size_t i) {
            const auto& stmt = updates[i];
            uassert(ErrorCodes::InvalidOptions,
                    "Cannot use (or request) retryable writes with multi=true",
                    !retryable.active() || !stmt.getMulti());
            auto collator = resolveCollator(opCtx, nss, stmt.getCollation());
            const BSONObj letVars = cmd.getLet().value_or(BSONObj());
            UpdateDriver driver =
                parseUpdateOpEntry(stmt, {opCtx, nss, letVars, std::nullopt, collator.get()});
            driver.setCollator(collator.get());
            FindPlanParams params = makeFindParams(
                stmt.getQ(), stmt.getSort().value_or(BSONObj()), BSONObj(), stmt.getHint(),
                FindExpressionContext{opCtx, nss, letVars, collator});
            std::optional<repl::RetryableWriteScope> scope;
            retryable.openScope(scope, i);
            UpdateOutcome o =
                performUpdate(opCtx, nss, params, driver, stmt.getMulti(), stmt.getUpsert());
            n += o.matched;
            nModified += o.modified;
            if (o.upsertedId) {
                ++n;
                anyUpsert = true;
                BSONObjBuilder u;
                u.append("index", static_cast<int>(i));
                u.appendAs(o.upsertedId->firstElement(), "_id");
                upserted.append(u.obj());
            }
        });
        pauseWhileFailPointSet(opCtx, hangAfterBatchUpdate);
        result.appendNumber("n", n);
        result.appendNumber("nModified", nModified);
        if (anyUpsert)
            result.append("upserted", upserted.arr());
        appendWriteErrors(errors, result);
    }
};
MONGO_REGISTER_COMMAND(UpdateCmd)

/**
 * The reply of a findAndModify retried after it ran: from its oplog entry and the image
 * stored with it (config.image_collection). 40606/40608 when the retry is of another kind
 * than the write; IncompleteTransactionHistory 217 when the image is gone.
 */
template <typename Project>
void replyFromRetriedEntry(OperationContext* opCtx, const repl::CheckedOutSession& session,
                           const BSONObj& entry, bool remove, bool returnNew,
                           const Project& project, BSONObjBuilder& result) {
    StringData op = entry["op"].valueStringData();
    uassert(40606,
            "findAndModify retry request is not compatible with previous write in the "
            "transaction of type: " +
                std::string(op) + ", oplog: " + entry.toString(),
            (op == "d") == remove);
    uassert(40608,
            "findAndModify retry request is not compatible with previous write in the "
            "transaction of type: " +
                std::string(op) + ", oplog: " + entry.toString(),
            op == "d" || op == "u" || op == "i");
    BSONObjBuilder lastError;
    std::optional<BSONObj> value;
    if (op == "i") {
        BSONObj doc = entry["o"].embeddedObject();
        lastError.append("n", 1LL);
        lastError.append("updatedExisting", false);
        lastError.appendAs(doc["_id"], "upserted");
        if (returnNew)
            value = project(doc);
    } else {
        auto image = repl::TransactionTable::get()->readImage(
            opCtx, session.session()->lsid(), session.txnNumber(), entry["ts"].timestamp());
        uassert(ErrorCodes::IncompleteTransactionHistory,
                "Incomplete history detected for transaction " +
                    std::to_string(session.txnNumber()) +
                    ": the image of the retried findAndModify is gone",
                image.has_value());
        value = project(*image);
        if (op == "d") {
            lastError.append("n", 1);
        } else {
            lastError.append("n", 1LL);
            lastError.append("updatedExisting", true);
        }
    }
    result.append("lastErrorObject", lastError.obj());
    if (value)
        result.append("value", *value);
    else
        result.appendNull("value");
}

class FindAndModifyCmd : public Command {
public:
    FindAndModifyCmd() : Command("findAndModify", {"findandmodify"}) {}
    ReadWriteType getReadWriteType() const override {
        return ReadWriteType::kWrite;
    }
    bool isWriteCommand() const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = FindAndModifyCommandRequest::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        checkFindAndModifyOptions(cmd);
        bool remove = cmd.getRemove().value_or(false);
        bool upsert = cmd.getUpsert().value_or(false);
        bool returnNew = cmd.getNew().value_or(false);
        auto collator = resolveCollator(opCtx, nss, cmd.getCollation());
        const BSONObj letVars = cmd.getLet().value_or(BSONObj());
        LetVariablesScope letScope(opCtx, nss, letVars);
        FindPlanParams params =
            makeFindParams(cmd.getQuery(), cmd.getSort().value_or(BSONObj()), BSONObj(),
                           cmd.getHint(), FindExpressionContext{opCtx, nss, letVars, collator});
        std::optional<Projection> fields;
        std::shared_ptr<ExpressionContext> fieldsCtx;  // for {$meta: "textScore"}
        if (cmd.getFields() && !cmd.getFields()->isEmpty()) {
            fields = parseFindProjection(
                *cmd.getFields(), FindExpressionContext{opCtx, nss, letVars, collator}, &fieldsCtx);
            for (const std::string& meta : fields->metaNames())
                uassert(ErrorCodes::BadValue,
                        "Cannot use a $meta \"" + meta + "\" projection in findAndModify",
                        meta != "sortKey");
        }
        auto project = [&](const BSONObj& doc, std::optional<double> textScore = std::nullopt) {
            if (!fields)
                return doc;
            DocumentMetadata metadata;
            metadata.textScore = textScore;
            if (fieldsCtx && textScore)
                fieldsCtx->variables.metadata = &metadata;
            absl::Cleanup noMetadata = [&] {
                if (fieldsCtx)
                    fieldsCtx->variables.metadata = nullptr;
            };
            if (fields->requiresMatchDetails() && params.matcher) {
                // "a.$": the array position the query matches in the document returned.
                MatchDetails details;
                details.requestElemMatchKey();
                params.matcher->matchesBSON(doc, &details);
                return uassertStatusOK(fields->apply(doc, &details));
            }
            return uassertStatusOK(fields->apply(doc));
        };

        BSONObjBuilder lastError;
        std::optional<BSONObj> value;
        RetryableWrite retryable(opCtx, req, 1);
        std::optional<repl::RetryableWriteScope> scope;
        auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss);
        if (!ts && retryable.active()) {
            if (auto entry = retryable.executed(opCtx, 0)) {
                replyFromRetriedEntry(opCtx, *retryable.session(), *entry, remove, returnNew,
                                      project, result);
                return;
            }
            retryable.openScope(scope, 0);
            scope->setImage(remove || !returnNew ? repl::RetryableWriteScope::Image::kPreImage
                                                 : repl::RetryableWriteScope::Image::kPostImage);
        }
        if (ts) {
            AutoGetCollection buckets(opCtx, ts->bucketsNss, AutoGetCollection::Mode::kWrite);
            timeseries::attachBuckets(&*ts, buckets.getCollection());
            std::optional<RetryableTimeseriesStatements> log;
            if (retryable.active())
                log.emplace(retryable, "findAndModify", 40606, ts->bucketsNss,
                            ts->buckets ? ts->buckets->uuid() : std::string());
            auto r =
                timeseries::performTimeseriesFindAndModify(opCtx, *ts, cmd, log ? &*log : nullptr);
            if (remove) {
                lastError.append("n", static_cast<int>(r.n));
            } else {
                lastError.append("n", r.n);
                lastError.append("updatedExisting", r.updatedExisting);
            }
            if (r.upsertedId)
                lastError.appendAs(r.upsertedId->firstElement(), "upserted");
            if (r.value)
                value = project(*r.value);
        } else if (remove) {
            opCtx->getServiceContext()->opCounters.deleted.fetch_add(1);
            std::optional<double> textScore;
            auto deleted = performDeleteOne(opCtx, nss, params, &textScore);
            lastError.append("n", deleted ? 1 : 0);
            if (deleted)
                value = project(*deleted, textScore);
        } else {
            opCtx->getServiceContext()->opCounters.update.fetch_add(1);
            UpdateDriver driver = parseUpdateStatement(
                *cmd.getUpdate(), cmd.getArrayFilters().value_or(std::vector<BSONObj>()),
                {opCtx, nss, letVars, std::nullopt, collator.get()});
            driver.setCollator(collator.get());
            UpdateOutcome o = performUpdate(opCtx, nss, params, driver, false, upsert);
            lastError.append("n", o.upsertedId ? 1LL : o.matched);
            lastError.append("updatedExisting", o.matched > 0);
            if (o.upsertedId)
                lastError.appendAs(o.upsertedId->firstElement(), "upserted");
            if (returnNew && o.postImage)
                value = project(*o.postImage, o.textScore);
            else if (!returnNew && o.preImage)
                value = project(*o.preImage, o.textScore);
        }
        result.append("lastErrorObject", lastError.obj());
        if (value)
            result.append("value", *value);
        else
            result.appendNull("value");
    }
};
MONGO_REGISTER_COMMAND(FindAndModifyCmd)

}  // namespace
}  // namespace mongo
