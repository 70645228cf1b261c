// explain: the plan (and with executionStats, the run statistics) of a find, count,
// distinct, delete, update or findAndModify (writes: their read plan; nothing is written).
// explain of an aggregate is answered by the aggregate command with `explain: true`
// (queryPlanner), or with executionStats by running the pipeline here (pipeline_d.h
// appendPipelineExplain).
#include <unistd.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/find_helpers.h"
#include "mongo/db/commands/update_util.h"
#include "mongo/db/db_raii.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/matcher/explain_filter.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source_geo_near.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/pipeline_d.h"
#include "mongo/db/pipeline/update_pipeline.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/timeseries_modify.h"
#include "mongo/db/timeseries/timeseries_write_ops.h"
#include "mongo/db/update/update_driver.h"
#include "mongo/idl/aggregate_command_gen.h"
#include "mongo/idl/count_command_gen.h"
#include "mongo/idl/explain_command_gen.h"
#include "mongo/idl/find_command_gen.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/idl/write_ops_gen.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/time_support.h"

namespace mongo {
namespace {

enum class Verbosity { kQueryPlanner, kExecStats, kAllPlans };

Verbosity parseVerbosity(const BSONElement& e) {
    if (e.eoo())
        return Verbosity::kAllPlans;
    uassert(ErrorCodes::FailedToParse, "verbosity string must be a string",
            e.type() == BSONType::kString);
    StringData v = e.valueStringData();
    if (v == "queryPlanner")
        return Verbosity::kQueryPlanner;
    if (v == "executionStats")
        return Verbosity::kExecStats;
    if (v == "allPlansExecution")
        return Verbosity::kAllPlans;
    uasserted(
        ErrorCodes::FailedToParse,
        "verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}");
}

void appendServerInfo(OperationContext* opCtx, BSONObjBuilder& result) {
    char host[256] = {0};
    gethostname(host, sizeof(host) - 1);
    const int port = opCtx->getServiceContext()->options.port;
    result.append("serverInfo", BSON("host" << host << "port" << port << "version"
                                            << "8.0.0"
                                            << "gitVersion"
                                            << "0000000000000000000000000000000000000000"));
}

/** Runs `exec` to the end (when asked) and appends queryPlanner / executionStats. */
void explainExecutor(OperationContext* opCtx, const NamespaceString& nss,
                     const FindPlanParams& params, PlanExecutor* exec, Verbosity verbosity,
                     const BSONObj& innerCmd, BSONObjBuilder& result) {
    BSONObj winningPlan = exec->explainPlan(false);
    long long millis = 0;
    if (verbosity != Verbosity::kQueryPlanner) {
        long long start = curTimeMicros64();
        BSONObj doc;
        while (exec->getNext(opCtx, &doc)) {
        }
        millis = (curTimeMicros64() - start) / 1000;
    }
    result.append("explainVersion", "1");
    {
        BSONObjBuilder qp(result.subobjStart("queryPlanner"));
        qp.append("namespace", nss.ns());
        qp.append("parsedQuery", params.matcher ? serializeForExplain(*params.matcher) : BSONObj());
        qp.append("indexFilterSet", false);
        qp.append("planCacheShapeHash", "00000000");
        qp.append("maxIndexedOrSolutionsReached", false);
        qp.append("maxIndexedAndSolutionsReached", false);
        qp.append("maxScansToExplodeReached", false);
        qp.append("prunedSimilarIndexes", false);
        qp.append("winningPlan", winningPlan);
        qp.append("rejectedPlans", BSONArray());
    }
    if (verbosity != Verbosity::kQueryPlanner) {
        StageStats t = exec->totals();
        BSONObjBuilder es(result.subobjStart("executionStats"));
        es.append("executionSuccess", true);
        es.appendNumber("nReturned", exec->nReturned());
        es.appendNumber("executionTimeMillis", millis);
        es.appendNumber("totalKeysExamined", t.keysExamined);
        es.appendNumber("totalDocsExamined", t.docsExamined);
        es.append("executionStages", exec->explainPlan(true));
        if (verbosity == Verbosity::kAllPlans)
            es.append("allPlansExecution", BSONArray());
    }
    result.append("command", innerCmd);
    appendServerInfo(opCtx, result);
}

/**
 * explain of an aggregate with executionStats / allPlansExecution: runs the pipeline to the
 * end (pipeline_d.h appendPipelineExplain). The aggregate command's own `explain: true` is
 * queryPlanner only, so this path does not go through it.
 */
void explainAggregateExecution(OperationContext* opCtx, const std::string& dbName,
                               const BSONObj& cmdObj, Verbosity verbosity, BSONObjBuilder& result) {
    auto cmd = AggregateCommandRequest::parse(cmdObj);
    NamespaceString nss;
    bool collectionless = false;
    if (const auto* name = std::get_if<std::string>(&cmd.getCommandParameter())) {
        nss = NamespaceString(dbName, *name);
        uassertStatusOK(nss.validateCollectionName());
    } else {
        uassert(ErrorCodes::FailedToParse,
                "Invalid command format: the 'aggregate' field must specify a collection name or 1",
                std::get<std::int64_t>(cmd.getCommandParameter()) == 1);
        nss = NamespaceString(dbName, "$cmd.aggregate");
        collectionless = true;
    }
    // The hint too: the plan explained is the one aggregate runs.
    AggregationRequestOptions opts = aggregationOptions(opCtx, nss, cmd, collectionless, true);
    std::vector<BSONObj> stages(cmd.getPipeline().begin(), cmd.getPipeline().end());
    BSONObj rollupsExplain;
    PreparedPipeline prepared =
        prepareAggregatePipeline(opCtx, nss, cmd, stages, opts, &rollupsExplain);
    appendPipelineExplain(opCtx, prepared, result,
                          verbosity == Verbosity::kAllPlans ? ExplainVerbosity::kAllPlansExecution
                                                            : ExplainVerbosity::kExecutionStats);
    if (!rollupsExplain.isEmpty())
        result.append("rollups", rollupsExplain);
    result.append("command", cmdObj);
    appendServerInfo(opCtx, result);
}

/** What explain needs of a delete/update statement on a time-series view. */
struct TimeseriesWriteExplain {
    BSONObj query;
    BSONObj hint;
    bool isDelete = true;
    bool multi = true;
    bool upsert = false;
    std::optional<UpdateDriver> driver;
    std::optional<BSONObj> collation;  // the statement's; nullopt: the collection's default
};

/**
 * explain of a delete/update on a time-series view (spec §5.5): a TS_MODIFY (or DELETE)
 * plan over the buckets; executionStats runs the statement without committing anything.
 */
void explainTimeseriesWrite(OperationContext* opCtx, timeseries::TimeseriesCollection ts,
                            const TimeseriesWriteExplain& w, Verbosity verbosity,
                            const BSONObj& innerCmd, BSONObjBuilder& result) {
    AutoGetCollection buckets(opCtx, ts.bucketsNss, AutoGetCollection::Mode::kRead);
    timeseries::attachBuckets(&ts, buckets.getCollection());
    result.append("explainVersion", "1");
    BSONObj plan = timeseries::explainTimeseriesModify(opCtx, ts, w.query, w.hint, w.isDelete,
                                                       w.multi, w.collation, nullptr);
    {
        BSONObjBuilder qp(result.subobjStart("queryPlanner"));
        qp.append("namespace", ts.bucketsNss.ns());
        // As upstream: the query of the buckets the plan reads (closed buckets excluded).
        qp.append("parsedQuery", normalizeFilterForExplain(timeseries::timeseriesModifyBucketFilter(
                                     ts, w.query, w.collation)));
        qp.append("indexFilterSet", false);
        qp.append("winningPlan", plan);
        qp.append("rejectedPlans", BSONArray());
    }
    if (verbosity != Verbosity::kQueryPlanner) {
        long long start = curTimeMicros64();
        timeseries::TimeseriesModifyStats stats;
        if (w.isDelete) {
            timeseries::TimeseriesDeleteOp op{w.query, w.hint, w.multi, w.collation};
            stats = timeseries::deleteTimeseriesMeasurements(opCtx, ts, op,
                                                             timeseries::ModifyMode::kExplain);
        } else {
            timeseries::TimeseriesUpdateOp op;
            op.query = w.query;
            op.driver = &*w.driver;
            op.hint = w.hint;
            op.multi = w.multi;
            op.upsert = w.upsert;
            op.collation = w.collation;
            stats = timeseries::updateTimeseriesMeasurements(opCtx, ts, op,
                                                             timeseries::ModifyMode::kExplain)
                        .stats;
        }
        long long millis = (curTimeMicros64() - start) / 1000;
        BSONObjBuilder es(result.subobjStart("executionStats"));
        es.append("executionSuccess", true);
        es.appendNumber("nReturned", 0LL);
        es.appendNumber("executionTimeMillis", millis);
        es.append("executionStages",
                  timeseries::explainTimeseriesModify(opCtx, ts, w.query, w.hint, w.isDelete,
                                                      w.multi, w.collation, &stats));
        if (verbosity == Verbosity::kAllPlans)
            es.append("allPlansExecution", BSONArray());
    }
    result.append("command", innerCmd);
    appendServerInfo(opCtx, result);
}

/**
 * find and count on a view (time-series views included), and find with $near, run as an
 * aggregate (find_cmd.cpp, count_cmds.cpp); their explain is that aggregate's, as upstream
 * shows it. nullopt for a query on a collection.
 */
std::optional<BSONObj> queryAsAggregate(OperationContext* opCtx, StringData name,
                                        const BSONObj& cmdObj, const std::string& dbName) {
    std::vector<BSONObj> stages;
    std::string coll;
    std::optional<BSONObj> collation, let;
    if (name == "find") {
        auto cmd = FindCommandRequest::parse(cmdObj);
        NamespaceString nss(dbName, cmd.getCollectionName());
        std::string nearPath;
        if (!isView(opCtx, nss) && !nearFilterToGeoNear(cmd.getFilter(), &nearPath))
            return std::nullopt;
        long long limit = cmd.getLimit().value_or(0);
        stages = findToPipeline(cmd.getFilter(), cmd.getSort(), cmd.getProjection(),
                                cmd.getSkip().value_or(0), limit < 0 ? -limit : limit);
        coll = cmd.getCollectionName();
        collation = cmd.getCollation();
        let = cmd.getLet();
    } else if (name == "count") {
        auto cmd = CountCommandRequest::parse(cmdObj);
        NamespaceString nss(dbName, cmd.getCollectionName());
        if (!isView(opCtx, nss))
            return std::nullopt;
        long long limit = cmd.getLimit().value_or(0);
        stages = findToPipeline(cmd.getQuery(), BSONObj(), BSONObj(), cmd.getSkip().value_or(0),
                                limit < 0 ? -limit : limit);
        stages.push_back(BSON("$count"
                              << "n"));
        coll = cmd.getCollectionName();
        collation = cmd.getCollation();
    } else {
        return std::nullopt;
    }
    BSONObjBuilder b;
    b.append("aggregate", coll);
    BSONArrayBuilder arr(b.subarrayStart("pipeline"));
    for (const auto& st : stages)
        arr.append(st);
    arr.done();
    b.append("cursor", BSONObj());
    if (collation)
        b.append("collation", *collation);
    if (let)
        b.append("let", *let);
    // The hint travels with the query ({$natural: -1} reverses the buckets' scan).
    if (BSONElement hint = cmdObj["hint"];
        !hint.eoo() && !(hint.type() == BSONType::kObject && hint.Obj().isEmpty()))
        b.append(hint);
    b.append("$db", dbName);
    return b.obj();
}

class ExplainCmd : public Command {
public:
    ExplainCmd() : Command("explain") {}

    /** The explained command must itself keep to API Version 1 (under the explain's params). */
    void checkAPIStrictFields(const OperationContext* opCtx,
                              const CommandRequest& req) const override {
        BSONElement inner = req.body.firstElement();
        if (inner.type() != BSONType::kObject || inner.embeddedObject().isEmpty())
            return;
        if (const Command* explained =
                CommandRegistry::find(inner.embeddedObject().firstElementFieldNameStringData())) {
            CommandRequest sub = req;
            sub.body = inner.embeddedObject();
            explained->checkAPIStrictFields(opCtx, sub);
        }
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        BSONElement inner = req.body.firstElement();
        uassert(ErrorCodes::BadValue, "explain command requires a nested object",
                inner.type() == BSONType::kObject);
        ExplainCommandRequest::parse(req.body);  // unknown fields: IDLUnknownField 40415
        Verbosity verbosity = parseVerbosity(req.body["verbosity"]);
        // The explained command runs in the explain's database: a $db of its own must name it.
        BSONElement innerDb = inner.embeddedObject()["$db"];
        uassert(
            ErrorCodes::InvalidNamespace,
            "Mismatched $db in explain command. Expected " + std::string(req.dbName) + " but got " +
                (innerDb.type() == BSONType::kString ? innerDb.str() : innerDb.toString(false)),
            innerDb.eoo() ||
                (innerDb.type() == BSONType::kString && innerDb.valueStringData() == req.dbName));
        BSONObjBuilder withDb;
        withDb.appendElements(inner.embeddedObject());
        if (innerDb.eoo())
            withDb.append("$db", req.dbName);
        BSONObj cmdObj = withDb.obj();
        StringData name = cmdObj.firstElementFieldNameStringData();

        if (name != "aggregate") {
            if (auto aggCmd = queryAsAggregate(opCtx, name, cmdObj, req.dbName)) {
                cmdObj = *aggCmd;
                name = "aggregate";
            }
        }
        if (name == "aggregate") {
            Command* agg = CommandRegistry::find("aggregate");
            uassert(ErrorCodes::CommandNotFound, "no such command: 'aggregate'", agg);
            BSONObjBuilder b;
            b.appendElements(cmdObj);
            b.append("explain", true);
            CommandRequest sub = req;
            sub.body = b.obj();
            if (verbosity == Verbosity::kQueryPlanner) {
                agg->run(opCtx, sub, result);
                result.append("command", cmdObj);
                return;
            }
            explainAggregateExecution(opCtx, req.dbName, cmdObj, verbosity, result);
            return;
        }
        FindPlanParams params;
        std::string distinctKey;  // set for distinct: its plan may be a DISTINCT_SCAN
        // params.collator points into it: alive until the plan is explained.
        std::shared_ptr<const CollatorInterface> collator;
        NamespaceString nss;
        if (name == "find") {
            auto cmd = FindCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            params =
                makeFindParams(cmd.getFilter(), cmd.getSort(), cmd.getProjection(), cmd.getHint(),
                               {opCtx, nss, cmd.getLet().value_or(BSONObj()),
                                (collator = resolveCollator(opCtx, nss, cmd.getCollation()))});
            params.skip = cmd.getSkip().value_or(0);
            params.limit = cmd.getLimit().value_or(0);
            params.min = cmd.getMin().getOwned();
            params.max = cmd.getMax().getOwned();
            params.returnKey = cmd.getReturnKey();
            params.allowDiskUse = cmd.getAllowDiskUse().value_or(gAllowDiskUseByDefault.load());
            params.allowExpress = true;
            params.needsTextScore =
                mentionsTextScore(cmd.getProjection()) || mentionsTextScore(cmd.getSort());
        } else if (name == "count") {
            auto cmd = CountCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            params = makeFindParams(
                cmd.getQuery(), BSONObj(), BSONObj(), cmd.getHint(),
                {opCtx, nss, {}, (collator = resolveCollator(opCtx, nss, cmd.getCollation()))});
        } else if (name == "delete") {
            auto cmd = DeleteCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            uassert(ErrorCodes::InvalidLength, "explained write batches must be of size 1",
                    cmd.getDeletes().size() == 1);
            const auto& d = cmd.getDeletes()[0];
            if (auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss)) {
                uassert(ErrorCodes::FailedToParse,
                        "The limit field in delete objects must be 0 or 1. Got " +
                            std::to_string(d.getLimit()),
                        d.getLimit() == 0 || d.getLimit() == 1);
                TimeseriesWriteExplain w;
                w.query = d.getQ();
                w.hint = timeseries::hintToBSON(d.getHint());
                w.multi = d.getLimit() == 0;
                w.collation = d.getCollation();
                explainTimeseriesWrite(opCtx, std::move(*ts), w, verbosity, cmdObj, result);
                return;
            }
            params = makeFindParams(
                d.getQ(), BSONObj(), BSONObj(), d.getHint(),
                {opCtx, nss, {}, (collator = resolveCollator(opCtx, nss, d.getCollation()))});
            params.limit = d.getLimit();
            // executionStats run the read plan only: what would be deleted, nothing deleted.
        } else if (name == "update") {
            auto cmd = UpdateCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            uassert(ErrorCodes::InvalidLength, "explained write batches must be of size 1",
                    cmd.getUpdates().size() == 1);
            const auto& u = cmd.getUpdates()[0];
            if (auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss)) {
                TimeseriesWriteExplain w;
                w.query = u.getQ();
                w.hint = timeseries::hintToBSON(u.getHint());
                w.isDelete = false;
                w.multi = u.getMulti();
                w.upsert = u.getUpsert();
                w.collation = u.getCollation();
                collator = resolveCollator(opCtx, nss, u.getCollation());
                w.driver.emplace(parseUpdateOpEntry(
                    u,
                    {opCtx, nss, cmd.getLet().value_or(BSONObj()), std::nullopt, collator.get()}));
                explainTimeseriesWrite(opCtx, std::move(*ts), w, verbosity, cmdObj, result);
                return;
            }
            params = makeFindParams(
                u.getQ(), BSONObj(), BSONObj(), u.getHint(),
                {opCtx, nss, {}, (collator = resolveCollator(opCtx, nss, u.getCollation()))});
            if (!u.getMulti())
                params.limit = 1;
        } else if (name == "findAndModify" || name == "findandmodify") {
            // The plan that finds the document (its read part); nothing is written.
            auto cmd = FindAndModifyCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            checkFindAndModifyOptions(cmd);
            if (auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss)) {
                // On a time-series view: the TS_MODIFY plan of the one measurement it
                // deletes or updates, as for delete and update.
                TimeseriesWriteExplain w;
                w.query = cmd.getQuery();
                w.hint = timeseries::hintToBSON(cmd.getHint());
                w.isDelete = cmd.getRemove().value_or(false);
                w.multi = false;
                w.upsert = cmd.getUpsert().value_or(false);
                w.collation = cmd.getCollation();
                collator = resolveCollator(opCtx, nss, cmd.getCollation());  // outlives w
                if (!w.isDelete) {
                    w.driver.emplace(parseUpdateStatement(
                        *cmd.getUpdate(), cmd.getArrayFilters().value_or(std::vector<BSONObj>()),
                        {opCtx, nss, cmd.getLet().value_or(BSONObj()), std::nullopt,
                         collator.get()}));
                    w.driver->setCollator(collator.get());
                }
                explainTimeseriesWrite(opCtx, std::move(*ts), w, verbosity, cmdObj, result);
                return;
            }
            params = makeFindParams(cmd.getQuery(), cmd.getSort().value_or(BSONObj()), BSONObj(),
                                    cmd.getHint(),
                                    {opCtx, nss, cmd.getLet().value_or(BSONObj()),
                                     (collator = resolveCollator(opCtx, nss, cmd.getCollation()))});
            params.limit = 1;
        } else if (name == "distinct") {
            auto cmd = DistinctCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            distinctKey = cmd.getKey();
            params = makeFindParams(
                cmd.getQuery().value_or(BSONObj()), BSONObj(), BSONObj(), cmd.getHint(),
                {opCtx, nss, {}, (collator = resolveCollator(opCtx, nss, cmd.getCollation()))});
        } else {
            uasserted(ErrorCodes::CommandNotFound,
                      "Explain failed due to unknown command: " + std::string(name));
        }
        AutoGetCollection coll(opCtx, nss, AutoGetCollection::Mode::kRead);
        // The plan the command itself runs: distinct may scan one key per value.
        std::unique_ptr<PlanExecutor> exec =
            distinctKey.empty()
                ? buildFindPlan(opCtx, coll.getCollection(), params)
                : buildDistinctPlan(opCtx, coll.getCollection(), distinctKey, params,
                                    FindExpressionContext{opCtx, nss, {}, collator});
        explainExecutor(opCtx, nss, params, exec.get(), verbosity, cmdObj, result);
    }
};
MONGO_REGISTER_COMMAND(ExplainCmd)

}  // namespace
}  // namespace mongo
