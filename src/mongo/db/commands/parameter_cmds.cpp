// getParameter, setParameter, setFeatureCompatibilityVersion. Parameters come
// from the IDL-generated registry; featureCompatibilityVersion is fixed at 8.0.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/idl/server_parameter.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr StringData kFCV = "featureCompatibilityVersion";

void appendFCV(BSONObjBuilder& result) {
    result.append(kFCV, BSON("version" << "8.0"));
}

bool isGenericArgument(StringData name) {
    return name == "$db" || name == "lsid" || name == "comment" || name == "$readPreference" ||
        name == "apiVersion" || name == "apiStrict" || name == "apiDeprecationErrors" ||
        name == "$clusterTime" || name == "maxTimeMS" || name == "writeConcern" ||
        name == "readConcern";
}

class GetParameterCmd : public Command {
public:
    GetParameterCmd() : Command("getParameter") {}
    bool adminOnly() const override {
        return true;
    }

    void run(OperationContext*, const CommandRequest& req, BSONObjBuilder& result) override {
        auto* params = ServerParameterSet::get();
        BSONElement first = req.body.firstElement();
        bool all = (first.type() == BSONType::kString && first.valueStringData() == "*") ||
            (first.type() == BSONType::kObject && first.embeddedObject()["allParameters"].trueValue());
        if (all) {
            params->appendAll(&result);
            appendFCV(result);
            return;
        }
        bool found = false;
        bool skipFirst = true;
        for (auto e : req.body) {
            if (skipFirst) {
                skipFirst = false;
                continue;
            }
            StringData name = e.fieldNameStringData();
            if (isGenericArgument(name))
                continue;
            if (name == kFCV) {
                appendFCV(result);
                found = true;
                continue;
            }
            if (params->append(&result, name).isOK())
                found = true;
        }
        uassert(ErrorCodes::InvalidOptions, "no option found to get", found);
    }
};
MONGO_REGISTER_COMMAND(GetParameterCmd)

class SetParameterCmd : public Command {
public:
    SetParameterCmd() : Command("setParameter") {}
    bool adminOnly() const override {
        return true;
    }

    void run(OperationContext*, const CommandRequest& req, BSONObjBuilder& result) override {
        auto* params = ServerParameterSet::get();
        int numSet = 0;
        bool skipFirst = true;
        for (auto e : req.body) {
            if (skipFirst) {
                skipFirst = false;
                continue;
            }
            StringData name = e.fieldNameStringData();
            if (isGenericArgument(name))
                continue;
            uassert(ErrorCodes::InvalidOptions,
                    "attempted to set unrecognized parameter [" + std::string(name) +
                        "], use help:true to see options ",
                    name != kFCV);
            uassert(ErrorCodes::BadValue, "can't set more than one parameter at a time", numSet == 0);
            BSONObjBuilder old;
            if (params->append(&old, name).isOK()) {
                BSONObj o = old.obj();
                result.appendAs(o.firstElement(), "was");
            }
            uassertStatusOK(params->set(name, e));
            ++numSet;
        }
        uassert(ErrorCodes::InvalidOptions, "no option found to set, use help:true to see options ",
                numSet > 0);
    }
};
MONGO_REGISTER_COMMAND(SetParameterCmd)

class SetFCVCmd : public Command {
public:
    SetFCVCmd() : Command("setFeatureCompatibilityVersion") {}
    bool adminOnly() const override {
        return true;
    }

    void run(OperationContext*, const CommandRequest& req, BSONObjBuilder&) override {
        BSONElement v = req.body.firstElement();
        uassert(ErrorCodes::TypeMismatch, "Command argument must be of type String",
                v.type() == BSONType::kString);
        uassert(ErrorCodes::BadValue,
                "Invalid feature compatibility version value '" + v.str() +
                    "'. Expected one of the following versions: '8.0'",
                v.valueStringData() == "8.0");
    }
};
MONGO_REGISTER_COMMAND(SetFCVCmd)

}  // namespace
}  // namespace mongo
