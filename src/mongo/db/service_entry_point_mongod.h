// The mongod command dispatcher: turns a request Message into a command call and
// the command's outcome into a reply. It is the single place where DBException is
// caught and turned into {ok: 0, errmsg, code, codeName}.
#pragma once

#include "mongo/bson/bsonobj.h"
#include "mongo/transport/service_entry_point.h"

namespace mongo {

class ServiceContext;

class ServiceEntryPointMongod : public ServiceEntryPoint {
public:
    explicit ServiceEntryPointMongod(ServiceContext* sc) : _sc(sc) {}
    DbResponse handleRequest(Client& client, const Message& request) override;
    void onClientConnect(Client& client) override;
    void onClientDisconnect(Client& client) override;

private:
    ServiceContext* _sc;
};

/**
 * Runs one command (already parsed) and returns the full reply document, ok field
 * included. Used by the dispatcher and by tests and internal callers.
 */
struct CommandRequest;
BSONObj runCommandDirect(ServiceContext* sc, Client* client, const CommandRequest& request);

}  // namespace mongo
