#include "mongo/db/api_parameters.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/operation_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

std::optional<bool> parseBool(const BSONObj& body, StringData name) {
    BSONElement e = body[name];
    if (e.eoo())
        return std::nullopt;
    uassert(ErrorCodes::TypeMismatch,
            "BSON field '" + std::string(name) + "' is the wrong type '" +
                std::string(typeName(e.type())) + "', expected type 'bool'",
            e.type() == BSONType::kBool);
    return e.boolean();
}

}  // namespace

APIParameters APIParameters::parse(const BSONObj& body) {
    APIParameters p;
    BSONElement v = body["apiVersion"];
    if (!v.eoo()) {
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'apiVersion' is the wrong type '" + std::string(typeName(v.type())) +
                    "', expected type 'string'",
                v.type() == BSONType::kString);
        p.version = std::string(v.valueStringData());
    }
    p.strict = parseBool(body, "apiStrict");
    p.deprecationErrors = parseBool(body, "apiDeprecationErrors");
    uassert(4886600, "Provided apiStrict and/or apiDeprecationErrors without passing apiVersion",
            p.version || (!p.strict && !p.deprecationErrors));
    uassert(ErrorCodes::APIVersionError, "API version must be \"1\"",
            !p.version || *p.version == "1");
    return p;
}

BSONObj APIParameters::toBSON() const {
    BSONObjBuilder b;
    if (version)
        b.append("apiVersion", *version);
    if (strict)
        b.append("apiStrict", *strict);
    if (deprecationErrors)
        b.append("apiDeprecationErrors", *deprecationErrors);
    return b.obj();
}

bool isAPIStrict(const OperationContext* opCtx) {
    return opCtx && opCtx->apiParameters().isStrict();
}

void uassertStableField(const OperationContext* opCtx, StringData command, StringData field) {
    uassert(ErrorCodes::APIStrictError,
            "Provided apiStrict:true, but the command " + std::string(command) +
                " specified the field '" + std::string(field) + "', which is not in API Version 1",
            !isAPIStrict(opCtx));
}

void uassertStableFields(const OperationContext* opCtx, StringData command, const BSONObj& body,
                         const std::vector<StringData>& unstableFields) {
    if (!isAPIStrict(opCtx))
        return;
    for (StringData f : unstableFields)
        if (body.hasField(f))
            uassertStableField(opCtx, command, f);
}

void uassertAllowedWithAPIStrict(const OperationContext* opCtx, StringData what) {
    uassert(ErrorCodes::APIStrictError,
            std::string(what) + " is not allowed with 'apiStrict: true' in API Version 1",
            !isAPIStrict(opCtx));
}

}  // namespace mongo
