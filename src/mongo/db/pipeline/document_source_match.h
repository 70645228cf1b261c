// $match: filters documents with a match expression (the find filter language,
// including $expr).
#pragma once

#include <memory>

#include "mongo/db/matcher/expression.h"
#include "mongo/db/pipeline/document_source.h"

namespace mongo {

class DocumentSourceMatch final : public DocumentSource {
public:
    /** Throws the filter's parse error (BadValue 2 ...). 15959 when `filter` is not an object. */
    DocumentSourceMatch(std::shared_ptr<ExpressionContext> expCtx, BSONObj filter);

    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return "$match";
    }
    void serialize(BSONArrayBuilder* out) const override;
    StageList::iterator optimizeAt(StageList::iterator it, StageList* container) override;

    const BSONObj& getQuery() const {
        return _filter;
    }
    const std::shared_ptr<MatchExpression>& getMatcher() const {
        return _matcher;
    }
    /** True when the filter reads only top-level fields none of which is in `modified`. */
    bool dependsOnlyOutside(const std::vector<std::string>& modified, bool* all) const;
    /**
     * The filter's conjuncts (top-level predicates, through $and and one-child $or) that read
     * only top-level fields outside `modified`, as `independent`, and the others as
     * `dependent`; false (both unset) unless each part has at least one conjunct.
     */
    bool splitByIndependence(const std::vector<std::string>& modified, BSONObj* independent,
                             BSONObj* dependent) const;

    /**
     * For a stage at `it` that changes only the top-level fields `modified` and keeps every
     * document otherwise: moves the following $match, or the part of it that reads none of
     * those fields, before that stage. Returns where optimisation continues (std::next(it)
     * when nothing moved).
     */
    static StageList::iterator moveBefore(StageList::iterator it, StageList* container,
                                          const std::vector<std::string>& modified);

private:
    BSONObj _filter;
    std::shared_ptr<MatchExpression> _matcher;
};

}  // namespace mongo
