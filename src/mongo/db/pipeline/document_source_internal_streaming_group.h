// $_internalStreamingGroup: a $group whose input arrives ordered so that the values of
// some _id fields ("monotonic id fields") never come back once they change, e.g. a
// $dateTrunc of the time field after a time-ordered $_internalBoundedSort (spec §5.4
// "Streaming group"). The groups of one run of equal monotonic values are complete as
// soon as the values move on, so only that run is held in memory. Output: the same
// groups as $group, in first-seen order (which is also $group's order here).
//
// Serialised as {$_internalStreamingGroup: {_id: ..., <accumulators>..., $monotonicIdFields:
// [<names>]}}; the names are "_id" for a scalar _id, else fields of the _id object.
#pragma once

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/document_source.h"

namespace mongo {

class DocumentSourceInternalStreamingGroup final : public DocumentSource {
public:
    static constexpr StringData kStageName = "$_internalStreamingGroup";
    static constexpr StringData kMonotonicIdFields = "$monotonicIdFields";

    /**
     * `groupSpec` is a $group argument; `monotonicIdFields` as described above. Throws the
     * $group parse errors, and FailedToParse (9) for an empty or unknown monotonic field.
     */
    DocumentSourceInternalStreamingGroup(std::shared_ptr<ExpressionContext> expCtx,
                                         const BSONObj& groupSpec,
                                         std::vector<std::string> monotonicIdFields);

    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return "$_internalStreamingGroup";
    }
    void serialize(BSONArrayBuilder* out) const override;
    void appendExplainStats(BSONObjBuilder* b) const override;

    const std::vector<std::string>& monotonicIdFields() const {
        return _monotonicIdFields;
    }

private:
    using Group = AccumulatedGroup;
    /** The values of the monotonic fields of `key`, as one comparable Value. */
    Value monotonicPart(const Value& key) const;
    /** Reads input until the current run is complete (or the input ends). */
    void fillRun();

    BSONObj _spec;  // the $group argument
    ExprPtr _idExpr;
    std::vector<AccumulationStatement> _accs;
    std::vector<std::string> _monotonicIdFields;
    bool _scalarId = false;  // monotonic field "_id": the whole key

    absl::flat_hash_map<Value, size_t, ValueHash, ValueEq> _index;  // current run only
    std::vector<Group> _groups;
    size_t _pos = 0;
    std::optional<BSONObj> _pending;  // first document of the next run
    bool _eof = false;
    long long _runs = 0;
    size_t _maxGroupsInRun = 0;
};

}  // namespace mongo
