// currentOp and killOp. currentOp runs, like upstream, the aggregation
// [{$currentOp: {idleConnections: $all, allUsers: !$ownOps, truncateOps: true}},
//  {$match: <the other non-generic fields>}] and returns {inprog: [...]}.
// killOp marks the operation killed; it stops with Interrupted 11601 at its next
// interrupt check. Both run on admin only.
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/client_registry.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/pipeline/pipeline_d.h"
#include "mongo/idl/generic_argument.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class CurrentOpCmd : public Command {
public:
    CurrentOpCmd() : Command("currentOp") {}
    bool adminOnly() const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        const BSONObj& body = req.body;
        BSONObjBuilder filter;
        bool first = true;
        for (const auto& e : body) {
            StringData n = e.fieldNameStringData();
            if (first || n == "$all" || n == "$ownOps" || n == "$truncateOps" ||
                isGenericArgument(n)) {
                first = false;
                continue;
            }
            filter.append(e);
        }
        std::vector<BSONObj> stages;
        stages.push_back(
            BSON("$currentOp" << BSON("idleConnections" << body["$all"].trueValue() << "allUsers"
                                                        << !body["$ownOps"].trueValue()
                                                        << "truncateOps" << true)));
        stages.push_back(BSON("$match" << filter.obj()));
        AggregationRequestOptions opts;
        opts.collectionless = true;
        PreparedPipeline prepared =
            preparePipeline(opCtx, NamespaceString("admin", "$cmd.aggregate"), stages, opts);
        BSONArrayBuilder inprog(result.subarrayStart("inprog"));
        while (auto doc = prepared.pipeline->getNext())
            inprog.append(*doc);
    }
};
MONGO_REGISTER_COMMAND(CurrentOpCmd)

/**
 * The opid of {killOp: 1, op: <number>}: NoSuchKey 4 when missing, TypeMismatch 14 when
 * not a number, BadValue 2 when not an integer, 26823 outside the 32-bit range.
 */
long long parseOpId(const BSONObj& body) {
    BSONElement op = body["op"];
    uassert(ErrorCodes::NoSuchKey, "Missing expected field \"op\"", !op.eoo());
    uassert(ErrorCodes::TypeMismatch,
            "\"op\" had the wrong type. Expected number, found " + std::string(typeName(op.type())),
            op.isNumber());
    const double d = op.numberDouble();
    uassert(
        ErrorCodes::BadValue,
        "Expected field \"op\" to have a value exactly representable as a 64-bit integer, "
        "but found " +
            op.toString(),
        op.type() != BSONType::kNumberDouble ||
            (d == static_cast<double>(static_cast<long long>(d)) && d >= -9.2e18 && d <= 9.2e18));
    const long long id =
        op.type() == BSONType::kNumberDouble ? static_cast<long long>(d) : op.numberLong();
    uassert(26823,
            "invalid op : " + std::to_string(id) + ". Op ID cannot be represented with 32 bits",
            id >= std::numeric_limits<int>::min() && id <= std::numeric_limits<int>::max());
    // Opids are unsigned 32-bit numbers shown as int: negative values are the high half.
    return static_cast<long long>(static_cast<unsigned int>(id));
}

class KillOpCmd : public Command {
public:
    KillOpCmd() : Command("killOp") {}
    bool adminOnly() const override {
        return true;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        const long long opId = parseOpId(req.body);
        result.append("info", "attempting to kill op");
        LOGV2(20482, "Going to kill op", BSON("opId" << opId));
        // Like upstream, success whether or not such an operation runs.
        ClientRegistry::get().killOp(opId);
    }
};
MONGO_REGISTER_COMMAND(KillOpCmd)

}  // namespace
}  // namespace mongo
