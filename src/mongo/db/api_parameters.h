// The Stable API parameters of a command (apiVersion, apiStrict, apiDeprecationErrors): parsed
// once by the dispatcher, kept on the OperationContext so that the parsers of commands, pipeline
// stages, expressions and index specs can refuse what API Version 1 leaves out, and recorded on
// each cursor so that its getMores must repeat them.
//
// Rules (as upstream 8.0):
// - apiVersion must be the string "1" (TypeMismatch 14 / APIVersionError 322);
// - apiStrict and apiDeprecationErrors are booleans and need apiVersion (4886600);
// - with apiStrict: true, a command, stage, option or expression outside API Version 1 is
//   APIStrictError 323; with apiDeprecationErrors: true a deprecated one is
//   APIDeprecationError 324;
// - a getMore must carry the parameters of the command that made its cursor (APIMismatchError
//   347).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mongo/base/string_data.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

class OperationContext;

struct APIParameters {
    std::optional<std::string> version;
    std::optional<bool> strict;
    std::optional<bool> deprecationErrors;

    /** Reads the three generic arguments of a command body; throws on a malformed one. */
    static APIParameters parse(const BSONObj& body);

    bool isStrict() const {
        return strict.value_or(false);
    }
    bool wantsDeprecationErrors() const {
        return deprecationErrors.value_or(false);
    }
    /** {apiVersion, apiStrict, apiDeprecationErrors} with the fields given (for messages). */
    BSONObj toBSON() const;

    bool operator==(const APIParameters& o) const {
        return version == o.version && strict == o.strict &&
               deprecationErrors == o.deprecationErrors;
    }
    bool operator!=(const APIParameters& o) const {
        return !(*this == o);
    }
};

/** True when the operation runs with apiStrict: true (false without an operation). */
bool isAPIStrict(const OperationContext* opCtx);

/**
 * APIStrictError 323 when the operation is apiStrict: `command` was given `field`, which is not
 * in API Version 1.
 */
void uassertStableField(const OperationContext* opCtx, StringData command, StringData field);

/** APIStrictError 323 when the operation is apiStrict and the body of `command` has `field`. */
void uassertStableFields(const OperationContext* opCtx, StringData command, const BSONObj& body,
                         const std::vector<StringData>& unstableFields);

/**
 * APIStrictError 323 when the operation is apiStrict: `what` (e.g. "$indexStats",
 * "stage $collStats with latencyStats") is not allowed with apiStrict: true in API Version 1.
 */
void uassertAllowedWithAPIStrict(const OperationContext* opCtx, StringData what);

}  // namespace mongo
