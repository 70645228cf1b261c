#include "mongo/db/pipeline/expression_memory.h"

#include "mongo/util/assert_util.h"

namespace mongo {

void uassertExpressionMemory(StringData op, size_t bytes, size_t limit) {
    uassert(ErrorCodes::ExceededMemoryLimit,
            std::string(op) + " needs too much memory (at least " + std::to_string(bytes) +
                " bytes) and cannot spill to disk. Memory limit: " + std::to_string(limit) +
                " bytes",
            bytes <= limit);
}

void uassertStringFits(size_t bytes) {
    uassert(16493,
            "Tried to create string longer than " + std::to_string(BSONObjMaxUserSize >> 20) + "MB",
            bytes < static_cast<size_t>(BSONObjMaxUserSize) - 32);
}

void uassertNestingFits(const Value& v) {
    if (!v.isObject() && !v.isArray())
        return;
    uassert(ErrorCodes::Overflow,
            "cannot convert document to BSON because it exceeds the limit of " +
                std::to_string(kMaxValueNestingDepth) + " levels of nesting",
            bsonNestingDepth(v.getDocument(), kMaxValueNestingDepth - 1) < kMaxValueNestingDepth);
}

BoundedArrayBuilder::BoundedArrayBuilder(StringData op, size_t limitBytes)
    : _op(op), _limit(limitBytes), _arr(_holder.subarrayStart("")) {}

void BoundedArrayBuilder::append(const Value& v, bool missingAsNull) {
    if (v.missing() && !missingAsNull)
        return;
    // Element: type byte + decimal index + NUL + value.
    size_t next = static_cast<size_t>(_arr.len()) + 1 + std::to_string(_count).size() + 1 +
                  (v.missing() ? 0 : v.byteSize() - 1);
    uassertExpressionMemory(_op, next, _limit);
    uassertNestingFits(v);
    if (v.missing())
        _arr.append(BSONNULL);
    else
        v.addToBsonArray(&_arr);
    ++_count;
}

Value BoundedArrayBuilder::done() {
    _arr.done();
    return Value::adoptFirstElement(_holder.obj());
}

}  // namespace mongo
