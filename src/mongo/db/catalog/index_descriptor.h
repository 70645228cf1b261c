// IndexDescriptor: one index of a collection as the catalog knows it (spec,
// name, key pattern, options), plus validation and normalisation of user index
// specifications for createIndexes, with upstream's error codes.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

class MatchExpression;

struct IndexDescriptor {
    static constexpr StringData kIdIndexName = "_id_";

    BSONObj spec;  // {v: 2, key, name, ...options}
    std::string name;
    BSONObj keyPattern;
    bool unique = false;
    bool sparse = false;
    bool hidden = false;
    BSONObj partialFilterExpression;  // empty if none
    std::optional<long long> expireAfterSeconds;
    bool multikey = false;

    bool isIdIndex() const {
        return name == kIdIndexName || spec["clustered"].trueValue();
    }
    /** Builds from a validated spec. */
    static IndexDescriptor fromSpec(const BSONObj& spec);
};

/** The default name of a key pattern: {a: 1, b: -1} -> "a_1_b_-1". */
std::string defaultIndexName(const BSONObj& keyPattern);

/**
 * Validates a createIndexes spec and returns it normalised ({v: 2, key, name, ...}).
 * Errors: CannotCreateIndex 67 (bad key pattern, unsupported index kind),
 * InvalidIndexSpecificationOption 197 (unknown field), TypeMismatch 14, BadValue 2.
 */
StatusWith<BSONObj> validateIndexSpec(const BSONObj& spec);

/** The spec of the {_id: 1} index. */
BSONObj idIndexSpec();

/** True when the two specs describe the same index apart from the name. */
bool indexSpecsEquivalent(const BSONObj& a, const BSONObj& b);

}  // namespace mongo
