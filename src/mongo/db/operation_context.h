// OperationContext: the state of one operation (one command): its client, its
// storage RecoveryUnit (WiredTiger session + transaction), its deadline
// (maxTimeMS) and its kill state. Created by the command dispatcher, owned by the
// thread running the command.
//
// Thread safety: used by one thread at a time, except markKilled(), isKillPending(),
// description(), startMicros() and planSummary(), which any thread may call (currentOp
// and killOp read them while the operation runs).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/api_parameters.h"
#include "mongo/idl/error_codes_gen.h"

namespace mongo {

class Client;
class RecoveryUnit;
class ServiceContext;

class OperationContext {
public:
    OperationContext(ServiceContext* service, Client* client, long long opId);
    ~OperationContext();
    OperationContext(const OperationContext&) = delete;
    OperationContext& operator=(const OperationContext&) = delete;

    ServiceContext* getServiceContext() const {
        return _service;
    }
    /** The connection this operation runs for; null for internal operations. */
    Client* getClient() const {
        return _client;
    }
    long long getOpID() const {
        return _opId;
    }

    RecoveryUnit* recoveryUnit() const {
        return _ru.get();
    }
    /** Replaces the RecoveryUnit (e.g. a cursor lends its own for a getMore); returns the old one.
     */
    std::unique_ptr<RecoveryUnit> swapRecoveryUnit(std::unique_ptr<RecoveryUnit> ru);

    /** maxTimeMS: the operation fails with MaxTimeMSExpired 50 after `ms` milliseconds. */
    void setDeadlineAfterMillis(long long ms);
    bool hasDeadline() const {
        return _deadlineMicros != 0;
    }
    /** Remaining time before the deadline in milliseconds (0 if none or passed). */
    long long remainingMillis() const;

    /**
     * Throws when the operation must stop: InterruptedAtShutdown 11600 once shutdown began,
     * the kill code (Interrupted 11601 from killOp, ClientDisconnect 279) once markKilled()
     * was called or the client hung up, MaxTimeMSExpired 50 past the deadline. O(1): a few
     * atomic loads, plus a clock read when there is a deadline.
     */
    void checkForInterrupt() const;
    /** checkForInterrupt() without the deadline (for waits that end at the deadline anyway). */
    void checkForKill() const;
    /** Asks the operation to stop at its next checkForInterrupt(); the first code wins. */
    void markKilled(ErrorCodes::Error code = ErrorCodes::Interrupted) {
        int none = 0;
        _killCode.compare_exchange_strong(none, code);
    }
    bool isKillPending() const {
        return _killCode.load() != 0;
    }
    /**
     * `flag` (owned by the connection's Client, which outlives the operation) turns true
     * when the peer closed the connection; checkForInterrupt() then throws ClientDisconnect.
     */
    void setClientDisconnectedFlag(const std::atomic<bool>* flag) {
        _clientDisconnected = flag;
    }

    /** What currentOp shows about the operation; set once, before it is registered. */
    struct Description {
        std::string op = "command";  // "command", "query", "insert", "update", "remove", "getmore"
        std::string ns;
        BSONObj command;  // owned
        BSONObj lsid;     // empty when the request carried none
    };
    void setDescription(Description d) {
        _description = std::move(d);
    }
    const Description& description() const {
        return _description;
    }
    /** curTimeMicros64() when the operation was created. */
    long long startMicros() const {
        return _startMicros;
    }
    /** "COLLSCAN", "IXSCAN { a: 1 }"...; empty until the plan is known. */
    void setPlanSummary(std::string summary);
    std::string planSummary() const;
    /** The fail point the operation is paused at (currentOp's failpointMsg); empty: none. */
    void setFailPointMsg(std::string name);
    std::string failPointMsg() const;

    /** bypassDocumentValidation: writes skip collection validators. */
    bool bypassDocumentValidation() const {
        return _bypassDocumentValidation;
    }
    void setBypassDocumentValidation(bool b) {
        _bypassDocumentValidation = b;
    }

    /** The command's apiVersion/apiStrict/apiDeprecationErrors (set by the dispatcher). */
    const APIParameters& apiParameters() const {
        return _apiParameters;
    }
    void setAPIParameters(APIParameters p) {
        _apiParameters = std::move(p);
    }

private:
    ServiceContext* _service;
    Client* _client;
    long long _opId;
    std::unique_ptr<RecoveryUnit> _ru;
    long long _deadlineMicros = 0;
    std::atomic<int> _killCode{0};
    const std::atomic<bool>* _clientDisconnected = nullptr;
    bool _bypassDocumentValidation = false;
    APIParameters _apiParameters;
    long long _startMicros;
    Description _description;
    mutable std::mutex _planSummaryMutex;  // guards the two strings below
    std::string _planSummary;
    std::string _failPointMsg;
};

}  // namespace mongo
