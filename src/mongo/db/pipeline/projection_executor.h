// ProjectionExecutor: the document transformation of $project, $addFields/$set and
// $unset. A spec is parsed into a tree of field nodes (dotted paths share nodes);
// applying it walks the input document once.
//
//  - inclusion ($project {a: 1, b: {$add: ...}}): keeps the included paths (and _id
//    unless excluded) in document order, then sets computed fields;
//  - exclusion ($project {a: 0}, $unset): drops the listed paths;
//  - addFields: keeps everything and sets the computed fields ($$REMOVE removes).
// Arrays on a path are traversed element by element.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mongo/db/pipeline/expression.h"

namespace mongo {

class ProjectionExecutor {
public:
    enum class Kind { kInclusion, kExclusion, kAddFields };

    /**
     * Parses a $project spec. Errors: 40177 (empty spec), 31253/31254 (mixed
     * inclusion/exclusion), 31252 (expression in an exclusion), 31249/31250 (path
     * collisions), 16410/15998 (bad field names).
     */
    static std::unique_ptr<ProjectionExecutor> parseProject(ExpressionContext* expCtx,
                                                            const BSONObj& spec);
    /** Parses an $addFields/$set spec (every value is an expression). */
    static std::unique_ptr<ProjectionExecutor> parseAddFields(ExpressionContext* expCtx,
                                                              const BSONObj& spec,
                                                              StringData stageName);
    /** An exclusion of `paths` ($unset). */
    static std::unique_ptr<ProjectionExecutor> makeExclusion(const std::vector<std::string>& paths);

    BSONObj apply(const BSONObj& doc, Variables* vars) const;

    Kind kind() const {
        return _kind;
    }
    /**
     * The projection as upstream prints it (explain, and a re-parseable spec): kept and dropped
     * fields first as true/false, then computed fields and sub-objects in the order given,
     * expressions serialised (constants as {$const: ...}). An exclusion that leaves _id alone
     * ends with `_id: true`; an inclusion starts with `_id: true` unless _id is excluded.
     */
    void serialize(BSONObjBuilder* b) const;
    /** Top-level fields this projection may change or remove (for $match reordering). */
    std::vector<std::string> modifiedTopLevelFields() const;

    struct Node;
    ProjectionExecutor(Kind kind, std::unique_ptr<Node> root);
    ~ProjectionExecutor();

private:
    Kind _kind;
    std::unique_ptr<Node> _root;
};

}  // namespace mongo
