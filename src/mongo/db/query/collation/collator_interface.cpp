#include "mongo/db/query/collation/collator_interface.h"

#include "mongo/bson/bson_comparator.h"

namespace mongo {

bool CollatorInterface::collatorsMatch(const CollatorInterface* a, const CollatorInterface* b) {
    if (!a || !b)
        return a == b;
    return a == b ||
           compareObjects(a->getSpec(), b->getSpec(), ComparisonRules::kConsiderFieldName) == 0;
}

}  // namespace mongo
