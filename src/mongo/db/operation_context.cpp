#include "mongo/db/operation_context.h"

#include "mongo/db/service_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/time_support.h"

namespace mongo {

OperationContext::OperationContext(ServiceContext* service, Client* client, long long opId)
    : _service(service), _client(client), _opId(opId), _startMicros(curTimeMicros64()) {}

OperationContext::~OperationContext() = default;

std::unique_ptr<RecoveryUnit> OperationContext::swapRecoveryUnit(std::unique_ptr<RecoveryUnit> ru) {
    std::swap(ru, _ru);
    return ru;
}

void OperationContext::setDeadlineAfterMillis(long long ms) {
    _deadlineMicros = curTimeMicros64() + ms * 1000;
}

long long OperationContext::remainingMillis() const {
    if (!_deadlineMicros)
        return 0;
    long long left = (_deadlineMicros - curTimeMicros64()) / 1000;
    return left > 0 ? left : 0;
}

void OperationContext::setPlanSummary(std::string summary) {
    std::lock_guard lk(_planSummaryMutex);
    _planSummary = std::move(summary);
}

std::string OperationContext::planSummary() const {
    std::lock_guard lk(_planSummaryMutex);
    return _planSummary;
}

void OperationContext::setFailPointMsg(std::string name) {
    std::lock_guard lk(_planSummaryMutex);
    _failPointMsg = std::move(name);
}

std::string OperationContext::failPointMsg() const {
    std::lock_guard lk(_planSummaryMutex);
    return _failPointMsg;
}

void OperationContext::checkForKill() const {
    if (_service && _service->shuttingDown.load())
        uasserted(ErrorCodes::InterruptedAtShutdown, "interrupted at shutdown");
    int k = _killCode.load();
    if (!k && _clientDisconnected && _clientDisconnected->load(std::memory_order_relaxed))
        k = ErrorCodes::ClientDisconnect;
    if (k) {
        uasserted(k, k == ErrorCodes::ClientDisconnect
                         ? "operation was interrupted because a client disconnected"
                         : "operation was interrupted");
    }
}

void OperationContext::checkForInterrupt() const {
    checkForKill();
    if (_deadlineMicros && curTimeMicros64() >= _deadlineMicros)
        uasserted(ErrorCodes::MaxTimeMSExpired, "operation exceeded time limit");
}

}  // namespace mongo
