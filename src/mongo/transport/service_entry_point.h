// ServiceEntryPoint: what the transport layer calls for each request message.
// The db layer implements it (command dispatch); tests use tiny fakes.
#pragma once

#include "mongo/rpc/message.h"

namespace mongo {

class Client;

struct DbResponse {
    /** The reply; empty means "send nothing" (moreToCome requests). */
    Message response;
    /** Close the connection after sending `response` (if any). */
    bool closeConnection = false;
};

class ServiceEntryPoint {
public:
    virtual ~ServiceEntryPoint() = default;

    /**
     * Handles one request on `client`'s connection thread. The transport layer sets the
     * reply's responseTo to the request id. An exception escaping this function is
     * logged and the connection is closed (the server keeps running).
     */
    virtual DbResponse handleRequest(Client& client, const Message& request) = 0;

    /** Called on the connection thread after accept / before the thread ends. */
    virtual void onClientConnect(Client& client) {}
    virtual void onClientDisconnect(Client& client) {}
};

}  // namespace mongo
