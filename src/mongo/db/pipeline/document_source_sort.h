// $sort: orders all input documents by a sort pattern (optionally keeping only the
// first `limit`, after a following $limit was absorbed). Holds at most
// ExpressionContext::maxMemoryBytes (100 MiB) unless allowDiskUse, in which case it
// sorts runs and merges them from disk (sorter.h).
#pragma once

#include <memory>
#include <vector>

#include "mongo/db/exec/sorter.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/query/sort_pattern.h"

namespace mongo {

class DocumentSourceSort final : public DocumentSource {
public:
    /** Throws 15973 (not an object), 15976 (empty), and SortPattern's codes. */
    DocumentSourceSort(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec,
                       long long limit = 0);

    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return "$sort";
    }
    void serialize(BSONArrayBuilder* out) const override;
    /** {$sort: {sortKey: <spec>, limit?: <n>}}: one stage, as upstream's explain. */
    void serializeExplained(BSONArrayBuilder* out) const override;
    StageList::iterator optimizeAt(StageList::iterator it, StageList* container) override;

    const SortPattern& getPattern() const {
        return *_pattern;
    }
    const BSONObj& getSpec() const {
        return _spec;
    }
    long long getLimit() const {
        return _limit;
    }
    void setLimit(long long l) {
        _limit = l;
    }
    bool usedDisk() const {
        return _usedDisk;
    }

private:
    /** The sort key of `doc`; a textScore part is the source's text score (40218 if none). */
    BSONObj _sortKey(const BSONObj& doc, const StringComparator* strings) const;
    struct Entry {
        BSONObj key;
        BSONObj doc;
        long long seq;
    };
    void populate();

    BSONObj _spec;
    std::shared_ptr<SortPattern> _pattern;
    std::optional<size_t> _textScorePart;  // the first {$meta: "textScore"} part, if any
    long long _limit = 0;                  // 0: none
    bool _populated = false;
    bool _usedDisk = false;
    std::vector<Entry> _sorted;  // top-k ($limit absorbed)
    size_t _pos = 0;
    std::unique_ptr<ExternalSorter> _sorter;  // full sorts
};

}  // namespace mongo
