// Projection: a parsed find() projection ({a: 1, "b.c": 0, d: {$slice: 2},
// "e.$": 1, f: {$elemMatch: {...}}}) and its application to a document.
// Inclusion projections keep the listed paths (and _id unless `_id: 0`) in
// document order; exclusion projections drop the listed paths. Literal values,
// "$path" strings and aggregation expressions ({x: {$add: ["$a", 1]}}) are computed
// fields of an inclusion projection. The expression language lives above this layer
// (db/pipeline), so expressions are compiled by a ProjectionExpressionParser that the
// caller supplies (find_helpers.h wires the aggregation engine).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/matcher/expression.h"

namespace mongo {

/** A compiled computed-field expression of a projection. */
class ProjectionExpression {
public:
    virtual ~ProjectionExpression() = default;
    /**
     * Appends the value computed for the document `root` under `name`, or nothing when
     * the value is missing. May throw the expression's evaluation errors (DBException).
     */
    virtual void appendValue(const BSONObj& root, StringData name, BSONObjBuilder* out) const = 0;
};

/**
 * Compiles a computed field's value ("$path", "$$ROOT", {$op: ...}, a literal) or
 * returns the expression's parse error (e.g. InvalidPipelineOperator 168).
 */
using ProjectionExpressionParser =
    std::function<StatusWith<std::unique_ptr<ProjectionExpression>>(const BSONElement&)>;

class Projection {
public:
    enum class Type { kInclusion, kExclusion };

    /**
     * Parses `spec`. Errors: 31254/31253 (exclusion in an inclusion projection and
     * vice versa), 31252 (computed field in an exclusion projection), 31249/31250
     * (path collisions), 31276 (two positional projections),
     * 31275 ($elemMatch on a nested field), 28667/28724 (bad $slice), 51270 (empty
     * sub-projection), BadValue (expressions, $meta included, without `parseExpression`), and
     * the errors of `parseExpression`. Without `parseExpression`, "$path" strings read
     * the dotted path and other values are literals.
     */
    static StatusWith<Projection> parse(const BSONObj& spec,
                                        const ProjectionExpressionParser& parseExpression = {});

    /**
     * Applies the projection (computed fields may throw their evaluation errors). `details` carries
     * the positional index for "a.$" (see requiresMatchDetails()). Error 51246 when a positional
     * projection finds no matching array element.
     */
    StatusWith<BSONObj> apply(const BSONObj& doc, const MatchDetails* details = nullptr) const;

    Type type() const {
        return _type;
    }
    /** The names of its {$meta: "<name>"} fields, in order. */
    const std::vector<std::string>& metaNames() const {
        return _metaNames;
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
    std::vector<std::string> _metaNames;
    BSONObj _spec;
};

}  // namespace mongo
