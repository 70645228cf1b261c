// explain: the plan (and with executionStats, the run statistics) of a find,
// count, distinct, delete or update. explain of an aggregate is answered by the
// aggregate command with `explain: true`.
#include <unistd.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/find_helpers.h"
#include "mongo/db/db_raii.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/operation_context.h"
#include "mongo/idl/count_command_gen.h"
#include "mongo/idl/find_command_gen.h"
#include "mongo/idl/write_ops_gen.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/time_support.h"

namespace mongo {
namespace {

enum class Verbosity { kQueryPlanner, kExecStats, kAllPlans };

Verbosity parseVerbosity(const BSONElement& e) {
    if (e.eoo())
        return Verbosity::kAllPlans;
    uassert(ErrorCodes::FailedToParse, "verbosity string must be a string", e.type() == BSONType::kString);
    StringData v = e.valueStringData();
    if (v == "queryPlanner")
        return Verbosity::kQueryPlanner;
    if (v == "executionStats")
        return Verbosity::kExecStats;
    if (v == "allPlansExecution")
        return Verbosity::kAllPlans;
    uasserted(ErrorCodes::FailedToParse, "verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}");
}

void appendServerInfo(BSONObjBuilder& result) {
    char host[256] = {0};
    gethostname(host, sizeof(host) - 1);
    result.append("serverInfo", BSON("host" << host << "port" << 27017 << "version" << "8.0.0"
                                            << "gitVersion" << "0000000000000000000000000000000000000000"));
}

/** Runs `exec` to the end (when asked) and appends queryPlanner / executionStats. */
void explainExecutor(OperationContext* opCtx, const NamespaceString& nss, const FindPlanParams& params,
                     PlanExecutor* exec, Verbosity verbosity, const BSONObj& innerCmd,
                     BSONObjBuilder& result) {
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
        qp.append("parsedQuery", params.matcher ? params.matcher->serialize() : BSONObj());
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
    appendServerInfo(result);
}

class ExplainCmd : public Command {
public:
    ExplainCmd() : Command("explain") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        BSONElement inner = req.body.firstElement();
        uassert(ErrorCodes::BadValue, "explain command requires a nested object",
                inner.type() == BSONType::kObject);
        Verbosity verbosity = parseVerbosity(req.body["verbosity"]);
        BSONObjBuilder withDb;
        withDb.appendElements(inner.embeddedObject());
        if (!inner.embeddedObject().hasField("$db"))
            withDb.append("$db", req.dbName);
        BSONObj cmdObj = withDb.obj();
        StringData name = cmdObj.firstElementFieldNameStringData();

        if (name == "aggregate") {
            Command* agg = CommandRegistry::find("aggregate");
            uassert(ErrorCodes::CommandNotFound, "no such command: 'aggregate'", agg);
            BSONObjBuilder b;
            b.appendElements(cmdObj);
            b.append("explain", true);
            CommandRequest sub = req;
            sub.body = b.obj();
            agg->run(opCtx, sub, result);
            return;
        }
        FindPlanParams params;
        NamespaceString nss;
        if (name == "find") {
            auto cmd = FindCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            params = makeFindParams(cmd.getFilter(), cmd.getSort(), cmd.getProjection(), cmd.getHint());
            params.skip = cmd.getSkip().value_or(0);
            params.limit = cmd.getLimit().value_or(0);
        } else if (name == "count") {
            auto cmd = CountCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            params = makeFindParams(cmd.getQuery(), BSONObj(), BSONObj(), cmd.getHint());
        } else if (name == "delete") {
            auto cmd = DeleteCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            uassert(ErrorCodes::InvalidLength, "explained write batches must be of size 1",
                    cmd.getDeletes().size() == 1);
            const auto& d = cmd.getDeletes()[0];
            params = makeFindParams(d.getQ(), BSONObj(), BSONObj(), d.getHint());
            params.limit = d.getLimit();
            verbosity = Verbosity::kQueryPlanner;  // explain must not delete
        } else if (name == "update") {
            auto cmd = UpdateCommandRequest::parse(cmdObj);
            nss = NamespaceString(req.dbName, cmd.getCollectionName());
            uassert(ErrorCodes::InvalidLength, "explained write batches must be of size 1",
                    cmd.getUpdates().size() == 1);
            const auto& u = cmd.getUpdates()[0];
            params = makeFindParams(u.getQ(), BSONObj(), BSONObj(), u.getHint());
            if (!u.getMulti())
                params.limit = 1;
            verbosity = Verbosity::kQueryPlanner;
        } else {
            uasserted(ErrorCodes::CommandNotFound,
                      "Explain failed due to unknown command: " + std::string(name));
        }
        AutoGetCollection coll(opCtx, nss, AutoGetCollection::Mode::kRead);
        auto exec = buildFindPlan(opCtx, coll.getCollection(), params);
        explainExecutor(opCtx, nss, params, exec.get(), verbosity, cmdObj, result);
    }
};
MONGO_REGISTER_COMMAND(ExplainCmd)

}  // namespace
}  // namespace mongo
