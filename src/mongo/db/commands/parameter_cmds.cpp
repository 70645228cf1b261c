// getParameter, setParameter, setFeatureCompatibilityVersion. Parameters come
// from the IDL-generated registry; featureCompatibilityVersion is fixed at 8.0.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/idl/generic_argument.h"
#include "mongo/idl/server_parameter.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr StringData kFCV = "featureCompatibilityVersion";

void appendFCV(BSONObjBuilder& result) {
    result.append(kFCV, BSON("version"
                             << "8.0"));
}

/**
 * The feature flags of 8.0 whose behaviour this server has, as getParameter shows them
 * ({value, version, shouldBeFCVGated}): tests and tools (FeatureFlagUtil) ask for them to know
 * which behaviour to expect. TimeseriesUpdatesSupport is off in 8.0 but on here: arbitrary
 * time-series updates are this project's deliberate difference (spec 6.4).
 */
struct FeatureFlag {
    StringData name;
    bool enabled;
    StringData version;
};
constexpr FeatureFlag kFeatureFlags[] = {
    {"featureFlagTimeseriesAlwaysUseCompressedBuckets", true, "8.0"},
    {"featureFlagTimeseriesUpdatesSupport", true, "8.0"},
};

bool appendFeatureFlag(BSONObjBuilder& result, StringData name) {
    for (const auto& f : kFeatureFlags) {
        if (f.name != name)
            continue;
        result.append(f.name, BSON("value" << f.enabled << "version" << f.version
                                           << "shouldBeFCVGated" << true));
        return true;
    }
    return false;
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
                   (first.type() == BSONType::kObject &&
                    first.embeddedObject()["allParameters"].trueValue());
        if (all) {
            params->appendAll(&result);
            appendFCV(result);
            for (const auto& f : kFeatureFlags)
                appendFeatureFlag(result, f.name);
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
            if (appendFeatureFlag(result, name) || params->append(&result, name).isOK())
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
            uassert(ErrorCodes::BadValue, "can't set more than one parameter at a time",
                    numSet == 0);
            BSONObjBuilder flag;
            uassert(ErrorCodes::IllegalOperation,
                    "not allowed to change [" + std::string(name) + "] at runtime",
                    !appendFeatureFlag(flag, name));
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
