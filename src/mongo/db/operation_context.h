// OperationContext: the state of one operation (one command): its client, its
// storage RecoveryUnit (WiredTiger session + transaction), its deadline
// (maxTimeMS) and its kill state. Created by the command dispatcher, owned by the
// thread running the command.
//
// Thread safety: used by one thread at a time, except markKilled(), which any
// thread may call.
#pragma once

#include <atomic>
#include <memory>

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
    /** Replaces the RecoveryUnit (e.g. a cursor lends its own for a getMore); returns the old one. */
    std::unique_ptr<RecoveryUnit> swapRecoveryUnit(std::unique_ptr<RecoveryUnit> ru);

    /** maxTimeMS: the operation fails with MaxTimeMSExpired 50 after `ms` milliseconds. */
    void setDeadlineAfterMillis(long long ms);
    bool hasDeadline() const {
        return _deadlineMicros != 0;
    }
    /** Remaining time before the deadline in milliseconds (0 if none or passed). */
    long long remainingMillis() const;

    /** Throws MaxTimeMSExpired, InterruptedAtShutdown or the kill code when due. */
    void checkForInterrupt() const;
    void markKilled(ErrorCodes::Error code = ErrorCodes::Interrupted) {
        _killCode.store(code);
    }

    /** bypassDocumentValidation: writes skip collection validators. */
    bool bypassDocumentValidation() const {
        return _bypassDocumentValidation;
    }
    void setBypassDocumentValidation(bool b) {
        _bypassDocumentValidation = b;
    }

private:
    ServiceContext* _service;
    Client* _client;
    long long _opId;
    std::unique_ptr<RecoveryUnit> _ru;
    long long _deadlineMicros = 0;
    std::atomic<int> _killCode{0};
    bool _bypassDocumentValidation = false;
};

}  // namespace mongo
