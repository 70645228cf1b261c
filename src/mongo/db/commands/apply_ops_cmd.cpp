// applyOps (admin): applies a list of oplog entries in order with
// repl::applyOplogEntry; command entries run the named DDL command through the
// command registry. Reply: {applied: n, results: [bool...]}; on the first
// failure the command fails with that entry's error.
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog_applier.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

void runOplogCommand(OperationContext* opCtx, StringData db, const BSONObj& cmd) {
    StringData name = cmd.firstElementFieldNameStringData();
    Command* c = CommandRegistry::find(name);
    uassert(ErrorCodes::OplogOperationUnsupported,
            "Applying command to the oplog is not supported: " + std::string(name), c);
    CommandRequest req;
    req.dbName = std::string(name == "renameCollection" ? StringData("admin") : db);
    req.body = cmd;
    if (name == "createIndexes" && !cmd["indexes"].ok()) {
        // Oplog form {createIndexes: coll, v, key, name, ...} -> command form.
        BSONObjBuilder spec;
        for (auto e : cmd) {
            if (e.fieldNameStringData() != "createIndexes")
                spec.append(e);
        }
        req.body = BSON("createIndexes" << cmd.firstElement().str() << "indexes"
                                        << BSON_ARRAY(spec.obj()));
    }
    {
        BSONObjBuilder withDb;
        withDb.appendElements(req.body);
        withDb.append("$db", req.dbName);
        req.body = withDb.obj();
    }
    BSONObjBuilder ignored;
    try {
        c->run(opCtx, req, ignored);
    } catch (const DBException& ex) {
        // Replaying is idempotent: dropping what is gone or creating what exists is fine.
        auto code = ex.code();
        if (code == ErrorCodes::NamespaceNotFound || code == ErrorCodes::NamespaceExists ||
            code == ErrorCodes::IndexNotFound)
            return;
        throw;
    }
}

class ApplyOpsCmd : public Command {
public:
    ApplyOpsCmd() : Command("applyOps") {}
    bool writesData(const CommandRequest&) const override {
        return true;
    }
    bool adminOnly() const override {
        return true;
    }
    bool isWriteCommand() const override {
        return true;
    }
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        BSONElement ops = req.body.firstElement();
        uassert(ErrorCodes::FailedToParse, "ops has to be an array",
                ops.type() == BSONType::kArray);
        repl::ApplyOpsOptions options;
        if (BSONElement u = req.body["alwaysUpsert"]; !u.eoo())
            options.alwaysUpsert = u.trueValue();
        options.runCommand = runOplogCommand;
        long long applied = 0;
        BSONArrayBuilder results;
        for (auto e : ops.Obj()) {
            uassert(ErrorCodes::FailedToParse, "each applyOps entry must be an object",
                    e.type() == BSONType::kObject);
            uassertStatusOK(repl::applyOplogEntry(opCtx, e.Obj(), options));
            results.append(true);
            ++applied;
        }
        result.append("applied", applied);
        result.append("results", results.arr());
    }
};
MONGO_REGISTER_COMMAND(ApplyOpsCmd)

}  // namespace
}  // namespace mongo
