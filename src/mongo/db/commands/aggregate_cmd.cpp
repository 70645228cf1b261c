// aggregate: parses the pipeline, resolves views, pushes the leading stages into
// the find layer, and returns the results as a cursor (or the explain output).
#include <memory>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/coll_mod.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/cursor_response.h"
#include "mongo/db/commands/find_helpers.h"
#include "mongo/db/cursor_manager.h"
#include "mongo/db/db_raii.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/pipeline/pipeline_d.h"
#include "mongo/db/service_context.h"
#include "mongo/idl/aggregate_command_gen.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr long long kDefaultBatchSize = 101;

class AggregateCmd : public Command {
public:
    AggregateCmd() : Command("aggregate") {}
    /** A pipeline ending in $out or $merge writes. */
    bool writesData(const CommandRequest& req) const override {
        BSONElement pipeline = req.body["pipeline"];
        if (pipeline.type() != BSONType::kArray)
            return false;
        for (auto stage : pipeline.embeddedObject()) {
            if (stage.type() != BSONType::kObject || stage.embeddedObject().isEmpty())
                continue;
            StringData name = stage.embeddedObject().firstElementFieldNameStringData();
            if (name == "$out" || name == "$merge")
                return true;
        }
        return false;
    }
    ReadWriteType getReadWriteType() const override {
        return ReadWriteType::kRead;
    }

    void checkAPIStrictFields(const OperationContext* opCtx,
                              const CommandRequest& req) const override {
        uassertStableFields(opCtx, "aggregate", req.body,
                            AggregateCommandRequest::unstableFieldNames());
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = AggregateCommandRequest::parse(req.body);
        bool explain = cmd.getExplain().value_or(false);
        uassert(ErrorCodes::FailedToParse,
                "The 'cursor' option is required, except for aggregate with the explain argument",
                explain || cmd.getCursor());
        uassert(ErrorCodes::FailedToParse, "Cannot specify batchSize with explain",
                !(explain && cmd.getCursor() && cmd.getCursor()->getBatchSize()));

        NamespaceString nss;
        bool collectionless = false;
        if (const auto* name = std::get_if<std::string>(&cmd.getCommandParameter())) {
            nss = NamespaceString(req.dbName, *name);
            uassertStatusOK(nss.validateCollectionName());
            if (const auto& uuid = cmd.getCollectionUUID()) {
                const bool changeStream =
                    !cmd.getPipeline().empty() &&
                    cmd.getPipeline().front().firstElementFieldNameStringData() == "$changeStream";
                uassert(4928900, "collectionUUID is not supported on change streams",
                        !changeStream);
                checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
            }
        } else {
            uassert(4928901, "collectionUUID is not supported on collectionless aggregations",
                    !cmd.getCollectionUUID());
            uassert(ErrorCodes::FailedToParse,
                    "Invalid command format: the 'aggregate' field must specify a collection "
                    "name or 1",
                    std::get<std::int64_t>(cmd.getCommandParameter()) == 1);
            nss = NamespaceString(req.dbName, "$cmd.aggregate");
            collectionless = true;
        }

        AggregationRequestOptions opts =
            aggregationOptions(opCtx, nss, cmd, collectionless, explain);
        std::vector<BSONObj> stages(cmd.getPipeline().begin(), cmd.getPipeline().end());

        BSONObj rollupsExplain;
        PreparedPipeline prepared =
            prepareAggregatePipeline(opCtx, nss, cmd, stages, opts, &rollupsExplain);
        if (explain) {
            appendPipelineExplain(opCtx, prepared, result);
            if (!rollupsExplain.isEmpty())
                result.append("rollups", rollupsExplain);
            return;
        }
        long long batchSize = cmd.getCursor()->getBatchSize().value_or(kDefaultBatchSize);
        auto cursor = std::make_unique<ClientCursor>();
        cursor->nss = nss;
        cursor->source = std::make_unique<PipelineCursorSource>(std::move(prepared.pipeline));
        cursor->originatingCommand = req.body.getOwned();
        runBatchAndReply(opCtx, std::move(cursor), batchSize, false, true, result);
    }
};
MONGO_REGISTER_COMMAND(AggregateCmd)

}  // namespace
}  // namespace mongo
