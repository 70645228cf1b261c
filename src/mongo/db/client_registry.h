// ClientRegistry: the connections of this mongod and the operation each one is running,
// for currentOp/$currentOp, killOp and shutdown. The dispatcher registers a Client on
// connect, and each command's OperationContext for as long as it runs (ActiveOp).
//
// Thread safety: all methods may be called from any thread. A registered
// OperationContext is only read (or marked killed) under the registry's mutex, and is
// unregistered before it is destroyed. Operations without a client (internal ones) are
// not registered. Shutdown needs no registry: OperationContext::checkForInterrupt()
// reads ServiceContext::shuttingDown.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/pipeline/document_source_current_op.h"
#include "mongo/idl/error_codes_gen.h"

namespace mongo {

class Client;
class OperationContext;
struct CommandRequest;

class ClientRegistry {
public:
    /** The process-wide registry. */
    static ClientRegistry& get();

    void addClient(Client* client);
    /** REQUIRES: the client runs no registered operation any more. */
    void removeClient(Client* client);

    /**
     * Registers `opCtx` as the operation `client` (may be null: an internal operation)
     * is running, until destruction; nested registrations on one client restore the
     * outer operation when they end.
     */
    class ActiveOp {
    public:
        ActiveOp(Client* client, OperationContext* opCtx);
        ~ActiveOp();
        ActiveOp(const ActiveOp&) = delete;
        ActiveOp& operator=(const ActiveOp&) = delete;

    private:
        Client* _client;
        OperationContext* _opCtx;
        OperationContext* _outer = nullptr;
    };

    /** Marks the operation with this opid killed; false if no such operation runs. */
    bool killOp(long long opId, ErrorCodes::Error code = ErrorCodes::Interrupted);
    /**
     * Marks killed every operation run on a logical session (lsid) that `match` accepts
     * (killSessions, killAllSessions). Returns how many.
     */
    size_t killSessionOps(const std::function<bool(const BSONObj& lsid)>& match,
                          ErrorCodes::Error code = ErrorCodes::Interrupted);

    /**
     * The $currentOp documents (upstream's shape) of the registered connections:
     * those running an operation, and idle ones with `idleConnections`; plus the idle
     * cursors with `idleCursors`. `self` is the operation asking.
     */
    std::vector<BSONObj> report(OperationContext* self, const CurrentOpOptions& options);

    /** How currentOp describes the command `req` (op, ns, command, lsid). */
    static void describe(const CommandRequest& req, OperationContext* opCtx);

private:
    struct Entry {
        Client* client = nullptr;
        OperationContext* op = nullptr;
    };
    std::mutex _mutex;
    std::map<long long, Entry> _clients;  // by connection id
};

}  // namespace mongo
