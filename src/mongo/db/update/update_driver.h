// UpdateDriver: parses the `u` of an update statement (modifier document such as
// {$set: {...}, $inc: {...}}, or a replacement document) together with its
// arrayFilters, and applies it to documents, producing the new document, whether
// it changed, and optionally the `$v: 2` DocDiff (document_diff.h).
//
//   auto d = uassertStatusOK(UpdateDriver::parse(u, arrayFilters));
//   UpdateApplyParams p;  p.matchedArrayIndex = details.elemMatchKey();
//   auto r = uassertStatusOK(d.apply(pre, p));   // r.newDoc, r.changed, r.diff
//
// Upsert: seedUpsertDocument(query) gives the equality fields of the query; apply()
// with isInsert = true then runs the modifiers (including $setOnInsert). The caller
// adds an ObjectId `_id` when the result has none.
//
// Error codes follow upstream: FailedToParse 9 (unknown modifier, malformed
// modifier document, unused array filter), ConflictingUpdateOperators 40,
// EmptyFieldName 56, TypeMismatch 14 ($inc/$mul on non-numbers, $pop on
// non-arrays), BadValue 2 (malformed arguments, positional without a match, bad
// array filters), PathNotViable 28, ImmutableField 66, InvalidIdField 53,
// NotSingleValueField 54 (ambiguous upsert seed).
//
// Pipeline-style updates ([{$set: ...}, {$unset: ...}]) come parsed from the pipeline layer
// (pipeline/update_pipeline.h) as an UpdatePipelineTransform; the driver applies the
// transform's output as a replacement that keeps the document's `_id`.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/matcher/expression.h"

namespace mongo {

struct UpdateApplyParams {
    /** The document is being inserted by an upsert: $setOnInsert applies, _id may change. */
    bool isInsert = false;
    /** The array index the query matched (MatchDetails::elemMatchKey), for positional `$`. */
    std::optional<std::string> matchedArrayIndex;
    /** Also compute the DocDiff in UpdateResult::diff. */
    bool computeDiff = false;
    /** The document's _id is an ordinary field (a time-series measurement's): it may change. */
    bool idIsMutable = false;
};

struct UpdateResult {
    BSONObj newDoc;
    /** False when the new document is byte-identical to the old one (a no-op update). */
    bool changed = false;
    /** {$v: 2, diff: <document diff>} when requested and changed; replacements too. */
    BSONObj diff;
};

class CollatorInterface;
class ModifierOp;

/**
 * The stages of a pipeline-style update as one function from the document before the
 * update to the document after it. Implemented by the pipeline layer, which this layer may
 * not call. transform() throws the stages' errors. Thread safety: one caller at a time.
 */
class UpdatePipelineTransform {
public:
    virtual ~UpdatePipelineTransform() = default;
    virtual BSONObj transform(const BSONObj& doc) const = 0;
};

class UpdateDriver {
public:
    /**
     * Parses `update` (modifiers or replacement) and `arrayFilters`. An array
     * (pipeline update) is rejected with NotImplemented; use parseElement() to pass
     * the raw `u` element.
     */
    static StatusWith<UpdateDriver> parse(const BSONObj& update,
                                          const std::vector<BSONObj>& arrayFilters = {});
    static StatusWith<UpdateDriver> parseElement(const BSONElement& u,
                                                 const std::vector<BSONObj>& arrayFilters = {});
    /**
     * A pipeline-style update: `stages` (as given, for spec()) run by `transform`. Its
     * result replaces the document; an `_id` it drops is kept, one it changes is
     * ImmutableField 66. Upserts start from the query's equality fields.
     */
    static UpdateDriver forPipeline(const std::vector<BSONObj>& stages,
                                    std::shared_ptr<const UpdatePipelineTransform> transform);

    /** Applies the update to `pre`. `pre` is not modified. Cost: O(size of pre). */
    StatusWith<UpdateResult> apply(const BSONObj& pre, const UpdateApplyParams& params) const;

    /**
     * The starting document of an upsert: the equality predicates of `query` on
     * top-level and $and paths (for a replacement only `_id`), with `_id` first.
     * NotSingleValueField when two equalities overlap. For a replacement the result
     * is the replacement plus the query's `_id`.
     */
    StatusWith<BSONObj> seedUpsertDocument(const BSONObj& query) const;
    /**
     * seedUpsertDocument() then apply(isInsert); the `_id` (if any) comes first. With a
     * supplied upsert document, that document with the query's `_id` when it has none.
     */
    StatusWith<BSONObj> produceUpsertDocument(const BSONObj& query,
                                              const UpdateApplyParams& params) const;

    /** An upsert inserts `doc` instead of applying the update (upsertSupplied). */
    void setSuppliedUpsertDocument(BSONObj doc) {
        _suppliedUpsert = doc.getOwned();
    }

    /**
     * Compares strings with `collator` (null: binary order) in array filters and in
     * $min/$max/$addToSet/$pull/$pullAll/$push $sort. Not owned; must outlive apply().
     */
    void setCollator(const CollatorInterface* collator);

    bool isReplacement() const {
        return _replacement;
    }
    bool isPipeline() const {
        return _pipeline != nullptr;
    }
    /** True when a path uses the positional `$` (the caller must pass matchedArrayIndex). */
    bool needsMatchDetails() const {
        return _positional;
    }
    /** True when some modifier targets `_id` or a path below it. */
    bool modifiesId() const;
    /** The modifier or replacement document; for a pipeline, {"0": stage, "1": ...}. */
    const BSONObj& spec() const {
        return _spec;
    }

    UpdateDriver();
    ~UpdateDriver();
    UpdateDriver(UpdateDriver&&) noexcept;
    UpdateDriver& operator=(UpdateDriver&&) noexcept;

private:
    Status parseModifiers();
    Status parseArrayFilters(const std::vector<BSONObj>& filters);
    Status checkConflictsAndIdentifiers();
    /** `_spec` (replacement) or the pipeline's output, keeping the `_id` of `pre`. */
    StatusWith<BSONObj> replacementFor(const BSONObj& pre, const UpdateApplyParams& params) const;

    BSONObj _spec;
    bool _replacement = false;
    bool _positional = false;
    std::vector<std::unique_ptr<ModifierOp>> _ops;  // sorted by target path
    // Paths of the objects whose DBRef field ($id/$ref/$db) an op sets (parseModifiers).
    std::vector<std::vector<std::string>> _dbRefParents;
    std::map<std::string, std::unique_ptr<MatchExpression>> _arrayFilters;
    std::vector<BSONObj> _arrayFilterSpecs;
    std::shared_ptr<const UpdatePipelineTransform> _pipeline;
    std::optional<BSONObj> _suppliedUpsert;
};

}  // namespace mongo
