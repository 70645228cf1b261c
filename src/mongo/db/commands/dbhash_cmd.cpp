// dbHash: {dbHash: 1, collections?: [names]} -> per-collection MD5s and a
// database MD5 (repl/dbhash.h), so two nodes' data can be compared.
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/dbhash.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class DbHashCmd : public Command {
public:
    DbHashCmd() : Command("dbHash", {"dbhash"}) {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        std::vector<std::string> only;
        if (BSONElement c = req.body["collections"]; !c.eoo()) {
            uassert(ErrorCodes::BadValue, "collections must be an array",
                    c.type() == BSONType::kArray);
            for (auto e : c.Obj()) {
                uassert(ErrorCodes::BadValue, "collections entries must be strings",
                        e.type() == BSONType::kString);
                only.push_back(e.str());
            }
        }
        repl::appendDbHash(opCtx, req.dbName, only, repl::ReplicationCoordinator::get()->me(),
                           &result);
    }
};
MONGO_REGISTER_COMMAND(DbHashCmd)

}  // namespace
}  // namespace mongo
