#include "mongo/db/pipeline/document_source_limit.h"

#include <algorithm>
#include <limits>

#include "mongo/util/assert_util.h"

namespace mongo {

void DocumentSourceLimit::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    b.append("$limit", _limit);
}

StageList::iterator DocumentSourceLimit::optimizeAt(StageList::iterator it, StageList* container) {
    auto next = std::next(it);
    if (next != container->end())
        if (auto* l = dynamic_cast<DocumentSourceLimit*>(next->get())) {
            _limit = std::min(_limit, l->getLimit());
            container->erase(next);
            return it;
        }
    return next;
}

void DocumentSourceSkip::serialize(BSONArrayBuilder* out) const {
    BSONObjBuilder b(out->subobjStart());
    b.append("$skip", _skip);
}

StageList::iterator DocumentSourceSkip::optimizeAt(StageList::iterator it, StageList* container) {
    auto next = std::next(it);
    if (next != container->end()) {
        if (auto* s = dynamic_cast<DocumentSourceSkip*>(next->get())) {
            long long sum;
            if (!__builtin_add_overflow(_skip, s->getSkip(), &sum)) {
                _skip = sum;
                container->erase(next);
                return it;
            }
        }
        // {$skip: s}, {$limit: l} -> {$limit: s + l}, {$skip: s}, as upstream: the limit moves
        // towards the source (into the bucket unpacking or the find layer).
        if (auto* l = dynamic_cast<DocumentSourceLimit*>(next->get())) {
            long long sum;
            if (!__builtin_add_overflow(_skip, l->getLimit(), &sum)) {
                l->setLimit(sum);
                std::iter_swap(it, next);
                // Re-optimise from the stage before the moved limit, which may absorb it.
                return it == container->begin() ? it : std::prev(it);
            }
        }
    }
    return next;
}

namespace {

long long parsePositiveCount(const BSONElement& e, StringData stage, bool allowZero) {
    uassert(stage == "$limit" ? 15957 : 15972,
            "the " + std::string(stage.substr(1)) + " must be specified as a number", e.isNumber());
    Value v(e);
    uassert(stage == "$limit" ? 15958 : 5107200,
            "invalid argument to " + std::string(stage) +
                " stage: Cannot represent as a 64-bit "
                "integer: " +
                std::string(stage) + ": " + v.toString(),
            v.integral64Bit());
    long long n = e.numberLong();
    if (stage == "$limit")
        uassert(15958, "the limit must be positive", n > 0);
    else
        uassert(15956,
                "invalid argument to $skip stage: Expected a non-negative number in: "
                "$skip: " +
                    v.toString(),
                n >= 0 || allowZero);
    return n;
}

const bool kRegistered = [] {
    registerDocumentSource(
        "$limit", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceLimit>(
                expCtx, parsePositiveCount(e, "$limit", false)));
            return out;
        });
    registerDocumentSource(
        "$skip", [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceSkip>(
                expCtx, parsePositiveCount(e, "$skip", false)));
            return out;
        });
    return true;
}();

}  // namespace
}  // namespace mongo
