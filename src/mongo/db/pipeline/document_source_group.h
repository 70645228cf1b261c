// $group: groups documents by the value of the _id expression and computes the
// accumulators of each group. Groups live in a hash map keyed by the canonical
// value hash of the key (1, 1.0 and NumberLong(1) share a group). Groups are
// returned in first-seen order. Memory beyond internalDocumentSourceGroupMaxMemoryBytes
// (and ExpressionContext::maxMemoryBytes) fails with 292 unless allowDiskUse. With it,
// when every accumulator has a partial state (Accumulator::canSpill), the groups in
// memory are written as sorted partial groups {k: <key>, p: [<partials>]} to an
// external sort and memory is emptied; at the end of the input the partials of each
// key are merged in input order and groups come out in key order. Otherwise documents
// of groups not yet in memory go to an external sort by group key and are aggregated
// one group at a time when the input ends (groups already in memory keep accumulating).
// Directly after $_internalUnpackBucket, an eligible spec is computed bucket by bucket
// over the decoded columns instead (group_over_buckets.h); the output is the same.
#pragma once

#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "mongo/db/exec/sorter.h"
#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/document_source.h"

namespace mongo {

class DocumentSourceGroup final : public DocumentSource {
public:
    /** Throws 15947 (not an object), 15955 (no _id), and accumulator parse errors. */
    DocumentSourceGroup(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec);
    /** For stages that expand into a $group ($count, $sortByCount, $bucket). */
    DocumentSourceGroup(std::shared_ptr<ExpressionContext> expCtx, ExprPtr idExpr,
                        std::vector<AccumulationStatement> accs, BSONObj spec);

    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return "$group";
    }
    void serialize(BSONArrayBuilder* out) const override;
    void appendExplainStats(BSONObjBuilder* b) const override;

    /** The $group argument; null for a group expanded from $bucket. */
    const BSONObj* groupSpec() const {
        return _specIsGroupSpec ? &_spec : nullptr;
    }

private:
    using Group = AccumulatedGroup;
    void populate();
    /** The block path over time-series buckets; false when not eligible. */
    bool populateFromBuckets();
    /** The next group built from the spilled documents, or nullopt. */
    std::optional<BSONObj> nextSpilledGroup();
    /** Writes the groups in memory as partial groups to _partialSpill and clears them. */
    void spillPartialGroups();
    /** The next group merged from the spilled partial groups, or nullopt. */
    std::optional<BSONObj> nextMergedGroup();

    BSONObj _spec;
    bool _specIsGroupSpec = false;  // _spec is the $group argument (not $bucket's)
    ExprPtr _idExpr;
    std::vector<AccumulationStatement> _accs;
    bool _populated = false;
    absl::flat_hash_map<Value, size_t, ValueHash, ValueEq> _index;
    std::vector<bool> _inputCannotFail;  // per accumulator: its input is a field path
    std::vector<Group> _groups;
    size_t _pos = 0;
    std::unique_ptr<ExternalSorter> _spill;  // whole documents (fallback)
    std::optional<BSONObj> _pendingSpilled;
    std::unique_ptr<ExternalSorter> _partialSpill;  // partial groups
    std::optional<BSONObj> _pendingPartial;
    long long _spills = 0;  // times the groups in memory were written out
};

/**
 * The field name of a one-field literal-object _id ({_id: {a: "$a"}}), whose missing value
 * upstream groups as null (SERVER-21992; with several fields a missing one stays missing);
 * empty for any other _id. Every $group implementation keys its groups through these two.
 */
std::vector<std::string> objectIdFieldNames(const BSONObj& groupSpec);

/** `key` with each of `names` it lacks present as null, in the _id's order. */
Value withNullForMissingFields(const Value& key, const std::vector<std::string>& names);

}  // namespace mongo
