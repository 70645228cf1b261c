// Projection: a parsed find() projection ({a: 1, "b.c": 0, d: {$slice: 2},
// "e.$": 1, f: {$elemMatch: {...}}}) and its application to a document.
// Inclusion projections keep the listed paths (and _id unless `_id: 0`) in
// document order; exclusion projections drop the listed paths. Literal values and
// "$path" strings are computed fields of an inclusion projection.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/matcher/expression.h"

namespace mongo {

class Projection {
public:
    enum class Type { kInclusion, kExclusion };

    /**
     * Parses `spec`. Errors: 31254/31253 (exclusion in an inclusion projection and
     * vice versa), 31249/31250 (path collisions), 31276 (two positional projections),
     * 31275 ($elemMatch on a nested field), 28667/28724 (bad $slice), 51270 (empty
     * sub-projection), BadValue (unsupported operators or expressions).
     */
    static StatusWith<Projection> parse(const BSONObj& spec);

    /**
     * Applies the projection. `details` carries the positional index for "a.$"
     * (see requiresMatchDetails()). Error 51246 when a positional projection finds
     * no matching array element.
     */
    StatusWith<BSONObj> apply(const BSONObj& doc, const MatchDetails* details = nullptr) const;

    Type type() const {
        return _type;
    }
    /** True when the projection has a positional ("a.$") part. */
    bool requiresMatchDetails() const {
        return !_positionalPath.empty();
    }

    struct Node;  // the parsed path tree (projection.cpp)

    Projection();
    ~Projection();
    Projection(Projection&&) noexcept;
    Projection& operator=(Projection&&) noexcept;

private:
    std::unique_ptr<Node> _root;
    Type _type = Type::kExclusion;
    bool _includeId = true;
    std::string _positionalPath;
    BSONObj _spec;
};

}  // namespace mongo
