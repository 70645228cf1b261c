#include "mongo/db/commands/fail_command.h"

#include <chrono>
#include <thread>

#include "mongo/base/error_extra_info.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/logv2/log.h"
#include "mongo/transport/client.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/fail_point.h"

namespace mongo {

MONGO_FAIL_POINT_DEFINE(failCommand)

namespace {

constexpr const char kRetryableWriteError[] = "RetryableWriteError";

/** failCommand's errorLabels (replacing the computed ones) and errorExtraInfo. */
class FailCommandErrorInfo : public ErrorExtraInfo {
public:
    FailCommandErrorInfo(BSONObj labels, BSONObj extra)
        : _labels(labels.getOwned()), _extra(extra.getOwned()) {}
    void serialize(BSONObjBuilder* bob) const override {
        bob->appendElements(_extra);
        if (!_labels.isEmpty() || _hasLabels)
            bob->appendArray("errorLabels", _labels);
    }
    void setHasLabels(bool b) {
        _hasLabels = b;
    }
    bool hasLabels() const {
        return _hasLabels;
    }

private:
    BSONObj _labels;
    BSONObj _extra;
    bool _hasLabels = false;
};

BSONObj dataOf(const std::string& bytes) {
    return bytes.empty() ? BSONObj()
                         : BSONObj::copyFrom(bytes.data(), static_cast<int>(bytes.size()));
}

std::string appNameOf(OperationContext* opCtx) {
    Client* client = opCtx->getClient();
    if (!client)
        return std::string();
    BSONElement name = client->clientMetadata().getFieldDotted("application.name");
    return name.type() == BSONType::kString ? name.str() : std::string();
}

/** Upstream's shouldActivateFailCommandFailPoint: does `data` target this command? */
bool targets(OperationContext* opCtx, const CommandRequest& req, const Command& cmd,
             const BSONObj& data) {
    if (cmd.getName() == "configureFailPoint")
        return false;  // banned even if listed
    if (!opCtx->getClient() && !data["failInternalCommands"].trueValue())
        return false;  // internal operations only when asked for
    if (BSONElement t = data["threadName"];
        t.type() == BSONType::kString &&
        (!opCtx->getClient() || opCtx->getClient()->desc() != t.str()))
        return false;
    if (BSONElement a = data["appName"];
        a.type() == BSONType::kString && appNameOf(opCtx) != a.str())
        return false;
    if (BSONElement ns = data["namespace"];
        ns.type() == BSONType::kString && req.nsFromFirstElement().ns() != ns.str())
        return false;
    if (data["failAllCommands"].trueValue())
        return true;
    BSONElement names = data["failCommands"];
    if (names.type() != BSONType::kArray)
        return false;
    for (auto e : names.embeddedObject()) {
        if (e.type() == BSONType::kString && CommandRegistry::find(e.valueStringData()) == &cmd)
            return true;
    }
    return false;
}

bool isRetryableWriteRequest(const CommandRequest& req) {
    return !req.body["txnNumber"].eoo() && !req.body["lsid"].eoo() && req.body["autocommit"].eoo();
}

void sleepMillis(OperationContext* opCtx, long long ms) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < deadline) {
        opCtx->checkForInterrupt();
        auto left = deadline - std::chrono::steady_clock::now();
        std::this_thread::sleep_for(
            std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(10)));
    }
}

}  // namespace

void evaluateFailCommandBeforeRun(OperationContext* opCtx, const CommandRequest& req,
                                  const Command& cmd) {
    if (!failCommand.maybeActive())
        return;
    auto raw = failCommand.evaluate([&](const std::string& bytes) {
        BSONObj data = dataOf(bytes);
        bool acts = data["closeConnection"].trueValue() || data["blockConnection"].trueValue() ||
                    data["errorCode"].isNumber();
        return acts && targets(opCtx, req, cmd, data);
    });
    if (!raw)
        return;
    BSONObj data = dataOf(*raw);
    if (data["blockConnection"].trueValue()) {
        BSONElement ms = data["blockTimeMS"];
        uassert(ErrorCodes::NoSuchKey, "Missing expected field \"blockTimeMS\"", !ms.eoo());
        uassert(ErrorCodes::TypeMismatch, "\"blockTimeMS\" had the wrong type", ms.isNumber());
        LOGV2(20432, "Blocking command via 'failCommand' failpoint",
              BSON("command" << cmd.getName() << "blockTimeMS" << ms.numberLong()));
        sleepMillis(opCtx, ms.numberLong());
    }
    static const std::string kMsg = "Failing command via 'failCommand' failpoint";
    if (data["closeConnection"].trueValue()) {
        LOGV2(20431, "Failing command via 'failCommand' failpoint: closing connection",
              BSON("command" << cmd.getName()));
        requestConnectionClose();
        uasserted(50985, kMsg);
    }
    if (BSONElement code = data["errorCode"]; code.isNumber()) {
        BSONElement labels = data["errorLabels"];
        BSONElement extra = data["errorExtraInfo"];
        LOGV2(20435, "Failing command via 'failCommand' failpoint",
              BSON("command" << cmd.getName() << "errorCode" << code.numberLong()));
        Status st(static_cast<ErrorCodes::Error>(code.numberLong()), kMsg);
        if (labels.type() == BSONType::kArray || extra.type() == BSONType::kObject) {
            auto info = std::make_shared<FailCommandErrorInfo>(
                labels.type() == BSONType::kArray ? labels.embeddedObject() : BSONObj(),
                extra.type() == BSONType::kObject ? extra.embeddedObject() : BSONObj());
            info->setHasLabels(labels.type() == BSONType::kArray);
            uassertedWithInfo(st, info);
        }
        uassertStatusOK(st);
    }
}

void appendFailCommandWriteConcernError(OperationContext* opCtx, const CommandRequest& req,
                                        const Command& cmd, BSONObjBuilder& reply) {
    if (!failCommand.maybeActive())
        return;
    auto raw = failCommand.evaluate([&](const std::string& bytes) {
        BSONObj data = dataOf(bytes);
        return data["writeConcernError"].type() == BSONType::kObject &&
               targets(opCtx, req, cmd, data);
    });
    if (!raw)
        return;
    BSONObj data = dataOf(*raw);
    BSONObj wce = data["writeConcernError"].embeddedObject();
    reply.append("writeConcernError", wce);
    if (BSONElement labels = data["errorLabels"]; labels.type() == BSONType::kArray) {
        reply.appendArray("errorLabels", labels.embeddedObject());
    } else if (isRetryableWriteRequest(req) && wce["code"].isNumber() &&
               ErrorCodes::isRetriableError(
                   static_cast<ErrorCodes::Error>(wce["code"].numberLong()))) {
        BSONArrayBuilder arr(reply.subarrayStart("errorLabels"));
        arr.append(kRetryableWriteError);
    }
}

void appendErrorLabels(const CommandRequest& req, const Status& status, const ErrorExtraInfo* extra,
                       BSONObjBuilder& reply) {
    if (auto* info = dynamic_cast<const FailCommandErrorInfo*>(extra); info && info->hasLabels())
        return;
    if (!isRetryableWriteRequest(req) || !ErrorCodes::isRetriableError(status.code()))
        return;
    BSONArrayBuilder arr(reply.subarrayStart("errorLabels"));
    arr.append(kRetryableWriteError);
}

}  // namespace mongo
