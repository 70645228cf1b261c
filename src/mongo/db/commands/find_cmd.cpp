// find, getMore and killCursors.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/coll_mod.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/cursor_response.h"
#include "mongo/db/commands/find_helpers.h"
#include "mongo/db/commands/tailable_cursor_source.h"
#include "mongo/db/cursor_manager.h"
#include "mongo/db/db_raii.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source_geo_near.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/pipeline_d.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/idl/find_command_gen.h"
#include "mongo/idl/getmore_command_gen.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/**
 * find on a view: an aggregate of the view's pipeline plus the find's stages (also a find
 * with $near on a collection).
 */
void runFindOnView(OperationContext* opCtx, const CommandRequest& req,
                   const FindCommandRequest& cmd, const NamespaceString& nss, long long batchSize,
                   bool singleBatch, BSONObjBuilder& result) {
    uassert(ErrorCodes::CommandNotSupportedOnView,
            "Cannot run tailable or awaitData find on a view", !cmd.getTailable());
    // Record ids belong to a collection scan: an aggregate neither resumes from one nor shows
    // them.
    for (auto [given, name] :
         {std::pair{cmd.getRequestResumeToken().value_or(false), "$_requestResumeToken"},
          std::pair{cmd.getResumeAfter().has_value(), "$_resumeAfter"},
          std::pair{cmd.getShowRecordId() && isView(opCtx, nss), "showRecordId"},
          std::pair{!cmd.getMin().isEmpty(), "min"}, std::pair{!cmd.getMax().isEmpty(), "max"},
          std::pair{cmd.getReturnKey(), "returnKey"}})
        uassert(ErrorCodes::InvalidPipelineOperator,
                std::string("Option ") + name + " not supported in aggregation.", !given);
    auto stages = findToPipeline(cmd.getFilter(), cmd.getSort(), cmd.getProjection(),
                                 cmd.getSkip().value_or(0), cmd.getLimit().value_or(0));
    AggregationRequestOptions opts;
    opts.allowDiskUse = cmd.getAllowDiskUse().value_or(gAllowDiskUseByDefault.load());
    opts.letVars = cmd.getLet().value_or(BSONObj());
    opts.collation = cmd.getCollation().value_or(BSONObj());
    opts.hint = hintForExecution(opCtx, nss, cmd.getHint());
    PreparedPipeline prepared = preparePipeline(opCtx, nss, stages, opts);
    auto cursor = std::make_unique<ClientCursor>();
    cursor->nss = nss;
    cursor->source = std::make_unique<PipelineCursorSource>(std::move(prepared.pipeline));
    cursor->noCursorTimeout = cmd.getNoCursorTimeout();
    cursor->originatingCommand = req.body.getOwned();
    runBatchAndReply(opCtx, std::move(cursor), batchSize, singleBatch, true, result);
}

/**
 * Checks $_requestResumeToken / $_resumeAfter (collection scans in natural order only) and
 * returns the record to resume after, if any. A token's $recordId must have the collection's
 * record id type (NumberLong, BinData for a clustered collection): 7738600 otherwise.
 */
std::optional<RecordId> checkResumeRequest(const FindCommandRequest& cmd, bool clustered) {
    const bool requested = cmd.getRequestResumeToken().value_or(false);
    uassert(ErrorCodes::BadValue, "$_resumeAfter can only be set if $_requestResumeToken is true",
            requested || !cmd.getResumeAfter());
    const BSONObj* hint = cmd.getHint() ? std::get_if<BSONObj>(&*cmd.getHint()) : nullptr;
    uassert(ErrorCodes::BadValue,
            "$_requestResumeToken can only be used if hint: {$natural: 1} is used.",
            hint && hint->nFields() == 1 && hint->firstElementFieldNameStringData() == "$natural" &&
                hint->firstElement().isNumber() && hint->firstElement().numberDouble() > 0);
    uassert(ErrorCodes::BadValue, "$_requestResumeToken cannot be used with a sort",
            cmd.getSort().isEmpty());
    if (!cmd.getResumeAfter())
        return std::nullopt;
    const BSONObj& token = *cmd.getResumeAfter();
    BSONElement id = token["$recordId"];
    uassert(ErrorCodes::BadValue,
            "Malformed resume token: the '_resumeAfter' object must contain exactly one field "
            "named '$recordId', found " +
                token.toString(),
            token.nFields() == 1 && !id.eoo());
    if (id.isNull())
        return RecordId();  // resumes from nothing: KeyNotFound at the first read
    auto decoded = decodeRecordId(id, clustered);
    uassert(7738600,
            std::string("The '$_resumeAfter' parameter must match the collection's record id "
                        "format: ") +
                (clustered ? "a BinData for a clustered collection" : "a NumberLong") + ", found " +
                id.toString(),
            decoded);
    return *decoded;
}

class FindCmd : public Command {
public:
    FindCmd() : Command("find") {}
    ReadWriteType getReadWriteType() const override {
        return ReadWriteType::kRead;
    }

    void checkAPIStrictFields(const OperationContext* opCtx,
                              const CommandRequest& req) const override {
        uassertStableFields(opCtx, "find", req.body, FindCommandRequest::unstableFieldNames());
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = FindCommandRequest::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        // The request's own rules, before any collection is looked at (upstream's find
        // validation): a tailable cursor stays open, reads in natural order.
        uassert(ErrorCodes::BadValue, "Cannot set 'awaitData' without also setting 'tailable'",
                !cmd.getAwaitData() || cmd.getTailable());
        uassert(ErrorCodes::BadValue, "cannot use tailable option with the 'singleBatch' option",
                !cmd.getTailable() || !cmd.getSingleBatch());
        if (cmd.getTailable() && !cmd.getSort().isEmpty()) {
            BSONElement natural = cmd.getSort()["$natural"];
            uassert(
                ErrorCodes::BadValue,
                "cannot use tailable option with a sort other than {$natural: 1}",
                cmd.getSort().nFields() == 1 && natural.isNumber() && natural.numberDouble() == 1);
        }
        opCtx->getServiceContext()->opCounters.query.fetch_add(1);

        // $near / $nearSphere: an aggregate of $geoNear (pipeline_d.h findToPipeline). A find
        // on a view is an aggregate whose $match refuses them (5626500, time-series collections
        // included: they take the $geoNear stage only).
        const bool view = isView(opCtx, nss);
        if (view)
            uassertStatusOK(checkNoNearPredicate(cmd.getFilter()));
        std::string nearPath;
        if (auto geoNear = view ? std::nullopt : nearFilterToGeoNear(cmd.getFilter(), &nearPath)) {
            uassertNearQueryIndexed(opCtx, nss, *geoNear, nearPath);
            long long batchSize =
                cmd.getBatchSize().value_or(gInternalQueryFindCommandBatchSize.load());
            runFindOnView(opCtx, req, cmd, nss, batchSize, cmd.getSingleBatch(), result);
            return;
        }

        // The collation in force: the command's, else the collection's default (a view's
        // is resolved with its pipeline). Kept alive by the plan's matcher and sort.
        auto collator = resolveCollator(opCtx, nss, cmd.getCollation());
        FindPlanParams params = makeFindParams(
            cmd.getFilter(), cmd.getSort(), cmd.getProjection(), cmd.getHint(),
            FindExpressionContext{opCtx, nss, cmd.getLet().value_or(BSONObj()), collator});
        params.skip = cmd.getSkip().value_or(0);
        params.limit = cmd.getLimit().value_or(0);
        params.min = cmd.getMin().getOwned();
        params.max = cmd.getMax().getOwned();
        params.returnKey = cmd.getReturnKey();
        params.allowDiskUse = cmd.getAllowDiskUse().value_or(gAllowDiskUseByDefault.load());
        params.allowExpress = true;
        params.needsTextScore =
            mentionsTextScore(cmd.getProjection()) || mentionsTextScore(cmd.getSort());
        bool singleBatch = cmd.getSingleBatch();
        long long batchSize =
            cmd.getBatchSize().value_or(gInternalQueryFindCommandBatchSize.load());
        // A limit that fits the first batch ends the cursor there; a tailable cursor stays
        // open for later inserts until its limit is used up (TailableCappedSource::finished).
        if (params.limit > 0 && !cmd.getTailable() &&
            (batchSize == 0 ? false : params.limit <= batchSize))
            singleBatch = true;

        if (isView(opCtx, nss)) {
            runFindOnView(opCtx, req, cmd, nss, batchSize, singleBatch, result);
            return;
        }
        AutoGetCollection coll(opCtx, nss, AutoGetCollection::Mode::kRead);
        const bool requestResumeToken = cmd.getRequestResumeToken().value_or(false);
        const bool clustered = coll && coll->isClustered();  // binary record ids upstream
        if (requestResumeToken || cmd.getResumeAfter())
            params.resumeAfter = checkResumeRequest(cmd, clustered);
        if (cmd.getTailable()) {
            uassert(ErrorCodes::BadValue,
                    "error processing query: ns=" + nss.ns() +
                        " :: caused by :: tailable cursor requested on non capped collection",
                    coll && coll->isCapped());
        }
        auto cursor = std::make_unique<ClientCursor>();
        cursor->nss = nss;
        if (cmd.getTailable()) {
            // Tailable: natural order, resumes after the last record on each getMore.
            opCtx->setPlanSummary("COLLSCAN");
            cursor->source = std::make_unique<TailableCappedSource>(
                coll.getCollection(), params.matcher, params.projection, params.skip, params.limit);
        } else {
            auto exec = buildFindPlan(opCtx, coll.getCollection(), params);
            opCtx->setPlanSummary(exec->planSummary());
            cursor->source = std::make_unique<ExecutorCursorSource>(std::move(exec));
        }
        cursor->requestResumeToken = requestResumeToken;
        cursor->showRecordId = cmd.getShowRecordId();
        cursor->clusteredRecordIds = clustered;
        cursor->noCursorTimeout = cmd.getNoCursorTimeout();
        cursor->tailable = cmd.getTailable();
        cursor->awaitData = cmd.getAwaitData();
        cursor->originatingCommand = req.body.getOwned();
        runBatchAndReply(opCtx, std::move(cursor), batchSize, singleBatch, true, result);
    }
};
MONGO_REGISTER_COMMAND(FindCmd)

class GetMoreCmd : public Command {
public:
    GetMoreCmd() : Command("getMore") {}
    ReadWriteType getReadWriteType() const override {
        return ReadWriteType::kRead;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = GetMoreCommandRequest::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollection());
        long long id = cmd.getCommandParameter();
        auto* cm = opCtx->getServiceContext()->cursorManager;
        opCtx->getServiceContext()->opCounters.getmore.fetch_add(1);
        auto cursor = uassertStatusOK(cm->checkOut(id, nss));
        if (cursor->apiParameters != opCtx->apiParameters()) {
            const std::string msg = "API parameter mismatch: getMore used params " +
                                    opCtx->apiParameters().toBSON().toString() +
                                    ", the cursor-creating command used params " +
                                    cursor->apiParameters.toBSON().toString();
            cm->checkIn(std::move(cursor));
            uasserted(ErrorCodes::APIMismatchError, msg);
        }
        // maxTimeMS on a getMore bounds an awaitData cursor's wait; other cursors refuse it
        // (and stay open).
        if (!req.body["maxTimeMS"].eoo() && !cursor->awaitData) {
            cm->checkIn(std::move(cursor));
            uasserted(ErrorCodes::BadValue,
                      "cannot set maxTimeMS on getMore command for a non-awaitData cursor");
        }
        opCtx->setPlanSummary(cursor->planSummary);
        // The cursor's snapshot continues in this operation.
        auto ownRu = opCtx->swapRecoveryUnit(std::move(cursor->ru));
        try {
            long long batchSize = cmd.getBatchSize().value_or(0);
            BSONObjBuilder cursorObj(result.subobjStart("cursor"));
            BSONArrayBuilder batch(cursorObj.subarrayStart("nextBatch"));
            bool exhausted = cursor->tailable
                                 ? fillTailableBatch(opCtx, cursor.get(), batchSize, &batch)
                                 : fillBatch(opCtx, cursor.get(), batchSize, &batch);
            batch.done();
            appendPostBatchResumeToken(*cursor, &cursorObj);
            cursorObj.append("id", exhausted ? 0LL : id);
            cursorObj.append("ns", nss.ns());
            cursorObj.done();
            if (exhausted) {
                cursor->ru = opCtx->swapRecoveryUnit(std::move(ownRu));
                cm->checkIn(std::move(cursor));
                cm->kill(id);
                return;
            }
        } catch (...) {
            cursor->ru = opCtx->swapRecoveryUnit(std::move(ownRu));
            cm->checkIn(std::move(cursor));
            cm->kill(id);
            throw;
        }
        cursor->ru = opCtx->swapRecoveryUnit(std::move(ownRu));
        cm->checkIn(std::move(cursor));
    }
};
MONGO_REGISTER_COMMAND(GetMoreCmd)

class KillCursorsCmd : public Command {
public:
    KillCursorsCmd() : Command("killCursors") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = KillCursorsCommandRequest::parse(req.body);
        auto* cm = opCtx->getServiceContext()->cursorManager;
        BSONArrayBuilder killed, notFound;
        for (long long id : cmd.getCursors()) {
            if (cm->kill(id))
                killed.append(id);
            else
                notFound.append(id);
        }
        result.append("cursorsKilled", killed.arr());
        result.append("cursorsNotFound", notFound.arr());
        result.append("cursorsAlive", BSONArray());
        result.append("cursorsUnknown", BSONArray());
    }
};
MONGO_REGISTER_COMMAND(KillCursorsCmd)

}  // namespace
}  // namespace mongo
