// configureFailPoint: turns a fail point (util/fail_point.h) on or off. Test-only: the
// command exists only with --setParameter enableTestCommands=1 (CommandNotFound 59
// otherwise), as upstream. Reply: {count: <times the point was entered before>}.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/fail_point.h"

namespace mongo {
namespace {

/** Upstream's mode forms: "off", "alwaysOn", {times: n}, {skip: n}, {activationProbability: p}. */
FailPoint::Settings parseMode(const BSONElement& mode) {
    FailPoint::Settings s;
    if (mode.type() == BSONType::kString) {
        StringData m = mode.valueStringData();
        if (m == "off")
            s.mode = FailPoint::Mode::kOff;
        else if (m == "alwaysOn")
            s.mode = FailPoint::Mode::kAlwaysOn;
        else
            uasserted(ErrorCodes::BadValue, "unknown mode: " + std::string(m));
        return s;
    }
    uassert(ErrorCodes::TypeMismatch, "'mode' must be a string or JSON object",
            mode.type() == BSONType::kObject);
    BSONObj o = mode.embeddedObject();
    auto count = [&](StringData field) {
        BSONElement e = o[field];
        uassert(ErrorCodes::TypeMismatch,
                "The value for mode." + std::string(field) + " must be a number", e.isNumber());
        double v = e.numberDouble();
        uassert(ErrorCodes::BadValue, "mode." + std::string(field) + " should be positive", v >= 0);
        uassert(ErrorCodes::BadValue, "mode." + std::string(field) + " should be 32-bit",
                v <= 2147483647.0);
        return static_cast<long long>(v);
    };
    if (o.hasField("times")) {
        s.count = count("times");
        s.mode = s.count > 0 ? FailPoint::Mode::kTimes : FailPoint::Mode::kOff;
    } else if (o.hasField("skip")) {
        s.count = count("skip");
        s.mode = FailPoint::Mode::kSkip;
    } else if (o.hasField("activationProbability")) {
        BSONElement p = o["activationProbability"];
        uassert(ErrorCodes::TypeMismatch, "activationProbability must be a number", p.isNumber());
        double v = p.numberDouble();
        uassert(ErrorCodes::BadValue, "activationProbability must be between 0.0 and 1.0",
                v >= 0.0 && v <= 1.0);
        s.mode = FailPoint::Mode::kProbability;
        s.probability = v;
    } else {
        uasserted(ErrorCodes::BadValue, "invalid mode object");
    }
    return s;
}

class ConfigureFailPointCmd : public Command {
public:
    ConfigureFailPointCmd() : Command("configureFailPoint") {}
    bool adminOnly() const override {
        return true;
    }
    bool testOnly() const override {
        return true;
    }
    std::string help() const override {
        return "modifies the settings of a fail point";
    }

    void run(OperationContext*, const CommandRequest& req, BSONObjBuilder& result) override {
        BSONElement nameElem = req.body.firstElement();
        uassert(ErrorCodes::TypeMismatch, "configureFailPoint takes the fail point's name",
                nameElem.type() == BSONType::kString);
        std::string name = nameElem.str();
        FailPoint* fp = FailPointRegistry::get().find(name);
        uassert(ErrorCodes::FailPointSetFailed, name + " not found", fp);
        BSONElement mode = req.body["mode"];
        uassert(ErrorCodes::IllegalOperation, "When setting a fail point, 'mode' is required",
                !mode.eoo());
        FailPoint::Settings settings = parseMode(mode);
        if (BSONElement data = req.body["data"]; !data.eoo()) {
            uassert(ErrorCodes::TypeMismatch, "the 'data' field must be a BSON object",
                    data.type() == BSONType::kObject);
            BSONObj d = data.embeddedObject();
            settings.data.assign(d.objdata(), d.objsize());
        }
        long long count = fp->setMode(std::move(settings));
        LOGV2(23910, "Set failpoint", BSON("failPointName" << name << "data" << req.body));
        result.append("count", count);
    }
};
MONGO_REGISTER_COMMAND(ConfigureFailPointCmd)

}  // namespace
}  // namespace mongo
