// Placeholder until the ICU collator lands: only the simple collation parses.
#include "mongo/db/query/collation/collator_factory.h"

#include "mongo/idl/error_codes_gen.h"

namespace mongo {

StatusWith<std::unique_ptr<CollatorInterface>> makeCollator(const BSONObj& spec) {
    if (spec["locale"].type() == BSONType::kString && spec["locale"].str() == "simple")
        return std::unique_ptr<CollatorInterface>();
    return Status(ErrorCodes::BadValue, "unsupported collation");
}

StatusWith<std::unique_ptr<CollatorInterface>> makeCollatorFromElement(const BSONElement& e) {
    if (e.type() != BSONType::kObject)
        return Status(ErrorCodes::TypeMismatch, "collation must be an object");
    return makeCollator(e.embeddedObject());
}

}  // namespace mongo
