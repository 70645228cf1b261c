// CollatorInterface: a collation in force for an operation, a collection (its
// default collation), a view or an index. Null everywhere means the simple
// (binary) collation; {locale: "simple"} parses to null. Comparisons take the
// collator as a `const StringComparator*` (bson/bson_comparator.h).
#pragma once

#include <memory>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/string_comparator.h"

namespace mongo {

class CollatorInterface : public StringComparator {
public:
    /**
     * The full, normalised spec, as listCollections, listIndexes and explain show it:
     * {locale, caseLevel, caseFirst, strength, numericOrdering, alternate, maxVariable,
     * normalization, backwards, version}.
     */
    const BSONObj& getSpec() const {
        return _spec;
    }

    virtual std::unique_ptr<CollatorInterface> clone() const = 0;

    /** True when both are simple (null) or both have equal specs. */
    static bool collatorsMatch(const CollatorInterface* a, const CollatorInterface* b);

    /** A copy of `c`, or null when `c` is null. */
    static std::unique_ptr<CollatorInterface> cloneCollator(const CollatorInterface* c) {
        return c ? c->clone() : nullptr;
    }

protected:
    explicit CollatorInterface(BSONObj spec) : _spec(spec.getOwned()) {}

private:
    BSONObj _spec;
};

}  // namespace mongo
