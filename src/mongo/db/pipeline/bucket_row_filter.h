// BucketRowFilter: the part of a time-series eventFilter that can be tested on a bucket's
// block-decoded columns (bucket_unpacker.h) before any measurement is built. From an
// eventFilter it keeps the conjuncts that compare one top-level field of the measurement
// with a number or a date ($eq/$lt/$lte/$gt/$gte); for a bucket it gives, from those columns
// that are scalar, the rows that may match. It only ever removes rows the eventFilter would
// remove too (a superset of the matches is kept), so the caller still applies the eventFilter
// to the rows it builds. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/pipeline/bucket_unpacker.h"

namespace mongo {

class MatchExpression;

class BucketRowFilter {
public:
    /** Null-equivalent (empty()) when no conjunct of `eventFilter` qualifies. */
    static BucketRowFilter make(const MatchExpression& eventFilter, const BucketSpec& spec);

    bool empty() const {
        return _preds.empty();
    }
    /**
     * The rows of the bucket `unpacker` was reset() on that may match, as a bitmap (bit i of
     * word i / 64) of unpacker->numberOfMeasurements() rows; decodes the columns it reads.
     * False when no predicate could be applied (every row may match).
     */
    bool candidates(BucketUnpacker* unpacker, std::vector<uint64_t>* rows) const;

private:
    enum class Op { kEq, kLt, kLte, kGt, kGte };
    struct Pred {
        std::string field;
        Op op;
        bool isDate;     // compares dates (millis), else numbers
        double number;   // !isDate
        int64_t millis;  // isDate
    };
    void addConjuncts(const MatchExpression& e, const BucketSpec& spec);

    std::vector<Pred> _preds;
};

}  // namespace mongo
