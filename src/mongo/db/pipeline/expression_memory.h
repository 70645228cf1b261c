// Limits on what one expression evaluation may build. A string value stops short of
// 16 MB (16493, in Value); an array an operator builds is counted element by element
// as it grows and fails with ExceededMemoryLimit 146 before it passes its limit, so no
// allocation is proportional to a user-chosen number without being counted first.
#pragma once

#include <cstddef>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/value.h"

namespace mongo {

/** The limit of an array built by one operator that has no server parameter of its own. */
constexpr size_t kExpressionArrayMaxBytes = 100 * 1024 * 1024;

/** Throws ExceededMemoryLimit 146 "<op> needs too much memory..." when `bytes` > `limit`. */
void uassertExpressionMemory(StringData op, size_t bytes, size_t limit);

/** Throws 16493 (upstream's string limit) when a string of `bytes` could not be a value. */
void uassertStringFits(size_t bytes);

/** The deepest a value an expression builds may nest objects and arrays (upstream's 200). */
constexpr int kMaxValueNestingDepth = 200;

/**
 * Throws Overflow 15 when `v` (an object or array about to be nested one level deeper in a
 * new object or array) would make a value deeper than kMaxValueNestingDepth. Costs a scan of
 * `v`, no more than copying it.
 */
void uassertNestingFits(const Value& v);

/**
 * Builds an array Value element by element straight into BSON, so elements computed one at
 * a time are freed as they are appended. Throws ExceededMemoryLimit 146 (naming `op`) when
 * the array would pass `limitBytes`.
 */
class BoundedArrayBuilder {
public:
    explicit BoundedArrayBuilder(StringData op, size_t limitBytes = kExpressionArrayMaxBytes);
    BoundedArrayBuilder(const BoundedArrayBuilder&) = delete;
    BoundedArrayBuilder& operator=(const BoundedArrayBuilder&) = delete;

    /** Appends `v`; a missing value is appended as null when `missingAsNull`, else skipped. */
    void append(const Value& v, bool missingAsNull = false);
    size_t count() const {
        return _count;
    }
    /** The array; the builder must not be used afterwards. */
    Value done();

private:
    std::string _op;
    size_t _limit;
    size_t _count = 0;
    BSONObjBuilder _holder;
    BSONArrayBuilder _arr;
};

}  // namespace mongo
