// The logical session commands (logical_session_cache.h), with upstream's reply shapes:
// startSession {id: {id: UUID}, timeoutMinutes}, and {ok: 1} for refreshSessions,
// endSessions, killSessions and killAllSessions. killSessions/killAllSessions interrupt the
// operations running on the sessions (Interrupted 11601) and end them.
#include <cstring>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/client_registry.h"
#include "mongo/db/commands.h"
#include "mongo/db/logical_session_cache.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/transaction_table.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** A random (version 4) UUID. */
void appendNewUUID(BSONObjBuilder* b, StringData field) {
    unsigned char uuid[16];
    OID a = OID::gen();
    OID c = OID::gen();
    std::memcpy(uuid, a.view(), 8);
    std::memcpy(uuid + 8, c.view() + 4, 8);
    uuid[6] = (uuid[6] & 0x0F) | 0x40;
    uuid[8] = (uuid[8] & 0x3F) | 0x80;
    b->appendBinData(field, 16, newUUID, uuid);
}

/** Ends `lsids`: out of the session cache, their in-memory transaction state dropped. */
void endSessions(const std::vector<BSONObj>& lsids) {
    LogicalSessionCache::get().endSessions(lsids);
    repl::TransactionTable::get()->forgetSessions(lsids);
}

class StartSessionCmd : public Command {
public:
    StartSessionCmd() : Command("startSession") {}
    void run(OperationContext*, const CommandRequest&, BSONObjBuilder& result) override {
        BSONObjBuilder lsid;
        appendNewUUID(&lsid, "id");
        BSONObj id = lsid.obj();
        LogicalSessionCache::get().vivify(id, Date_t::now(), gMaxSessions.load());
        result.append("id", id);
        result.append("timeoutMinutes", gLocalLogicalSessionTimeoutMinutes.load());
    }
};
MONGO_REGISTER_COMMAND(StartSessionCmd)

class RefreshSessionsCmd : public Command {
public:
    RefreshSessionsCmd() : Command("refreshSessions") {}
    void run(OperationContext*, const CommandRequest& req, BSONObjBuilder&) override {
        const Date_t now = Date_t::now();
        for (const auto& lsid : parseSessionIds(getName(), req.body.firstElement()))
            LogicalSessionCache::get().vivify(lsid, now, gMaxSessions.load());
    }
};
MONGO_REGISTER_COMMAND(RefreshSessionsCmd)

class EndSessionsCmd : public Command {
public:
    EndSessionsCmd() : Command("endSessions") {}
    void run(OperationContext*, const CommandRequest& req, BSONObjBuilder&) override {
        endSessions(parseSessionIds(getName(), req.body.firstElement()));
    }
};
MONGO_REGISTER_COMMAND(EndSessionsCmd)

/** Interrupts the operations of the sessions `lsids` (every session when empty) and ends them. */
void killSessions(OperationContext* opCtx, std::vector<BSONObj> lsids) {
    const bool all = lsids.empty();
    std::set<std::string> keys;
    for (const auto& l : lsids)
        keys.insert(LogicalSessionCache::keyOf(l));
    const std::string self = opCtx->description().lsid.isEmpty()
                                 ? std::string()
                                 : LogicalSessionCache::keyOf(opCtx->description().lsid);
    ClientRegistry::get().killSessionOps([&](const BSONObj& lsid) {
        std::string key = LogicalSessionCache::keyOf(lsid);
        return key != self && (all || keys.count(key) > 0);  // not the killSessions itself
    });
    if (all)
        lsids = LogicalSessionCache::get().endAll();
    endSessions(lsids);
}

class KillSessionsCmd : public Command {
public:
    KillSessionsCmd() : Command("killSessions") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        killSessions(opCtx, parseSessionIds(getName(), req.body.firstElement()));
    }
};
MONGO_REGISTER_COMMAND(KillSessionsCmd)

class KillAllSessionsCmd : public Command {
public:
    KillAllSessionsCmd() : Command("killAllSessions") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        BSONElement users = req.body.firstElement();
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'killAllSessions' is the wrong type '" +
                    std::string(typeName(users.type())) + "', expected type 'array'",
                users.type() == BSONType::kArray);
        for (auto u : users.embeddedObject()) {
            uassert(ErrorCodes::TypeMismatch,
                    "BSON field 'killAllSessions' is the wrong type '" +
                        std::string(typeName(u.type())) + "', expected type 'object'",
                    u.type() == BSONType::kObject);
            for (const char* f : {"user", "db"}) {
                BSONElement e = u.embeddedObject()[f];
                uassert(40414,
                        "BSON field 'KillAllSessionsUser." + std::string(f) +
                            "' is missing but a required field",
                        !e.eoo());
                uassert(ErrorCodes::TypeMismatch,
                        "BSON field 'KillAllSessionsUser." + std::string(f) +
                            "' is the wrong type '" + std::string(typeName(e.type())) +
                            "', expected type 'string'",
                        e.type() == BSONType::kString);
            }
        }
        // Without authentication no session belongs to a named user: only [] (every user)
        // has sessions to kill.
        if (users.embeddedObject().isEmpty())
            killSessions(opCtx, {});
    }
};
MONGO_REGISTER_COMMAND(KillAllSessionsCmd)

}  // namespace
}  // namespace mongo
